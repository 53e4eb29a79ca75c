// What a change to the chart's words does to agents' free text (a proposal's
// `category: "travel"`, categories.ts): a new or renamed category whose name
// is another category's synonym takes that word over (an exact name wins), and
// a synonym two categories share is refused as ambiguous unless the money's
// sign tells them apart. Neither is wrong, so neither is refused: the person
// is told, in the command's output and on the Chart screen.
import { foldName } from '../core/text';
import { synonymsOf, type ChartRow } from './categories';

const label = (r: Pick<ChartRow, 'code' | 'name'>) => `${r.code} ${r.name}`;

/** Whether a row's money could go to both (a revenue and an expense category never share a sign). */
const shareASign = (a: Pick<ChartRow, 'type'>, b: Pick<ChartRow, 'type'>) => !((a.type === 'revenue' && b.type === 'expense') || (a.type === 'expense' && b.type === 'revenue'));

/** A revenue and an expense category share a word by the money's sign: in to the revenue, out to the expense. */
const bySign = (a: Pick<ChartRow, 'code' | 'name' | 'type'>, b: Pick<ChartRow, 'code' | 'name' | 'type'>) =>
  a.type === 'revenue' ? `in to ${label(a)}, out to ${label(b)}` : `in to ${label(b)}, out to ${label(a)}`;

/**
 * The warnings for a category's words as they now are: its name (when `named`: added or renamed) as another
 * category's synonym, and each of `added` (synonyms new to it) as another category's synonym too.
 */
export function wordWarnings(chart: readonly ChartRow[], category: Pick<ChartRow, 'seq' | 'code' | 'name' | 'type'>, named: boolean, added: readonly string[]): string[] {
  const others = chart.filter((r) => r.seq !== category.seq && !r.archived_at);
  const holding = (word: string) => others.filter((r) => synonymsOf(r).some((s) => foldName(s) === foldName(word)));
  const out: string[] = [];
  const word = (w: string) => `agents' "${foldName(w)}"`;
  for (const r of named ? holding(category.name) : []) {
    out.push(
      shareASign(r, category)
        ? `"${category.name}" is also a synonym of ${label(r)}: ${word(category.name)} will now mean ${label(category)} (an exact name wins over a synonym).`
        : `"${category.name}" is also a synonym of ${label(r)}: ${word(category.name)} goes by the money's sign (${bySign(r, category)}).`,
    );
  }
  for (const w of added) {
    for (const r of holding(w)) {
      out.push(
        shareASign(r, category)
          ? `"${w}" is also a synonym of ${label(r)}: ${word(w)} will be refused as naming both (they must send a code).`
          : `"${w}" is also a synonym of ${label(r)}: ${word(w)} goes by the money's sign (${bySign(r, category)}).`,
      );
    }
  }
  return out;
}

/** Refuses synonyms that are another category's name: that name always wins, so the synonym would never answer. */
export function synonymNamingAnother(chart: readonly ChartRow[], seq: number, synonyms: readonly string[]): ChartRow | undefined {
  return chart.find((c) => c.seq !== seq && synonyms.some((s) => foldName(s) === foldName(c.name)));
}

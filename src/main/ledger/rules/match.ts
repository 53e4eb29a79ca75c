// Which rule takes each uncategorized row: one pass over the rows, each
// row's candidates worked out once per description shape, then the first
// whose account and direction fit (runs.ts writes what this finds).
import type { EntryAggregates, BulkRow } from '../totals/bulk';
import type { Ledger } from '../core/sqlite/open';
import type { ResolvedCategory } from '../chart/categories';
import { categoryLine, suspenseLine, type LineInput } from '../transactions/lines';
import { descriptionShape } from '../transactions/shape';
import { shareOut } from '../transactions/split';
import { foldRuleText, type RuleRow } from './rules';
import { statusOf } from '../transactions/status';
import { linesBase } from '../rates/valuer';

/** A rule as a run uses it, with what the run did by it. */
export interface Compiled {
  row: RuleRow;
  index: number;
  text: string;
  /** 1 inflow, -1 outflow, 0 either. */
  sign: number;
  accountSeq: number | null;
  /** What the rule writes: null when its category (or one of its split's) left the chart (the rule is skipped). */
  category: ResolvedCategory | null;
  /** A split's categories and percents; null for one category. */
  shares: { category: ResolvedCategory; percent: number }[] | null;
  /** Its lines with tax, when a category it writes has a default tax code (issue 28): by amount and date. */
  taxLines?: (amountMinor: number, date: string) => Promise<LineInput[]>;
  described: string;
  evidence: string;
  suggested: number;
  applied: number;
  decided: number;
}

/** Every row a rule took, in the order the rows were read: parallel arrays. */
export interface Hits {
  seq: number[];
  id: string[];
  rule: number[];
}

/** The applied rows' totals as they were and as they will be (kept set-wise by a big run). */
export interface Totals {
  before: EntryAggregates;
  after: EntryAggregates;
}

/** The lines a rule gives a row of this amount: one category line, or its shares (a share too small for a minor unit left out). */
export function ruleLines(rule: Compiled, amountMinor: number): LineInput[] {
  if (!rule.shares) return [categoryLine(rule.category!.seq, amountMinor)];
  const parts = shareOut(
    amountMinor,
    rule.shares.map((s) => s.percent),
  );
  return rule.shares.flatMap((s, i) => (parts[i] === 0 ? [] : [categoryLine(s.category.seq, parts[i])]));
}

/** The lines applying a rule writes: taxed at its categories' default codes, or its plain lines. */
export const appliedLines = async (rule: Compiled, amountMinor: number, date: string): Promise<LineInput[]> =>
  (await rule.taxLines?.(amountMinor, date)) ?? ruleLines(rule, amountMinor);

/**
 * The rules whose text a description matches, in order, before account and
 * direction are looked at. Worked out once per shape: a text without digits or
 * "#" is in a description exactly when it is in its shape, so reference
 * numbers do not make another case; texts with digits are searched per row.
 */
function candidatesBy(rules: Compiled[]): (folded: string, shape: string) => Compiled[] {
  const usable = rules.filter((r) => r.category);
  const perRow = usable.filter((r) => r.row.match_kind === 'contains' && /[0-9#]/.test(r.text));
  const byShape = usable.filter((r) => !perRow.includes(r));
  // One expression tells whether any of those texts is in a row at all: one search instead of one per rule.
  const anyPerRow = perRow.length ? new RegExp(perRow.map((r) => r.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')) : null;
  const cache = new Map<string, Compiled[]>();
  return (folded, shape) => {
    let found = cache.get(shape);
    if (!found) {
      if (cache.size >= 100_000) cache.clear(); // bounded: a file of all-different shapes gains nothing from it
      found = byShape.filter((r) => (r.row.match_kind === 'shape' ? r.text === shape : shape.includes(r.text)));
      cache.set(shape, found);
    }
    if (!anyPerRow?.test(folded)) return found;
    const more = perRow.filter((r) => folded.includes(r.text));
    return more.length ? [...found, ...more].sort((a, b) => a.index - b.index) : found;
  };
}

type MatchedRow = [number, string, number, number, string | null, string, string, string, number, number, number | null];

/** An applied row and its lines as they are and as they will be, for the totals of a big run (apply()); `row` is one object, refilled: add() keeps none. */
async function countApplied(row: BulkRow, r: MatchedRow, rule: Compiled, totals: Totals): Promise<void> {
  countLines(row, r, rule, totals, await appliedLines(rule, r[2], r[5]));
}

/** countApplied with the rule's lines for the row known. */
function countLines(row: BulkRow, r: MatchedRow, rule: Compiled, totals: Totals, applied: LineInput[]): void {
  const [, description, amount, account, , date, source, currency, reconciled, receiptNeeded, base] = r;
  Object.assign(row, { accountSeq: account, amountMinor: amount, baseMinor: base, description, date, source, currency, reconciled, status: 'uncategorized' });
  totals.before.rows.add(row);
  const line = {
    orgSeq: row.orgSeq,
    currency,
    date,
    kind: 'suspense',
    categorySeq: null as number | null,
    amountMinor: suspenseLine(amount).amountMinor,
    baseMinor: base === null ? null : -base,
  };
  totals.before.lines.add(line);
  row.status = statusOf({ categorized: true, reconciled, receipt_needed: receiptNeeded, status: 'uncategorized' });
  totals.after.rows.add(row);
  const bases = linesBase(
    applied.map((l) => l.amountMinor),
    amount,
    base,
  );
  applied.forEach((l, i) => totals.after.lines.add({ ...line, kind: l.kind, categorySeq: l.categorySeq ?? null, amountMinor: l.amountMinor, baseMinor: bases[i] }));
}

/** One pass over the uncategorized rows (of open accounts): each goes to its first matching rule. */
export async function match(ledger: Ledger, orgSeq: number, rules: Compiled[], batchSeq: number | undefined, hits: Hits, totals: Totals): Promise<number> {
  const candidates = candidatesBy(rules);
  // Only the columns the run needs: ids for suggestions, the totals' keys for applied rows.
  const applying = rules.some((r) => r.row.mode === 'apply');
  const suggesting = rules.some((r) => r.row.mode === 'suggest');
  const columns = `t.seq, t.description, t.amount_minor, t.account_seq, ${suggesting ? 't.id' : 'NULL'}${applying ? ', t.date, t.source, t.currency, t.reconciled, t.receipt_needed, t.base_minor' : ''}`;
  const where = batchSeq === undefined ? '' : ' AND t.import_batch_seq = ?';
  const rows = ledger.stmt(
    `SELECT ${columns} FROM transactions t JOIN accounts a ON a.seq = t.account_seq
       WHERE t.org_seq = ? AND t.status = 'uncategorized' AND a.closed_at IS NULL${where}`,
  );
  let n = 0;
  const values = [orgSeq, ...(batchSeq === undefined ? [] : [batchSeq])];
  const row: BulkRow = { orgSeq, accountSeq: 0, date: '', source: '', currency: '', amountMinor: 0, baseMinor: 0, description: '', status: 'uncategorized', reconciled: 0 };
  for await (const chunk of rows.iterateRaw(...values) as AsyncIterable<MatchedRow[]>) {
    for (const r of chunk) {
      n++;
      const [seq, description, amount, account] = r;
      const folded = foldRuleText(description);
      let best: Compiled | undefined;
      for (const rule of candidates(folded, descriptionShape(folded))) {
        if ((rule.accountSeq === null || rule.accountSeq === account) && (rule.sign === 0 || (amount < 0 ? -1 : 1) === rule.sign)) {
          best = rule;
          break;
        }
      }
      if (!best) continue;
      hits.seq.push(seq);
      hits.id.push(r[4] ?? '');
      hits.rule.push(best.index);
      if (best.row.mode === 'apply') {
        // A plain rule's lines are known at once; only a taxed one may read a rate.
        if (best.taxLines) await countApplied(row, r, best, totals);
        else countLines(row, r, best, totals, ruleLines(best, r[2]));
      }
    }
  }
  return n;
}

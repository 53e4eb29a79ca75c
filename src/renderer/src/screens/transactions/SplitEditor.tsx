// Splitting a row into its parts (category, part, memo) in the register. Parts
// are typed as positive figures, parts of the row, and read as `tx split` and
// agents' proposals are (shared/split-parts.ts); a line going against the row
// (a refund inside a payment) is typed with a minus and marked. What is left
// to assign shows live and must be zero to save; "=" in an amount (or the
// button) puts it on the last line, never as a line against the row: that
// the person types. Each line may take a tax code (default: its category's),
// its part then gross.
import { useState, type KeyboardEvent } from 'react';
import type { Category } from '../../../../main/ledger/chart/categories';
import type { RegisterRow } from '../../../../main/ledger/transactions/register';
import type { EntryLine } from '../../../../main/ledger/transactions/detail';
import { minorDigits, readTypedAmount, writeAmount } from '../../../../shared/amounts';
import { againstWords, goesAgainst, partOf, readParts, remainderFigure, rowKind } from '../../../../shared/split-parts';
import { CategoryOptions, Notice, messageOf } from '../../components';
import { desk } from '../../desk';
import { withCorrection } from '../../correction';
import { useOrg } from '../../org';
import { useLoad } from '../../hooks';
import { doneText } from '../../can';

interface Draft {
  categoryCode: string;
  amount: string;
  memo: string;
  /** A tax code, '' for none, or DEFAULT_TAX: the category's. */
  taxCode: string;
}

const DEFAULT_TAX = '*';
const EMPTY: Draft = { categoryCode: '', amount: '', memo: '', taxCode: DEFAULT_TAX };
type TaxCode = { code: string; rate: number };

/** The drafts an editor opens with: a split's parts as they are, else the whole row on its category and an empty line. */
function startDrafts(rowMinor: number, lines: EntryLine[], scale: number, write: (minor: number) => string): Draft[] {
  // A part's gross: its category line and the tax line that follows it (issue 28).
  const gross = (i: number) => Math.round(lines[i].amount * scale) + (lines[i + 1]?.kind === 'tax' ? Math.round(lines[i + 1].amount * scale) : 0);
  const parts = lines.flatMap((l, i) => (l.kind === 'category' ? [{ l, i }] : []));
  if (parts.length > 1) return parts.map(({ l, i }) => ({ ...EMPTY, categoryCode: l.categoryCode ?? '', amount: write(partOf(rowMinor, gross(i))), memo: l.memo ?? '' }));
  return [{ ...EMPTY, categoryCode: parts[0]?.l.categoryCode ?? '', amount: write(Math.abs(rowMinor)) }, EMPTY];
}

export function SplitEditor({
  orgId,
  row,
  lines,
  categories,
  onDone,
}: {
  orgId: string;
  row: RegisterRow;
  lines: EntryLine[];
  categories: Category[];
  onDone: (message?: string) => void;
}) {
  const { decimalMark } = useOrg();
  const taxCodes = useLoad(() => desk.listTaxCodes({ orgId }), [orgId]).data?.filter((c) => !c.archived) ?? [];
  const scale = 10 ** minorDigits(row.currency);
  const rowMinor = Math.round(row.amount * scale);
  const kind = rowKind(rowMinor);
  const write = (minor: number) => writeAmount(minor, row.currency, decimalMark);
  const [drafts, setDrafts] = useState<Draft[]>(() => startDrafts(rowMinor, lines, scale, write));
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const reads = drafts.map((d) => (d.amount.trim() ? readTypedAmount(d.amount, row.currency, decimalMark) : null));
  const unreadable = reads.some((r) => r && !r.ok);
  const figureOf = (i: number) => (reads[i]?.ok ? (reads[i] as { minor: number }).minor : null);
  const typed = drafts.flatMap((_, i) => (figureOf(i) === null ? [] : [i]));
  const reading = readParts(
    rowMinor,
    typed.map((i) => figureOf(i)!),
  );
  const against = new Set(typed.filter((i, k) => goesAgainst(rowMinor, reading.shares[k])));
  const set = (i: number, change: Partial<Draft>) => (setNote(undefined), setDrafts((ds) => ds.map((d, k) => (k === i ? { ...d, ...change } : d))));
  const remainderToLast = () => {
    const last = drafts.length - 1;
    const r = remainderFigure(
      rowMinor,
      typed.filter((i) => i !== last).map((i) => figureOf(i)!),
    );
    if ('figure' in r) set(last, { amount: write(r.figure) });
    else if ('over' in r)
      setNote(
        `The other lines are over the ${kind} by ${write(r.over)}: the last line would be ${againstWords(rowMinor, write(r.over))}. Type ${write(-r.over)} on it if that is what it is.`,
      );
    else setNote(`The other lines already add up to the ${kind}: remove the last line.`);
  };
  const onAmountKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== '=') return;
    e.preventDefault();
    remainderToLast();
  };
  async function save() {
    setError(undefined);
    try {
      const result = await withCorrection((c) =>
        desk.splitTransaction({
          orgId,
          id: row.id,
          lines: drafts.map((d) => ({ categoryCode: d.categoryCode, amount: d.amount, memo: d.memo || undefined, taxCode: d.taxCode === DEFAULT_TAX ? undefined : d.taxCode })),
          ...c,
        }),
      );
      onDone(doneText(result, `Split ${row.description} into ${drafts.length} lines.`));
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <form className="split-editor" aria-label="Split the row" onSubmit={(e) => (e.preventDefault(), void save())}>
      <p className="hint">
        Parts of the {kind} of {write(Math.abs(rowMinor))} {row.currency}, each as a positive figure. A line going the other way (a {rowMinor < 0 ? 'refund' : 'charge'} inside it)
        is typed with a minus.
      </p>
      <table className="grid">
        <thead>
          <tr>
            <th>Category</th>
            <th className="num">Part</th>
            <th>Memo</th>
            {taxCodes.length > 0 && <th>Tax</th>}
            <th />
          </tr>
        </thead>
        <tbody>
          {drafts.map((d, i) => (
            <PartRow
              key={i}
              i={i}
              draft={d}
              read={reads[i]}
              against={against.has(i) ? againstWords(rowMinor, write(-partOf(rowMinor, reading.shares[typed.indexOf(i)]))) : null}
              categories={categories}
              taxCodes={taxCodes}
              set={(change) => set(i, change)}
              onAmountKey={onAmountKey}
              onRemove={drafts.length > 2 ? () => setDrafts((ds) => ds.filter((_, k) => k !== i)) : undefined}
            />
          ))}
        </tbody>
      </table>
      <Status
        rowMinor={rowMinor}
        left={reading.left}
        onlyAgainst={reading.onlyAgainst?.map((k) => typed[k] + 1) ?? null}
        against={against.size}
        write={write}
        currency={row.currency}
      />
      {note && <p className="reads refused">{note}</p>}
      <p>
        <button type="button" onClick={() => setDrafts((ds) => [...ds, EMPTY])}>
          Add a line
        </button>{' '}
        <button type="button" onClick={remainderToLast} disabled={reading.left === 0} title="Or press = in an amount">
          Remainder to the last line (=)
        </button>{' '}
        <button type="submit" disabled={reading.left !== 0 || unreadable}>
          Save split
        </button>{' '}
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </p>
      {error && <Notice kind="error">{error}</Notice>}
    </form>
  );
}

/** Whether the parts add up to the row, live; lines that add up only read against a payment are named. */
function Status(props: { rowMinor: number; left: number; onlyAgainst: number[] | null; against: number; write: (minor: number) => string; currency: string }) {
  const { rowMinor, left, onlyAgainst, against, write, currency } = props;
  const kind = rowKind(rowMinor);
  if (left === 0)
    return (
      <p role="status" className="muted">
        The lines add up to the {kind}.{against > 0 && ` ${against === 1 ? 'One line goes' : `${against} lines go`} against it (marked).`}
      </p>
    );
  return (
    <p role="status" className="reads refused">
      {left > 0 ? `Left to assign: ${write(left)} ${currency}` : `Over the ${kind} by ${write(-left)} ${currency}`} (must be zero to save).
      {onlyAgainst && ` Line ${onlyAgainst.join(' and ')} would have to be a refund for these to add up: type the parts of a payment as positive figures.`}
    </p>
  );
}

function PartRow(props: {
  i: number;
  draft: Draft;
  read: ReturnType<typeof readTypedAmount> | null;
  /** The line goes against the row: in words. */
  against: string | null;
  categories: Category[];
  taxCodes: TaxCode[];
  set: (change: Partial<Draft>) => void;
  onAmountKey: (e: KeyboardEvent<HTMLInputElement>) => void;
  onRemove?: () => void;
}) {
  const { i, draft: d, read, against, set } = props;
  const n = i + 1;
  return (
    <tr>
      <td>
        <select aria-label={`Line ${n} category`} required value={d.categoryCode} onChange={(e) => set({ categoryCode: e.target.value })}>
          <option value="">Choose…</option>
          <CategoryOptions categories={props.categories} keep={d.categoryCode} />
        </select>
      </td>
      <td className="num">
        <input
          aria-label={`Line ${n} amount`}
          inputMode="decimal"
          required
          value={d.amount}
          aria-invalid={read?.ok === false || undefined}
          title={read?.ok === false ? read.message : undefined}
          onKeyDown={props.onAmountKey}
          onChange={(e) => set({ amount: e.target.value })}
        />
        {against && (
          <div role="note" aria-label={`Line ${n} goes against the row`}>
            <span className="badge against">against the row: {against}</span>
          </div>
        )}
      </td>
      <td>
        <input aria-label={`Line ${n} memo`} maxLength={500} value={d.memo} onChange={(e) => set({ memo: e.target.value })} />
      </td>
      {props.taxCodes.length > 0 && (
        <td>
          <select aria-label={`Line ${n} tax code`} value={d.taxCode} onChange={(e) => set({ taxCode: e.target.value })}>
            <option value={DEFAULT_TAX}>The category&apos;s</option>
            <option value="">No tax</option>
            {props.taxCodes.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} ({c.rate}%)
              </option>
            ))}
          </select>
        </td>
      )}
      <td>
        {props.onRemove && (
          <button type="button" aria-label={`Remove line ${n}`} onClick={props.onRemove}>
            ×
          </button>
        )}
      </td>
    </tr>
  );
}

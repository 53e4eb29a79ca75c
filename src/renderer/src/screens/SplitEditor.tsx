// Splitting a row into lines (category, amount, memo) in the register. The
// remaining difference shows live and must be zero to save; "=" in an amount
// (or the button) puts what remains on the last line. Amounts are typed in
// the row's sign and read by the ledger's own reader; each line may take a
// tax code (default: its category's), its amount then gross.
import { useState, type KeyboardEvent } from 'react';
import type { Category } from '../../../main/ledger/chart/categories';
import type { RegisterRow } from '../../../main/ledger/transactions/register';
import type { EntryLine } from '../../../main/ledger/transactions/detail';
import { minorDigits, readTypedAmount, writeAmount } from '../../../shared/amounts';
import { CategoryOptions, Notice, messageOf } from '../components';
import { desk } from '../desk';
import { useOrg } from '../org';
import { useLoad } from '../hooks';

interface Draft {
  categoryCode: string;
  amount: string;
  memo: string;
  /** A tax code, '' for none, or DEFAULT_TAX: the category's. */
  taxCode: string;
}

const DEFAULT_TAX = '*';

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
  const write = (minor: number) => writeAmount(minor, row.currency, decimalMark);
  // A part's gross: its category line and the tax line that follows it (issue 28).
  const gross = (i: number) => Math.round(lines[i].amount * scale) + (lines[i + 1]?.kind === 'tax' ? Math.round(lines[i + 1].amount * scale) : 0);
  const parts = lines.flatMap((l, i) => (l.kind === 'category' ? [{ l, i }] : []));
  const start: Draft[] =
    parts.length > 1
      ? parts.map(({ l, i }) => ({ categoryCode: l.categoryCode ?? '', amount: write(gross(i)), memo: l.memo ?? '', taxCode: DEFAULT_TAX }))
      : [
          { categoryCode: parts[0]?.l.categoryCode ?? '', amount: write(rowMinor), memo: '', taxCode: DEFAULT_TAX },
          { categoryCode: '', amount: '', memo: '', taxCode: DEFAULT_TAX },
        ];
  const [drafts, setDrafts] = useState<Draft[]>(start);
  const [error, setError] = useState<string>();
  const reads = drafts.map((d) => (d.amount.trim() ? readTypedAmount(d.amount, row.currency, decimalMark) : null));
  const unreadable = reads.some((r) => r && !r.ok);
  const remaining = rowMinor - reads.reduce((s, r) => s + (r?.ok ? r.minor : 0), 0);
  const set = (i: number, change: Partial<Draft>) => setDrafts((ds) => ds.map((d, k) => (k === i ? { ...d, ...change } : d)));
  const remainderToLast = () => {
    const last = drafts.length - 1;
    const read = reads[last];
    set(last, { amount: write((read?.ok ? read.minor : 0) + remaining) });
  };
  const onAmountKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== '=') return;
    e.preventDefault();
    remainderToLast();
  };
  async function save() {
    setError(undefined);
    try {
      await desk.splitTransaction({
        orgId,
        id: row.id,
        lines: drafts.map((d) => ({ categoryCode: d.categoryCode, amount: d.amount, memo: d.memo || undefined, taxCode: d.taxCode === DEFAULT_TAX ? undefined : d.taxCode })),
      });
      onDone(`Split ${row.description} into ${drafts.length} lines.`);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <form className="split-editor" aria-label="Split the row" onSubmit={(e) => (e.preventDefault(), void save())}>
      <table className="grid">
        <thead>
          <tr>
            <th>Category</th>
            <th className="num">Amount</th>
            <th>Memo</th>
            {taxCodes.length > 0 && <th>Tax</th>}
            <th />
          </tr>
        </thead>
        <tbody>
          {drafts.map((d, i) => (
            <tr key={i}>
              <td>
                <select aria-label={`Line ${i + 1} category`} required value={d.categoryCode} onChange={(e) => set(i, { categoryCode: e.target.value })}>
                  <option value="">Choose…</option>
                  <CategoryOptions categories={categories} keep={d.categoryCode} />
                </select>
              </td>
              <td className="num">
                <input
                  aria-label={`Line ${i + 1} amount`}
                  inputMode="decimal"
                  required
                  value={d.amount}
                  aria-invalid={reads[i]?.ok === false || undefined}
                  title={reads[i]?.ok === false ? reads[i].message : undefined}
                  onKeyDown={onAmountKey}
                  onChange={(e) => set(i, { amount: e.target.value })}
                />
              </td>
              <td>
                <input aria-label={`Line ${i + 1} memo`} maxLength={500} value={d.memo} onChange={(e) => set(i, { memo: e.target.value })} />
              </td>
              {taxCodes.length > 0 && (
                <td>
                  <select aria-label={`Line ${i + 1} tax code`} value={d.taxCode} onChange={(e) => set(i, { taxCode: e.target.value })}>
                    <option value={DEFAULT_TAX}>The category&apos;s</option>
                    <option value="">No tax</option>
                    {taxCodes.map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.code} ({c.rate}%)
                      </option>
                    ))}
                  </select>
                </td>
              )}
              <td>
                {drafts.length > 2 && (
                  <button type="button" aria-label={`Remove line ${i + 1}`} onClick={() => setDrafts((ds) => ds.filter((_, k) => k !== i))}>
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p role="status" className={remaining === 0 ? 'muted' : 'reads refused'}>
        {remaining === 0 ? 'The lines add up to the row.' : `Remaining: ${write(remaining)} ${row.currency} (must be zero to save)`}
      </p>
      <p>
        <button type="button" onClick={() => setDrafts((ds) => [...ds, { categoryCode: '', amount: '', memo: '', taxCode: DEFAULT_TAX }])}>
          Add a line
        </button>{' '}
        <button type="button" onClick={remainderToLast} disabled={remaining === 0} title="Or press = in an amount">
          Remainder to the last line (=)
        </button>{' '}
        <button type="submit" disabled={remaining !== 0 || unreadable}>
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

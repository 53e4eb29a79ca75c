// A journal's lines as the form edits them (issue 43): the account by
// type-ahead (categories of every type, the money accounts, the tax control),
// debit or credit, a tax code for a category line, a memo; "Add line" adds
// one. Used by the Journals screen's form.
import { useState } from 'react';
import type { Category } from '../../../../main/ledger/chart/categories';
import type { DeskResult } from '../../../../main/desk/operations';
import { CategoryPicker, type PickExtra } from '../../CategoryPicker';
import { LinesGrid, RemoveLine } from '../../LinesGrid';

export interface LineDraft {
  /** What the journal posts to: a category code, account:<id>, tax-control or opening-balances. */
  account: string;
  /** How the form shows it. */
  label: string;
  debit: string;
  credit: string;
  taxCode: string;
  memo: string;
}

export const BLANK_LINE: LineDraft = { account: '', label: '', debit: '', credit: '', taxCode: '', memo: '' };

/** A line's amount as the ledger takes it (debit positive), or null while it has none. */
export const amountOf = (l: LineDraft): string | null => (l.debit.trim() ? l.debit.trim() : l.credit.trim() ? `-${l.credit.trim().replace(/^-/, '')}` : null);

/** The accounts besides the chart's categories a journal posts to. */
export function journalExtras(accounts: DeskResult<'listAccounts'>, opening = false): PickExtra[] {
  return [
    ...accounts.filter((a) => !a.closedAt).map((a) => ({ value: `account:${a.id}`, code: 'account', name: a.name, words: [a.type.replace('_', ' ')] })),
    { value: 'tax-control', code: 'tax', name: 'Sales tax control', words: ['VAT', 'GST', 'sales tax'] },
    ...(opening ? [] : [{ value: 'opening-balances', code: 'equity', name: 'Opening balances', words: ['opening'] }]),
  ];
}

const isCategory = (account: string) => account !== '' && !account.startsWith('account:') && account !== 'tax-control' && account !== 'opening-balances';

function LineRow(props: {
  i: number;
  line: LineDraft;
  categories: Category[];
  extras: PickExtra[];
  codes: DeskResult<'listTaxCodes'>;
  set: (patch: Partial<LineDraft>) => void;
  remove?: () => void;
}) {
  const { i, line, categories, extras, codes, set, remove } = props;
  const [picking, setPicking] = useState(false);
  const choose = (value: string | null) => {
    setPicking(false);
    if (value === null) return;
    const extra = extras.find((e) => e.value === value);
    const category = categories.find((c) => c.code === value);
    set({ account: value, label: extra ? extra.name : `${value} ${category?.name ?? ''}`.trim(), ...(isCategory(value) ? {} : { taxCode: '' }) });
  };
  return (
    <tr>
      <td>
        <button type="button" className="link" aria-expanded={picking} onClick={() => setPicking(true)}>
          <span className="sr-only">Line {i + 1} account: </span>
          {line.label || <span className="muted">Choose an account…</span>}
        </button>
        {picking && <CategoryPicker categories={categories} extra={extras} label={`Account of line ${i + 1}`} onChoose={choose} onCancel={() => setPicking(false)} />}
      </td>
      <td className="num">
        <input aria-label={`Line ${i + 1} debit`} inputMode="decimal" size={10} value={line.debit} onChange={(e) => set({ debit: e.target.value, credit: '' })} />
      </td>
      <td className="num">
        <input aria-label={`Line ${i + 1} credit`} inputMode="decimal" size={10} value={line.credit} onChange={(e) => set({ credit: e.target.value, debit: '' })} />
      </td>
      <td>
        <select aria-label={`Line ${i + 1} tax code`} value={line.taxCode} disabled={!isCategory(line.account)} onChange={(e) => set({ taxCode: e.target.value })}>
          <option value="">No tax</option>
          {codes
            .filter((c) => !c.archived)
            .map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} {c.rate}%
              </option>
            ))}
        </select>
      </td>
      <td>
        <input aria-label={`Line ${i + 1} memo`} maxLength={500} value={line.memo} onChange={(e) => set({ memo: e.target.value })} />
      </td>
      <RemoveLine i={i} remove={remove} />
    </tr>
  );
}

export function JournalLines(props: {
  lines: LineDraft[];
  setLines: (lines: LineDraft[]) => void;
  categories: Category[];
  extras: PickExtra[];
  codes: DeskResult<'listTaxCodes'>;
}) {
  const { lines, setLines, categories, extras, codes } = props;
  return (
    <>
      <LinesGrid
        headings={[{ label: 'Account' }, { label: 'Debit', num: true }, { label: 'Credit', num: true }, { label: 'Tax' }, { label: 'Memo' }]}
        lines={lines}
        setLines={setLines}
        fewest={2}
        row={(p) => <LineRow key={p.i} {...p} categories={categories} extras={extras} codes={codes} />}
      />
      <button type="button" onClick={() => setLines([...lines, { ...BLANK_LINE }])}>
        Add line
      </button>
    </>
  );
}

// The open invoices (or bills) of the opening balances (issue 43), as the
// Opening balances screen edits them: number, customer (vendor), date, due
// date, what is still owed, and the VAT inside it with its tax code (issue
// 50). One paid or credited since is shown, not edited: it stays as it is,
// but for its VAT.
import type { DeskResult } from '../../../../main/desk/operations';
import { Money } from '../../components';

export interface DocumentDraft {
  number: string;
  contact: string;
  date: string;
  dueDate: string;
  outstanding: string;
  currency?: string;
  /** Its tax code and the VAT inside what is outstanding (issue 50): both, or neither. */
  taxCode: string;
  tax: string;
  /** Paid or credited since: kept as it is (but for its VAT). */
  settled?: boolean;
}

export const BLANK_DOCUMENT: DocumentDraft = { number: '', contact: '', date: '', dueDate: '', outstanding: '', taxCode: '', tax: '' };

/** The VAT cells of a row: its tax code (those of its side) and the VAT inside what is outstanding. */
function VatCells({ label, row, codes, set }: { label: string; row: DocumentDraft; codes: string[]; set: (patch: Partial<DocumentDraft>) => void }) {
  return (
    <>
      <td>
        <select aria-label={`${label} tax code`} value={row.taxCode} onChange={(e) => set({ taxCode: e.target.value, tax: e.target.value ? row.tax : '' })}>
          <option value="">No VAT given</option>
          {codes.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </td>
      <td className="num">
        <input
          aria-label={`${label} VAT`}
          inputMode="decimal"
          size={8}
          required={row.taxCode !== ''}
          disabled={!row.taxCode}
          value={row.tax}
          onChange={(e) => set({ tax: e.target.value })}
        />
      </td>
    </>
  );
}

/** A date in a table cell: YYYY-MM-DD, named for assistive technology. */
const DateCell = ({ label, value, onChange, required }: { label: string; value: string; onChange: (v: string) => void; required?: boolean }) => (
  <input
    aria-label={label}
    required={required}
    inputMode="numeric"
    size={10}
    maxLength={10}
    pattern="\d{4}-\d{2}-\d{2}"
    placeholder="YYYY-MM-DD"
    value={value}
    onChange={(e) => onChange(e.target.value)}
  />
);

export function OpenDocuments(props: {
  kind: 'invoice' | 'bill';
  rows: DocumentDraft[];
  setRows: (rows: DocumentDraft[]) => void;
  contacts: DeskResult<'listContacts'>;
  /** The tax codes an open document of this side may carry. */
  codes: string[];
  currency: string;
}) {
  const { kind, rows, setRows, contacts, codes, currency } = props;
  const party = kind === 'bill' ? 'Vendor' : 'Customer';
  const title = kind === 'bill' ? 'Open bills' : 'Open invoices';
  const set = (i: number, patch: Partial<DocumentDraft>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset>
      <legend>{title}</legend>
      <table className="grid" aria-label={title}>
        <thead>
          <tr>
            <th>Number</th>
            <th>{party}</th>
            <th>Date</th>
            <th>Due</th>
            <th className="num">Outstanding</th>
            <th>Tax code</th>
            <th className="num">VAT in it</th>
            <th>
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) =>
            r.settled ? (
              <tr key={i} className="muted">
                <td>{r.number}</td>
                <td>{r.contact}</td>
                <td>{r.date}</td>
                <td>{r.dueDate}</td>
                <td className="num">
                  <Money amount={Number(r.outstanding)} currency={r.currency ?? currency} plain />
                </td>
                <VatCells label={`${kind} ${i + 1}`} row={r} codes={codes} set={(patch) => set(i, patch)} />
                <td className="small">paid or credited since: kept</td>
              </tr>
            ) : (
              <tr key={i}>
                <td>
                  <input aria-label={`${kind} ${i + 1} number`} required maxLength={60} size={10} value={r.number} onChange={(e) => set(i, { number: e.target.value })} />
                </td>
                <td>
                  <select aria-label={`${kind} ${i + 1} ${party.toLowerCase()}`} required value={r.contact} onChange={(e) => set(i, { contact: e.target.value })}>
                    <option value="">Choose…</option>
                    {contacts.map((c) => (
                      <option key={c.id} value={c.name}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <DateCell label={`${kind} ${i + 1} date`} required value={r.date} onChange={(date) => set(i, { date })} />
                </td>
                <td>
                  <DateCell label={`${kind} ${i + 1} due`} value={r.dueDate} onChange={(dueDate) => set(i, { dueDate })} />
                </td>
                <td className="num">
                  <input
                    aria-label={`${kind} ${i + 1} outstanding`}
                    required
                    inputMode="decimal"
                    size={10}
                    value={r.outstanding}
                    onChange={(e) => set(i, { outstanding: e.target.value })}
                  />
                </td>
                <VatCells label={`${kind} ${i + 1}`} row={r} codes={codes} set={(patch) => set(i, patch)} />
                <td>
                  <button type="button" aria-label={`Remove ${kind} ${i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                    ✕
                  </button>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      <button type="button" onClick={() => setRows([...rows, { ...BLANK_DOCUMENT }])}>
        Add {kind === 'bill' ? 'a bill' : 'an invoice'}
      </button>
    </fieldset>
  );
}

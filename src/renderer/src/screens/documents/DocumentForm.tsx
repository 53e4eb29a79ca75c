// A new invoice or bill (issue 29): the contact, dates, whether prices
// include tax, and its lines (LinesTable: the same editor as quotes' and
// repeating invoices', with the live totals and each line's default tax).
// Every field is reachable by keyboard.
import { useState, type FormEvent } from 'react';
import type { Document } from '../../../../main/ledger/documents/documents';
import { DateField } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { BLANK, LinesTable, linesInput, type LineDraft } from './LinesTable';

type Kind = 'invoice' | 'bill';

export function DocumentForm({
  orgId,
  kind,
  currency,
  onSaved,
  fail,
}: {
  orgId: string;
  kind: Kind;
  currency: string;
  onSaved: (d: Document) => void;
  fail: (e: unknown) => void;
}) {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  const contacts = useLoad(() => desk.listContacts({ orgId, role: party }), [orgId, party]);
  const [contact, setContact] = useState('');
  const [number, setNumber] = useState('');
  const [date, setDate] = useState('');
  const [due, setDue] = useState('');
  const [inclusive, setInclusive] = useState(false);
  // Empty: the organization's currency; another books at its issue date's rate (issue 30).
  const [docCurrency, setDocCurrency] = useState('');
  const [lines, setLines] = useState<LineDraft[]>([{ ...BLANK }]);
  const shown = /^[A-Z]{3}$/.test(docCurrency) ? docCurrency : currency;

  async function save(e: FormEvent, issue: boolean) {
    e.preventDefault();
    const common = {
      orgId,
      ...(date ? { date } : {}),
      ...(due ? { dueDate: due } : {}),
      taxInclusive: inclusive,
      ...(docCurrency ? { currency: docCurrency } : {}),
      lines: linesInput(lines),
    };
    try {
      const saved =
        kind === 'bill' ? await desk.createBill({ ...common, vendor: contact, number, draft: !issue }) : await desk.createInvoice({ ...common, customer: contact, issue });
      onSaved(saved);
      setLines([{ ...BLANK }]);
      setNumber('');
    } catch (err) {
      fail(err);
    }
  }

  return (
    <form
      className="document-form"
      aria-label={`New ${kind}`}
      onSubmit={(e) => void save(e, kind === 'bill' || (e.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'issue')}
    >
      <div className="inline-form">
        <label>
          {kind === 'bill' ? 'Vendor' : 'Customer'}
          <select required value={contact} onChange={(e) => setContact(e.target.value)}>
            <option value="">Choose…</option>
            {(contacts.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        {kind === 'bill' && (
          <label>
            Their number
            <input required maxLength={60} value={number} onChange={(e) => setNumber(e.target.value)} />
          </label>
        )}
        <DateField label="Date" value={date} onChange={setDate} />
        <DateField label="Due" value={due} onChange={setDue} />
        <label className="check">
          <input type="checkbox" checked={inclusive} onChange={(e) => setInclusive(e.target.checked)} /> Prices include tax
        </label>
        <label>
          Currency
          <input size={4} maxLength={3} pattern="[A-Za-z]{3}" placeholder={currency} value={docCurrency} onChange={(e) => setDocCurrency(e.target.value.toUpperCase())} />
        </label>
      </div>
      <LinesTable
        orgId={orgId}
        contact={contact}
        currency={shown}
        inclusive={inclusive}
        types={kind === 'bill' ? ['expense', 'asset'] : ['revenue']}
        lines={lines}
        setLines={setLines}
      />
      <div className="actions">
        {kind === 'invoice' ? (
          <>
            <button type="submit" value="draft">
              Save draft
            </button>
            <button type="submit" value="issue" className="primary">
              Save and issue
            </button>
          </>
        ) : (
          <button type="submit" className="primary">
            Enter bill
          </button>
        )}
      </div>
    </form>
  );
}

// Quotes (issue 53), beside Invoices: a new quote (customer, dates, lines:
// LinesTable), the list with each one's status (expired read from its expiry
// date), and per quote: send it by mail with its PDF (the Invoices screen's
// Send form: mail/SendDocument), mark it sent by hand, accept it (a draft invoice is made from
// it: its number is said and shown), decline it, preview its PDF.
import { useState, type FormEvent } from 'react';
import type { Quote } from '../../../../main/ledger/documents/quotes';
import { DateField, Money, Notice, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { SendDocument } from '../mail/SendDocument';
import { BLANK, LinesTable, linesInput, type LineDraft } from './LinesTable';

function QuoteForm({ orgId, currency, onSaved, fail }: { orgId: string; currency: string; onSaved: (q: Quote) => void; fail: (e: unknown) => void }) {
  const contacts = useLoad(() => desk.listContacts({ orgId, role: 'customer' }), [orgId]);
  const [customer, setCustomer] = useState('');
  const [date, setDate] = useState('');
  const [expiry, setExpiry] = useState('');
  const [inclusive, setInclusive] = useState(false);
  const [lines, setLines] = useState<LineDraft[]>([{ ...BLANK }]);
  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      const input = { orgId, customer, taxInclusive: inclusive, lines: linesInput(lines), ...(date ? { date } : {}), ...(expiry ? { expiryDate: expiry } : {}) };
      onSaved(await desk.createQuote(input));
      setLines([{ ...BLANK }]);
    } catch (err) {
      fail(err);
    }
  }
  return (
    <form className="document-form" aria-label="New quote" onSubmit={(e) => void save(e)}>
      <div className="inline-form">
        <label>
          Customer
          <select required value={customer} onChange={(e) => setCustomer(e.target.value)}>
            <option value="">Choose…</option>
            {(contacts.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <DateField label="Date" value={date} onChange={setDate} />
        <DateField label="Valid until" value={expiry} onChange={setExpiry} />
        <label className="check">
          <input type="checkbox" checked={inclusive} onChange={(e) => setInclusive(e.target.checked)} /> Prices include tax
        </label>
      </div>
      <LinesTable orgId={orgId} contact={customer} currency={currency} inclusive={inclusive} types={['revenue']} lines={lines} setLines={setLines} />
      <div className="actions">
        <button type="submit" className="primary">
          Save quote
        </button>
      </div>
    </form>
  );
}

function QuoteActions({ orgId, q, reload, say, fail }: { orgId: string; q: Quote; reload: () => void; say: (t: string) => void; fail: (e: unknown) => void }) {
  const can = useCan();
  const [sending, setSending] = useState(false);
  const open = q.status === 'draft' || q.status === 'sent' || q.status === 'expired';
  const run = (f: () => Promise<string>) => () => void f().then((t) => (say(t), reload()), fail);
  const preview = async () => {
    const file = await desk.quotePdfBytes({ orgId, number: q.number });
    const blob = new Blob([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], { type: file.mimeType });
    window.open(URL.createObjectURL(blob), '_blank', 'noopener');
  };
  return (
    <>
      {(q.status === 'draft' || q.status === 'sent') && can('sendDocument') && (
        <button aria-expanded={sending} onClick={() => setSending(!sending)} aria-label={`Send ${q.number} by mail`}>
          Send…
        </button>
      )}
      {open && can('sendQuote') && (
        <button onClick={run(async () => (await desk.sendQuote({ orgId, number: q.number }), `${q.number} marked sent.`))} aria-label={`Mark ${q.number} sent`}>
          Mark sent
        </button>
      )}
      {open && can('acceptQuote') && (
        <button
          onClick={run(async () => `${q.number} accepted: draft invoice ${(await desk.acceptQuote({ orgId, number: q.number })).invoice.number} made from it.`)}
          aria-label={`Accept ${q.number}`}
        >
          Accept
        </button>
      )}
      {open && can('declineQuote') && (
        <button onClick={run(async () => (await desk.declineQuote({ orgId, number: q.number }), `${q.number} declined.`))} aria-label={`Decline ${q.number}`}>
          Decline
        </button>
      )}
      <button onClick={() => void preview().catch(fail)} aria-label={`Preview PDF of ${q.number}`}>
        Preview
      </button>
      {sending && <SendDocument orgId={orgId} doc={{ kind: 'quote', number: q.number }} onDone={(t) => (say(t), reload())} onCancel={() => setSending(false)} fail={fail} />}
    </>
  );
}

const STATUS: Record<Quote['status'], string> = { draft: 'Draft', sent: 'Sent', accepted: 'Accepted', declined: 'Declined', expired: 'Expired' };

export function Quotes({ orgId, currency }: { orgId: string; currency: string }) {
  const can = useCan();
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const list = useLoad(() => desk.listQuotes({ orgId }), [orgId]);
  const say = (text: string) => setNotice({ kind: 'ok', text });
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  return (
    <section aria-labelledby="quotes-title">
      <div className="screen-head">
        <h2 id="quotes-title">Quotes</h2>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {can('createQuote') && <QuoteForm orgId={orgId} currency={currency} onSaved={(q) => (say(`${q.number} saved.`), list.reload())} fail={fail} />}
      <Show loaded={list} what="quotes">
        {(quotes) => (
          <TableFrame>
            <table className="grid" aria-label="Quotes">
              <thead>
                <tr>
                  <th>Number</th>
                  <th>Customer</th>
                  <th>Date</th>
                  <th>Valid until</th>
                  <th className="num">Total</th>
                  <th>Status</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {quotes.map((q) => (
                  <tr key={q.id}>
                    <td className="nowrap">{q.number}</td>
                    <td>{q.contact.name}</td>
                    <td className="nowrap">{q.date}</td>
                    <td className="nowrap">{q.expiryDate}</td>
                    <td className="num">
                      <Money amount={q.total} currency={q.currency} plain />
                    </td>
                    <td>
                      {STATUS[q.status]}
                      {q.invoice && ` · invoice ${q.invoice}`}
                    </td>
                    <td>
                      <QuoteActions orgId={orgId} q={q} reload={list.reload} say={say} fail={fail} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
        )}
      </Show>
    </section>
  );
}

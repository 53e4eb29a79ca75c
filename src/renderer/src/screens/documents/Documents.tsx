// Invoices and Bills (issue 29): what is outstanding and overdue, the list
// by status, a new one (DocumentForm), and per document: issue a draft,
// preview or download its PDF, its Stripe payment link (PaymentLink), record a payment from a bank row
// (RecordPayment), apply the contact's credit (an earlier
// overpayment) or take it off, void it with a date and a reason (VoidDocument),
// send an invoice or credit note by mail with its PDF (mail/SendDocument).
import { useState } from 'react';
import type { Document } from '../../../../main/ledger/documents/documents';
import { Money, Notice, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { formatMoney } from '../../format';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { DocumentForm } from './DocumentForm';
import { RecordPayment } from './RecordPayment';
import { VoidDocument } from './VoidDocument';
import { PaymentLink } from './PaymentLink';
import { SendDocument } from '../mail/SendDocument';
import { saveBlob } from '../reports/ExportPanel';

type Kind = 'invoice' | 'bill';
const STATUS: Record<string, string> = { draft: 'Draft', sent: 'Sent', open: 'Open', partially_paid: 'Partly paid', paid: 'Paid', void: 'Void' };

function Actions({ orgId, kind, doc, reload, say, fail }: { orgId: string; kind: Kind; doc: Document; reload: () => void; say: (t: string) => void; fail: (e: unknown) => void }) {
  const can = useCan();
  // Whoever may change documents (a client may read them and their PDFs).
  const may = can(kind === 'bill' ? 'payBill' : 'payInvoice');
  const [paying, setPaying] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const [sending, setSending] = useState(false);
  const run = (f: () => Promise<unknown>, text: string) => () => void f().then(() => (say(text), reload()), fail);
  const pdf = async (open: boolean) => {
    const file = await desk.invoicePdfBytes({ orgId, number: doc.number });
    const blob = new Blob([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], { type: file.mimeType });
    if (open) window.open(URL.createObjectURL(blob), '_blank', 'noopener');
    else saveBlob(file.fileName, blob);
  };
  const open = may && doc.status !== 'draft' && doc.status !== 'void' && doc.balance > 0;
  return (
    <>
      {may && doc.status === 'draft' && (
        <button onClick={run(() => (kind === 'bill' ? desk.enterBill : desk.issueInvoice)({ orgId, number: doc.number }), `${doc.number} issued.`)}>
          {kind === 'bill' ? 'Enter' : 'Issue'} <span className="sr-only">{doc.number}</span>
        </button>
      )}
      {kind === 'invoice' && (
        <>
          <button onClick={() => void pdf(true).catch(fail)} aria-label={`Preview PDF of ${doc.number}`}>
            Preview
          </button>
          <button onClick={() => void pdf(false).catch(fail)} aria-label={`Download PDF of ${doc.number}`}>
            PDF
          </button>
          <PaymentLink orgId={orgId} doc={doc} may={may} say={say} fail={fail} />
        </>
      )}
      {kind === 'invoice' && can('sendDocument') && doc.status !== 'draft' && doc.status !== 'void' && (
        <button aria-expanded={sending} onClick={() => setSending(!sending)} aria-label={`Send ${doc.number} by mail`}>
          Send…
        </button>
      )}
      {open && (
        <button aria-expanded={paying} onClick={() => setPaying(!paying)} aria-label={`Record a payment of ${doc.number}`}>
          Payment…
        </button>
      )}
      {open && doc.creditAvailable > 0 && (
        <button
          onClick={run(() => (kind === 'bill' ? desk.applyBillCredit : desk.applyInvoiceCredit)({ orgId, number: doc.number }), `Credit applied to ${doc.number}.`)}
          aria-label={`Apply ${doc.contact.name}'s credit of ${formatMoney(doc.creditAvailable, doc.currency)} to ${doc.number}`}
        >
          Apply credit {formatMoney(doc.creditAvailable, doc.currency)}
        </button>
      )}
      {may && doc.status !== 'void' && doc.settlements.some((s) => s.creditApplied) && (
        <button
          onClick={run(() => (kind === 'bill' ? desk.unapplyBillCredit : desk.unapplyInvoiceCredit)({ orgId, number: doc.number }), `Credit taken off ${doc.number}.`)}
          aria-label={`Take the credit off ${doc.number}`}
        >
          Unapply credit
        </button>
      )}
      {may && doc.status !== 'void' && doc.paid === 0 && (
        <button aria-expanded={voiding} onClick={() => setVoiding(!voiding)} aria-label={`Void ${doc.number}`}>
          Void…
        </button>
      )}
      {paying && <RecordPayment orgId={orgId} kind={kind} doc={doc} onDone={(t) => (say(t), setPaying(false), reload())} fail={fail} />}
      {sending && <SendDocument orgId={orgId} doc={doc} onDone={say} onCancel={() => setSending(false)} fail={fail} />}
      {voiding && <VoidDocument orgId={orgId} kind={kind} doc={doc} onDone={(t) => (say(t), setVoiding(false), reload())} onCancel={() => setVoiding(false)} fail={fail} />}
    </>
  );
}

export function Documents({ orgId, kind, currency }: { orgId: string; kind: Kind; currency: string }) {
  const can = useCan();
  const [status, setStatus] = useState('');
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const list = useLoad(() => (kind === 'bill' ? desk.listBills : desk.listInvoices)({ orgId, ...(status ? { status: status as 'draft' } : {}) }), [orgId, kind, status]);
  // What is owed and what of it is past due: the aging today (the balance sheet's figure), not every document read.
  const owed = useLoad(() => desk.aging({ orgId, ...(kind === 'bill' ? { payables: true } : { receivables: true }) }), [orgId, kind, list.data]);
  const say = (text: string) => setNotice({ kind: 'ok', text });
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  const title = kind === 'bill' ? 'Bills' : 'Invoices';
  const totals = owed.data?.totals;
  const outstanding = owed.data?.total ?? 0;
  const overdue = totals ? totals.days1to30 + totals.days31to60 + totals.days61to90 + totals.over90 : 0;
  return (
    <section aria-labelledby="documents-title">
      <div className="screen-head">
        <h2 id="documents-title">{title}</h2>
        <p className="figures">
          Outstanding <Money amount={outstanding} currency={currency} /> · Overdue <Money amount={overdue} currency={currency} />
        </p>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {can(kind === 'bill' ? 'createBill' : 'createInvoice') && (
        <DocumentForm orgId={orgId} kind={kind} currency={currency} onSaved={(d) => (say(`${d.number} saved (${STATUS[d.status].toLowerCase()}).`), list.reload())} fail={fail} />
      )}
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">all</option>
            {[...(kind === 'bill' ? ['draft', 'open'] : ['draft', 'sent']), 'partially_paid', 'paid', 'overdue', 'void'].map((s) => (
              <option key={s} value={s}>
                {STATUS[s] ?? 'Overdue'}
              </option>
            ))}
          </select>
        </label>
      </form>
      <Show loaded={list} what={title.toLowerCase()}>
        {(docs) => (
          <TableFrame>
            <table className="grid" aria-label={title}>
              <thead>
                <tr>
                  <th>Number</th>
                  <th>{kind === 'bill' ? 'Vendor' : 'Customer'}</th>
                  <th>Date</th>
                  <th>Due</th>
                  <th className="num">Total</th>
                  <th className="num">Balance</th>
                  <th>Status</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {docs.map((d) => (
                  <tr key={d.id} className={d.status === 'void' ? 'muted' : undefined}>
                    <td className="nowrap">{d.number}</td>
                    <td>{d.contact.name}</td>
                    <td className="nowrap">{d.issueDate}</td>
                    <td className="nowrap">{d.dueDate}</td>
                    <td className="num">
                      <Money amount={d.total} currency={d.currency} plain />
                    </td>
                    <td className="num">
                      <Money amount={d.balance} currency={d.currency} plain />
                    </td>
                    <td>
                      {d.kind === 'credit_note' ? `Credit note for ${d.credits}` : STATUS[d.status]}
                      {d.overdue && <strong> · overdue</strong>}
                    </td>
                    <td>
                      <Actions orgId={orgId} kind={kind} doc={d} reload={list.reload} say={say} fail={fail} />
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

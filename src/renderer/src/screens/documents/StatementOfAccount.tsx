// A customer's statement of account on the Contacts screen (issue 53): the
// period (the month to date unless changed), per currency the balance brought
// forward, each invoice, credit note and payment with the running balance,
// the balance owed and its aging; its PDF to preview or download, and
// "Send…" (mail/SendStatement) for whoever may send.
import { useState } from 'react';
import type { Contact } from '../../../../main/ledger/contacts/contacts';
import type { ContactStatement } from '../../../../main/ledger/documents/owed/statement';
import { DateRange, Money, Show, TableFrame } from '../../components';
import { desk } from '../../desk';
import { today } from '../../format';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { saveBlob } from '../reports/ExportPanel';
import { SendStatement } from '../mail/SendStatement';

type Props = { orgId: string; contact: Contact; say: (text: string) => void; fail: (e: unknown) => void; onClose: () => void };

const AGES = [
  ['current', 'Current'],
  ['days1to30', '1-30 days'],
  ['days31to60', '31-60 days'],
  ['days61to90', '61-90 days'],
  ['over90', 'Over 90 days'],
  ['credit', 'Credit'],
  ['total', 'Total owed'],
] as const;

function Part({ s, titled }: { s: ContactStatement; titled: boolean }) {
  const m = (n: number) => <Money amount={n} currency={s.currency} plain />;
  return (
    <>
      {titled && <h4>In {s.currency}</h4>}
      <TableFrame>
        <table className="grid" aria-label={`Statement in ${s.currency}`}>
          <thead>
            <tr>
              <th>Date</th>
              <th>Details</th>
              <th className="num">Amount</th>
              <th className="num">Balance</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>{s.from}</td>
              <td>Balance brought forward</td>
              <td />
              <td className="num">{m(s.opening)}</td>
            </tr>
            {s.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.date}</td>
                <td>{l.what}</td>
                <td className="num">{m(l.amount)}</td>
                <td className="num">{m(l.balance)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{s.to}</th>
              <th scope="row">Balance owed</th>
              <td />
              <td className="num">
                <strong>{m(s.closing)}</strong>
              </td>
            </tr>
          </tbody>
        </table>
      </TableFrame>
      <p aria-label={`Aged ${s.currency}`}>
        {AGES.filter(([k]) => k !== 'credit' || s.aging.credit !== 0).map(([k, label]) => (
          <span key={k} className="stat">
            {label}: {m(s.aging[k])}{' '}
          </span>
        ))}
      </p>
    </>
  );
}

export function StatementOfAccount({ orgId, contact, say, fail, onClose }: Props) {
  const can = useCan();
  const [from, setFrom] = useState(`${today().slice(0, 7)}-01`);
  const [to, setTo] = useState(today());
  const [sending, setSending] = useState(false);
  const period = { orgId, customer: contact.id, from: from || undefined, to: to || undefined };
  const loaded = useLoad(() => desk.statementOfAccount(period), [orgId, contact.id, from, to]);
  const pdf = async (open: boolean) => {
    const file = await desk.statementPdfBytes(period);
    const blob = new Blob([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], { type: file.mimeType });
    if (open) window.open(URL.createObjectURL(blob), '_blank', 'noopener');
    else saveBlob(file.fileName, blob);
  };
  return (
    <section aria-label={`Statement of account of ${contact.name}`} className="panel">
      <h3>Statement of account of {contact.name}</h3>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <DateRange from={from} to={to} onFrom={setFrom} onTo={setTo} />
        <button type="button" onClick={() => void pdf(true).catch(fail)}>
          Preview PDF
        </button>
        <button type="button" onClick={() => void pdf(false).catch(fail)}>
          Download PDF
        </button>
        {can('composeStatement') && (
          <button type="button" aria-expanded={sending} onClick={() => setSending(!sending)}>
            Send…
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </form>
      {sending && <SendStatement period={period} customer={contact.name} onDone={say} onCancel={() => setSending(false)} fail={fail} />}
      <Show loaded={loaded} what="the statement">
        {({ statement }) => (
          <>
            {statement.currencies.map((c) => (
              <Part key={c.currency} s={c} titled={statement.currencies.length > 1} />
            ))}
          </>
        )}
      </Show>
    </section>
  );
}

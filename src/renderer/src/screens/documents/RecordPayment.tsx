// Record payment (issues 29 and 43): a bank row pays an invoice or a bill. The
// rows offered are uncategorized money in (an invoice) or out (a bill) in the
// document's currency or the organization's, the likely payments first, each
// with its currency. A row in another currency than the document's asks what
// of the document it settles (the balance, to begin with) and shows, before
// saving, what that was booked at, the rate the two amounts imply and the
// realized gain or loss.
import { useState } from 'react';
import type { Document } from '../../../../main/ledger/documents/documents';
import type { Exchange } from '../../../../main/ledger/documents/payments/exchange';
import { messageOf } from '../../components';
import { desk } from '../../desk';
import { formatMoney } from '../../format';
import { useLoad } from '../../hooks';
import { useOrg } from '../../org';

type Kind = 'invoice' | 'bill';
const STATUS: Record<string, string> = { open: 'open', sent: 'sent', partially_paid: 'partly paid', paid: 'paid' };

/** An amount as the organization types it (1234.56 or 1234,56), in its currency's digits. */
function typed(amount: number, currency: string, mark: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return amount.toFixed(digits).replace('.', mark);
}

/** What paying in another currency does, in words: booked, paid, the rates, the difference. */
function exchangeWords(x: Exchange, kind: Kind): string {
  const base = x.baseCurrency;
  const what = x.difference === 0 ? 'no exchange difference' : `realized ${x.difference > 0 ? 'gain' : 'loss'} ${formatMoney(Math.abs(x.difference), base)}`;
  return (
    `${formatMoney(x.settles, x.currency)} booked at ${formatMoney(x.booked, base)}; ${kind === 'bill' ? 'paid' : 'received'} ${formatMoney(x.paid, base)} ` +
    `(${x.rate} ${base} per ${x.currency}${x.dayRate ? `; the day's rate ${x.dayRate}` : ''}): ${what}.`
  );
}

export function RecordPayment(props: { orgId: string; kind: Kind; doc: Document; onDone: (text: string) => void; fail: (e: unknown) => void }) {
  const { orgId, kind, doc, onDone, fail } = props;
  const org = useOrg();
  const suggested = useLoad(() => desk.suggestPayments({ orgId }), [orgId]);
  const rows = useLoad(() => desk.register({ orgId, status: 'uncategorized', limit: 100, offset: 0 }), [orgId]);
  const [row, setRow] = useState('');
  const [amount, setAmount] = useState('');
  const [settles, setSettles] = useState(() => typed(doc.balance, doc.currency, org.decimalMark));
  const mine = (suggested.data ?? []).filter((s) => s.documents.some((d) => d.number === doc.number)).map((s) => s.transactionId);
  const inflow = kind === 'invoice';
  const choices = (rows.data?.data ?? [])
    .filter((r) => (inflow ? r.amount > 0 : r.amount < 0) && (r.currency === doc.currency || r.currency === org.currency))
    .sort((a, b) => Number(mine.includes(b.id)) - Number(mine.includes(a.id)));
  const transactionId = row || choices[0]?.id;
  const chosen = choices.find((c) => c.id === transactionId);
  const exchanged = chosen !== undefined && chosen.currency !== doc.currency;
  const input = { orgId, numbers: [doc.number], transactionId: transactionId ?? '', ...(amount ? { amount } : {}), ...(exchanged && settles ? { settles } : {}) };
  const preview = useLoad(() => (exchanged ? desk.previewPayment({ ...input, kind }) : Promise.resolve(null)), [transactionId, amount, settles, exchanged]);
  async function pay() {
    try {
      const r = await (kind === 'invoice' ? desk.payInvoice : desk.payBill)(input);
      const status = STATUS[r.documents[0].status] ?? r.documents[0].status;
      const realized = r.exchanges
        .map((x) => (x.difference ? `; realized ${x.difference > 0 ? 'gain' : 'loss'} ${formatMoney(Math.abs(x.difference), x.baseCurrency)}` : ''))
        .join('');
      // What is left over is in the bank row's currency.
      onDone(`${doc.number} is now ${status}${realized}${r.credit ? `; ${formatMoney(r.credit, chosen?.currency ?? doc.currency)} left as a credit` : ''}.`);
    } catch (err) {
      fail(err);
    }
  }
  return (
    <form className="inline-form" aria-label={`Record a payment of ${doc.number}`} onSubmit={(e) => (e.preventDefault(), void pay())}>
      <label>
        Bank row
        <select required value={transactionId ?? ''} onChange={(e) => setRow(e.target.value)}>
          {choices.length === 0 && <option value="">No uncategorized {inflow ? 'money in' : 'money out'}</option>}
          {choices.map((r) => (
            <option key={r.id} value={r.id}>
              {mine.includes(r.id) ? '★ ' : ''}
              {r.date} {formatMoney(r.amount, r.currency)} {r.currency} {r.description}
            </option>
          ))}
        </select>
      </label>
      {exchanged && (
        <label>
          Settles ({doc.currency})
          <input inputMode="decimal" size={10} value={settles} onChange={(e) => setSettles(e.target.value)} />
        </label>
      )}
      <label>
        {exchanged ? `Of the row, ${chosen.currency} (blank: all of it)` : 'Amount (blank: the balance)'}
        <input inputMode="decimal" size={10} value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      {exchanged && (
        <p role="status" className={preview.error ? 'reads refused' : 'muted'}>
          {preview.error ? messageOf(preview.error) : preview.data ? preview.data.exchanges.map((x) => exchangeWords(x, kind)).join(' ') : 'Working out the difference…'}
        </p>
      )}
      <button type="submit" className="primary" disabled={choices.length === 0}>
        Record payment
      </button>
    </form>
  );
}

// Void an invoice or a bill (issue 50): its entry is reversed on the void's
// date, which the person sees and may change before voiding. The date offered
// is the ledger's default (the command's too): the document's own while its
// period is open, so its revenue or cost, tax and balance leave the period
// they were booked in; else the first open day. A date in a closed period or
// a filed return is refused by the ledger, as the command's is.
import { useState } from 'react';
import type { Document } from '../../../../main/ledger/documents/documents';
import type { VoidDate } from '../../../../main/ledger/documents/void-date';
import { DateField } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

type Kind = 'invoice' | 'bill';

/** Why the date offered is what it is, in words. */
function dateWords(d: VoidDate): string {
  if (!d.closed) return `Dated its own date, ${d.issueDate}: its entry is taken out of the period it was booked in.`;
  const why = d.closed.by === 'closing_date' ? `the books are closed through ${d.closed.through}` : `a tax return is filed through ${d.closed.through}`;
  return `Its own date, ${d.issueDate}, is in a closed period (${why}): dated the first open day.`;
}

export function VoidDocument(props: { orgId: string; kind: Kind; doc: Document; onDone: (text: string) => void; onCancel: () => void; fail: (e: unknown) => void }) {
  const { orgId, kind, doc, onDone, onCancel, fail } = props;
  const offered = useLoad(() => desk.voidDate({ orgId, kind, number: doc.number }), [orgId, kind, doc.number]);
  const [typed, setTyped] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const date = typed ?? offered.data?.date ?? '';
  async function voidIt() {
    try {
      const input = { orgId, number: doc.number, ...(reason.trim() ? { reason } : {}), ...(date ? { date } : {}) };
      const voided = await (kind === 'bill' ? desk.voidBill : desk.voidInvoice)(input);
      onDone(`${doc.number} voided: its entry is reversed on ${voided.voidDate ?? date}.`);
    } catch (err) {
      fail(err);
    }
  }
  return (
    <form className="inline-form" aria-label={`Void ${doc.number}`} onSubmit={(e) => (e.preventDefault(), void voidIt())}>
      <p className="hint">Its entry is reversed and its number stays used. {offered.data && dateWords(offered.data)}</p>
      {/* The date waits for the ledger's default: a date typed sooner would be replaced by it. */}
      <DateField label="Void date" value={date} onChange={setTyped} disabled={!offered.data && !offered.error} />
      <label>
        Reason
        <input maxLength={2000} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit" className="primary">
        Void on this date
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

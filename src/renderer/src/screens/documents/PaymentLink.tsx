// An invoice's Stripe payment link (issue 53): the link it has, to copy or
// open, or a button that makes one for its amount due (with the
// organization's Stripe connector; refused in words without one).
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import type { Document } from '../../../../main/ledger/documents/documents';

export function PaymentLink({ orgId, doc, may, say, fail }: { orgId: string; doc: Document; may: boolean; say: (t: string) => void; fail: (e: unknown) => void }) {
  const link = useLoad(() => desk.invoicePaymentLink({ orgId, number: doc.number }), [orgId, doc.number, doc.balance]);
  const make = () =>
    void desk.makePaymentLink({ orgId, number: doc.number }).then((made) => {
      say(`Payment link for ${doc.number}: ${made.url}`);
      link.reload();
    }, fail);
  if (link.data?.active)
    return (
      <a href={link.data.url} target="_blank" rel="noopener noreferrer" aria-label={`Stripe payment link of ${doc.number}`}>
        Payment link
      </a>
    );
  if (!may || doc.kind !== 'invoice' || doc.balance <= 0 || doc.status === 'draft' || doc.status === 'void') return null;
  return (
    <button onClick={make} aria-label={`Make a Stripe payment link for ${doc.number}`}>
      Payment link…
    </button>
  );
}

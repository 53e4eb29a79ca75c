// Stripe payment links for invoices (issue 53): a Price for the amount due
// (its product named after the invoice) and a Payment Link that takes one
// completed checkout, both carrying the invoice's number, id and organization
// in their metadata (the link's, and the payment intent's so the charge has
// it and the sync's settle pays the invoice). The link is kept on the
// invoice; once the invoice is paid the link is switched off. Stripe is
// called outside the books' write, and the books are written only after it
// answered: a failed call leaves nothing half-written.
import type Stripe from 'stripe';
import { appendAudit, type Actor } from '../../ledger/access/audit';
import { nowIso } from '../../ledger/core/clock';
import { LedgerError } from '../../ledger/core/errors';
import { fromMinor } from '../../ledger/core/money';
import type { Ledger } from '../../ledger/core/storage';
import { requireDocument } from '../../ledger/documents/documents';
import { calling } from './client';
import { stripeMinorOf } from './rows';

export interface PaymentLink {
  invoice: string;
  id: string;
  url: string;
  /** Taking money: false once the invoice is paid (or voided) and the link switched off. */
  active: boolean;
}

interface LinkRow {
  id: string;
  number: string;
  state: string;
  currency: string;
  total_minor: number;
  settled_minor: number;
  payment_link_id: string | null;
  payment_link_url: string | null;
  payment_link_closed_at: string | null;
}

const linkOf = (d: LinkRow): PaymentLink | null =>
  d.payment_link_id && d.payment_link_url ? { invoice: d.number, id: d.payment_link_id, url: d.payment_link_url, active: d.payment_link_closed_at === null } : null;

/** An invoice's payment link, or null. */
export async function paymentLinkOf(ledger: Ledger, orgSeq: number, invoiceRef: string): Promise<PaymentLink | null> {
  return linkOf((await requireDocument(ledger, orgSeq, ['invoice'], invoiceRef)) as unknown as LinkRow);
}

/** The invoice a link can be made for: issued, something due; refused in words otherwise. */
function dueOf(d: LinkRow): number {
  if (d.state !== 'issued')
    throw new LedgerError('conflict', `Invoice ${d.number} is ${d.state}: a payment link is made for an issued invoice.`, { invoice: d.number, state: d.state });
  const due = d.total_minor - d.settled_minor;
  if (due <= 0) throw new LedgerError('conflict', `Invoice ${d.number} has nothing due: no payment link is needed.`, { invoice: d.number });
  return due;
}

/**
 * A Stripe payment link for an invoice's amount due, stored on the invoice and audited. An invoice whose link still
 * takes money keeps it (the same link is answered). `stripe` is the client of the Stripe connector's key, which must
 * be allowed to write Prices and Payment Links (docs/connectors-stripe.md).
 */
export async function createPaymentLink(ledger: Ledger, orgSeq: number, actor: Actor, invoiceId: string, stripe: Stripe): Promise<PaymentLink> {
  const doc = (await requireDocument(ledger, orgSeq, ['invoice'], invoiceId)) as unknown as LinkRow;
  const kept = linkOf(doc);
  if (kept?.active) return kept;
  const due = dueOf(doc);
  const org = (await ledger.stmt('SELECT id, name FROM organizations WHERE seq = ?').get(orgSeq)) as { id: string; name: string };
  const metadata = { invoice_number: doc.number, invoice_id: doc.id, organization: org.id };
  const currency = doc.currency.toLowerCase();
  // One Price and one link per invoice and amount, even when a person clicks twice or a call is retried.
  const key = `ledgerdesk-${doc.id}-${due}`;
  const price = await calling(() =>
    stripe.prices.create(
      { currency, unit_amount: stripeMinorOf(due, doc.currency), product_data: { name: `Invoice ${doc.number} from ${org.name}` }, metadata },
      { idempotencyKey: `${key}-price` },
    ),
  );
  const link = await calling(() =>
    stripe.paymentLinks.create(
      {
        line_items: [{ price: price.id, quantity: 1 }],
        metadata,
        payment_intent_data: { metadata, description: `Invoice ${doc.number}` },
        restrictions: { completed_sessions: { limit: 1 } },
      },
      { idempotencyKey: `${key}-link` },
    ),
  );
  return ledger.write(async () => {
    await ledger
      .stmt('UPDATE documents SET payment_link_id = ?, payment_link_url = ?, payment_link_closed_at = NULL WHERE org_seq = ? AND id = ?')
      .run(link.id, link.url, orgSeq, doc.id);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'invoice.payment_link',
      targetType: 'document',
      targetId: doc.id,
      summary: `Stripe payment link ${link.id} made for invoice ${doc.number}: ${fromMinor(due, doc.currency)} ${doc.currency} due, ${link.url}`,
    });
    return { invoice: doc.number, id: link.id, url: link.url, active: true };
  });
}

/**
 * Switches off the links of invoices that no longer ask for money (paid, credited or voided), each recorded and
 * audited once Stripe said so. Run after the write that paid them (the sync, the webhook), never inside it.
 */
export async function closePaidLinks(ledger: Ledger, orgSeq: number, actor: Actor, stripe: Stripe): Promise<PaymentLink[]> {
  const paid = await ledger.rows<LinkRow>(
    "SELECT * FROM documents WHERE org_seq = ? AND kind = 'invoice' AND payment_link_id IS NOT NULL AND payment_link_closed_at IS NULL AND (state <> 'issued' OR settled_minor >= total_minor) ORDER BY seq",
    orgSeq,
  );
  const closed: PaymentLink[] = [];
  for (const d of paid) {
    await calling(() => stripe.paymentLinks.update(d.payment_link_id!, { active: false }));
    await ledger.write(async () => {
      await ledger.stmt('UPDATE documents SET payment_link_closed_at = ? WHERE org_seq = ? AND id = ?').run(nowIso(), orgSeq, d.id);
      await appendAudit(ledger, orgSeq, actor, {
        action: 'invoice.payment_link_closed',
        targetType: 'document',
        targetId: d.id,
        summary: `Stripe payment link ${d.payment_link_id} of invoice ${d.number} switched off: the invoice is ${d.state === 'issued' ? 'paid' : d.state}`,
      });
    });
    closed.push({ invoice: d.number, id: d.payment_link_id!, url: d.payment_link_url!, active: false });
  }
  return closed;
}

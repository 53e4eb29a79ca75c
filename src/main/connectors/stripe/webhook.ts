// Stripe's webhook (issue 53): `checkout.session.completed` of a payment link
// pays its invoice before the next sync. The event is verified with the
// organization's endpoint secret on the raw body (stripe.webhooks.
// constructEvent), its payment's balance transaction fetched with the
// connector's key, and that one transaction written as the sync would write
// it (the same rows, the same externalIds, the same settle) into the Stripe
// balance account: the sync then finds those ids and skips them, and a
// payment the sync brought first is not written again. The event id is kept
// on the invoice, so an event Stripe sends twice pays nothing twice.
import type Stripe from 'stripe';
import { appendAudit, type Actor } from '../../ledger/access/audit';
import { insertAccount } from '../../ledger/accounts/accounts';
import { newId, nowIso } from '../../ledger/core/clock';
import { decimalToMinor } from '../../ledger/core/money';
import type { Ledger } from '../../ledger/core/storage';
import { insertTransaction } from '../../ledger/transactions/insert';
import type { SettledRow } from '../provider';
import { calling } from './client';
import { closePaidLinks } from './links';
import { rowsOf, type BalanceTxn } from './rows';
import { settleStripe } from './settle';

/** Who the webhook's writes are recorded as. */
export const STRIPE_ACTOR: Actor = { type: 'human', userId: 'ledgerdesk', name: 'Stripe (webhook)', channel: 'desk' };

export interface WebhookOutcome {
  event: string;
  /** What it did: paid (rows written), already (the sync or an earlier event had it), ignored (not a payment link's). */
  outcome: 'paid' | 'already' | 'ignored';
  invoice?: string;
}

/** The organization's open Stripe balance account of a currency (a payment-processor account), made when there is none. */
export async function stripeBalanceAccount(ledger: Ledger, orgSeq: number, actor: Actor, currency: string): Promise<number> {
  const found = (await ledger
    .stmt("SELECT seq FROM accounts WHERE org_seq = ? AND currency = ? AND type = 'payment_processor' AND closed_at IS NULL ORDER BY seq LIMIT 1")
    .pluck()
    .get(orgSeq, currency)) as number | undefined;
  return found ?? (await insertAccount(ledger, orgSeq, actor, { name: `Stripe balance (${currency})`, type: 'payment_processor', currency })).seq;
}

/** The balance transaction of a checkout's payment, with its charge (and the charge's metadata) as its source. */
async function paymentOf(stripe: Stripe, session: Stripe.Checkout.Session): Promise<BalanceTxn> {
  const piId = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  if (!piId) throw new Error(`checkout session ${session.id} has no payment intent`);
  const pi = await calling(() => stripe.paymentIntents.retrieve(piId, { expand: ['latest_charge.balance_transaction'] }));
  const charge = pi.latest_charge as Stripe.Charge;
  const txn = charge.balance_transaction as Stripe.BalanceTransaction;
  return { ...(txn as unknown as BalanceTxn), source: { id: charge.id, object: 'charge', metadata: { ...pi.metadata, ...charge.metadata } } };
}

/** Writes the rows of one balance transaction the account does not hold yet, and settles them; the rows written. */
async function writeRows(ledger: Ledger, orgSeq: number, actor: Actor, txn: BalanceTxn): Promise<SettledRow[]> {
  const currency = txn.currency.toUpperCase();
  const accountSeq = await stripeBalanceAccount(ledger, orgSeq, actor, currency);
  const accountId = (await ledger.stmt('SELECT id FROM accounts WHERE seq = ?').pluck().get(accountSeq)) as string;
  const written: SettledRow[] = [];
  for (const row of rowsOf(txn)) {
    if (await ledger.stmt('SELECT 1 FROM transactions WHERE account_seq = ? AND external_id = ?').get(accountSeq, row.externalId)) continue;
    const id = newId();
    const amountMinor = decimalToMinor(row.amount, currency);
    if (typeof amountMinor === 'string') throw new RangeError(amountMinor);
    await insertTransaction(ledger, orgSeq, {
      id,
      accountSeq,
      origin: 'feed',
      date: row.date,
      amountMinor,
      currency,
      description: row.description,
      categorySeq: null,
      source: 'paymentproc',
      externalId: row.externalId,
      createdAt: nowIso(),
    });
    written.push({ transactionId: id, accountId, row });
  }
  await settleStripe(ledger, orgSeq, actor, written);
  return written;
}

/**
 * A verified event, applied: a payment link's completed checkout pays its invoice (in one write with its audit
 * entry and the event id), then the paid invoice's link is switched off. Anything else is acknowledged and ignored.
 */
export async function applyStripeEvent(ledger: Ledger, orgSeq: number, event: Stripe.Event, stripe: Stripe): Promise<WebhookOutcome> {
  if (event.type !== 'checkout.session.completed') return { event: event.id, outcome: 'ignored' };
  const session = event.data.object;
  const invoiceId = session.metadata?.invoice_id;
  if (!session.payment_link || !invoiceId || session.payment_status !== 'paid') return { event: event.id, outcome: 'ignored' };
  const doc = (await ledger.stmt("SELECT id, number, payment_link_event FROM documents WHERE org_seq = ? AND kind = 'invoice' AND id = ?").get(orgSeq, invoiceId)) as
    { id: string; number: string; payment_link_event: string | null } | undefined;
  if (!doc) return { event: event.id, outcome: 'ignored' };
  if (doc.payment_link_event === event.id) return { event: event.id, outcome: 'already', invoice: doc.number };
  const txn = await paymentOf(stripe, session);
  const written = await ledger.write(async () => {
    const rows = await writeRows(ledger, orgSeq, STRIPE_ACTOR, txn);
    await ledger.stmt('UPDATE documents SET payment_link_event = ? WHERE org_seq = ? AND id = ?').run(event.id, orgSeq, doc.id);
    await appendAudit(ledger, orgSeq, STRIPE_ACTOR, {
      action: 'invoice.payment_link_paid',
      targetType: 'document',
      targetId: doc.id,
      summary: `Stripe event ${event.id}: checkout ${session.id} of payment link ${String(session.payment_link)} completed for invoice ${doc.number}; ${
        rows.length ? `its payment ${txn.id} written (${rows.length} row(s))` : `its payment ${txn.id} was already in the books`
      }`,
    });
    return rows;
  });
  await closePaidLinks(ledger, orgSeq, STRIPE_ACTOR, stripe);
  return { event: event.id, outcome: written.length ? 'paid' : 'already', invoice: doc.number };
}

// Stripe through the connectors' real sync (issues 52, 53): a connector added
// with a restricted key (sealed, never answered), its balance mapped, a customer
// paying an invoice's payment link, then "sync now": the charge and its fee
// land in the Stripe balance account as payment-processor rows, the fee an
// expense, the invoice paid, and the link switched off once the sync's write
// committed (the provider's afterSync). A second sync writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as L from '../src/main/ledger';
import { startStripeDouble, type StripeDouble } from './doubles/stripe';
import { stripeBooks, type StripeBooks } from './support/stripe-books';

const KEY = 'rk_test_51SyncReaderKeyNeverShown';
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
let stripe: StripeDouble;
let b: StripeBooks;

beforeAll(async () => {
  stripe = await startStripeDouble(KEY);
  stripe.balance = { ...stripe.balance, available: [{ amount: 0, currency: 'gbp' }] };
  process.env.LEDGERDESK_STRIPE_URL = stripe.url;
  b = await stripeBooks('stripe-sync');
});
afterAll(async () => {
  delete process.env.LEDGERDESK_STRIPE_URL;
  await stripe.close();
});

describe('a Stripe connector synced', () => {
  it('brings a paid payment link in as a charge and its fee, pays the invoice, and switches the link off', async () => {
    const added = await b.desk<{ name: string; provider: string; accounts: { name: string }[] }>('addStripeConnector', { key: KEY, account: 'Stripe balance (GBP)' });
    expect([added.name, added.provider, added.accounts.map((a) => a.name)]).toEqual(['Stripe', 'stripe', ['Stripe balance (GBP)']]);
    expect(JSON.stringify(added)).not.toContain(KEY);
    await expect(b.desk('addStripeConnector', { name: 'Other', key: 'not-a-key' })).rejects.toMatchObject({ code: 'validation_failed' });

    const invoice = await b.desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', date: isoDay(Date.now() - 5 * DAY), issue: true, lines: ['Design;1;240.50;4000;Z'] });
    const link = await b.desk<{ id: string }>('makePaymentLink', { number: invoice.number });
    stripe.payLink(link.id, 380, Math.floor((Date.now() - DAY) / 1000));

    const report = await b.desk<{ outcome: string; accounts: { imported: number }[] }>('syncConnector', { connector: 'Stripe' });
    expect([report.outcome, report.accounts.map((a) => a.imported)]).toEqual(['ok', [2]]);
    const rows = (await b.ctx.ledger.forOrg(b.org.seq, () =>
      b.ctx.ledger
        .stmt(
          "SELECT t.amount_minor AS amount, t.source, c.name AS category FROM transactions t JOIN accounts a ON a.seq = t.account_seq LEFT JOIN categories c ON c.seq = t.category_seq WHERE a.name = 'Stripe balance (GBP)' ORDER BY t.amount_minor",
        )
        .all(),
    )) as { amount: number; source: string; category: string | null }[];
    expect(rows.map((r) => [r.amount, r.source])).toEqual([
      [-380, 'paymentproc'],
      [24050, 'paymentproc'],
    ]);
    expect(rows[0].category).toBe('Payment processing fees');
    expect((await b.desk<L.Document>('showInvoice', { number: invoice.number })).status).toBe('paid');
    expect(stripe.links.get(link.id)!.active).toBe(false);

    const again = await b.desk<{ accounts: { imported: number }[] }>('syncConnector', { connector: 'Stripe' });
    expect(again.accounts.map((a) => a.imported)).toEqual([0]);
  });
});

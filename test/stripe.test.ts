// Stripe as a feed (issue 52), against the double of Stripe's API driven by the
// official `stripe` client over loopback: each balance transaction's rows
// exact to the penny (and the yen), the cursor resuming without a gap or a
// duplicate, the balance, Stripe's failures in words (never the key), and the
// rows settled in the sync's write: the fee to the processing-fees expense, a
// charge naming an invoice paying it, a charge naming none left to a person,
// and the payout matched with the bank's deposit by the transfer matcher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { OutsideError } from '../src/main/edge/http';
import type { FeedAccount } from '../src/main/connectors/provider';
import { stripeProvider, type StripeCredentials } from '../src/main/connectors/stripe/provider';
import { startStripeDouble, type StripeDouble } from './doubles/stripe';
import { stripeBooks, type StripeBooks } from './support/stripe-books';

const KEY = 'rk_test_51SecretRestrictedKeyNeverShown';
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
let stripe: StripeDouble;
const ctxOf = (key = KEY) => ({ credentials: { key } as StripeCredentials, baseUrl: stripe.url, now: new Date('2026-03-31T12:00:00Z') });
const GBP: FeedAccount = { id: 'gbp', name: 'Stripe balance (GBP)', currency: 'GBP' };
const JPY: FeedAccount = { id: 'jpy', name: 'Stripe balance (JPY)', currency: 'JPY' };

async function allRows(account: FeedAccount, cursor: string | null = null) {
  const rows = [];
  for (;;) {
    const page = await stripeProvider.rows(ctxOf(), account, cursor, '2026-03-01');
    if (!page.next) return { rows, cursor };
    rows.push(...page.rows);
    cursor = page.next;
  }
}

beforeAll(async () => {
  stripe = await startStripeDouble(KEY);
});
afterAll(() => stripe.close());

describe('rows of balance transactions', () => {
  let cursor: string | null = null;

  it('splits charges, fees, a refund, a dispute and a payout exactly, in GBP and in JPY', async () => {
    stripe.charge({ amount: 12000, fee: 194, created: at('2026-03-02T10:00:00Z'), description: 'Design work', metadata: { invoice_number: 'INV-0001' } });
    stripe.charge({ amount: 1999, fee: 49, created: at('2026-03-02T10:00:00Z') });
    stripe.refund({ amount: -1999, created: at('2026-03-03T09:00:00Z') });
    stripe.dispute({ amount: -5000, fee: 2000, created: at('2026-03-04T09:00:00Z') });
    stripe.payout({ amount: -4757, created: at('2026-03-05T09:00:00Z') });
    stripe.charge({ amount: 1200, fee: 43, currency: 'jpy', created: at('2026-03-02T11:00:00Z') });
    const got = await allRows(GBP);
    cursor = got.cursor;
    expect(got.rows.map((r) => [r.kind, r.amount, r.date, r.invoiceNumber ?? null])).toEqual([
      ['charge', '120.00', '2026-03-02', 'INV-0001'],
      ['fee', '-1.94', '2026-03-02', null],
      ['charge', '19.99', '2026-03-02', null],
      ['fee', '-0.49', '2026-03-02', null],
      ['refund', '-19.99', '2026-03-03', null],
      ['dispute', '-50.00', '2026-03-04', null],
      ['fee', '-20.00', '2026-03-04', null],
      ['payout', '-47.57', '2026-03-05', null],
    ]);
    expect(got.rows[1].externalId).toBe(`${got.rows[0].externalId}:fee`);
    expect(got.rows.every((r) => r.pending === false)).toBe(true);
    expect((await allRows(JPY)).rows.map((r) => [r.kind, r.amount])).toEqual([
      ['charge', '1200'],
      ['fee', '-43'],
    ]);
  });

  it('resumes from its cursor: a transaction made in the same second as the last one taken comes, nothing twice', async () => {
    stripe.charge({ amount: 500, fee: 27, created: at('2026-03-05T09:00:00Z') });
    stripe.charge({ amount: 700, fee: 30, created: at('2026-03-06T09:00:00Z') });
    const again = await allRows(GBP, cursor);
    expect(again.rows.map((r) => r.amount)).toEqual(['5.00', '-0.27', '7.00', '-0.30']);
    expect((await allRows(GBP, again.cursor)).rows).toEqual([]);
  });

  it("lists one account per currency of the balance, and states Stripe's balance", async () => {
    stripe.balance = {
      ...stripe.balance,
      available: [{ amount: 1234, currency: 'gbp' }],
      pending: [
        { amount: 56, currency: 'gbp' },
        { amount: 900, currency: 'jpy' },
      ],
    };
    expect(await stripeProvider.accounts(ctxOf())).toEqual([
      { id: 'gbp', name: 'Stripe balance (GBP)', currency: 'GBP' },
      { id: 'jpy', name: 'Stripe balance (JPY)', currency: 'JPY' },
    ]);
    expect(await stripeProvider.balances(ctxOf(), GBP)).toEqual([
      { date: '2026-03-31', amount: '12.34', kind: 'available' },
      { date: '2026-03-31', amount: '0.56', kind: 'pending' },
    ]);
  });
});

describe("Stripe's failures, in words", () => {
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (e: unknown) => e as OutsideError,
    );

  it('a wrong key is unauthorized, and neither key is in the message', async () => {
    const e = await failure(stripeProvider.accounts(ctxOf('rk_test_51WrongKeyAlsoSecret')));
    expect(e).toBeInstanceOf(OutsideError);
    expect(e.reason).toBe('unauthorized');
    expect(JSON.stringify({ message: e.message, extra: e.extra })).not.toMatch(/WrongKeyAlsoSecret|SecretRestrictedKey/);
  });

  it("429 is rate_limited with Stripe's Retry-After; 500s, after the client's retries, unavailable", async () => {
    stripe.fail(429, 1, 42);
    const limited = await failure(stripeProvider.accounts(ctxOf()));
    expect([limited.reason, limited.extra.retryAfterSeconds]).toEqual(['rate_limited', 42]);
    stripe.fail(500, 3);
    expect((await failure(stripeProvider.rows(ctxOf(), GBP, null, '2026-03-01'))).reason).toBe('unavailable');
    expect(stripe.calls.every((c) => !JSON.stringify(c.form).includes(KEY))).toBe(true);
  });
});

describe('settled in the sync’s write', () => {
  let b: StripeBooks;
  const lines = (id: string) =>
    b.ctx.ledger.rows<{ kind: string; category: string | null; amount_minor: number }>(
      'SELECT l.kind, c.name AS category, l.amount_minor FROM lines l JOIN transactions t ON t.seq = l.transaction_seq LEFT JOIN categories c ON c.seq = l.category_seq WHERE t.id = ? ORDER BY l.position',
      id,
    );

  beforeAll(async () => {
    b = await stripeBooks('stripe-settle');
  });

  it('fees go to Payment processing fees (added once, audited); a charge naming an invoice pays it; one naming none stays uncategorized', async () => {
    const invoice = await b.desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', date: '2026-03-01', issue: true, lines: ['Design;1;120;4000;Z'] });
    stripe.txns.length = 0;
    stripe.charge({ amount: 12000, fee: 194, created: at('2026-03-10T10:00:00Z'), metadata: { invoice_number: invoice.number } });
    stripe.charge({ amount: 2500, fee: 56, created: at('2026-03-10T11:00:00Z') });
    const written = await b.sync((await allRows(GBP)).rows, stripeProvider);
    expect(written.map((w) => w.row.kind)).toEqual(['charge', 'fee', 'charge', 'fee']);
    const fees = await L.listCategories(b.ctx.ledger, b.org.seq);
    expect(fees.filter((c) => c.name === 'Payment processing fees')).toEqual([expect.objectContaining({ code: '6720', type: 'expense' })]);
    for (const fee of [written[1], written[3]]) expect((await lines(fee.transactionId)).map((l) => l.category)).toEqual(['Payment processing fees']);
    expect((await lines(written[0].transactionId)).map((l) => l.kind)).toEqual(['receivable']);
    expect((await b.desk<L.Document>('showInvoice', { number: invoice.number })).status).toBe('paid');
    expect((await lines(written[2].transactionId)).map((l) => l.kind)).toEqual(['suspense']);
    const audit = await b.ctx.ledger.rows<{ action: string; summary: string }>('SELECT action, summary FROM audit_log WHERE org_seq = ? ORDER BY seq', b.org.seq);
    expect(audit.filter((a) => a.action === 'transaction.categorized' && a.summary.includes('processing fee'))).toHaveLength(2);
    expect(audit.some((a) => a.action === 'transaction.payment' && a.summary.includes(invoice.number))).toBe(true);
  });

  it('a payout is a transfer out of the Stripe balance that the matcher pairs with the bank’s deposit', async () => {
    stripe.txns.length = 0;
    stripe.payout({ amount: -14250, created: at('2026-03-12T08:00:00Z') });
    const [payout] = await b.sync((await allRows(GBP)).rows, stripeProvider);
    expect(payout.row).toMatchObject({ kind: 'payout', amount: '-142.50' });
    const deposit = await b.desk<{ id: string }>('addTransaction', { account: 'Current', date: '2026-03-14', amount: '142.50', description: 'STRIPE PAYMENTS UK' });
    const possible = await L.suggestTransfers(b.ctx.ledger, b.org.seq);
    expect(possible.data.map((p) => [p.from.id, p.to.id, p.unique])).toEqual([[payout.transactionId, deposit.id, true]]);
    await L.matchTransfer(b.ctx.ledger, b.org.seq, L.deskActor(), payout.transactionId, deposit.id);
    expect((await lines(payout.transactionId)).map((l) => l.kind)).toEqual(['transfer']);
  });
});

// Payment links (issue 53) against the Stripe double: a link made for an
// invoice's amount due (a Price and a Payment Link, metadata naming the
// invoice and the organization, one completed checkout), kept on the invoice
// and printed on its PDF with a QR code; paid through the sync's settle (the
// invoice paid, its fee an expense, the link switched off), or through
// Stripe's webhook, once even when the event comes twice and the sync brings
// the same payment; a bad signature refused with nothing written; the key and
// the secret in no answer, log or error.
import { execFileSync } from 'node:child_process';
import type Stripe from 'stripe';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { startServer, type RunningServer } from '../src/main/api/server';
import { stripeClient } from '../src/main/connectors/stripe/client';
import { stripeCredentialsFrom } from '../src/main/connectors/stripe/credentials';
import { closePaidLinks, createPaymentLink, type PaymentLink } from '../src/main/connectors/stripe/links';
import { stripeProvider } from '../src/main/connectors/stripe/provider';
import { signedEvent, startStripeDouble, type StripeDouble } from './doubles/stripe';
import { deskAs } from './support/desk';
import { rawRequest } from './support/env';
import { stripeBooks, type StripeBooks } from './support/stripe-books';

const KEY = 'rk_test_51LinkWriterKeyNeverShown';
const SECRET = 'whsec_EndpointSecretNeverShown';
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
let stripe: StripeDouble;
let b: StripeBooks;
let server: RunningServer;
const logged: string[] = [];
let client: () => Stripe;
const invoice = (amount: string) => b.desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', date: '2026-03-01', issue: true, lines: [`Design;1;${amount};4000;Z`] });
const show = (number: string) => b.desk<L.Document>('showInvoice', { number });
const syncAll = async () => {
  const page = await stripeProvider.rows(
    { credentials: { key: KEY }, baseUrl: stripe.url, now: new Date() },
    { id: 'gbp', name: 'Stripe balance (GBP)', currency: 'GBP' },
    null,
    '2026-03-01',
  );
  return b.sync(page.rows, stripeProvider);
};
const count = async () => Number(await b.ctx.ledger.stmt('SELECT count(*) FROM transactions WHERE org_seq = ?').pluck().get(b.org.seq));
const post = (body: string, signature: string) =>
  rawRequest(`${server.url}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });

let restoreCredentials: () => void = () => undefined;

beforeAll(async () => {
  stripe = await startStripeDouble(KEY);
  const made = await stripeClient(KEY, stripe.url);
  client = () => made;
  b = await stripeBooks('stripe-links');
  // What the connectors' core does at start: the organization's Stripe connector's key and secret; its address.
  process.env.LEDGERDESK_STRIPE_URL = stripe.url;
  restoreCredentials = stripeCredentialsFrom((_ledger, orgSeq) => Promise.resolve(orgSeq === b.org.seq ? { key: KEY, webhookSecret: SECRET } : null));
  server = await startServer({ ledger: b.ctx.ledger, port: 0, log: (m) => logged.push(m) });
});
afterAll(async () => {
  restoreCredentials();
  delete process.env.LEDGERDESK_STRIPE_URL;
  await server.close();
  await stripe.close();
});

describe('a payment link', () => {
  let number: string;
  let link: Awaited<ReturnType<typeof createPaymentLink>>;

  it('is a Price for the amount due and a Payment Link taking one checkout, naming the invoice, kept on it and audited', async () => {
    number = (await invoice('240.50')).number;
    const inv = await show(number);
    link = await createPaymentLink(b.ctx.ledger, b.org.seq, L.deskActor(), number, client());
    expect(link).toMatchObject({ invoice: number, active: true, url: expect.stringMatching(/^https:\/\/buy\.stripe\.com\//) });
    const [price, made] = stripe.calls.filter((c) => c.method === 'POST');
    const metadata = { invoice_number: number, invoice_id: inv.id, organization: b.org.id };
    expect(price).toMatchObject({ path: '/v1/prices', form: { currency: 'gbp', unit_amount: '24050', metadata, product_data: { name: `Invoice ${number} from Hartley Studio` } } });
    expect(made).toMatchObject({
      path: '/v1/payment_links',
      form: { metadata, payment_intent_data: { metadata }, restrictions: { completed_sessions: { limit: '1' } }, line_items: [{ quantity: '1' }] },
    });
    expect(await createPaymentLink(b.ctx.ledger, b.org.seq, L.deskActor(), number, client())).toEqual(link);
    expect(stripe.calls.filter((c) => c.path === '/v1/payment_links')).toHaveLength(1);
    const audit = await b.ctx.ledger.rows<{ summary: string }>("SELECT summary FROM audit_log WHERE org_seq = ? AND action = 'invoice.payment_link'", b.org.seq);
    expect(audit).toHaveLength(1);
  });

  it('is refused in words, Stripe never called, for an organization without a Stripe connector', async () => {
    const other = await L.createOrganization(b.ctx.ledger, { slug: 'no-stripe', name: 'Other Ltd', currency: 'GBP' });
    const calls = stripe.calls.length;
    await expect(deskAs(b.ctx, other.id, 'makePaymentLink', { number })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'no_stripe_connector' } });
    expect(stripe.calls.length).toBe(calls);
  });

  it('is on the invoice’s PDF, as a link and a QR code', async () => {
    const file = join(b.ctx.dataDir, `${number}.pdf`);
    await b.desk('invoicePdf', { number, out: file });
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Pay online by card');
    expect(text).toContain(link.url);
    expect(execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })).toMatch(/image\s+240\s+240/);
  });

  it('paid and synced: the invoice is paid, its fee an expense, the link switched off', async () => {
    stripe.payLink(link.id, 380, at('2026-03-20T10:00:00Z'));
    const written = await syncAll();
    expect(written.map((w) => [w.row.kind, w.row.amount, w.row.invoiceNumber])).toEqual([
      ['charge', '240.50', number],
      ['fee', '-3.80', null],
    ]);
    expect((await show(number)).status).toBe('paid');
    expect(await closePaidLinks(b.ctx.ledger, b.org.seq, L.deskActor(), client())).toEqual([{ ...link, active: false }]);
    expect(stripe.links.get(link.id)!.active).toBe(false);
    expect(await closePaidLinks(b.ctx.ledger, b.org.seq, L.deskActor(), client())).toEqual([]);
  });
});

describe("Stripe's webhook", () => {
  it('pays the invoice once: the event twice, and the sync after it, write nothing more', async () => {
    const { number } = await invoice('99.99');
    // At the desk (and `ledgerdesk invoice payment-link`): with the organization's Stripe connector's key.
    const link = await b.desk<PaymentLink>('makePaymentLink', { number });
    expect(await b.desk('invoicePaymentLink', { number })).toEqual(link);
    const event = stripe.payLink(link.id, 165, at('2026-03-21T10:00:00Z'));
    const before = await count();
    const signed = signedEvent(event, SECRET);
    const first = await post(signed.body, signed.signature);
    expect([first.status, JSON.parse(first.body)]).toEqual([200, { received: true, event: event.id, outcome: 'paid', invoice: number }]);
    expect(await count()).toBe(before + 2);
    expect((await show(number)).status).toBe('paid');
    expect(stripe.links.get(link.id)!.active).toBe(false);
    const again = await post(signed.body, signed.signature);
    expect(JSON.parse(again.body)).toMatchObject({ outcome: 'already' });
    expect(await syncAll()).toEqual([]);
    expect(await count()).toBe(before + 2);
  });

  it('after the sync brought the payment: acknowledged, nothing written twice', async () => {
    const { number } = await invoice('10.00');
    const link = await createPaymentLink(b.ctx.ledger, b.org.seq, L.deskActor(), number, client());
    const event = stripe.payLink(link.id, 35, at('2026-03-22T10:00:00Z'));
    expect(await syncAll()).toHaveLength(2);
    const before = await count();
    const signed = signedEvent(event, SECRET);
    expect(JSON.parse((await post(signed.body, signed.signature)).body)).toMatchObject({ outcome: 'already', invoice: number });
    expect(await count()).toBe(before);
    expect((await show(number)).paid).toBe(10);
  });

  it('refuses a bad signature with 400 in the error envelope, writing nothing; neither secret nor key is in an answer or the log', async () => {
    const { number } = await invoice('50.00');
    const link = await createPaymentLink(b.ctx.ledger, b.org.seq, L.deskActor(), number, client());
    const event = stripe.payLink(link.id, 100, at('2026-03-23T10:00:00Z'));
    const before = await count();
    const forged = signedEvent(event, 'whsec_SomeoneElse');
    const tampered = signedEvent(event, SECRET);
    const answers = [await post(forged.body, forged.signature), await post(tampered.body.replace('"paid"', '"paid" '), tampered.signature), await post(tampered.body, '')];
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(JSON.parse(a.body)).toMatchObject({ error: { code: 'validation_failed', details: [{ field: 'Stripe-Signature' }] } });
    }
    expect(await count()).toBe(before);
    expect((await show(number)).status).not.toBe('paid');
    const said = [...answers.map((a) => a.body), ...logged].join('\n');
    expect(said).not.toContain(SECRET);
    expect(said).not.toContain(KEY);
  });
});

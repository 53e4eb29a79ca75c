// A double of Stripe's API (issues 52 and 53) over real HTTP on 127.0.0.1,
// written from stripe/openapi's spec3.json and fixtures3.json and answering
// the official `stripe` client: form-encoded requests, `Authorization:
// Bearer <key>`, list objects with has_more and starting_after, `expand`.
// It keeps balance transactions (charges with fees, refunds, disputes,
// payouts), the balance, prices, payment links and the payments made through
// them, and signs webhook events as Stripe does (Stripe-Signature: t=,v1=
// HMAC-SHA256 of "t.payload"). Scripted failures: a wrong key is 401, and
// `fail(status, times)` answers the next calls with a 429 or a 500.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;
export interface Call {
  method: string;
  path: string;
  form: Json;
}

/** `a[b][0][c]=v` pairs as nested objects (arrays as objects keyed by index, turned into arrays). */
export function parseForm(text: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let at = out;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) at[p] = value;
      else at = (at[p] ??= {}) as Json;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Json;
    const keys = Object.keys(o);
    if (keys.length && keys.every((k, i) => k === String(i))) return keys.map((k) => arrays(o[k]));
    return Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
  };
  return arrays(out) as Json;
}

/** What Stripe sends a webhook: the body and its Stripe-Signature header, signed with an endpoint secret. */
export function signedEvent(event: Json, secret: string, at = Math.floor(Date.now() / 1000)): { body: string; signature: string } {
  const body = JSON.stringify(event, null, 2);
  const v1 = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return { body, signature: `t=${at},v1=${v1}` };
}

export interface TxnInput {
  amount: number;
  fee?: number;
  currency?: string;
  /** Unix seconds. */
  created: number;
  description?: string;
  metadata?: Record<string, string>;
}

export class StripeDouble {
  url = '';
  readonly calls: Call[] = [];
  readonly txns: Json[] = [];
  readonly sources = new Map<string, Json>();
  readonly prices = new Map<string, Json>();
  readonly links = new Map<string, Json>();
  readonly intents = new Map<string, Json>();
  balance: Json = { object: 'balance', livemode: false, available: [], pending: [], connect_reserved: [] };
  private n = 0;
  private failures: { status: number; retryAfter?: number }[] = [];
  private server: Server | null = null;

  constructor(readonly key: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close = (): Promise<void> => new Promise((r) => (this.server ? this.server.close(() => r()) : r()));

  /** The next `times` calls answer `status` (429 with Retry-After, 500). */
  fail(status: number, times = 1, retryAfter?: number): void {
    for (let i = 0; i < times; i++) this.failures.push({ status, retryAfter });
  }

  private id = (prefix: string) => `${prefix}_${String(++this.n).padStart(6, '0')}`;

  private txn(type: string, reporting: string, source: Json, t: TxnInput): Json {
    const txn = {
      id: this.id('txn'),
      object: 'balance_transaction',
      amount: t.amount,
      available_on: t.created + 2 * 86400,
      created: t.created,
      currency: t.currency ?? 'gbp',
      description: t.description ?? null,
      exchange_rate: null,
      fee: t.fee ?? 0,
      fee_details: t.fee ? [{ amount: t.fee, currency: t.currency ?? 'gbp', description: 'Stripe processing fees', type: 'stripe_fee' }] : [],
      net: t.amount - (t.fee ?? 0),
      reporting_category: reporting,
      source: source.id,
      status: 'pending',
      type,
      balance_type: 'payments',
    };
    this.sources.set(source.id as string, { ...source, balance_transaction: txn.id });
    this.txns.push(txn);
    return txn;
  }

  charge(t: TxnInput): { txn: Json; charge: Json } {
    const charge = { id: this.id('ch'), object: 'charge', amount: t.amount, currency: t.currency ?? 'gbp', metadata: t.metadata ?? {}, paid: true, status: 'succeeded' };
    return { txn: this.txn('charge', 'charge', charge, t), charge };
  }
  refund(t: TxnInput): Json {
    return this.txn('refund', 'refund', { id: this.id('re'), object: 'refund', amount: -t.amount, metadata: {} }, t);
  }
  dispute(t: TxnInput): Json {
    return this.txn('adjustment', 'dispute', { id: this.id('du'), object: 'dispute', amount: -t.amount, metadata: {} }, t);
  }
  payout(t: TxnInput): Json {
    return this.txn('payout', 'payout', { id: this.id('po'), object: 'payout', amount: -t.amount, metadata: {} }, t);
  }

  /**
   * A customer pays a payment link: a charge carrying the link's payment_intent_data metadata (and its balance
   * transaction, with a fee), and the `checkout.session.completed` event Stripe sends for it.
   */
  payLink(linkId: string, fee: number, created: number): Json {
    const link = this.links.get(linkId)!;
    const price = this.prices.get(((link.line_items as Json[])[0] as Json).price as string)!;
    const metadata = ((link.payment_intent_data as Json | undefined)?.metadata ?? {}) as Record<string, string>;
    const { charge } = this.charge({ amount: Number(price.unit_amount), fee, currency: price.currency as string, created, metadata });
    const pi = { id: this.id('pi'), object: 'payment_intent', amount: price.unit_amount, currency: price.currency, metadata, latest_charge: charge.id, status: 'succeeded' };
    this.intents.set(pi.id, pi);
    const session = {
      id: this.id('cs_test'),
      object: 'checkout.session',
      amount_total: price.unit_amount,
      currency: price.currency,
      created,
      metadata: link.metadata,
      mode: 'payment',
      payment_intent: pi.id,
      payment_link: linkId,
      payment_status: 'paid',
      status: 'complete',
    };
    return {
      id: this.id('evt'),
      object: 'event',
      api_version: '2025-02-24.acacia',
      created,
      livemode: false,
      pending_webhooks: 1,
      type: 'checkout.session.completed',
      data: { object: session },
    };
  }

  private list(q: Json): Json {
    const created = (q.created ?? {}) as Json;
    const expand = Object.values((q.expand ?? {}) as Json).includes('data.source');
    const all = this.txns
      .filter((t) => created.gte === undefined || Number(t.created) >= Number(created.gte))
      .sort((a, b) => Number(b.created) - Number(a.created) || (a.id! < b.id! ? 1 : -1));
    const from = q.starting_after ? all.findIndex((t) => t.id === q.starting_after) + 1 : 0;
    const limit = Number(q.limit ?? 10);
    const page = all.slice(from, from + limit).map((t) => (expand ? { ...t, source: this.sources.get(t.source as string) } : t));
    return { object: 'list', url: '/v1/balance_transactions', has_more: from + limit < all.length, data: page };
  }

  private route(method: string, path: string, form: Json): [number, Json] {
    if (method === 'GET' && path === '/v1/balance') return [200, this.balance];
    if (method === 'GET' && path === '/v1/balance_transactions') return [200, this.list(form)];
    if (method === 'POST' && path === '/v1/prices') {
      const price = {
        id: this.id('price'),
        object: 'price',
        active: true,
        currency: form.currency,
        unit_amount: Number(form.unit_amount),
        product: this.id('prod'),
        type: 'one_time',
        metadata: form.metadata ?? {},
      };
      this.prices.set(price.id, { ...price, product_data: form.product_data });
      return [200, price];
    }
    if (method === 'POST' && path === '/v1/payment_links') {
      const id = this.id('plink');
      const link = { id, object: 'payment_link', active: true, url: `https://buy.stripe.com/test_${id}`, livemode: false, ...form };
      this.links.set(id, link);
      return [200, link];
    }
    const linkId = /^\/v1\/payment_links\/([\w-]+)$/.exec(path)?.[1];
    if (method === 'POST' && linkId && this.links.has(linkId)) {
      const link = { ...this.links.get(linkId)!, ...form, active: form.active === undefined ? this.links.get(linkId)!.active : form.active === 'true' };
      this.links.set(linkId, link);
      return [200, link];
    }
    const piId = /^\/v1\/payment_intents\/([\w-]+)$/.exec(path)?.[1];
    if (method === 'GET' && piId && this.intents.has(piId)) {
      const pi = this.intents.get(piId)!;
      const charge = this.sources.get(pi.latest_charge as string)!;
      const txn = this.txns.find((t) => t.id === charge.balance_transaction);
      return [200, { ...pi, latest_charge: { ...charge, balance_transaction: txn } }];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } }];
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const url = new URL(req.url ?? '/', 'http://double');
    const form = parseForm(req.method === 'GET' ? url.search.slice(1) : text);
    this.calls.push({ method: req.method ?? 'GET', path: url.pathname, form });
    const send = (status: number, body: Json, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.n}`, ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${this.key}`) {
      // Stripe names the key it was given in its message: the client must not pass it on.
      return send(401, { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${String(req.headers.authorization).slice(7)}` } });
    }
    const failure = this.failures.shift();
    if (failure?.status === 429)
      return send(
        429,
        { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly.' } },
        { 'retry-after': String(failure.retryAfter ?? 30), 'stripe-should-retry': 'false' },
      );
    if (failure) return send(failure.status, { error: { type: 'api_error', message: 'Something went wrong on our end.' } });
    const [status, body] = this.route(req.method ?? 'GET', url.pathname, form);
    send(status, body);
  }
}

export const startStripeDouble = (key: string): Promise<StripeDouble> => new StripeDouble(key).start();

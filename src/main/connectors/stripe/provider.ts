// Stripe as a feed (issue 52): one account per currency of the Stripe balance
// ("Stripe balance (GBP)"), its rows from the balance transactions, its
// balances from Stripe's. The key is a restricted key (docs/connectors-stripe.md).
//
// The cursor: Stripe lists balance transactions newest first and takes a
// `created` range, so a page is every transaction created at or after the
// cursor's second, read in full and put oldest first, cut at MAX_TXNS; the
// next cursor is the last second taken and the ids already taken at that
// second (several may share it). `ending_before` would need a transaction
// that still exists and pages backwards; a time and the ids at it resume
// after a crash at any page without a gap or a duplicate. A page that brings
// nothing answers `next: null`.
import type Stripe from 'stripe';
import type { Provider, ProviderContext, FeedAccount, FeedBalance, FeedPage } from '../provider';
import { calling, stripeClient } from './client';
import { closePaidLinks } from './links';
import { decimalOf, rowsOf, type BalanceTxn } from './rows';
import { settleStripe } from './settle';

/** The key; the core's connector storage keeps it sealed and opens it just for a call. */
export interface StripeCredentials {
  key: string;
  /** The webhook endpoint's signing secret (whsec_...), when a server with a public address takes Stripe's events. */
  webhookSecret?: string | null;
}

interface Cursor {
  /** Unix seconds of the last transaction taken. */
  after: number;
  /** The ids taken at that second. */
  seen: string[];
}

/** Transactions per page at most (each is one or two rows). */
export const MAX_TXNS = 500;

const clientOf = (ctx: ProviderContext<StripeCredentials>): Promise<Stripe> => stripeClient(ctx.credentials.key, ctx.baseUrl);

const readCursor = (text: string | null, since: string): Cursor => (text ? (JSON.parse(text) as Cursor) : { after: Math.floor(Date.parse(`${since}T00:00:00Z`) / 1000), seen: [] });

/** Every balance transaction of a currency created at or after a second, oldest first (ties by id), but those already taken. */
async function transactionsFrom(stripe: Stripe, currency: string, cursor: Cursor): Promise<BalanceTxn[]> {
  const found: BalanceTxn[] = [];
  const seen = new Set(cursor.seen);
  await calling(() =>
    stripe.balanceTransactions.list({ created: { gte: cursor.after }, limit: 100, expand: ['data.source'] }).autoPagingEach((t) => {
      if (t.currency.toLowerCase() === currency && !seen.has(t.id)) found.push(t as unknown as BalanceTxn);
    }),
  );
  return found.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export const stripeProvider: Provider<StripeCredentials> = {
  name: 'stripe',
  label: 'Stripe',
  source: 'paymentproc',
  // A key does not lapse: it holds until a person rolls or deletes it.
  consent: () => Promise.resolve({ expiresAt: null }),

  // The links of invoices this sync paid stop taking money (Stripe's one-session limit aside).
  afterSync: async (ledger, orgSeq, actor, ctx) => void (await closePaidLinks(ledger, orgSeq, actor, await clientOf(ctx))),

  async accounts(ctx): Promise<FeedAccount[]> {
    const balance = await calling(async () => (await clientOf(ctx)).balance.retrieve());
    const currencies = [...new Set([...balance.available, ...balance.pending].map((b) => b.currency.toLowerCase()))].sort();
    return currencies.map((c) => ({ id: c, name: `Stripe balance (${c.toUpperCase()})`, currency: c.toUpperCase() }));
  },

  async rows(ctx, account, cursorText, since): Promise<FeedPage> {
    const cursor = readCursor(cursorText, since);
    const txns = (await transactionsFrom(await clientOf(ctx), account.id, cursor)).slice(0, MAX_TXNS);
    if (!txns.length) return { rows: [], next: null };
    const last = txns[txns.length - 1].created;
    const seen = [...(last === cursor.after ? cursor.seen : []), ...txns.filter((t) => t.created === last).map((t) => t.id)];
    return { rows: txns.flatMap(rowsOf), next: JSON.stringify({ after: last, seen } satisfies Cursor) };
  },

  async balances(ctx, account): Promise<FeedBalance[]> {
    const balance = await calling(async () => (await clientOf(ctx)).balance.retrieve());
    const date = ctx.now.toISOString().slice(0, 10);
    return (['available', 'pending'] as const).flatMap((kind) =>
      balance[kind].filter((b) => b.currency.toLowerCase() === account.id).map((b) => ({ date, amount: decimalOf(b.amount, b.currency), kind })),
    );
  },

  settle: settleStripe,
};

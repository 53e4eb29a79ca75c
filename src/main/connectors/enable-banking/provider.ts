// Enable Banking as a feed provider (issue 52): a session's accounts, their
// transactions paged by continuation_key, their balances, and the session's
// consent. The credentials are the application's id and key and the session's
// id (completeConnect makes them); everything else is asked for each time.
import { OutsideError } from '../../edge/http';
import type { Consent, FeedAccount, FeedPage, Provider, ProviderContext } from '../provider';
import { ebCall, lapsedWords, type CallTuning } from './client';
import { AccountResource, GetSessionResponse, HalBalances, HalTransactions } from './contract';
import { SERVICE, type ApplicationCredentials } from './jwt';
import { feedAccount, feedBalances, feedRows } from './mapping';

/** What a connector keeps (sealed): the application's id and private key, and the session the bank's consent made. */
export interface EnableBankingCredentials extends ApplicationCredentials {
  sessionId: string;
}

type Ctx = ProviderContext<EnableBankingCredentials>;

/** Session statuses (SessionStatus) in which the consent no longer holds, in words. */
const ENDED: Record<string, string> = {
  EXPIRED: 'has expired',
  REVOKED: 'was revoked at the bank',
  CLOSED: 'was closed',
  CANCELLED: 'was cancelled',
  INVALID: 'is no longer valid',
};

/** The session, refused in words unless it is authorized and within its validity. */
export async function openSession(ctx: Ctx, tuning?: CallTuning) {
  const session = await ebCall(ctx, 'the session', `/sessions/${encodeURIComponent(ctx.credentials.sessionId)}`, GetSessionResponse, { tuning });
  const ended = ENDED[session.status] ?? (session.status === 'AUTHORIZED' ? null : `is not authorized (${session.status})`);
  const until = Date.parse(session.access.valid_until);
  if (ended) throw new OutsideError(SERVICE, 'unauthorized', lapsedWords(ended), { body: { status: session.status } });
  if (!Number.isNaN(until) && until <= ctx.now.getTime()) throw new OutsideError(SERVICE, 'unauthorized', lapsedWords(`expired on ${session.access.valid_until.slice(0, 10)}`));
  return session;
}

/**
 * The cursor: where a sync stands in a fetch, opaque to the sync. `from` is the date_from the fetch began with (a
 * continuation key is valid only with it, and only within the session); `key` the next page's continuation key.
 */
interface Cursor {
  from: string;
  key: string;
}
const writeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function readCursor(text: string | null): Cursor | null {
  if (!text) return null;
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    return typeof c.from === 'string' && typeof c.key === 'string' ? { from: c.from, key: c.key } : null;
  } catch {
    return null;
  }
}

async function transactionsPage(ctx: Ctx, account: FeedAccount, from: string, key: string | undefined, tuning?: CallTuning) {
  const path = `/accounts/${encodeURIComponent(account.id)}/transactions`;
  return ebCall(ctx, "the account's transactions", path, HalTransactions, { query: { date_from: from, continuation_key: key }, tuning });
}

/** A page of rows from the cursor (or from `since`); a continuation key the bank no longer knows restarts the fetch at its date, the sync telling repeated rows apart by id. */
async function rows(ctx: Ctx, account: FeedAccount, cursor: string | null, since: string, tuning?: CallTuning): Promise<FeedPage> {
  const at = readCursor(cursor);
  const from = at?.from ?? since.slice(0, 10);
  let page;
  try {
    page = await transactionsPage(ctx, account, from, at?.key, tuning);
  } catch (error) {
    const stale = error instanceof OutsideError && at && (error.extra.body as { error?: string } | undefined)?.error === 'WRONG_CONTINUATION_KEY';
    if (!stale) throw error;
    page = await transactionsPage(ctx, account, from, undefined, tuning);
  }
  const key = page.continuation_key || null;
  return { rows: feedRows(page.transactions), next: key ? writeCursor({ from, key }) : null };
}

/** The provider, its calls as patient as `tuning` says (the default: the edge's timeouts and retries). */
export function enableBankingProvider(tuning?: CallTuning): Provider<EnableBankingCredentials> {
  return {
    name: 'enable-banking',
    label: 'Enable Banking (UK and EU banks)',
    source: 'bankfeed',
    async consent(ctx): Promise<Consent> {
      const session = await openSession(ctx, tuning);
      return { expiresAt: new Date(session.access.valid_until).toISOString() };
    },
    async accounts(ctx) {
      const session = await openSession(ctx, tuning);
      const accounts: FeedAccount[] = [];
      for (const uid of session.accounts) {
        const details = await ebCall(ctx, "the account's details", `/accounts/${encodeURIComponent(uid)}/details`, AccountResource, { tuning });
        accounts.push(feedAccount({ ...details, uid }));
      }
      return accounts;
    },
    rows: (ctx, account, cursor, since) => rows(ctx, account, cursor, since, tuning),
    async balances(ctx, account) {
      const path = `/accounts/${encodeURIComponent(account.id)}/balances`;
      const { balances } = await ebCall(ctx, "the account's balances", path, HalBalances, { tuning });
      return feedBalances(balances, ctx.now.toISOString().slice(0, 10));
    },
  };
}

export const enableBanking = enableBankingProvider();

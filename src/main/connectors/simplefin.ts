// SimpleFIN (https://www.simplefin.org/protocol.html), US and Canadian banks
// through the SimpleFIN Bridge or a bank's own server. A person's setup token
// is a base64 claim URL, claimed ONCE with a POST for an access URL carrying
// HTTP Basic credentials; that access URL is the connector's one credential.
// `GET {access}/accounts` answers an Account Set: `errors` (words for the
// person) and `accounts`, each with its transactions: `id` unique within the
// account, `posted` epoch seconds (0 while pending), `amount` a signed numeric
// string, `pending` true until booked. The protocol has no paging: a "page" here
// is a window of dates (`start-date` inclusive, `end-date` exclusive), the
// cursor the start of the next one.
import { callService, OutsideError } from '../edge/http';
import { isLoopback } from '../api/reach';
import type { FeedAccount, FeedBalance, FeedPage, FeedRow, Provider, ProviderContext } from './provider';

export const SERVICE = 'SimpleFIN';

export interface SimplefinCredentials {
  /** The access URL as claimed, Basic credentials in it: sealed at rest, never logged or answered. */
  accessUrl: string;
}

/** The days one request asks for: a first sync of FIRST_SYNC_DAYS is two windows, a later one usually one. */
export const WINDOW_DAYS = 60;
/** The days each later sync fetches again: pending rows booked since, a booked row the bank changed or renumbered. */
export const OVERLAP_DAYS = 14;
const DAY = 86_400;
/** Each call's timeout: LEDGERDESK_SIMPLEFIN_TIMEOUT_MS, else 30 s (a bank behind the Bridge may be slow). */
const timeoutMs = (): number => Number(process.env.LEDGERDESK_SIMPLEFIN_TIMEOUT_MS) || 30_000;

/** An address SimpleFIN may be reached at: https, or http to a loopback address (a test double). Answers it parsed. */
function checkedUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new OutsideError(SERVICE, 'refused', `The ${what} is not an address.`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) return url;
  throw new OutsideError(SERVICE, 'refused', `The ${what} must be an https address (http only to a loopback address, as a test double is).`);
}

/** Claims a setup token (base64 of a claim URL) for its access URL: a token is claimed once, so the POST is never retried. */
export async function claimSetupToken(setupToken: string): Promise<SimplefinCredentials> {
  const text = setupToken.trim();
  const decoded = /^[A-Za-z0-9+/=_-]+$/.test(text) ? Buffer.from(text, 'base64').toString('utf8') : '';
  if (!/^https?:\/\//.test(decoded))
    throw new OutsideError(SERVICE, 'refused', 'This is not a SimpleFIN setup token (base64 of a claim address): copy it again from the SimpleFIN Bridge.');
  const claim = checkedUrl(decoded, 'setup token\u2019s claim address');
  let answer: string;
  try {
    answer = (await callService<string>(claim.href, { service: SERVICE, method: 'POST', attempts: 1, answer: 'text', timeoutMs: 30_000 })).body;
  } catch (error) {
    if (error instanceof OutsideError && error.reason === 'unauthorized')
      throw new OutsideError(
        SERVICE,
        'unauthorized',
        'SimpleFIN refused the setup token (403): it was already claimed or does not exist. If you did not claim it yourself, it may be compromised: disable it at the SimpleFIN Bridge and make a new one.',
        { status: error.extra.status },
      );
    throw error;
  }
  const access = checkedUrl(answer, 'access address SimpleFIN answered');
  if (!access.username) throw new OutsideError(SERVICE, 'malformed', 'SimpleFIN answered the claim with an address that holds no credentials.');
  return { accessUrl: access.href.replace(/\/+$/, '') };
}

/** The access URL without its credentials (where calls go) and the Basic authorization they become. */
function access(ctx: ProviderContext<SimplefinCredentials>): { base: string; authorization: string } {
  const url = checkedUrl(ctx.credentials.accessUrl, 'access address');
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return { base: url.href.replace(/\/+$/, ''), authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

interface SfinTransaction {
  id: string;
  posted: number;
  amount: string;
  description: string;
  transacted_at?: number;
  pending?: boolean;
}

interface SfinAccount {
  id: string;
  name: string;
  currency: string;
  balance: string;
  'available-balance'?: string;
  'balance-date': number;
  org?: { name?: string; domain?: string };
  transactions?: SfinTransaction[];
}

const malformed = (what: string) => new OutsideError(SERVICE, 'malformed', `SimpleFIN's answer does not have the shape its protocol gives (${what}).`);
const NUMERIC = /^-?\d+(\.\d+)?$/;

/** The protocol's `errors` are words for the person, from outside: kept to letters, digits and punctuation, and short. */
const sanitized = (errors: unknown[]): string =>
  errors
    .map((e) =>
      String(e)
        .replace(/[^\p{L}\p{N}\s.,:;!?'"()/-]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 200),
    )
    .filter(Boolean)
    .join(' ');

/** An Account Set read and checked: errors and accounts, each account's required fields. */
async function accountSet(ctx: ProviderContext<SimplefinCredentials>, query: URLSearchParams): Promise<{ errors: string; accounts: SfinAccount[] }> {
  const { base, authorization } = access(ctx);
  const { body } = await callService<unknown>(`${base}/accounts?${query}`, { service: SERVICE, headers: { authorization }, waitAtMostSeconds: 5, timeoutMs: timeoutMs() });
  const set = body as { errors?: unknown; accounts?: unknown };
  if (typeof set !== 'object' || set === null || !Array.isArray(set.accounts) || (set.errors !== undefined && !Array.isArray(set.errors)))
    throw malformed('an Account Set with errors and accounts');
  for (const a of set.accounts as SfinAccount[]) {
    if (typeof a?.id !== 'string' || typeof a.name !== 'string' || typeof a.currency !== 'string') throw malformed('an account without its id, name or currency');
    if (a.transactions !== undefined && !Array.isArray(a.transactions)) throw malformed(`account ${a.id}'s transactions`);
  }
  return { errors: sanitized((set.errors as unknown[] | undefined) ?? []), accounts: set.accounts as SfinAccount[] };
}

const isoDay = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString().slice(0, 10);

function feedRow(t: SfinTransaction, now: Date): FeedRow {
  if (typeof t?.id !== 'string' || !t.id || typeof t.posted !== 'number' || typeof t.amount !== 'string' || !NUMERIC.test(t.amount.trim()) || typeof t.description !== 'string')
    throw malformed('a transaction without its id, posted time, numeric amount or description');
  const pending = t.pending === true || t.posted === 0;
  const at = t.posted > 0 ? t.posted : typeof t.transacted_at === 'number' && t.transacted_at > 0 ? t.transacted_at : Math.floor(now.getTime() / 1000);
  return { externalId: t.id, date: isoDay(at), amount: t.amount.trim(), description: t.description, pending };
}

/** The one account asked for, or the reason in SimpleFIN's own words when it is not there. */
function theAccount(set: { errors: string; accounts: SfinAccount[] }, id: string): SfinAccount {
  const found = set.accounts.find((a) => a.id === id);
  if (found) return found;
  throw new OutsideError(SERVICE, 'refused', `SimpleFIN did not answer account ${id}${set.errors ? `: ${set.errors}` : ' (it may have been removed from the connection)'}.`);
}

export const simplefin: Provider<SimplefinCredentials> = {
  name: 'simplefin',
  label: 'SimpleFIN',
  source: 'bankfeed',
  // An access URL does not lapse; a revoked one answers 403 (the sync's error in words).
  consent: () => Promise.resolve({ expiresAt: null }),

  async accounts(ctx): Promise<FeedAccount[]> {
    const set = await accountSet(ctx, new URLSearchParams({ 'balances-only': '1' }));
    if (!set.accounts.length && set.errors) throw new OutsideError(SERVICE, 'refused', `SimpleFIN: ${set.errors}`);
    return set.accounts.map((a) => ({ id: a.id, name: [a.org?.name ?? a.org?.domain, a.name].filter(Boolean).join(' '), currency: a.currency.toUpperCase() }));
  },

  async rows(ctx, account, cursor, since): Promise<FeedPage> {
    const now = Math.floor(ctx.now.getTime() / 1000);
    const from = cursor ? Number((JSON.parse(cursor) as { from: number }).from) : Math.floor(Date.parse(`${since}T00:00:00Z`) / 1000);
    // The last window reaches a day past now: a row posted today (in any time zone) is in it.
    const until = Math.min(from + WINDOW_DAYS * DAY, now + DAY);
    const query = new URLSearchParams({ account: account.id, 'start-date': String(from), 'end-date': String(until), pending: '1' });
    const found = theAccount(await accountSet(ctx, query), account.id);
    const rows = (found.transactions ?? []).map((t) => feedRow(t, ctx.now));
    // Done: the next sync fetches the last OVERLAP_DAYS again (pending rows that book, a bank's late changes) and on.
    return until <= now ? { rows, next: JSON.stringify({ from: until }) } : { rows, next: null, resume: JSON.stringify({ from: now - OVERLAP_DAYS * DAY }) };
  },

  async balances(ctx, account): Promise<FeedBalance[]> {
    const a = theAccount(await accountSet(ctx, new URLSearchParams({ account: account.id, 'balances-only': '1' })), account.id);
    const date = isoDay(a['balance-date']);
    const out: FeedBalance[] = [];
    if (NUMERIC.test(a.balance ?? '')) out.push({ date, amount: a.balance, kind: 'closingBooked' });
    if (NUMERIC.test(a['available-balance'] ?? '')) out.push({ date, amount: a['available-balance']!, kind: 'available' });
    return out;
  },
};

// Every Enable Banking call: a fresh JWT, the edge's callService (timeout,
// retries of 5xx and timeouts, 429's Retry-After), the answer's shape checked
// against the contract, and Enable Banking's own error codes told in words. A
// session that expired, was revoked or closed is the consent lapsing: it is
// thrown as `unauthorized` naming the consent, so the sync marks the connector
// for reconnecting rather than retrying.
import type * as z from 'zod';
import { callService, OutsideError, serviceBase, type CallOptions } from '../../edge/http';
import { callToken, SERVICE, type ApplicationCredentials } from './jwt';

/** The service's address: https://api.enablebanking.com, or LEDGERDESK_ENABLE_BANKING_URL (https, or http to loopback). */
export const enableBankingBase = (env: NodeJS.ProcessEnv = process.env) => serviceBase('LEDGERDESK_ENABLE_BANKING_URL', 'https://api.enablebanking.com', env);

/** How patient a call is (tests and slow links tune it; the defaults are the edge's). */
export type CallTuning = Pick<CallOptions, 'timeoutMs' | 'attempts' | 'waitAtMostSeconds'>;

export interface CallContext {
  credentials: ApplicationCredentials;
  baseUrl: string;
  now: Date;
}

/** Error codes (ErrorResponse.error) that mean the session, and so the bank's consent, no longer holds. */
const LAPSED: Record<string, string> = {
  EXPIRED_SESSION: 'has expired',
  REVOKED_SESSION: 'was revoked at the bank',
  CLOSED_SESSION: 'was closed',
  SESSION_DOES_NOT_EXIST: 'no longer exists at Enable Banking',
  INVALID_ACCOUNT_ID: 'no longer covers this account',
};

export const lapsedWords = (why: string) => `${SERVICE}: the bank's consent for this connection ${why}. Reconnect the bank to give a new consent; the rows already synced stay.`;

/** Enable Banking's error code, where its answer gives one. */
const codeOf = (body: unknown): string | null =>
  typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : null;

/** An OutsideError from callService told in Enable Banking's terms. */
export function inWords(e: OutsideError): OutsideError {
  const code = codeOf(e.extra.body);
  if (code && LAPSED[code]) return new OutsideError(SERVICE, 'unauthorized', lapsedWords(LAPSED[code]), { ...e.extra, body: { error: code } });
  if (code === 'ASPSP_RATE_LIMIT_EXCEEDED' && e.reason !== 'rate_limited') {
    return new OutsideError(
      SERVICE,
      'rate_limited',
      `${SERVICE}: the bank's limit on reading this account was reached (banks allow about four reads a day when you are not signing in); the next scheduled sync tries again.`,
      {
        ...e.extra,
        retryAfterSeconds: 6 * 3600,
      },
    );
  }
  if (e.reason === 'unauthorized') {
    return new OutsideError(
      SERVICE,
      'unauthorized',
      `${SERVICE} did not accept the application's credentials (its id and private key)${code ? ` (${code})` : ''}: check them in Enable Banking's control panel. ${e.message}`,
      e.extra,
    );
  }
  return e;
}

/** Where in an answer its shape differs from the contract, in words. */
function shapeWords(error: z.ZodError): string {
  const first = error.issues[0];
  const where = first.path.length ? first.path.join('.') : 'the answer';
  return `${where}: ${first.message}`;
}

/** One call: signed, sent, its answer checked against `shape`. */
export async function ebCall<S extends z.ZodType>(
  ctx: CallContext,
  /** What is asked for, as a person reads it ("the account's transactions"): ids stay out of messages. */
  what: string,
  path: string,
  shape: S,
  o: { query?: Record<string, string | undefined>; body?: unknown; tuning?: CallTuning; attempts?: number } = {},
): Promise<z.infer<S>> {
  const url = new URL(`${ctx.baseUrl.replace(/\/+$/, '')}${path}`);
  for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, v);
  const token = await callToken(ctx.credentials, ctx.now);
  let body: unknown;
  try {
    ({ body } = await callService(url.toString(), {
      service: SERVICE,
      headers: { authorization: `Bearer ${token}` },
      body: o.body,
      ...o.tuning,
      ...(o.attempts ? { attempts: o.attempts } : {}),
    }));
  } catch (error) {
    throw error instanceof OutsideError ? inWords(error) : error;
  }
  const read = shape.safeParse(body);
  if (!read.success) throw new OutsideError(SERVICE, 'malformed', `${SERVICE} answered with ${what} in a shape its contract does not promise (${shapeWords(read.error)}).`);
  return read.data;
}

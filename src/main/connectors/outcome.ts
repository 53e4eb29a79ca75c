// How a sync's failure is told and when the connector tries again (issue 52).
// A provider's 429 sets the next attempt from its Retry-After; a used-up daily
// allowance waits for the next UTC day; a revoked or expired consent is an
// error in words that waits for the person (no retry would help); anything else
// (5xx, timeouts, malformed answers) backs off, doubling from 15 minutes up to
// the schedule's interval. Nothing here writes the books.
import { OutsideError } from '../edge/http';
import { LedgerError } from '../ledger/core/errors';
import type { SyncOutcome } from '../ledger/feeds/schedule';

const MINUTE = 60_000;
export const FIRST_BACK_OFF_MS = 15 * MINUTE;

/** The daily allowance is used up: the next call waits for the next UTC day. */
export class AllowanceSpent extends Error {
  constructor(
    readonly label: string,
    readonly limit: number,
  ) {
    super(`${label} allows ${limit} calls a day per connection and today's are spent: the next sync waits for tomorrow (UTC).`);
  }
}

/** Reconnecting is the only cure: a revoked token, lapsed consent, a refused credential. */
export const needsReconnect = (label: string, name: string): string =>
  `Reconnect "${name}" (connector add ${label.toLowerCase()} --name "${name}" with new credentials): its history stays.`;

const nextUtcDay = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

/** The outcome of a sync that failed with `error`, after `failures` failures in a row before it. */
export function failedOutcome(error: unknown, o: { label: string; name: string; now: Date; everyMs: number; failures: number }): SyncOutcome {
  const at = (ms: number) => new Date(o.now.getTime() + ms).toISOString();
  const failures = o.failures + 1;
  const backOff = at(Math.min(FIRST_BACK_OFF_MS * 2 ** (failures - 1), o.everyMs));
  if (error instanceof AllowanceSpent) return { syncStatus: null, error: error.message, lastSyncAt: null, nextSyncAt: nextUtcDay(o.now).toISOString(), failures: o.failures };
  if (error instanceof OutsideError) {
    if (error.reason === 'rate_limited')
      return { syncStatus: null, error: error.message, lastSyncAt: null, nextSyncAt: at((error.extra.retryAfterSeconds ?? 60) * 1000), failures: o.failures };
    if (error.reason === 'unauthorized')
      return {
        syncStatus: 'error',
        error: `${o.label} refused the connection's credentials: access was revoked or has lapsed. ${needsReconnect(o.label, o.name)}`,
        lastSyncAt: null,
        nextSyncAt: null,
        failures,
      };
    return {
      syncStatus: 'error',
      error: `${error.message} The books are as they were; the next try is at ${backOff.slice(0, 16).replace('T', ' ')} UTC.`,
      lastSyncAt: null,
      nextSyncAt: backOff,
      failures,
    };
  }
  if (error instanceof LedgerError && error.code === 'conflict')
    return {
      syncStatus: 'error',
      error: error.message,
      lastSyncAt: null,
      // No retry opens a disconnected connector, or credentials sealed with a key these books are not given.
      nextSyncAt: ['disconnected', 'secret_key'].includes((error.details as { reason?: string } | null)?.reason ?? '') ? null : backOff,
      failures,
    };
  return {
    syncStatus: 'error',
    error: 'The sync failed unexpectedly (the server log has the cause); the books are as they were.',
    lastSyncAt: null,
    nextSyncAt: backOff,
    failures,
  };
}

/** A consent that lapsed: no call is made, the person reconnects. */
export const consentLapsed = (o: { label: string; name: string; expiresAt: string; failures: number }): SyncOutcome => ({
  syncStatus: 'error',
  error: `The consent for "${o.name}" expired on ${o.expiresAt.slice(0, 10)}. ${needsReconnect(o.label, o.name)}`,
  lastSyncAt: null,
  nextSyncAt: null,
  failures: o.failures + 1,
});

/** A provider's failure during a person's request (connecting, a preview) as the desk's error: `provider_error`, its reason in details. */
export async function answeringFor<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof OutsideError)) throw error;
    throw new LedgerError('provider_error', error.message, {
      provider: error.service,
      reason: error.reason,
      ...(error.extra.retryAfterSeconds ? { retryAfterSeconds: error.extra.retryAfterSeconds } : {}),
    });
  }
}

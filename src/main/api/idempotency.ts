// Idempotency-Key on REST writes, as payment APIs have it and
// draft-ietf-httpapi-idempotency-key-header describes: the first answer to a
// key is kept for 24 hours (per token) and replayed to a retry with the same
// body; the key with another body is 422; a key whose request is still being
// processed is 409. The write, its audit entry and the kept answer commit in
// one transaction, so a retry never sees a write without its answer.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Ledger } from '../ledger/core/db';
import { invalid, LedgerError } from '../ledger/core/errors';
import { tokenOf } from './auth';
import { sendJson } from './http';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const KEEP_MS = 24 * 60 * 60 * 1000;
/** Printable ASCII, as Stripe and the draft's examples use (a UUID is typical); an sf-string's quotes are taken off. */
const KEY = /^[\x21-\x7e]{1,255}$/;

interface Keyed {
  tokenSeq: number;
  key: string;
}

/** Keys whose first request has not answered yet, per open ledger. */
const inFlight = new WeakMap<Ledger, Set<string>>();
const keyed = new WeakMap<IncomingMessage, Keyed>();

/** Reads and claims the request's key before its body arrives, so that a concurrent retry gets 409 at once. */
export function claimIdempotencyKey(ledger: Ledger): RequestHandler {
  return (req, res, next) => {
    const header = req.headers['idempotency-key'];
    if (header === undefined) return next();
    const key = String(header).replace(/^"(.*)"$/, '$1');
    if (!KEY.test(key)) {
      return next(invalid([{ field: IDEMPOTENCY_HEADER, message: 'must be 1 to 255 printable ASCII characters without spaces (a UUID, say)' }]));
    }
    const tokenSeq = tokenOf(req)!.seq;
    const claimed = inFlight.get(ledger) ?? new Set<string>();
    inFlight.set(ledger, claimed);
    const id = `${tokenSeq}\n${key}`;
    if (claimed.has(id)) {
      return next(new LedgerError('idempotency_key_in_use', `A request with Idempotency-Key "${key}" is still being processed; retry when it has answered.`, { key }));
    }
    claimed.add(id);
    res.on('close', () => claimed.delete(id));
    keyed.set(req, { tokenSeq, key });
    next();
  };
}

interface KeptRow {
  fingerprint: string;
  status: number;
  body: string;
}

/**
 * Runs a write under the request's key (if any): replays a kept answer, or runs
 * `write` and keeps its answer. The operation's own refusals (404, 409) are kept
 * too; a malformed request and internal errors are not (nothing ran).
 */
export async function withIdempotency(
  ledger: Ledger,
  req: IncomingMessage,
  res: ServerResponse,
  operationId: string,
  write: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown } | null> {
  const k = keyed.get(req);
  if (!k) return await write();
  const fingerprint = createHash('sha256')
    .update(`${operationId}\n${JSON.stringify((req as { body?: unknown }).body ?? null)}`)
    .digest('hex');
  const since = new Date(Date.now() - KEEP_MS).toISOString();
  const kept = (await ledger.stmt('SELECT fingerprint, status, body FROM idempotency_keys WHERE token_seq = ? AND key = ? AND created_at >= ?').get(k.tokenSeq, k.key, since)) as
    KeptRow | undefined;
  if (kept) {
    if (kept.fingerprint !== fingerprint) {
      throw new LedgerError('idempotency_key_reused', `Idempotency-Key "${k.key}" was already used with another request body or operation; use a new key for a new request.`, {
        key: k.key,
      });
    }
    res.setHeader(REPLAYED_HEADER, 'true');
    sendJson(res, kept.status, JSON.parse(kept.body));
    return null;
  }
  const keep = async (answer: { status: number; body: unknown }) => {
    await ledger.stmt('DELETE FROM idempotency_keys WHERE created_at < ?').run(since);
    await ledger
      .stmt(
        `INSERT INTO idempotency_keys (token_seq, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (token_seq, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body, created_at = excluded.created_at`,
      )
      .run(k.tokenSeq, k.key, fingerprint, answer.status, JSON.stringify(answer.body), new Date().toISOString());
  };
  try {
    return await ledger.write(async () => {
      const answer = await write();
      await keep(answer);
      return answer;
    });
  } catch (error) {
    if (error instanceof LedgerError && error.code !== 'validation_failed' && error.code !== 'internal_error') {
      await ledger.write(() => keep({ status: error.status, body: error.toBody() }));
    }
    throw error;
  }
}

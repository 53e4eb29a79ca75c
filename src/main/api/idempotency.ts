// Idempotency-Key on REST writes, as payment APIs have it and
// draft-ietf-httpapi-idempotency-key-header describes: the first answer to a
// key is kept for 24 hours (per token) and replayed to a retry with the same
// body; the key with another body is 422; a key whose request is still being
// processed is 409. The write, its audit entry and the kept answer commit in
// one transaction, so a retry never sees a write without its answer. Claims
// live in the database (issue 44), so a retry reaching another server process
// is answered the same; a claim whose process died is taken over after CLAIM_MS.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Ledger } from '../ledger/core/sqlite/open';
import { invalid, LedgerError } from '../ledger/core/errors';
import { tokenOf } from './auth';
import { sendJson } from './http';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const KEEP_MS = 24 * 60 * 60 * 1000;
/** A claim not answered within this long belongs to a request that will never answer (its process stopped): a retry takes it over. */
export const CLAIM_MS = 60 * 1000;
/** Printable ASCII, as Stripe and the draft's examples use (a UUID is typical); an sf-string's quotes are taken off. */
const KEY = /^[\x21-\x7e]{1,255}$/;
/** A claimed key's status until its answer is kept. */
const PENDING = 0;

interface Keyed {
  tokenSeq: number;
  key: string;
  /** This request claimed the key (its row is pending, held by it); false: an answer is kept to replay or refuse. */
  claimed: boolean;
  /** The answer was kept: nothing to give back when the request ends. */
  answered?: boolean;
}

const keyed = new WeakMap<IncomingMessage, Keyed>();

interface KeptRow {
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
}

const kept = (ledger: Ledger, k: { tokenSeq: number; key: string }) =>
  ledger.stmt('SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE token_seq = ? AND key = ?').get(k.tokenSeq, k.key) as Promise<KeptRow | undefined>;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Claims the key in the database (a pending row): taken when new, when its answer has expired, or when its claim
 * was abandoned (created_at is an ISO time: its text orders as the time). One statement, atomic on both engines,
 * so a claim takes no write transaction and no organization lock. Answers 'claimed', 'answered' (a kept answer to
 * replay or refuse), or 'busy' (another request holds it).
 */
async function claim(ledger: Ledger, k: { tokenSeq: number; key: string }, orgSeq: number): Promise<'claimed' | 'answered' | 'busy'> {
  const conflict = ledger.engine === 'postgres' ? 'org_seq, token_seq, key' : 'token_seq, key';
  for (;;) {
    const now = Date.now();
    const taken = await ledger
      .stmt(
        `INSERT INTO idempotency_keys (org_seq, token_seq, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, '', ?, '', ?)
         ON CONFLICT (${conflict}) DO UPDATE SET fingerprint = '', status = excluded.status, body = '', created_at = excluded.created_at
         WHERE CASE WHEN idempotency_keys.status = ? THEN idempotency_keys.created_at < ? ELSE idempotency_keys.created_at < ? END
         RETURNING status`,
      )
      .get(orgSeq, k.tokenSeq, k.key, PENDING, iso(now), PENDING, iso(now - CLAIM_MS), iso(now - KEEP_MS));
    if (taken) {
      await ledger.stmt('DELETE FROM idempotency_keys WHERE created_at < ?').run(iso(now - KEEP_MS));
      return 'claimed';
    }
    const row = await kept(ledger, k);
    // Gone since (its request gave it back): claimed again.
    if (row) return row.status === PENDING ? 'busy' : 'answered';
  }
}

/** Reads and claims the request's key before its body arrives, so that a concurrent retry gets 409 at once. */
export function claimIdempotencyKey(ledger: Ledger): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers['idempotency-key'];
    if (header === undefined) return next();
    const key = String(header).replace(/^"(.*)"$/, '$1');
    if (!KEY.test(key)) {
      return next(invalid([{ field: IDEMPOTENCY_HEADER, message: 'must be 1 to 255 printable ASCII characters without spaces (a UUID, say)' }]));
    }
    const token = tokenOf(req)!;
    const claimed = await claim(ledger, { tokenSeq: token.seq, key }, token.orgSeq);
    if (claimed === 'busy') {
      return next(new LedgerError('idempotency_key_in_use', `A request with Idempotency-Key "${key}" is still being processed; retry when it has answered.`, { key }));
    }
    const k: Keyed = { tokenSeq: token.seq, key, claimed: claimed === 'claimed' };
    if (k.claimed) {
      // A request that ends without an answer kept (a malformed body, an internal error) gives the key back.
      const org = ledger.org;
      res.on('close', () => {
        if (k.answered) return;
        const release = () => ledger.stmt('DELETE FROM idempotency_keys WHERE token_seq = ? AND key = ? AND status = ?').run(k.tokenSeq, k.key, PENDING);
        void (org === undefined ? release() : ledger.forOrg(org, release)).catch(() => undefined);
      });
    }
    keyed.set(req, k);
    next();
  };
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
  // A key this request claimed holds no answer yet: only one it did not claim is read again.
  const row = k.claimed ? undefined : await kept(ledger, k);
  if (row && row.status !== PENDING) {
    if (row.fingerprint !== fingerprint) {
      throw new LedgerError('idempotency_key_reused', `Idempotency-Key "${k.key}" was already used with another request body or operation; use a new key for a new request.`, {
        key: k.key,
      });
    }
    res.setHeader(REPLAYED_HEADER, 'true');
    sendJson(res, row.status, JSON.parse(row.body));
    return null;
  }
  const keep = (answer: { status: number; body: unknown }) =>
    ledger
      .stmt('UPDATE idempotency_keys SET fingerprint = ?, status = ?, body = ?, created_at = ? WHERE token_seq = ? AND key = ?')
      .run(fingerprint, answer.status, JSON.stringify(answer.body), new Date().toISOString(), k.tokenSeq, k.key);
  try {
    const answer = await ledger.write(async () => {
      const answer = await write();
      await keep(answer);
      return answer;
    });
    k.answered = true;
    return answer;
  } catch (error) {
    if (error instanceof LedgerError && error.code !== 'validation_failed' && error.code !== 'internal_error') {
      await ledger.write(() => keep({ status: error.status, body: error.toBody() }));
      k.answered = true;
    }
    throw error;
  }
}

// Agent tokens: `ldk_live_<43 base62 random chars><6 base62 CRC-32 chars>`.
// The checksum lets a malformed token be refused before any database read;
// only the SHA-256 of the token is stored, so the data folder never holds it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Ledger } from '../core/sqlite/open';
import { roleOf, type Role } from './roles';
import { appendAudit, type Actor } from './audit';
import { newId, nowIso } from '../core/clock';
import { LedgerError, inPassing, invalid } from '../core/errors';
import { deskActor } from './organizations';

export const SCOPES = ['read', 'propose-write'] as const;
export type Scope = (typeof SCOPES)[number];

const PREFIX = 'ldk_live_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_CHARS = 43; // 62^43 > 2^256
const CHECK_CHARS = 6; // 62^6 > 2^32
const TOKEN_SHAPE = new RegExp(`^${PREFIX}([0-9A-Za-z]{${SECRET_CHARS}})([0-9A-Za-z]{${CHECK_CHARS}})$`);
/** Tokens are only ever touched (last-used) once a minute, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

function base62(value: bigint, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

const checksum = (secret: string): string => base62(BigInt(crc32(PREFIX + secret)), CHECK_CHARS);
const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

export function generateToken(): string {
  const secret = base62(BigInt(`0x${randomBytes(32).toString('hex')}`), SECRET_CHARS);
  return `${PREFIX}${secret}${checksum(secret)}`;
}

/** Shape and checksum only: no database access. */
export function isWellFormedToken(token: string): boolean {
  const m = TOKEN_SHAPE.exec(token);
  return m !== null && checksum(m[1]) === m[2];
}

export interface TokenInfo {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface AuthenticatedToken {
  seq: number;
  id: string;
  name: string;
  orgSeq: number;
  /** The scopes it may use now: a client's token reads only, whatever it was made with. */
  scopes: Scope[];
  /** The scopes it was made with (Tokens lists them): a refusal names them (issue 50). */
  granted: Scope[];
  /** Its maker's role in the organization now (issue 45): a token never exceeds it. Null: made by the machine's owner. */
  role: Role | null;
}

interface TokenRow {
  seq: number;
  user_seq: number | null;
  id: string;
  org_seq: number;
  name: string;
  scopes: string;
  hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const toInfo = (r: TokenRow): TokenInfo => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes.split(' ') as Scope[],
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export function parseScopes(list: readonly string[]): Scope[] {
  const unknown = list.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || list.length === 0) {
    throw invalid([{ field: 'scopes', message: `use one or more of ${SCOPES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}` }]);
  }
  return SCOPES.filter((s) => list.includes(s));
}

/**
 * What a client's token may not be (issue 50): it reads what a client reads and proposes nothing, so a propose-write
 * token is refused at its making, with the reason, and a token whose maker has become a client since is refused each
 * write the same way (api/auth.ts) rather than silently made read-only.
 */
export const clientReadOnly = (scopes: readonly Scope[], detail: Record<string, unknown> = {}): LedgerError =>
  new LedgerError(
    'forbidden',
    "A client's token reads what a client reads (the dashboard, the chart, invoices and bills) and proposes nothing: it cannot be propose-write. Make it read.",
    { ...detail, reason: 'client_read_only', role: 'client', scopes: [...scopes] },
  );

/** Creates a token; the raw token is returned once and never stored. */
export async function createToken(
  ledger: Ledger,
  orgSeq: number,
  input: { name: string; scopes: readonly string[]; userSeq?: number | null },
  actor: Actor = deskActor(),
): Promise<{ token: string; info: TokenInfo }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw invalid([{ field: 'name', message: 'must be 1 to 100 characters' }]);
  const scopes = parseScopes(input.scopes);
  const token = generateToken();
  const id = newId();
  return ledger.write(async () => {
    // A token never exceeds its maker's role (issue 45).
    if (input.userSeq != null && scopes.includes('propose-write') && (await roleOf(ledger, input.userSeq, orgSeq)) === 'client') throw clientReadOnly(scopes, { field: 'scopes' });
    await ledger
      .stmt('INSERT INTO tokens (id, org_seq, name, scopes, hash, created_at, user_seq) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, orgSeq, name, scopes.join(' '), hashToken(token).toString('hex'), nowIso(), input.userSeq ?? null);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'token.created',
      targetType: 'token',
      targetId: id,
      summary: `Token "${name}" created with scopes ${scopes.join(', ')}`,
    });
    const row = (await ledger.stmt('SELECT * FROM tokens WHERE id = ?').get(id)) as TokenRow;
    return { token, info: toInfo(row) };
  });
}

/** The organization's tokens, or (userSeq) those one person made. */
export async function listTokens(ledger: Ledger, orgSeq: number, userSeq?: number): Promise<TokenInfo[]> {
  const rows = (
    userSeq === undefined
      ? await ledger.stmt('SELECT * FROM tokens WHERE org_seq = ? ORDER BY seq DESC').all(orgSeq)
      : await ledger.stmt('SELECT * FROM tokens WHERE org_seq = ? AND user_seq = ? ORDER BY seq DESC').all(orgSeq, userSeq)
  ) as TokenRow[];
  return rows.map(toInfo);
}

/** Revokes a token of the organization (only one `userSeq` made, when given: a person's own). */
export async function revokeToken(ledger: Ledger, orgSeq: number, id: string, actor: Actor = deskActor(), userSeq?: number): Promise<TokenInfo> {
  return ledger.write(async () => {
    const row = (await ledger.stmt('SELECT * FROM tokens WHERE id = ? AND org_seq = ?').get(id, orgSeq)) as TokenRow | undefined;
    if (row && userSeq !== undefined && row.user_seq !== userSeq) throw new LedgerError('forbidden', 'A token is revoked by its maker or an owner.', { resource: 'token', id });
    if (!row) throw new LedgerError('not_found', `No token with id ${id} in this organization.`, { resource: 'token', id });
    if (row.revoked_at) return toInfo(row);
    await ledger.stmt('UPDATE tokens SET revoked_at = ? WHERE seq = ?').run(nowIso(), row.seq);
    await appendAudit(ledger, orgSeq, actor, { action: 'token.revoked', targetType: 'token', targetId: id, summary: `Token "${row.name}" revoked` });
    return toInfo((await ledger.stmt('SELECT * FROM tokens WHERE seq = ?').get(row.seq)) as TokenRow);
  });
}

const unauthorized = (reason: string, message: string) => new LedgerError('unauthorized', message, { reason });

/** Bearer token -> organization, token id and scopes; 401 for anything else. */
export async function authenticate(ledger: Ledger, token: string): Promise<AuthenticatedToken> {
  if (!isWellFormedToken(token)) {
    throw unauthorized('malformed', 'The bearer token is malformed: expected ldk_live_ followed by 49 letters and digits.');
  }
  const hash = hashToken(token);
  // With its maker's role now: a person removed from the organization takes their tokens with them.
  const row = (await ledger
    .stmt(
      `SELECT t.*, m.role AS maker_role FROM tokens t
       LEFT JOIN memberships m ON m.user_seq = t.user_seq AND m.org_seq = t.org_seq
       WHERE t.hash = ?`,
    )
    .get(hash.toString('hex'))) as (TokenRow & { maker_role: Role | null }) | undefined;
  if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), hash)) {
    throw unauthorized('unknown', 'The bearer token is not known to this ledger.');
  }
  if (row.revoked_at) throw unauthorized('revoked', 'The bearer token was revoked; create a new one in Tokens.');
  if (row.user_seq !== null && row.maker_role === null)
    throw unauthorized('maker_removed', 'The person who made this token no longer has a role in its organization; ask someone who does for a token.');

  const now = Date.now();
  // A read replica's books (issue 51) take no write: the last use is recorded where the token is used on the primary.
  if (!ledger.readOnly && (!row.last_used_at || now - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS)) {
    await inPassing(ledger.stmt('UPDATE tokens SET last_used_at = ? WHERE seq = ?').run(new Date(now).toISOString(), row.seq));
  }
  const granted = row.scopes.split(' ') as Scope[];
  // A client's token reads what a client reads (a maker demoted to client since: its writes are refused with the reason, api/auth.ts).
  const role = row.user_seq === null ? null : row.maker_role;
  return { seq: row.seq, id: row.id, name: row.name, orgSeq: row.org_seq, scopes: role === 'client' ? granted.filter((s) => s === 'read') : granted, granted, role };
}

/** A token as the People screen lists it under its maker. */
export interface MadeToken {
  id: string;
  name: string;
  scopes: string[];
  revoked: boolean;
  /** Its maker's email; null: the machine's owner. */
  maker: string | null;
}

/** The organization's tokens with their makers, newest first. */
export async function tokensByMaker(ledger: Ledger, orgSeq: number): Promise<MadeToken[]> {
  const rows = await ledger.rows<{ id: string; name: string; scopes: string; revoked_at: string | null; email: string | null }>(
    'SELECT t.id, t.name, t.scopes, t.revoked_at, u.email FROM tokens t LEFT JOIN users u ON u.seq = t.user_seq WHERE t.org_seq = ? ORDER BY t.seq DESC',
    orgSeq,
  );
  return rows.map((t) => ({ id: t.id, name: t.name, scopes: t.scopes.split(' '), revoked: t.revoked_at !== null, maker: t.email }));
}

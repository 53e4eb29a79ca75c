// The append-only audit log. appendAudit is called inside the same database
// transaction as the change it records (triggers refuse UPDATE and DELETE).
import type { Ledger } from '../core/sqlite/open';
import { newTimeOrderedId, nowIso } from '../core/clock';
import { auditHash, auditHashed, type HashedEntry } from '../core/hash';
import { LedgerError } from '../core/errors';

export type Channel = 'rest' | 'mcp' | 'desk';

/** Who acts: an agent through its token, or the human at the desk. */
export type Actor =
  { type: 'token'; tokenSeq: number; tokenId: string; tokenName: string; channel: 'rest' | 'mcp' } | { type: 'human'; userId: string; name: string; channel: 'desk' };

/** The person at the desk (reviews, the bookkeeper's hand): no token reaches what takes one. */
export type Human = Extract<Actor, { type: 'human' }>;
/** An agent, through its token (proposals, notes). */
export type AgentActor = Extract<Actor, { type: 'token' }>;

/**
 * How the spec writes a token's writes (suggestedBy, proposedBy, a note's
 * author): mcp:<tokenId>, whichever channel (REST too) carried them.
 */
export const tokenWriterId = (actor: AgentActor): string => `mcp:${actor.tokenId}`;

export const actorId = (a: Actor): string => (a.type === 'token' ? a.tokenId : a.userId);
export const actorName = (a: Actor): string => (a.type === 'token' ? a.tokenName : a.name);

export interface AuditInput {
  action: string;
  targetType: string;
  targetId: string;
  summary: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: 'token' | 'human'; id: string; name: string };
  channel: Channel;
  action: string;
  targetType: string;
  targetId: string;
  summary: string;
}

/** Appends an entry, chained to the organization's previous one (hash.ts). */
// An archived organization's changes are refused here, where each change appends its entry (archive.ts).
/** What an archived organization's Log may still record: its copy elsewhere, its archiving and unarchiving. */
export const WHILE_ARCHIVED = new Set(['organization.copied', 'organization.archived', 'organization.unarchived']);

/** Refuses a change to an archived organization's books (called with each audit entry). */
export async function assertNotArchived(ledger: Ledger, orgSeq: number, action: string): Promise<void> {
  if (WHILE_ARCHIVED.has(action)) return;
  const row = (await ledger.stmt('SELECT name, slug, archived_at FROM organizations WHERE seq = ?').get(orgSeq)) as
    { name: string; slug: string; archived_at: string | null } | undefined;
  if (!row?.archived_at) return;
  throw new LedgerError(
    'conflict',
    `Organization "${row.name}" was archived on ${row.archived_at.slice(0, 10)} (its books were moved): they are kept to read, not to change. Unarchive it first (ledgerdesk org unarchive ${row.slug}) if it must change here.`,
    { organization: row.slug, archivedAt: row.archived_at },
  );
}

export async function appendAudit(ledger: Ledger, orgSeq: number, actor: Actor, entry: AuditInput): Promise<void> {
  await assertNotArchived(ledger, orgSeq, entry.action);
  const row = {
    id: newTimeOrderedId(),
    org_seq: orgSeq,
    at: nowIso(),
    actor_type: actor.type,
    actor_id: actorId(actor),
    actor_name: actorName(actor),
    channel: actor.channel,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    summary: entry.summary,
  };
  const fields = [row.id, orgSeq, row.at, row.actor_type, row.actor_id, row.actor_name, row.channel, row.action, row.target_type, row.target_id, row.summary];
  if (ledger.engine === 'postgres') {
    // One round trip: the head read and the hash made in the insert. hash.ts hashes the JSON array [prev, ...rest];
    // prev is a hex hash (or ''), written as it is, so the server needs only the rest's JSON, made here.
    const rest = JSON.stringify(auditHashed('', row).slice(1)).slice(1);
    await ledger
      .stmt(
        `${INSERT_AUDIT} SELECT ?, CAST(? AS BIGINT), ?, ?, ?, ?, ?, ?, ?, ?, ?, head.hash, encode(sha256(convert_to('["' || head.hash || '",' || CAST(? AS TEXT), 'UTF8')), 'hex')
         FROM (SELECT coalesce((${HEAD}), '') AS hash) AS head`,
      )
      .run(...fields, rest, orgSeq);
    return;
  }
  const prev = ((await ledger.stmt(HEAD).get(orgSeq)) as { hash: string } | undefined)?.hash ?? '';
  await ledger.stmt(`${INSERT_AUDIT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...fields, prev, auditHash(prev, row));
}

const INSERT_AUDIT = 'INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary, prev_hash, hash)';
const HEAD = 'SELECT hash FROM audit_log WHERE org_seq = ? ORDER BY seq DESC LIMIT 1';

export interface ChainCheck {
  ok: boolean;
  /** Entries checked (up to the first bad one, when there is one). */
  entries: number;
  /** The first entry whose hash does not match its content and its predecessor's, in log order. */
  firstBad: { id: string; at: string; action: string } | null;
}

const CHAIN_COLUMNS = ['id', 'org_seq', 'at', 'actor_type', 'actor_id', 'actor_name', 'channel', 'action', 'target_type', 'target_id', 'summary', 'prev_hash', 'hash'] as const;
type ChainRow = HashedEntry & { prev_hash: string | null; hash: string | null };

/**
 * Walks an organization's chain (or every organization's, each in its own scope: row-level security shows a
 * server's connection one organization's entries at a time); the first entry that does not match is named.
 */
export async function verifyAuditChain(ledger: Ledger, orgSeq?: number): Promise<ChainCheck> {
  const orgs = orgSeq === undefined ? ((await ledger.forOrg('all', () => ledger.stmt('SELECT seq FROM organizations ORDER BY seq').pluck().all())) as number[]) : [orgSeq];
  let entries = 0;
  for (const org of orgs) {
    const one = await ledger.forOrg(org, () => verifyOne(ledger, org));
    entries += one.entries;
    if (!one.ok) return { ...one, entries };
  }
  return { ok: true, entries, firstBad: null };
}

/** One organization's chain, walked in chunks (a long log is not held). */
async function verifyOne(ledger: Ledger, orgSeq: number): Promise<ChainCheck> {
  let prev = '';
  let entries = 0;
  for await (const chunk of ledger.stmt(`SELECT ${CHAIN_COLUMNS.join(', ')} FROM audit_log WHERE org_seq = ? ORDER BY seq`).iterateRaw(orgSeq)) {
    for (const values of chunk) {
      const e = Object.fromEntries(CHAIN_COLUMNS.map((c, i) => [c, values[i]])) as unknown as ChainRow;
      entries++;
      if (e.prev_hash !== prev || e.hash !== auditHash(prev, e)) return { ok: false, entries, firstBad: { id: e.id, at: e.at, action: e.action } };
      prev = e.hash;
    }
  }
  return { ok: true, entries, firstBad: null };
}

export interface AuditQuery {
  actor?: string; // actor id or name, exact
  action?: string;
  dateFrom?: string; // YYYY-MM-DD, inclusive
  dateTo?: string;
  limit: number;
  offset: number;
}

interface AuditRow {
  id: string;
  at: string;
  actor_type: 'token' | 'human';
  actor_id: string;
  actor_name: string;
  channel: Channel;
  action: string;
  target_type: string;
  target_id: string;
  summary: string;
}

/** Newest first; the desk's Log screen. */
export async function listAudit(ledger: Ledger, orgSeq: number, q: AuditQuery): Promise<{ entries: AuditEntry[]; totalCount: number }> {
  const where = ['org_seq = ?'];
  const params: unknown[] = [orgSeq];
  if (q.actor) {
    where.push('(actor_id = ? OR actor_name = ?)');
    params.push(q.actor, q.actor);
  }
  if (q.action) {
    where.push('action = ?');
    params.push(q.action);
  }
  if (q.dateFrom) {
    where.push('at >= ?');
    params.push(q.dateFrom);
  }
  if (q.dateTo) {
    where.push('at < ?');
    params.push(`${q.dateTo}T99`); // inclusive of the whole day
  }
  const clause = where.join(' AND ');
  const rows = await ledger.rows<AuditRow>(`SELECT * FROM audit_log WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`, ...params, q.limit, q.offset);
  const { n } = (await ledger.stmt(`SELECT count(*) AS n FROM audit_log WHERE ${clause}`).get(...params)) as { n: number };
  return {
    totalCount: n,
    entries: rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      channel: r.channel,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      summary: r.summary,
    })),
  };
}

/** The actors and actions present in the log, for the Log screen's filters. */
export async function auditFacets(ledger: Ledger, orgSeq: number): Promise<{ actors: { id: string; name: string; type: string }[]; actions: string[] }> {
  const actors = (await ledger.stmt('SELECT DISTINCT actor_id AS id, actor_name AS name, actor_type AS type FROM audit_log WHERE org_seq = ? ORDER BY actor_name').all(orgSeq)) as {
    id: string;
    name: string;
    type: string;
  }[];
  const actions = ((await ledger.stmt('SELECT DISTINCT action FROM audit_log WHERE org_seq = ? ORDER BY action').all(orgSeq)) as { action: string }[]).map((r) => r.action);
  return { actors, actions };
}

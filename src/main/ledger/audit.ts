// The append-only audit log. appendAudit is called inside the same database
// transaction as the change it records (triggers refuse UPDATE and DELETE).
import type { Ledger } from './db';
import { newId, nowIso } from './clock';

export type Channel = 'rest' | 'mcp' | 'desk';

/** Who acts: an agent through its token, or the human at the desk. */
export type Actor =
  | { type: 'token'; tokenSeq: number; tokenId: string; tokenName: string; channel: 'rest' | 'mcp' }
  | { type: 'human'; userId: string; name: string; channel: 'desk' };

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

export function appendAudit(ledger: Ledger, orgSeq: number, actor: Actor, entry: AuditInput): void {
  ledger
    .stmt(
      `INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(newId(), orgSeq, nowIso(), actor.type, actorId(actor), actorName(actor), actor.channel, entry.action, entry.targetType, entry.targetId, entry.summary);
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
export function listAudit(ledger: Ledger, orgSeq: number, q: AuditQuery): { entries: AuditEntry[]; totalCount: number } {
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
  const rows = ledger.rows<AuditRow>(`SELECT * FROM audit_log WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`, ...params, q.limit, q.offset);
  const { n } = ledger.stmt(`SELECT count(*) AS n FROM audit_log WHERE ${clause}`).get(...params) as { n: number };
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
export function auditFacets(ledger: Ledger, orgSeq: number): { actors: { id: string; name: string; type: string }[]; actions: string[] } {
  const actors = ledger
    .stmt('SELECT DISTINCT actor_id AS id, actor_name AS name, actor_type AS type FROM audit_log WHERE org_seq = ? ORDER BY actor_name')
    .all(orgSeq) as { id: string; name: string; type: string }[];
  const actions = (ledger.stmt('SELECT DISTINCT action FROM audit_log WHERE org_seq = ? ORDER BY action').all(orgSeq) as { action: string }[]).map((r) => r.action);
  return { actors, actions };
}

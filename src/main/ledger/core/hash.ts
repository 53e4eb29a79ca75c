// The audit log's hash chain: each entry's hash covers the previous entry's
// hash (per organization) and the entry's own content, in a fixed order, so
// changing, removing or reordering any entry breaks every hash after it.
import { createHash } from 'node:crypto';

export interface HashedEntry {
  id: string;
  org_seq: number;
  at: string;
  actor_type: string;
  actor_id: string;
  actor_name: string;
  channel: string;
  action: string;
  target_type: string;
  target_id: string;
  summary: string;
}

/** What an entry's hash covers, in order: its predecessor's hash first (PostgreSQL's insert makes the same text: audit.ts). */
export const auditHashed = (prev: string, e: HashedEntry): unknown[] => [
  prev,
  e.id,
  e.org_seq,
  e.at,
  e.actor_type,
  e.actor_id,
  e.actor_name,
  e.channel,
  e.action,
  e.target_type,
  e.target_id,
  e.summary,
];

export const auditHash = (prev: string, e: HashedEntry): string =>
  createHash('sha256')
    .update(JSON.stringify(auditHashed(prev, e)))
    .digest('hex');

// The rows of staged files (issue 51): what each organization and person has
// staged, their quotas counted as the bytes arrive, the chunks a firm's server
// keeps the bytes in, and the sweep of those past their age. A staged file is
// found only by the organization and the person who staged it (the machine's
// owner: staged_by null); for anyone else it does not exist. The bytes' places
// (chunks here, or a data folder's files) are desk/staged.ts's.
import type { StagedKind } from '../../../../db/values';
import { LedgerError } from '../core/errors';
import type { Ledger } from '../core/storage';

/** Whose a staged file is: an organization's, and one person's in it (null: the machine's owner). */
export interface StagedOwner {
  orgSeq: number;
  stagedBy: number | null;
}

/** Bytes of uploads one person, and one organization, may keep staged at once. */
export interface StagingQuotas {
  person: number;
  organization: number;
}

export interface StagedRow {
  name: string;
  size: number;
}

/** The machine's owner counts as one person: 0 (no person's seq is 0). */
const who = (owner: StagedOwner): number => owner.stagedBy ?? 0;

/** A new staged file, empty and not readable until finished. */
export async function beginStaged(ledger: Ledger, owner: StagedOwner, file: { id: string; kind: StagedKind; name: string }, now: number): Promise<void> {
  await ledger
    .stmt('INSERT INTO staged_files (id, org_seq, kind, name, size_bytes, created_at, finished_at, staged_by) VALUES (?, ?, ?, ?, 0, ?, NULL, ?)')
    .run(file.id, owner.orgSeq, file.kind, file.name, now, owner.stagedBy);
}

/** The bytes of uploads kept (not past `since`) by the owner and by their organization, this file's so far included. */
export async function stagedBytes(ledger: Ledger, owner: StagedOwner, since: number): Promise<{ person: number; organization: number }> {
  const row = (await ledger
    .stmt(
      `SELECT coalesce(sum(CASE WHEN coalesce(staged_by, 0) = ? THEN size_bytes ELSE 0 END), 0) AS person, coalesce(sum(size_bytes), 0) AS organization
       FROM staged_files WHERE org_seq = ? AND kind = 'upload' AND created_at >= ?`,
    )
    .get(who(owner), owner.orgSeq, since)) as { person: number; organization: number };
  return { person: Number(row.person), organization: Number(row.organization) };
}

const mb = (bytes: number) => `${Math.round((bytes / 2 ** 20) * 10) / 10} MB`;

function overQuota(which: 'person' | 'organization', limit: number, staged: number, upload: number): LedgerError {
  const whose = which === 'person' ? 'you keep' : 'this organization keeps';
  return new LedgerError(
    'staging_quota_exceeded',
    `Uploads ${whose} staged may hold at most ${mb(limit)} at once; ${mb(staged)} are staged already and this file reached ${mb(upload)}. ` +
      'Finish or leave the imports waiting (an upload goes once imported, or after a day), then add the file again.',
    { quota: which, limit, staged, upload },
  );
}

/**
 * Counts `bytes` more of a file (and on a server's database keeps them as its chunk `n`), in one write with the
 * quotas' check: an organization's writes are serial (its row locked first on PostgreSQL, one connection on SQLite),
 * so uploads arriving together on any process cannot pass a quota between them. `received`: the file's bytes before these.
 */
export async function addStagedBytes(
  ledger: Ledger,
  owner: StagedOwner,
  id: string,
  part: { n: number; bytes: Buffer; keep: boolean; received: number },
  quotas: StagingQuotas | null,
  since: number,
): Promise<void> {
  await ledger.write(async () => {
    if (quotas) {
      const staged = await stagedBytes(ledger, owner, since);
      const upload = part.received + part.bytes.length;
      if (staged.person + part.bytes.length > quotas.person) throw overQuota('person', quotas.person, staged.person - part.received, upload);
      if (staged.organization + part.bytes.length > quotas.organization) throw overQuota('organization', quotas.organization, staged.organization - part.received, upload);
    }
    if (part.keep) await ledger.stmt('INSERT INTO staged_chunks (org_seq, file_id, n, bytes) VALUES (?, ?, ?, ?)').run(owner.orgSeq, id, part.n, part.bytes);
    await ledger.stmt('UPDATE staged_files SET size_bytes = size_bytes + ? WHERE org_seq = ? AND id = ?').run(part.bytes.length, owner.orgSeq, id);
  });
}

/** The file's last byte arrived: readable from now on. */
export async function finishStaged(ledger: Ledger, owner: StagedOwner, id: string, now: number): Promise<void> {
  await ledger.stmt('UPDATE staged_files SET finished_at = ? WHERE org_seq = ? AND id = ?').run(now, owner.orgSeq, id);
}

/** The owner's finished file of this kind, kept since `since`; null for any other (another's is not found, as an unknown id). */
export async function findStaged(ledger: Ledger, owner: StagedOwner, id: string, kind: StagedKind, since: number): Promise<StagedRow | null> {
  const row = (await ledger
    .stmt(
      `SELECT name, size_bytes AS size FROM staged_files
       WHERE org_seq = ? AND id = ? AND kind = ? AND coalesce(staged_by, 0) = ? AND finished_at IS NOT NULL AND created_at >= ?`,
    )
    .get(owner.orgSeq, id, kind, who(owner), since)) as StagedRow | undefined;
  return row ? { name: row.name, size: Number(row.size) } : null;
}

/** A server database's chunk `n` of a file, or undefined past its last. */
export async function stagedChunk(ledger: Ledger, orgSeq: number, id: string, n: number): Promise<Buffer | undefined> {
  return (await ledger.stmt('SELECT bytes FROM staged_chunks WHERE org_seq = ? AND file_id = ? AND n = ?').pluck().get(orgSeq, id, n)) as Buffer | undefined;
}

/** Removes a file (its chunks with it); whether it was there. */
export async function removeStaged(ledger: Ledger, orgSeq: number, id: string): Promise<boolean> {
  return (await ledger.stmt('DELETE FROM staged_files WHERE org_seq = ? AND id = ?').run(orgSeq, id)).changes > 0;
}

/** Removes at most `limit` of an organization's files staged before `before` (finished or not), oldest first; their ids. */
export async function removeExpiredStaged(ledger: Ledger, orgSeq: number, before: number, limit: number): Promise<string[]> {
  return (await ledger
    .stmt(
      `DELETE FROM staged_files WHERE org_seq = ? AND id IN
         (SELECT id FROM staged_files WHERE org_seq = ? AND created_at < ? ORDER BY created_at LIMIT ?) RETURNING id`,
    )
    .pluck()
    .all(orgSeq, orgSeq, before, limit)) as string[];
}

/** Organizations after `afterSeq`, at most `limit` of them, removed ones too (what they staged goes as well): a sweep's next round. */
export async function organizationsAfter(ledger: Ledger, afterSeq: number, limit: number): Promise<number[]> {
  return ((await ledger.stmt('SELECT seq FROM organizations WHERE seq > ? ORDER BY seq LIMIT ?').pluck().all(afterSeq, limit)) as number[]).map(Number);
}

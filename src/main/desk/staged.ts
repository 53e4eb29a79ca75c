// Files staged between two requests: a statement a window uploads for a later
// import, an export made for a later download. A data folder keeps them as
// files beside its books (files.ts); a firm's PostgreSQL server keeps them in
// the database in chunks (issue 44), since the two requests may reach two
// different server processes. Read back, a staged file is a local file again
// (a temporary copy), so the readers stream it as they stream any file.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Ledger } from '../ledger/core/sqlite/open';

/** Chunks of this size: a row each, well under PostgreSQL's 1 GB limit for one value. */
const CHUNK = 1024 * 1024;
/** Staged files are kept a day, then swept when another is staged. */
export const STAGED_TTL_MS = 24 * 60 * 60 * 1000;

/** Stores a stream (or bytes) under a new id; its chunks in short writes of their own, the file readable once its size is set. */
export async function stageInDatabase(
  ledger: Ledger,
  name: string,
  body: Uint8Array | Readable,
  limit?: (size: number) => void,
  /** An export's organization: only a read for it finds the file. */
  orgId: string | null = null,
): Promise<{ id: string; size: number }> {
  const id = randomUUID();
  const now = Date.now();
  await ledger.write(async () => {
    await ledger.stmt('DELETE FROM staged_files WHERE created_at < ?').run(now - STAGED_TTL_MS);
    await ledger.stmt('INSERT INTO staged_files (id, name, size_bytes, created_at, org_id) VALUES (?, ?, -1, ?, ?)').run(id, name, now, orgId);
  });
  let size = 0;
  let n = 0;
  let pending: Buffer[] = [];
  let pendingSize = 0;
  const flush = async () => {
    if (!pendingSize) return;
    const bytes = Buffer.concat(pending, pendingSize);
    pending = [];
    pendingSize = 0;
    await ledger.stmt('INSERT INTO staged_chunks (file_id, n, bytes) VALUES (?, ?, ?)').run(id, n++, bytes);
  };
  try {
    for await (const chunk of body instanceof Uint8Array ? [Buffer.from(body)] : (body as AsyncIterable<Buffer>)) {
      size += chunk.length;
      limit?.(size);
      for (let at = 0; at < chunk.length;) {
        const take = chunk.subarray(at, at + (CHUNK - pendingSize));
        pending.push(take);
        pendingSize += take.length;
        at += take.length;
        if (pendingSize === CHUNK) await flush();
      }
    }
    await flush();
    await ledger.stmt('UPDATE staged_files SET size_bytes = ? WHERE id = ?').run(size, id);
  } catch (error) {
    await ledger.stmt('DELETE FROM staged_files WHERE id = ?').run(id);
    throw error;
  }
  return { id, size };
}

/** A file staged in the database as a local temporary file (made once per process), or null when there is none (or it expired). */
export async function stagedAsFile(ledger: Ledger, id: string, orgId: string | null = null): Promise<{ name: string; path: string; size: number } | null> {
  const row = (await ledger.stmt(`SELECT name, size_bytes AS size, created_at AS "createdAt" FROM staged_files WHERE id = ? AND coalesce(org_id, '') = ?`).get(id, orgId ?? '')) as
    { name: string; size: number; createdAt: number } | undefined;
  if (!row || row.size < 0 || Date.now() - row.createdAt > STAGED_TTL_MS) return null;
  const dir = join(tmpdir(), 'ledgerdesk-staged');
  const path = join(dir, id);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.part`;
    const chunks = Readable.from(
      (async function* () {
        for (let n = 0; ; n++) {
          const bytes = (await ledger.stmt('SELECT bytes FROM staged_chunks WHERE file_id = ? AND n = ?').pluck().get(id, n)) as Buffer | undefined;
          if (!bytes) return;
          yield bytes;
        }
      })(),
    );
    try {
      await pipeline(chunks, createWriteStream(temp, { mode: 0o600 }));
      renameSync(temp, path);
    } finally {
      rmSync(temp, { force: true });
    }
  }
  return { name: row.name, path, size: row.size };
}

/** A local file staged in the database (an export for a later download, for its organization). */
export async function stageFileInDatabase(ledger: Ledger, name: string, path: string, orgId: string): Promise<{ id: string; size: number }> {
  return stageInDatabase(ledger, name, createReadStream(path, { highWaterMark: CHUNK }), undefined, orgId);
}

// Files staged between two requests: a statement (or a rates file, a logo) a
// window uploads for a later import, an export made for a later download.
// Each belongs to the organization and the person that staged it (issue 51;
// the rows: ledger/staging/staged.ts): for anyone else it does not exist, with
// the same answer as an unknown id. An upload is held to a limit of its own
// and to quotas of what one person and one organization keep staged at once
// (staged-limits.ts). A firm's PostgreSQL server keeps the bytes in the
// database in chunks, since the two requests may reach different server
// processes; a data folder keeps them as files beside its books. Read back, a
// server's staged file is a local file again (a copy in this process's private
// folder), so the readers stream it as they stream any file.
import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StagedKind } from '../../../db/values';
import { LedgerError } from '../ledger/core/errors';
import { addStagedBytes, beginStaged, finishStaged, findStaged, removeStaged, stagedChunk, type StagedOwner } from '../ledger/staging/staged';
import type { DeskContext } from './operation';
import { privatePath } from './private-temp';
import { STAGED_TTL_MS, stagingLimitsOf, tooLarge } from './staged-limits';

/** Chunks of this size: a row each on a server (well under PostgreSQL's 1 GB for one value), and the quotas' step. */
const CHUNK = 1024 * 1024;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a data folder keeps its staged files' bytes. */
export const stagedDir = (dataDir: string): string => join(dataDir, 'staged');

/** Whose a file the operation stages or reads is: its organization's, and the person's signed in (none: the machine's owner). */
export const ownerOf = (ctx: DeskContext, orgSeq: number): StagedOwner => ({ orgSeq, stagedBy: ctx.person?.seq ?? null });

const onServer = (ctx: DeskContext) => ctx.ledger.engine === 'postgres';

/** Where the bytes go as they arrive: chunk rows (kept by addStagedBytes), or the data folder's file. */
function sinkFor(ctx: DeskContext, id: string): { keep: boolean; write(bytes: Buffer): void; close(): void; remove(): void } {
  if (onServer(ctx)) return { keep: true, write: () => undefined, close: () => undefined, remove: () => undefined };
  mkdirSync(stagedDir(ctx.dataDir), { recursive: true, mode: 0o700 });
  const path = join(stagedDir(ctx.dataDir), id);
  const fd = openSync(path, 'wx', 0o600);
  let open = true;
  const close = () => open && (closeSync(fd), (open = false));
  return { keep: false, write: (bytes) => void writeSync(fd, bytes), close, remove: () => (close(), rmSync(path, { force: true })) };
}

/**
 * Stages a file (bytes, or a stream as it arrives) for the organization and the person: an upload is refused once
 * over its limit or its owner's quotas (nothing of it kept), an export is not held to them. Answers its id.
 */
export async function stageFile(ctx: DeskContext, orgSeq: number, kind: StagedKind, name: string, body: Uint8Array | Readable): Promise<{ id: string; size: number }> {
  const limits = kind === 'upload' ? stagingLimitsOf(ctx) : null;
  const owner = ownerOf(ctx, orgSeq);
  const id = randomUUID();
  const now = Date.now();
  await beginStaged(ctx.ledger, owner, { id, kind, name }, now);
  const sink = sinkFor(ctx, id);
  let size = 0;
  let n = 0;
  let pending: Buffer[] = [];
  let pendingSize = 0;
  const flush = async () => {
    if (!pendingSize) return;
    const bytes = Buffer.concat(pending, pendingSize);
    pending = [];
    pendingSize = 0;
    await addStagedBytes(ctx.ledger, owner, id, { n: n++, bytes, keep: sink.keep, received: size - bytes.length }, limits && limits.quotas, now - STAGED_TTL_MS);
    sink.write(bytes);
  };
  try {
    let received = 0;
    // A stream refused part way is left open (not destroyed), for the caller to drain: a browser still sending reads the answer.
    const chunks = body instanceof Uint8Array ? [Buffer.from(body.buffer, body.byteOffset, body.length)] : (body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>);
    for await (const chunk of chunks) {
      received += chunk.length;
      if (limits) tooLarge(received, limits.uploadBytes);
      for (let at = 0; at < chunk.length;) {
        const take = chunk.subarray(at, at + (CHUNK - pendingSize));
        pending.push(take);
        pendingSize += take.length;
        size += take.length;
        at += take.length;
        if (pendingSize === CHUNK) await flush();
      }
    }
    await flush();
    sink.close();
    await finishStaged(ctx.ledger, owner, id, Date.now());
  } catch (error) {
    sink.remove();
    // Whatever stops it (a limit, a closed connection), nothing of it stays; a sweep takes what a crash leaves.
    await removeStaged(ctx.ledger, orgSeq, id).catch(() => undefined);
    throw error;
  }
  return { id, size };
}

/** A local file staged for an organization (an export for a later download by the person who made it). */
export async function stageLocalFile(ctx: DeskContext, orgSeq: number, name: string, path: string): Promise<{ id: string; size: number }> {
  const stream = createReadStream(path, { highWaterMark: CHUNK });
  try {
    return await stageFile(ctx, orgSeq, 'export', name, stream);
  } finally {
    stream.destroy();
  }
}

/**
 * The owner's staged file of this kind as a local file, or null for an id that is not theirs, not finished, past its
 * day or gone. A server's is copied out of the database into this process's private folder, once.
 */
export async function stagedFile(ctx: DeskContext, orgSeq: number, kind: StagedKind, id: string): Promise<{ name: string; path: string; size: number } | null> {
  if (!UUID.test(id)) return null;
  const row = await findStaged(ctx.ledger, ownerOf(ctx, orgSeq), id, kind, Date.now() - STAGED_TTL_MS);
  if (!row) return null;
  if (!onServer(ctx)) {
    const path = join(stagedDir(ctx.dataDir), id);
    return existsSync(path) ? { ...row, path } : null;
  }
  const path = privatePath(id);
  if (!existsSync(path)) {
    const temp = privatePath(`${id}.part`);
    const chunks = Readable.from(
      (async function* () {
        for (let n = 0; ; n++) {
          const bytes = await stagedChunk(ctx.ledger, orgSeq, id, n);
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
  return { ...row, path };
}

/** Removes a staged file (an upload once imported, an export once downloaded): its row, its bytes, this process's copy. */
export async function unstage(ctx: DeskContext, orgSeq: number, id: string): Promise<void> {
  if (!UUID.test(id)) return;
  await removeStaged(ctx.ledger, orgSeq, id);
  if (onServer(ctx)) rmSync(privatePath(id), { force: true });
  else rmSync(join(stagedDir(ctx.dataDir), id), { force: true });
}

/** The answer for an upload that is not the caller's to read: the same whether it never existed, expired or is another's. */
export const uploadGone = (): LedgerError =>
  new LedgerError('validation_failed', 'That upload is gone (uploads are kept a day); add the file again.', [{ field: 'file', message: 'unknown or expired upload' }]);

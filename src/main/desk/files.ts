// Files the desk reads: from the app, only uploads it staged itself (named by
// an id it made); from an owner command, any path the owner names. A window
// can never make the server read a file of its choosing. A data folder stages
// uploads beside its books; a server's database stages them in itself (staged.ts).
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { LedgerError } from '../ledger/core/errors';
import { fileSource } from '../statements/source';
import type { StatementSource } from '../statements/types';
import type { DeskContext } from './operation';
import { stagedAsFile, stageInDatabase } from './staged';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Uploads are kept a day, then removed the next time one is made. */
const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

export const uploadsDir = (dataDir: string): string => join(dataDir, 'uploads');

const tooLarge = (size: number) => {
  if (size > MAX_UPLOAD_BYTES) throw new LedgerError('payload_too_large', `A statement may be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`, { limit: MAX_UPLOAD_BYTES });
};

/** Stores an upload (bytes or a stream) under a new id, written atomically; old uploads are swept. */
export async function stageUpload(ctx: DeskContext, name: string, body: Uint8Array | Readable): Promise<{ uploadId: string; name: string; size: number }> {
  if (ctx.ledger.engine === 'postgres') {
    const { id, size } = await stageInDatabase(ctx.ledger, name, body, tooLarge);
    return { uploadId: id, name, size };
  }
  const dir = uploadsDir(ctx.dataDir);
  mkdirSync(dir, { recursive: true });
  sweep(dir);
  const uploadId = randomUUID();
  const temp = join(dir, `${uploadId}.part`);
  if (body instanceof Uint8Array) writeFileSync(temp, body);
  else {
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        try {
          tooLarge(size);
          done(null, chunk);
        } catch (error) {
          done(error as Error);
        }
      },
    });
    try {
      await pipeline(body, limit, createWriteStream(temp));
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
  renameSync(temp, join(dir, uploadId));
  writeFileSync(join(dir, `${uploadId}.json`), JSON.stringify({ name }));
  return { uploadId, name, size: statSync(join(dir, uploadId)).size };
}

function sweep(dir: string): void {
  const now = Date.now();
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (now - statSync(path).mtimeMs > UPLOAD_TTL_MS) rmSync(path, { force: true });
  }
}

/** The file a desk input names: an upload's id in the app, a path from an owner command. */
export async function openFile(ctx: DeskContext, ref: string): Promise<StatementSource> {
  if (ctx.mode === 'command' && !UUID.test(ref)) {
    const path = resolve(ref);
    if (!existsSync(path) || !statSync(path).isFile()) throw new LedgerError('validation_failed', `No file at ${path}.`, [{ field: 'file', message: 'no such file' }]);
    return fileSource(path);
  }
  const gone = () =>
    new LedgerError('validation_failed', 'That upload is gone (uploads are kept a day); add the file again.', [{ field: 'file', message: 'unknown or expired upload' }]);
  if (!UUID.test(ref)) throw gone();
  if (ctx.ledger.engine === 'postgres') {
    const staged = await stagedAsFile(ctx.ledger, ref);
    if (!staged) throw gone();
    return fileSource(staged.path, staged.name);
  }
  const path = join(uploadsDir(ctx.dataDir), ref);
  if (!existsSync(path)) throw gone();
  const { name } = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { name: string };
  return fileSource(path, name);
}

/** A file read whole as text (a CSV of documents or rates): this many bytes at most (some 200,000 lines). */
const MAX_TEXT_BYTES = 32 * 1024 * 1024;

/** A file read whole (a CSV of documents, rates, a chart or contacts). */
export async function bytesOf(source: StatementSource): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source.open()) {
    size += chunk.length;
    if (size > MAX_TEXT_BYTES) throw new LedgerError('validation_failed', `The file is over ${MAX_TEXT_BYTES / 2 ** 20} MB: split it.`, [{ field: 'file', message: 'too large' }]);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

export const textOf = async (source: StatementSource): Promise<string> => (await bytesOf(source)).toString('utf8');

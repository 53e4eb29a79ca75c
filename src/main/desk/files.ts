// Files the desk reads: from the app, only uploads staged by the same person
// for the same organization (named by an id the server made; staged.ts); from
// an owner command, any path the owner names. A window can never make the
// server read a file of its choosing, nor another person's upload.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { LedgerError } from '../ledger/core/errors';
import { fileSource } from '../statements/source';
import type { StatementSource } from '../statements/types';
import type { DeskContext } from './operation';
import { stagedFile, stageFile, unstage, uploadGone, UUID } from './staged';

/** Stages an upload (bytes or a stream) for the organization and the person: its id, name and size. */
export async function stageUpload(ctx: DeskContext, orgSeq: number, name: string, body: Uint8Array | Readable): Promise<{ uploadId: string; name: string; size: number }> {
  const { id, size } = await stageFile(ctx, orgSeq, 'upload', name, body);
  return { uploadId: id, name, size };
}

/** The file a desk input names: the caller's own upload for this organization (an id) in the app, a path from an owner command. */
export async function openFile(ctx: DeskContext, orgSeq: number, ref: string): Promise<StatementSource> {
  if (ctx.mode === 'command' && !UUID.test(ref)) {
    const path = resolve(ref);
    if (!existsSync(path) || !statSync(path).isFile()) throw new LedgerError('validation_failed', `No file at ${path}.`, [{ field: 'file', message: 'no such file' }]);
    return fileSource(path);
  }
  const staged = await stagedFile(ctx, orgSeq, 'upload', ref);
  if (!staged) throw uploadGone();
  return fileSource(staged.path, staged.name);
}

/** An upload whose import is done goes at once (freeing its owner's quota); a path is the owner's own file, left alone. */
export async function fileDone(ctx: DeskContext, orgSeq: number, ref: string): Promise<void> {
  if (ctx.mode !== 'command' || UUID.test(ref)) await unstage(ctx, orgSeq, ref);
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

// Statement sources: a file on disk (streamed, so any size reads in bounded
// memory) or bytes already in memory (an upload, a test).
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { StatementSource } from './types';

export function fileSource(path: string, name = basename(path)): StatementSource {
  return { name, open: () => createReadStream(path, { highWaterMark: 256 * 1024 }) };
}

export function bytesSource(bytes: Uint8Array, name: string): StatementSource {
  return {
    name,
    async *open() {
      for (let at = 0; at < bytes.length; at += 256 * 1024) yield bytes.subarray(at, at + 256 * 1024);
    },
  };
}

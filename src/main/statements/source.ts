// Statement sources: a file on disk (streamed, so any size reads in bounded
// memory) or bytes already in memory (an upload, a test).
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { StatementSource } from './types';

const CHUNK = 256 * 1024;

export function fileSource(path: string, name = basename(path)): StatementSource {
  return {
    name,
    open: () => createReadStream(path, { highWaterMark: CHUNK }),
    *openSync() {
      const fd = openSync(path, 'r');
      try {
        const buffer = Buffer.alloc(CHUNK);
        for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) yield buffer.subarray(0, n);
      } finally {
        closeSync(fd);
      }
    },
  };
}

export function bytesSource(bytes: Uint8Array, name: string): StatementSource {
  function* chunks() {
    for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
  }
  return {
    name,
    async *open() {
      yield* chunks();
    },
    openSync: chunks,
  };
}

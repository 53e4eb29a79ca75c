import { randomFillSync, randomUUID } from 'node:crypto';

export const nowIso = (): string => new Date().toISOString();
/** Today's date, YYYY-MM-DD (UTC, as every date the books default to). */
export const today = (): string => nowIso().slice(0, 10);
export const newId = (): string => randomUUID();

const pool = Buffer.alloc(16 * 1024);
let poolAt = pool.length;
let lastMs = 0;
let counter = 0;
const idBytes = Buffer.alloc(16);

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, a 12-bit counter, 62
 * random bits. Ids made in one import sort in the order they were made, so a
 * million new rows append to the unique index instead of landing all over it.
 */
export function newTimeOrderedId(): string {
  if (poolAt + 10 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    counter = pool[poolAt] & 0x3f; // a random start leaves room to count up within the millisecond
  } else if (++counter > 0xfff) {
    lastMs++; // more than 4,096 ids in one millisecond: borrow the next one, keeping the order
    counter = 0;
  }
  const b = idBytes;
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  pool.copy(b, 8, poolAt, poolAt + 8);
  poolAt += 8;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

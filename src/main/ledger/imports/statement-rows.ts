// A statement's rows in the ledger's terms: minor units in the account's
// currency, a description safe to store and show, the bank's id where it can
// be trusted, and a fingerprint for rows without one.
import type { StatementRows } from '../../statements/rows';
import type { RowIssue } from '../../statements/types';
import { decimalToMinor } from '../core/money';

/**
 * A statement's rows with what the ledger adds, column by column (see
 * statements/rows.ts): each row is named by its position in the file (0-based
 * over all sections), which is also how the screen names a row it decides on.
 */
export interface LedgerRows {
  /** The statement's rows, bank ids cleaned in place. */
  rows: StatementRows;
  /** Row i's description as the ledger stores it (cleanDescription), made as it is asked for: the column stays packed. */
  description: (i: number) => string;
  /** The positions of the rows to import or compare (bad and repeated rows left out), in file order. */
  kept: Int32Array;
  /** By position: the amount in the account currency's minor units, and the fingerprint. */
  amountMinor: Float64Array;
  fingerprint: Float64Array;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const ID_MAX = 200;

/** A statement's text as the ledger stores it: no control characters, never empty. */
const UNCLEAN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\s\s|^\s|\s$/;
export const cleanDescription = (text: string): string => (UNCLEAN.test(text) ? text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim() : text) || '(no description)';

/** cyrb53: a fast 53-bit string hash (fits a SQLite integer and a JS number exactly). */
export function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * What survives a bank's re-export of the same row: the date, the amount and
 * the description's letters and digits (case, spaces and punctuation change
 * between a bank's CSV and its OFX), numbered by occurrence so that two
 * identical rows of one file (two coffees, same day, same price) stay two.
 */
export const fingerprintKey = (date: string, amountMinor: number, description: string): string => {
  const lower = description.toLowerCase();
  // ASCII text (most bank text) takes the cheaper pattern; the same letters and digits either way.
  const letters = /^[\x00-\x7f]*$/.test(lower) ? lower.replace(/[^a-z0-9]+/g, '') : lower.replace(/[^\p{L}\p{N}]+/gu, '');
  return `${date}|${amountMinor}|${letters}`;
};

/**
 * Adds minor units and fingerprints to a statement's rows; bad amounts (more
 * decimals than the currency has, beyond the ledger's limit) become row
 * issues. A bank id that one file gives to rows with different dates or
 * amounts is not trusted for those rows; identical rows under one id are one
 * transaction listed twice (`repeats`).
 */
export function toLedgerRows(rows: StatementRows, currencyOf: (section: number) => string): { rows: LedgerRows; issues: RowIssue[]; repeats: number } {
  const issues: RowIssue[] = [];
  const amountMinor = new Float64Array(rows.length);
  const fingerprint = new Float64Array(rows.length);
  const good = new Int32Array(rows.length);
  let count = 0;
  for (let i = 0; i < rows.length; i++) {
    const minor = decimalToMinor(rows.amount[i], currencyOf(rows.section[i]));
    if (typeof minor === 'string') {
      issues.push({ line: rows.line[i], field: 'amount', message: minor });
      continue;
    }
    amountMinor[i] = minor;
    const id = rows.idAt(i);
    if (id !== null) rows.externalId[i] = id.replace(CONTROL, '').trim().slice(0, ID_MAX) || null;
    good[count++] = i;
  }
  // Rows sharing a bank id within a section: one transaction listed twice, or an id not to trust.
  const byId = new Map<string, number[]>();
  for (let k = 0; k < count; k++) {
    const i = good[k];
    const id = rows.idAt(i);
    if (id === null) continue;
    const key = `${rows.section[i]} ${id}`;
    const group = byId.get(key);
    if (group) group.push(i);
    else byId.set(key, [i]);
  }
  const repeated = new Set<number>();
  for (const group of byId.values()) {
    if (group.length < 2) continue;
    const [first] = group;
    const same = group.every((i) => rows.date[i] === rows.date[first] && amountMinor[i] === amountMinor[first]);
    if (same) group.slice(1).forEach((i) => repeated.add(i));
    else group.forEach((i) => (rows.externalId[i] = null));
  }
  const kept = repeated.size ? good.subarray(0, count).filter((i) => !repeated.has(i)) : good.subarray(0, count);
  const description = (i: number) => cleanDescription(rows.description.at(i));
  numberOccurrences(rows, kept, amountMinor, fingerprint, description);
  return { rows: { rows, description, kept, amountMinor, fingerprint }, issues, repeats: repeated.size };
}

/**
 * Each kept row's fingerprint: its key's hash, or for the second and later
 * rows of one key in a section, the hash of the key and its occurrence. The
 * keys that occur more than once are found from the sorted hashes (16 bytes a
 * row), and only their rows counted: a map of a million keys' counts took
 * ~50 MB at the import's busiest.
 */
function numberOccurrences(rows: StatementRows, kept: Int32Array, amountMinor: Float64Array, fingerprint: Float64Array, description: (i: number) => string): void {
  const keyOf = (i: number) => fingerprintKey(rows.date[i], amountMinor[i], description(i));
  // A key is counted per section: the slot is its hash, with the section in it past the first.
  const slotOf = (i: number, key: string, base: number) => (rows.section[i] === 0 ? base : hash53(`${rows.section[i]}|${key}`));
  const slots = new Float64Array(kept.length);
  kept.forEach((i, k) => {
    const key = keyOf(i);
    fingerprint[i] = hash53(key);
    slots[k] = slotOf(i, key, fingerprint[i]);
  });
  const sorted = slots.slice().sort();
  const repeated = new Set<number>();
  for (let k = 1; k < sorted.length; k++) if (sorted[k] === sorted[k - 1]) repeated.add(sorted[k]);
  if (repeated.size === 0) return;
  const seen = new Map<number, number>();
  kept.forEach((i, k) => {
    if (!repeated.has(slots[k])) return;
    const occurrence = (seen.get(slots[k]) ?? 0) + 1;
    seen.set(slots[k], occurrence);
    if (occurrence > 1) fingerprint[i] = hash53(`${keyOf(i)}#${occurrence}`);
  });
}

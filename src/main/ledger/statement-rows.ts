// A statement's rows in the ledger's terms: minor units in the account's
// currency, a description safe to store and show, the bank's id where it can
// be trusted, and a fingerprint for rows without one.
import type { RowIssue, StatementRow } from '../statements/types';
import { decimalToMinor } from './money';

/** A statement row with what the ledger adds: its number in the file, minor units, a fingerprint. */
export interface LedgerRow extends StatementRow {
  /** Position in the file (0-based over all sections): how the screen names a row it decides on. */
  n: number;
  amountMinor: number;
  fingerprint: number;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const ID_MAX = 200;

/** A statement's text as the ledger stores it: no control characters, never empty. */
const UNCLEAN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\s\s|^\s|\s$/;
export const cleanDescription = (text: string): string =>
  (UNCLEAN.test(text) ? text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim() : text) || '(no description)';

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
 * Converts the statement's rows in place (a million rows are too many to
 * copy); bad amounts (more decimals than the currency has, beyond the
 * ledger's limit) become row issues. A bank id that one file gives to rows
 * with different dates or amounts is not trusted for those rows; identical
 * rows under one id are one transaction listed twice (`repeats`).
 */
export function toLedgerRows(rows: StatementRow[], currencyOf: (section: number) => string): { rows: LedgerRow[]; issues: RowIssue[]; repeats: number } {
  const issues: RowIssue[] = [];
  const out: LedgerRow[] = [];
  rows.forEach((statementRow, n) => {
    const minor = decimalToMinor(statementRow.amount, currencyOf(statementRow.section));
    if (typeof minor === 'string') return void issues.push({ line: statementRow.line, field: 'amount', message: minor });
    const r = statementRow as LedgerRow;
    r.n = n;
    r.amountMinor = minor;
    r.fingerprint = 0;
    r.description = cleanDescription(r.description);
    r.externalId = r.externalId?.replace(CONTROL, '').trim().slice(0, ID_MAX) || null;
    out.push(r);
  });
  const byId = new Map<string, LedgerRow[]>();
  for (const r of out) {
    if (!r.externalId) continue;
    const key = `${r.section} ${r.externalId}`;
    const group = byId.get(key);
    if (group) group.push(r);
    else byId.set(key, [r]);
  }
  const repeated = new Set<LedgerRow>();
  for (const group of byId.values()) {
    if (group.length < 2) continue;
    const same = group.every((r) => r.date === group[0].date && r.amountMinor === group[0].amountMinor);
    if (same) group.slice(1).forEach((r) => repeated.add(r));
    else group.forEach((r) => (r.externalId = null));
  }
  const kept = repeated.size ? out.filter((r) => !repeated.has(r)) : out;
  // Occurrences per section and fingerprint key, counted by the key's hash (a million strings would weigh more).
  const seen = new Map<number, number>();
  for (const r of kept) {
    const key = fingerprintKey(r.date, r.amountMinor, r.description);
    const base = hash53(key);
    const slot = r.section === 0 ? base : hash53(`${r.section}|${key}`);
    const occurrence = (seen.get(slot) ?? 0) + 1;
    seen.set(slot, occurrence);
    r.fingerprint = occurrence === 1 ? base : hash53(`${key}#${occurrence}`);
  }
  return { rows: kept, issues, repeats: repeated.size };
}

// A statement's rows in the ledger's terms: minor units in the account's
// currency, a description safe to store and show, the bank's id where it can
// be trusted, and a fingerprint for rows without one.
import type { RowIssue, StatementRow } from '../statements/types';
import { decimalToMinor } from './money';

export interface LedgerRow {
  /** Position in the file (0-based over all sections): how the screen names a row it decides on. */
  n: number;
  section: number;
  line: number;
  date: string;
  amountMinor: number;
  description: string;
  externalId: string | null;
  fingerprint: number;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const ID_MAX = 200;

/** A statement's text as the ledger stores it: no control characters, never empty. */
export const cleanDescription = (text: string): string => text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim() || '(no description)';

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
export const fingerprintKey = (date: string, amountMinor: number, description: string): string =>
  `${date}|${amountMinor}|${description.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')}`;

/**
 * Converts a section's rows; bad amounts (too many decimals for the currency,
 * beyond the ledger's limit) become row issues. A bank id that one file gives
 * to rows with different dates or amounts is not trusted for those rows;
 * identical rows under one id are one transaction listed twice (`repeats`).
 */
export function toLedgerRows(rows: StatementRow[], currencyOf: (section: number) => string, first = 0): { rows: LedgerRow[]; issues: RowIssue[]; repeats: number } {
  const issues: RowIssue[] = [];
  const out: LedgerRow[] = [];
  rows.forEach((r, i) => {
    const minor = decimalToMinor(r.amount, currencyOf(r.section));
    if (typeof minor === 'string') issues.push({ line: r.line, field: 'amount', message: minor });
    else {
      const externalId = r.externalId?.replace(CONTROL, '').trim().slice(0, ID_MAX) || null;
      out.push({ n: first + i, section: r.section, line: r.line, date: r.date, amountMinor: minor, description: cleanDescription(r.description), externalId, fingerprint: 0 });
    }
  });
  const byId = new Map<string, LedgerRow[]>();
  for (const r of out) if (r.externalId) byId.set(`${r.section} ${r.externalId}`, [...(byId.get(`${r.section} ${r.externalId}`) ?? []), r]);
  const repeated = new Set<LedgerRow>();
  for (const group of byId.values()) {
    if (group.length < 2) continue;
    const same = group.every((r) => r.date === group[0].date && r.amountMinor === group[0].amountMinor);
    if (same) group.slice(1).forEach((r) => repeated.add(r));
    else group.forEach((r) => (r.externalId = null));
  }
  const seen = new Map<string, number>();
  const kept = out.filter((r) => !repeated.has(r));
  for (const r of kept) {
    const key = `${r.section}|${fingerprintKey(r.date, r.amountMinor, r.description)}`;
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    r.fingerprint = hash53(`${key.slice(key.indexOf('|') + 1)}#${occurrence}`);
  }
  return { rows: kept, issues, repeats: repeated.size };
}

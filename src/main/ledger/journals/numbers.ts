// How journals are named (issue 43): JNL-0001, JNL-0002... per organization,
// never reused (journals are reversed, never deleted); the opening entry has no
// number. A leaf module: the reports and the tax audit name journals with it.

export const JOURNAL_PREFIX = 'JNL-';
/** What the opening entry is called where a journal's number would be. */
export const OPENING_ENTRY = 'Opening entry';

export const journalNumber = (n: number | null): string => (n === null ? OPENING_ENTRY : `${JOURNAL_PREFIX}${String(n).padStart(4, '0')}`);

/** A number padded to four digits, as journalNumber pads it, in SQL both engines read (SQLite's printf is not PostgreSQL's). */
const padded4 = (n: string): string => `CASE WHEN ${n} < 10 THEN '000' || ${n} WHEN ${n} < 100 THEN '00' || ${n} WHEN ${n} < 1000 THEN '0' || ${n} ELSE CAST(${n} AS TEXT) END`;

/** journalNumber in SQL, over a journals row's alias. */
export const journalNumberSql = (alias: string): string =>
  `CASE WHEN ${alias}.number IS NULL THEN '${OPENING_ENTRY}' ELSE '${JOURNAL_PREFIX}' || ${padded4(`${alias}.number`)} END`;

/** The number a person names a journal by ("JNL-0003", "jnl-3", "3"), or null when it is none. */
export function numberFrom(ref: string): number | null {
  const m = /^(?:jnl-?)?0*(\d{1,9})$/i.exec(ref.trim());
  return m ? Number(m[1]) : null;
}

// How node-postgres reads the server's values for the domain: as SQLite
// answers them (a comparison 1 or 0), integers exact or refused.
import pg from './node-postgres';

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;

/** bigint and numeric (a bigint's sum) read as numbers, and refused beyond what a number holds exactly, never rounded. */
function exactNumber(text: string): number {
  const n = Number(text);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) throw new RangeError(`${text} is beyond the integers JavaScript holds exactly (±${Number.MAX_SAFE_INTEGER})`);
  return n;
}
export const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return exactNumber;
    // A comparison in a select list reads 1 or 0, as SQLite answers it.
    if (oid === BOOL) return (text: string) => (text === 't' ? 1 : 0);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

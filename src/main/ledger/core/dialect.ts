// Where the two engines' SQL differs, each concern's query module writes both
// texts beside each other and picks by the ledger's engine; the few idioms
// many modules share are here.
import type { Ledger } from './storage';

/** The text for this ledger's engine. */
export const bySql = (ledger: Pick<Ledger, 'engine'>, sql: { sqlite: string; postgres: string }): string => sql[ledger.engine];

/**
 * `IN (the list)` after an expression, the list bound as one parameter (pass an array): SQLite reads it with
 * json_each (its driver sends the array as JSON), PostgreSQL as an array (`= ANY`).
 */
export const anyOf = (ledger: Pick<Ledger, 'engine'>): string => (ledger.engine === 'postgres' ? '= ANY(?)' : 'IN (SELECT value FROM json_each(?))');

/** `expr IN (the list)`: anyOf after the expression. */
export const inList = (ledger: Pick<Ledger, 'engine'>, expr: string): string => `${expr} ${anyOf(ledger)}`;

/** A JSON text column's field as text: SQLite's json_extract, PostgreSQL's ->>. */
export const jsonField = (ledger: Pick<Ledger, 'engine'>, column: string, field: string): string =>
  ledger.engine === 'postgres' ? `(${column}::json ->> '${field}')` : `json_extract(${column}, '$.${field}')`;

/**
 * round(num / den), half away from zero, in integers: num and den integer expressions (den not 0), computed alike
 * by both engines (SQLite would round a double, PostgreSQL a numeric or a double by its own rule). Amounts'
 * products must stay within 64 bits (9.2e18: amounts under 10^9 minor units multiplied by one another).
 */
export const roundDiv = (num: string, den: string): string => {
  // Cast first: PostgreSQL's sum() of bigints is a numeric, whose division would not truncate.
  const n = `CAST(${num} AS BIGINT)`;
  const d = `CAST(${den} AS BIGINT)`;
  return `(CASE WHEN (${n} >= 0) = (${d} > 0) THEN 1 ELSE -1 END * ((2 * abs(${n}) + abs(${d})) / (2 * abs(${d}))))`;
};

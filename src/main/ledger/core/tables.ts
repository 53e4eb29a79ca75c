// The tables of db/schema.ts as data: their columns, keys and foreign keys, read
// from the one definition (drizzle), for what works over every table at once:
// the PostgreSQL schema's generator, and copying an organization's books
// between a data folder and a server (access/copy.ts).
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../../../../db/schema';
import { GLOBAL_TABLES } from './postgres/tenancy';

export type TableConfig = ReturnType<typeof getTableConfig>;

/** Every table of db/schema.ts, by name (a module namespace lists its exports sorted, a CommonJS one in declaration order). */
export const tableConfigs = (): TableConfig[] =>
  Object.values(schema)
    .flatMap((t: unknown) => (t instanceof SQLiteTable ? [getTableConfig(t)] : []))
    .sort((a, b) => (a.name < b.name ? -1 : 1));

/** A table of one organization's books: it has org_seq and is not global. */
export const isOrgTable = (c: TableConfig): boolean => !GLOBAL_TABLES.includes(c.name) && c.columns.some((col) => col.name === 'org_seq');

/** The table a foreign key points to. */
export const referencedTable = (fk: TableConfig['foreignKeys'][number]): string => getTableConfig(fk.reference().foreignTable).name;

/** A column's PostgreSQL type (SQLite's integer -> bigint, real -> double precision, blob -> bytea). */
export const postgresType = (sqlType: string): string => {
  const type = { integer: 'bigint', text: 'text', real: 'double precision', blob: 'bytea', numeric: 'numeric' }[sqlType];
  if (!type) throw new Error(`no PostgreSQL type for ${sqlType}`);
  return type;
};

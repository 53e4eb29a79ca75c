// The storage interface's Query (storage.ts) over one way of running a statement: the driver's, which frames it
// in the caller's transaction or one of its own. Rows as objects, or as arrays for pluck and the walks.
import type pg from 'pg';
import type { Query } from '../storage';

/** Runs `sql` with its values, its rows as objects or (rowMode 'array') as arrays. */
export type Run = (sql: string, params: unknown[], rowMode?: 'array') => Promise<pg.QueryResult>;

/** A statement's Query, each call run through `run`. */
export function queryOf(sql: string, run: Run): Query {
  const values = {
    get: async (...params: unknown[]) => ((await run(sql, params, 'array')).rows[0] as unknown[] | undefined)?.[0],
    all: async (...params: unknown[]) => (await run(sql, params, 'array')).rows.map((r) => (r as unknown[])[0]),
  };
  return {
    get: async (...params) => (await run(sql, params)).rows[0],
    all: async (...params) => (await run(sql, params)).rows,
    run: async (...params) => {
      const { rowCount } = await run(sql, params);
      return { changes: rowCount ?? 0 };
    },
    insert: async (...params) => ((await run(`${sql} RETURNING seq`, params, 'array')).rows[0] as [number])[0],
    pluck: () => values,
    // Read whole (a cursor would hold a connection per walk); the walks are a page's day counts and a rule run's matches.
    iterateRaw: (...params) => walk(run, sql, params),
  };
}

async function* walk(run: Run, sql: string, params: unknown[]): AsyncGenerator<unknown[][]> {
  yield (await run(sql, params, 'array')).rows as unknown[][];
}

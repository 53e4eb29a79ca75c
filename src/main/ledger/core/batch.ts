// Many rows into one table in the caller's write: SQLite takes them one statement
// each (a call into the embedded library costs little); PostgreSQL takes them
// BATCH at a time as one INSERT over unnest() of an array per column, since each
// statement there is a round trip and a run of the table's statement triggers.
import type { Ledger } from './storage';

const BATCH = 5_000;

export class BatchInsert {
  readonly #columns: (readonly [string, string])[];
  readonly #sql: string;
  #rows: unknown[][];

  /** columns: each its name and PostgreSQL type (bigint, text, double precision); `batch`: rows held before they are written (PostgreSQL). */
  constructor(
    private readonly ledger: Ledger,
    table: string,
    columns: readonly (readonly [string, string])[],
    private readonly batch = BATCH,
  ) {
    this.#columns = [...columns];
    const names = columns.map(([name]) => name).join(', ');
    this.#sql =
      ledger.engine === 'postgres'
        ? `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${columns.map(([, type]) => `?::${type}[]`).join(', ')})`
        : `INSERT INTO ${table} (${names}) VALUES (${columns.map(() => '?').join(', ')})`;
    this.#rows = columns.map(() => []);
  }

  /** Adds a row (its values in the columns' order); written at once on SQLite, with the batch on PostgreSQL. */
  async add(...values: unknown[]): Promise<void> {
    if (this.ledger.engine !== 'postgres') return void (await this.ledger.stmt(this.#sql).run(...values));
    for (let i = 0; i < values.length; i++) this.#rows[i].push(values[i]);
    if (this.#rows[0].length >= this.batch) await this.flush();
  }

  /** Writes what is waiting (call before anything reads the table). */
  async flush(): Promise<void> {
    if (this.ledger.engine !== 'postgres' || this.#rows[0].length === 0) return;
    const rows = this.#rows;
    this.#rows = this.#columns.map(() => []);
    await this.ledger.stmt(this.#sql).run(...rows);
  }
}

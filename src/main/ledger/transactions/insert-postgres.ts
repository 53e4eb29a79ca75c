// Many new entries at once on PostgreSQL (an import): rows and their default
// lines gathered as columns and written BATCH at a time, each batch one INSERT
// over unnest() of an array per column, so a million rows are a hundred
// statements and the totals' statement triggers run once per batch. Seqs come
// from the table's sequence, a block at a time (never max(seq) + 1: another
// organization's import may be writing beside this one).
import type { Ledger } from '../core/sqlite/open';
import { COLUMNS, headOf, newEntry, type EntryWriting, type NewTransaction } from './insert';
import { insertLines, type EntryHead, type LineInput } from './lines';

const BATCH = 10_000;
/** Each column's type, in COLUMNS' order after seq: unnest needs them to read its text arrays. */
const TYPES = [
  'bigint', // seq
  'text', // id
  'bigint', // org_seq
  'bigint', // account_seq
  'text', // origin
  'text', // date
  'bigint', // amount_minor
  'bigint', // base_minor
  'text', // currency
  'text', // description
  'bigint', // category_seq
  'text', // status
  'text', // source
  'text', // external_id
  'text', // suggested_by
  'double precision', // confidence
  'text', // reason
  'text', // created_at
  'bigint', // reconciled
  'bigint', // receipt_needed
  'bigint', // import_batch_seq
  'bigint', // fingerprint
];
const INSERT_ROWS = `INSERT INTO transactions (seq, ${COLUMNS}) SELECT * FROM unnest(${TYPES.map((t) => `?::${t}[]`).join(', ')})`;
const LINE_COLUMNS = ['transaction_seq', 'org_seq', 'kind', 'category_seq', 'date', 'currency', 'amount_minor', 'base_minor'];
const LINE_TYPES = ['bigint', 'bigint', 'text', 'bigint', 'text', 'text', 'bigint', 'bigint'];
const INSERT_DEFAULT_LINES = `INSERT INTO lines (position, ${LINE_COLUMNS.join(', ')}) SELECT 0, * FROM unnest(${LINE_TYPES.map((t) => `?::${t}[]`).join(', ')})`;
const NEXT_SEQS = "SELECT nextval(pg_get_serial_sequence('transactions', 'seq')) FROM generate_series(1, ?)";

export class PostgresEntryWriter implements EntryWriting {
  #rows: unknown[][] = TYPES.map(() => []);
  #lines: unknown[][] = LINE_TYPES.map(() => []);
  #ownLines: { head: EntryHead; lines: LineInput[] }[] = [];
  #seqs: number[] = [];

  constructor(
    private readonly ledger: Ledger,
    private readonly orgSeq: number,
  ) {}

  async #nextSeq(): Promise<number> {
    if (!this.#seqs.length) this.#seqs = ((await this.ledger.stmt(NEXT_SEQS).pluck().all(BATCH)) as number[]).reverse();
    return this.#seqs.pop()!;
  }

  async add(t: NewTransaction): Promise<number> {
    const seq = await this.#nextSeq();
    const { values, lines, baseMinor } = await newEntry(this.ledger, this.orgSeq, t);
    this.#rows[0].push(seq);
    for (let i = 0; i < values.length; i++) this.#rows[i + 1].push(values[i]);
    if (t.lines) this.#ownLines.push({ head: headOf(seq, this.orgSeq, t, baseMinor), lines });
    else {
      const [line] = lines;
      const row = [seq, this.orgSeq, line.kind, line.categorySeq ?? null, t.date, t.currency, line.amountMinor, baseMinor === null ? null : -baseMinor];
      for (let i = 0; i < row.length; i++) this.#lines[i].push(row[i]);
    }
    if (this.#rows[0].length === BATCH) await this.#flush();
    return seq;
  }

  async finish(): Promise<void> {
    await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#rows[0].length) await this.ledger.stmt(INSERT_ROWS).run(...this.#rows);
    if (this.#lines[0].length) await this.ledger.stmt(INSERT_DEFAULT_LINES).run(...this.#lines);
    this.#rows = TYPES.map(() => []);
    this.#lines = LINE_TYPES.map(() => []);
    for (const { head, lines } of this.#ownLines) await insertLines(this.ledger, head, lines);
    this.#ownLines = [];
  }
}

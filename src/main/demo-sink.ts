// Where the demo books' rows go, each engine its way. SQLite: each row, receipt
// and note written as it comes (a bulk EntryWriter's rows would wait, and these
// point at them). PostgreSQL: rows from the batched writer, receipts and notes
// batched too, all written after the chunk's rows, then the transfers' pairs.
import { BatchInsert } from './ledger/core/batch';
import type { Ledger } from './ledger';
import type { Track } from './ledger/totals/declared';
import { openEntryWriter, type EntryWriting } from './ledger/transactions/entries';
import { insertTransaction, type NewTransaction } from './ledger/transactions/insert';

const RECEIPT_COLUMNS = [
  ['id', 'text'],
  ['org_seq', 'bigint'],
  ['transaction_seq', 'bigint'],
  ['file_name', 'text'],
  ['mime_type', 'text'],
  ['size_bytes', 'bigint'],
  ['ocr_text', 'text'],
  ['created_at', 'text'],
] as const;
const NOTE_COLUMNS = [
  ['id', 'text'],
  ['org_seq', 'bigint'],
  ['transaction_seq', 'bigint'],
  ['content', 'text'],
  ['author_user_id', 'text'],
  ['created_at', 'text'],
] as const;
const SET_COUNTERPART = "UPDATE lines SET counterpart_seq = ? WHERE transaction_seq = ? AND kind = 'transfer'";
const SET_COUNTERPARTS =
  "UPDATE lines SET counterpart_seq = p.seq FROM unnest(?::bigint[], ?::bigint[]) AS p(seq, other) WHERE lines.transaction_seq = p.other AND lines.kind = 'transfer'";

export class DemoSink {
  readonly receipts: BatchInsert;
  readonly notes: BatchInsert;
  readonly #pairs: [number, number][] = [];

  private constructor(
    private readonly ledger: Ledger,
    private readonly orgSeq: number,
    private readonly writer: EntryWriting | null,
    private readonly track: Track,
  ) {
    const held = writer ? Infinity : 1;
    this.receipts = new BatchInsert(ledger, 'receipts', RECEIPT_COLUMNS, held);
    this.notes = new BatchInsert(ledger, 'notes', NOTE_COLUMNS, held);
  }

  static async open(ledger: Ledger, orgSeq: number, track: Track): Promise<DemoSink> {
    return new DemoSink(ledger, orgSeq, ledger.engine === 'postgres' ? await openEntryWriter(ledger, orgSeq) : null, track);
  }

  /** A row; answers its seq. */
  row(t: NewTransaction): Promise<number> {
    return this.writer ? this.writer.add(t) : insertTransaction(this.ledger, this.orgSeq, t, this.track);
  }

  /** The earlier side of a transfer learns its other side (its line's counterpart). */
  async pair(seq: number, other: number): Promise<void> {
    if (this.writer) this.#pairs.push([seq, other]);
    else await this.ledger.stmt(SET_COUNTERPART).run(seq, other);
  }

  async finish(): Promise<void> {
    await this.writer?.finish();
    await this.receipts.flush();
    await this.notes.flush();
    if (this.#pairs.length)
      await this.ledger.stmt(SET_COUNTERPARTS).run(
        this.#pairs.map(([seq]) => seq),
        this.#pairs.map(([, other]) => other),
      );
  }
}

// Every entry enters the books here, its row and its lines: one at a time (by
// hand, an approved journal entry, the demo books, whose receipts and notes
// need each row's seq at once) or many at once (an import: EntryWriter).
import type { Ledger } from '../core/sqlite/open';
import type { TransactionOrigin, TransactionSource } from '../../../../db/values';
import type { Track } from '../totals/declared';
import { insertLines, isCategorized, linesFor, shownCategory, type EntryHead, type LineInput } from './lines';
import { statusOf, type TransactionStatus } from './status';
import { baseOf } from '../rates/valuer';

export interface NewTransaction {
  id: string;
  accountSeq: number;
  origin: TransactionOrigin;
  date: string;
  amountMinor: number;
  currency: string;
  /** Its amount in the base currency when the caller valued it (an import, with its own Valuer); by default valued here at its date's rate. */
  baseMinor?: number | null;
  description: string;
  /** Its category (identity), or null: uncategorized, its other line the suspense line. */
  categorySeq: number | null;
  /** Its lines when they are more than one category line (a split) or a transfer; by default from categorySeq. */
  lines?: LineInput[];
  source: TransactionSource;
  externalId?: string | null;
  suggestedBy?: string | null;
  confidence?: number | null;
  reason?: string | null;
  createdAt: string;
  /** The import it came in with, and its fingerprint (imports/statement-rows.ts). */
  importBatchSeq?: number | null;
  fingerprint?: number | null;
  /** Facts its status is a view of (status.ts): the demo books set them; new rows have neither. */
  reconciled?: number;
  receiptNeeded?: number;
  /** The stored status when it is a legacy one (the demo books' agent_suggested); the view of the facts otherwise. */
  status?: TransactionStatus;
}

export const COLUMNS =
  'id, org_seq, account_seq, origin, date, amount_minor, base_minor, currency, description, category_seq, status, source, external_id, suggested_by, confidence, reason, created_at, reconciled, receipt_needed, import_batch_seq, fingerprint';
const COLUMN_COUNT = COLUMNS.split(',').length;
const placeholders = (n: number) => `(${Array(n).fill('?').join(', ')})`;
const INSERT_TRANSACTION = `INSERT INTO transactions (${COLUMNS}) VALUES ${placeholders(COLUMN_COUNT)}`;

/** A new entry as stored: the row's values (in COLUMNS' order), its lines, and what its totals count. */
export async function newEntry(ledger: Ledger, orgSeq: number, t: NewTransaction, track?: Track): Promise<{ values: unknown[]; lines: LineInput[]; baseMinor: number | null }> {
  const reconciled = t.reconciled ?? 0;
  const receiptNeeded = t.receiptNeeded ?? 0;
  const lines = t.lines ?? linesFor(t.categorySeq, t.amountMinor);
  const baseMinor = t.baseMinor !== undefined ? t.baseMinor : await baseOf(ledger, orgSeq, t.amountMinor, t.currency, t.date);
  const status = t.status ?? statusOf({ categorized: isCategorized(lines), reconciled, receipt_needed: receiptNeeded, status: 'matched' });
  track?.row({
    orgSeq,
    accountSeq: t.accountSeq,
    date: t.date,
    status,
    reconciled,
    source: t.source,
    currency: t.currency,
    amountMinor: t.amountMinor,
    baseMinor,
    description: t.description,
  });
  const values = [
    t.id,
    orgSeq,
    t.accountSeq,
    t.origin,
    t.date,
    t.amountMinor,
    baseMinor,
    t.currency,
    t.description,
    shownCategory(lines),
    status,
    t.source,
    t.externalId ?? null,
    t.suggestedBy ?? null,
    t.confidence ?? null,
    t.reason ?? null,
    t.createdAt,
    reconciled,
    receiptNeeded,
    t.importBatchSeq ?? null,
    t.fingerprint ?? null,
  ];
  return { values, lines, baseMinor };
}

export const headOf = (seq: number, orgSeq: number, t: NewTransaction, baseMinor: number | null): EntryHead => ({
  seq,
  org_seq: orgSeq,
  date: t.date,
  currency: t.currency,
  amount_minor: t.amountMinor,
  base_minor: baseMinor,
});

/** One entry. Its status is the view of its facts. `track`, in a bulk load, counts the row and its lines for the totals. */
export async function insertTransaction(ledger: Ledger, orgSeq: number, t: NewTransaction, track?: Track): Promise<number> {
  const { values, lines, baseMinor } = await newEntry(ledger, orgSeq, t, track);
  const seq = Number(await ledger.stmt(INSERT_TRANSACTION).insert(values));
  await insertLines(ledger, headOf(seq, orgSeq, t, baseMinor), lines, track);
  return seq;
}

/** Rows per INSERT statement in a bulk write: one call into SQLite per row was a fifth of a large import's time. */
const ROWS_PER_STATEMENT = 50;
/** Values per row in a bulk write: its seq, then COLUMNS. */
const WIDTH = 1 + COLUMN_COUNT;
const INSERT_MANY = `INSERT INTO transactions (seq, ${COLUMNS}) VALUES ${Array(ROWS_PER_STATEMENT).fill(placeholders(WIDTH)).join(', ')}`;
const INSERT_ONE = `INSERT INTO transactions (seq, ${COLUMNS}) VALUES ${placeholders(WIDTH)}`;

/**
 * The single default line (the suspense line of an uncategorized row, or its one category line: linesFor) of each
 * row of a seq range but those named, written set-wise from the rows: what insertLines writes for them (a single
 * line's base amount is the row's, negated), without a call into SQLite per row.
 */
const INSERT_DEFAULT_LINES = `INSERT INTO lines (transaction_seq, position, org_seq, kind, category_seq, date, currency, amount_minor, base_minor)
  SELECT seq, 0, org_seq, CASE WHEN category_seq IS NULL THEN 'suspense' ELSE 'category' END, category_seq, date, currency, -amount_minor, -base_minor
  FROM transactions WHERE seq >= ? AND seq < ? AND seq NOT IN (SELECT value FROM json_each(?))`;

/** What writes many entries at once: each engine's way (EntryWriter.open). */
export interface EntryWriting {
  /** Adds an entry; answers its seq (its row may be written later, at the latest at finish). */
  add(t: NewTransaction): Promise<number>;
  /** Writes what is left. */
  finish(): Promise<void>;
}

/**
 * Many new entries in the caller's write transaction: the rows go in ROWS_PER_STATEMENT to a statement with their
 * seqs given (the next ones after the table's last), a row's default line set-wise once all are in (finish), and
 * any other lines (a matched transfer's) after their row. Nothing else may write transactions until finish.
 */
export class EntryWriter implements EntryWriting {
  readonly #first: number;
  #next: number;
  #values: unknown[] = [];
  #ownLines: { head: EntryHead; lines: LineInput[] }[] = [];
  readonly #withOwnLines: number[] = [];

  private constructor(
    private readonly ledger: Ledger,
    private readonly orgSeq: number,
    first: number,
    private readonly track?: Track,
  ) {
    this.#first = this.#next = first;
  }

  static async open(ledger: Ledger, orgSeq: number, track?: Track): Promise<EntryWriter> {
    return new EntryWriter(ledger, orgSeq, ((await ledger.stmt('SELECT coalesce(max(seq), 0) FROM transactions').pluck().get()) as number) + 1, track);
  }

  /** Adds an entry; answers its seq (its row is written with the next full statement, or at finish). */
  async add(t: NewTransaction): Promise<number> {
    const seq = this.#next++;
    const { values, lines, baseMinor } = await newEntry(this.ledger, this.orgSeq, t, this.track);
    this.#values.push(seq, ...values);
    if (t.lines) {
      this.#ownLines.push({ head: headOf(seq, this.orgSeq, t, baseMinor), lines });
      this.#withOwnLines.push(seq);
    } else {
      const [line] = lines;
      this.track?.line({
        orgSeq: this.orgSeq,
        currency: t.currency,
        date: t.date,
        kind: line.kind,
        categorySeq: line.categorySeq ?? null,
        amountMinor: line.amountMinor,
        baseMinor: baseMinor === null ? null : -baseMinor,
      });
    }
    if (this.#values.length === ROWS_PER_STATEMENT * WIDTH) await this.#flush();
    return seq;
  }

  /** Writes what is left: the last rows, every default line. */
  async finish(): Promise<void> {
    for (let at = 0; at < this.#values.length; at += WIDTH) await this.ledger.stmt(INSERT_ONE).run(this.#values.slice(at, at + WIDTH));
    this.#values = [];
    await this.#writeOwnLines();
    await this.ledger.stmt(INSERT_DEFAULT_LINES).run(this.#first, this.#next, JSON.stringify(this.#withOwnLines));
  }

  async #flush(): Promise<void> {
    await this.ledger.stmt(INSERT_MANY).run(this.#values);
    this.#values = [];
    await this.#writeOwnLines();
  }

  /** Lines other than the default, once their rows are in (their foreign key). */
  async #writeOwnLines(): Promise<void> {
    for (const { head, lines } of this.#ownLines) await insertLines(this.ledger, head, lines, this.track);
    this.#ownLines = [];
  }
}

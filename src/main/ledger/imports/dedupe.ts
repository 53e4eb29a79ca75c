// Which statement rows are already in the books. The rule, per row of one account:
//
// 1. The bank's id (FITID, AcctSvcrRef, MT940 bank reference, a mapped CSV id)
//    is already on a row of the account with the same amount: a duplicate.
//    Same id, another amount: a possible match (banks do reuse ids).
// 2. Its fingerprint (date, amount, description letters and digits, and which
//    occurrence of those in the file) is on a row of the account: a duplicate
//    when either side has no bank id (an OFX after a CSV of the same days);
//    when both have different bank ids, a possible match (some banks renumber
//    their ids when they export again).
// 3. A row entered by hand or created by an approved journal entry, in the
//    same account, with the same amount, dated at most MATCH_DAYS days apart
//    and not yet matched to a statement line nor reconciled: a possible match, the closest
//    date first, each such row matched at most once.
// 4. A row a person deleted by hand (same bank id, or same fingerprint): a
//    duplicate of what was deleted, so a later statement does not bring it back.
// 5. Otherwise new. Two identical rows of one file both import (rule 2 counts occurrences).
//
// A possible match is never imported silently: the person confirms it is the
// same transaction (merge: the row entered by hand is kept, with its
// description, category and notes, and takes the bank's date and id) or a
// different one (import).
import { bySql, inList } from '../core/dialect';
import { addDays } from '../../../shared/dates';
import type { Ledger } from '../core/sqlite/open';
import type { LedgerRows } from './statement-rows';

export const MATCH_DAYS = 4;

export type RowKind = 'new' | 'duplicate' | 'possible_match';

export interface Classified {
  kind: RowKind;
  /** The row of the books it duplicates or may be. */
  match: { seq: number; reason: string } | null;
  /** Why a duplicate without a row to show is one (a row deleted by hand). */
  reason?: string;
}

const NEW: Classified = Object.freeze({ kind: 'new', match: null });

interface BooksRow {
  seq: number;
  external_id: string | null;
  date: string;
  amount_minor: number;
  fingerprint: number | null;
}

/**
 * Rows are looked up a chunk at a time, in two statements per chunk (by bank id, by date, amount and
 * fingerprint), not one or two per row: through a network (PostgreSQL) a round trip per row adds up, and a
 * chunk's answers bound the memory however long the statement.
 */
const CHUNK = 2_000;
const COLUMNS = 't.seq, t.external_id, t.date, t.amount_minor, t.fingerprint';
const BY_ID = (ledger: Ledger) => `SELECT ${COLUMNS} FROM transactions t WHERE t.account_seq = ? AND ${inList(ledger, 't.external_id')} ORDER BY t.seq`;
/** The chunk's (date, amount, fingerprint) as one JSON list, each looked up in the index on (account, date, amount). */
const BY_PRINT = (ledger: Ledger) =>
  bySql(ledger, {
    sqlite: `SELECT ${COLUMNS} FROM json_each(?) j CROSS JOIN transactions t INDEXED BY transactions_account_date
      WHERE t.account_seq = ? AND t.date = json_extract(j.value, '$[0]') AND t.amount_minor = json_extract(j.value, '$[1]') AND t.fingerprint = json_extract(j.value, '$[2]') ORDER BY t.seq`,
    postgres: `SELECT ${COLUMNS} FROM jsonb_array_elements(CAST(? AS jsonb)) j JOIN transactions t
      ON t.account_seq = ? AND t.date = j ->> 0 AND t.amount_minor = (j ->> 1)::bigint AND t.fingerprint = (j ->> 2)::bigint ORDER BY t.seq`,
  });

const printKey = (date: string, amountMinor: number, fingerprint: number): string => `${date} ${amountMinor} ${fingerprint}`;

/** The first (lowest seq) row of each key: what one row's lookup answered. */
function firstOf(rows: BooksRow[], keyOf: (r: BooksRow) => string): Map<string, BooksRow> {
  const found = new Map<string, BooksRow>();
  for (const row of rows) {
    const key = keyOf(row);
    if (!found.has(key)) found.set(key, row);
  }
  return found;
}

/** Classifies the rows at `positions` (one account's rows, in file order), handing each row's answer to `each` in turn. */
export async function classifyRows(ledger: Ledger, accountSeq: number, rows: LedgerRows, positions: ArrayLike<number>, each: (i: number, c: Classified) => void): Promise<void> {
  if (positions.length === 0) return;
  const books = await Books.open(ledger, accountSeq, rows, positions);
  for (let start = 0; start < positions.length; start += CHUNK) {
    const chunk = Array.prototype.slice.call(positions, start, start + CHUNK) as number[];
    await books.lookUp(chunk);
    for (const i of chunk) each(i, await books.classify(i));
  }
}

/** What one account's books hold that a statement's rows may already be (the rule above, step by step). */
class Books {
  /** Days on which the account already has rows: a row on any other day can only be new (or a hand-entered row's match), which spares a million lookups on a first import. */
  private readonly busy: Set<string>;
  /** The current chunk's rows of the books by bank id, and by date, amount and fingerprint (lookUp). */
  private byId = new Map<string, BooksRow>();
  private byPrint = new Map<string, BooksRow>();
  private readonly hasCandidates: boolean;
  private readonly anyDeleted: boolean;
  private readonly claimed = new Set<number>();

  private constructor(
    private readonly ledger: Ledger,
    private readonly accountSeq: number,
    private readonly rows: LedgerRows,
    facts: { busy: Set<string>; hasCandidates: boolean; anyDeleted: boolean },
  ) {
    this.busy = facts.busy;
    this.hasCandidates = facts.hasCandidates;
    this.anyDeleted = facts.anyDeleted;
  }

  /** Reads which days of the rows' span the account has rows on, and whether rule 3's and 4's rows exist at all, once. */
  static async open(ledger: Ledger, accountSeq: number, rows: LedgerRows, positions: ArrayLike<number>): Promise<Books> {
    const { date } = rows.rows;
    let first = date[positions[0]];
    let last = first;
    for (let k = 0; k < positions.length; k++) {
      const d = date[positions[k]];
      if (d < first) first = d;
      else if (d > last) last = d;
    }
    const days = await ledger.rows<{ date: string }>(
      'SELECT date FROM account_day_totals WHERE account_seq = ? AND date BETWEEN ? AND ? GROUP BY date HAVING sum(n) > 0',
      accountSeq,
      first,
      last,
    );
    return new Books(ledger, accountSeq, rows, {
      busy: new Set(days.map((d) => d.date)),
      hasCandidates: Boolean(await ledger.stmt(`SELECT 1 FROM transactions WHERE account_seq = ? AND ${CANDIDATE} LIMIT 1`).get(accountSeq)),
      anyDeleted: Boolean(await ledger.stmt('SELECT 1 FROM deleted_statement_rows WHERE account_seq = ? LIMIT 1').get(accountSeq)),
    });
  }

  /** Reads the account's rows that a chunk's rows may be by rule 1 or 2 (a fingerprint only on a day with rows). */
  async lookUp(chunk: number[]): Promise<void> {
    const { rows } = this.rows;
    const ids = [...new Set(chunk.map((i) => rows.idAt(i)).filter((id): id is string => Boolean(id)))];
    const prints = chunk.filter((i) => this.busy.has(rows.date[i])).map((i) => [rows.date[i], this.rows.amountMinor[i], this.rows.fingerprint[i]]);
    const { ledger, accountSeq } = this;
    this.byId = ids.length ? firstOf(await ledger.rows<BooksRow>(BY_ID(ledger), accountSeq, ids), (r) => r.external_id!) : new Map();
    this.byPrint = prints.length
      ? firstOf(await ledger.rows<BooksRow>(BY_PRINT(ledger), JSON.stringify(prints), accountSeq), (r) => printKey(r.date, Number(r.amount_minor), Number(r.fingerprint)))
      : new Map();
  }

  async classify(i: number): Promise<Classified> {
    const known = this.byBankId(i) ?? this.byFingerprint(i);
    return known ?? (this.anyDeleted ? await this.deletedByHand(i) : null) ?? (this.hasCandidates ? await this.enteredByHand(i) : null) ?? NEW;
  }

  /** 1. The bank's id on a row of the account. */
  private byBankId(i: number): Classified | null {
    const id = this.rows.rows.idAt(i);
    const hit = id ? this.byId.get(id) : undefined;
    if (!hit) return null;
    return Number(hit.amount_minor) === this.rows.amountMinor[i]
      ? { kind: 'duplicate', match: { seq: hit.seq, reason: 'same bank id' } }
      : { kind: 'possible_match', match: { seq: hit.seq, reason: 'same bank id, another amount' } };
  }

  /** 2. The fingerprint on a row of the account. */
  private byFingerprint(i: number): Classified | null {
    const { rows } = this;
    if (!this.busy.has(rows.rows.date[i])) return null;
    const same = this.byPrint.get(printKey(rows.rows.date[i], rows.amountMinor[i], rows.fingerprint[i]));
    if (!same) return null;
    return !rows.rows.idAt(i) || !same.external_id
      ? { kind: 'duplicate', match: { seq: same.seq, reason: 'same date, amount and description' } }
      : { kind: 'possible_match', match: { seq: same.seq, reason: 'same date, amount and description, another bank id' } };
  }

  /** 4. A row the person deleted by hand. */
  private async deletedByHand(i: number): Promise<Classified | null> {
    const { rows } = this;
    const id = rows.rows.idAt(i);
    const gone = (await this.ledger
      .stmt(
        'SELECT deleted_at FROM deleted_statement_rows WHERE account_seq = ? AND amount_minor = ? AND ((CAST(? AS TEXT) IS NOT NULL AND external_id = ?) OR (date = ? AND fingerprint = ?)) LIMIT 1',
      )
      .get(this.accountSeq, rows.amountMinor[i], id, id, rows.rows.date[i], rows.fingerprint[i])) as { deleted_at: string } | undefined;
    return gone ? { kind: 'duplicate', match: null, reason: `deleted by hand on ${gone.deleted_at.slice(0, 10)}` } : null;
  }

  /** 3. A row entered by hand or by an approved journal entry, a few days apart: the closest first, each taken once. */
  private async enteredByHand(i: number): Promise<Classified | null> {
    const date = this.rows.rows.date[i];
    const found = (
      (await this.ledger
        .stmt(
          `SELECT seq, origin FROM transactions WHERE account_seq = ? AND amount_minor = ? AND date BETWEEN ? AND ? AND ${CANDIDATE} ORDER BY ${bySql(this.ledger, { sqlite: 'abs(julianday(date) - julianday(?))', postgres: 'abs(date::date - CAST(? AS date))' })}, seq`,
        )
        .all(this.accountSeq, this.rows.amountMinor[i], addDays(date, -MATCH_DAYS), addDays(date, MATCH_DAYS), date)) as { seq: number; origin: string }[]
    ).find((c) => !this.claimed.has(c.seq));
    if (!found) return null;
    this.claimed.add(found.seq);
    return { kind: 'possible_match', match: { seq: found.seq, reason: found.origin === 'manual' ? 'entered by hand' : 'created by an approved journal entry' } };
  }
}

/** Rows a statement line may turn out to be: entered by hand or by an approved journal entry, not yet matched to a statement line nor reconciled. */
const CANDIDATE = "origin IN ('manual', 'agent') AND import_batch_seq IS NULL AND reconciled = 0";

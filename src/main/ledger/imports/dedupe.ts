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
import { bySql } from '../core/dialect';
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

/** Classifies the rows at `positions` (one account's rows, in file order), handing each row's answer to `each` in turn. */
export async function classifyRows(ledger: Ledger, accountSeq: number, rows: LedgerRows, positions: ArrayLike<number>, each: (i: number, c: Classified) => void): Promise<void> {
  if (positions.length === 0) return;
  const books = await Books.open(ledger, accountSeq, rows, positions);
  for (let k = 0; k < positions.length; k++) each(positions[k], await books.classify(positions[k]));
}

/** What one account's books hold that a statement's rows may already be (the rule above, step by step). */
class Books {
  /** Days on which the account already has rows: a row on any other day can only be new (or a hand-entered row's match), which spares a million lookups on a first import. */
  private readonly busy: Set<string>;
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

  /** Reads what the account holds over the rows' days once, before any row is classified. */
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

  async classify(i: number): Promise<Classified> {
    const { rows } = this.rows;
    const known = this.busy.has(rows.date[i]) || rows.idAt(i) ? ((await this.byBankId(i)) ?? (await this.byFingerprint(i))) : null;
    return known ?? (this.anyDeleted ? await this.deletedByHand(i) : null) ?? (this.hasCandidates ? await this.enteredByHand(i) : null) ?? NEW;
  }

  /** 1. The bank's id on a row of the account. */
  private async byBankId(i: number): Promise<Classified | null> {
    const id = this.rows.rows.idAt(i);
    if (!id) return null;
    const hit = (await this.ledger.stmt('SELECT seq, amount_minor FROM transactions WHERE account_seq = ? AND external_id = ?').get(this.accountSeq, id)) as
      { seq: number; amount_minor: number } | undefined;
    if (!hit) return null;
    return hit.amount_minor === this.rows.amountMinor[i]
      ? { kind: 'duplicate', match: { seq: hit.seq, reason: 'same bank id' } }
      : { kind: 'possible_match', match: { seq: hit.seq, reason: 'same bank id, another amount' } };
  }

  /** 2. The fingerprint on a row of the account. */
  private async byFingerprint(i: number): Promise<Classified | null> {
    const { rows } = this;
    const same = (await this.ledger
      .stmt('SELECT seq, external_id FROM transactions WHERE account_seq = ? AND date = ? AND amount_minor = ? AND fingerprint = ?')
      .get(this.accountSeq, rows.rows.date[i], rows.amountMinor[i], rows.fingerprint[i])) as { seq: number; external_id: string | null } | undefined;
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

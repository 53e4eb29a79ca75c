// The bookkeeper's own hand: add, edit and delete rows entered by hand,
// categorize any row, mark a row as needing a receipt. Each change is one
// SQLite transaction with an audit entry saying what changed, before and
// after; none of it is open to agent tokens.
//
// Locks: a bank's row (imported, or from a feed) keeps the bank's date, amount
// and description: only its category, notes and receipts change. A reconciled
// row's date and amount never change and it is never deleted; its category may.
import { accountBySeq, requireOpenAccount } from '../accounts/accounts';
import { appendAudit, type Human } from '../access/audit';
import { resolveCategory, type ResolvedCategory } from '../chart/categories';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/db';
import { invalid, LedgerError, notFound } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { decimalMarkOf } from '../access/organizations';
import { statusOf } from './status';
import { describeTransaction, TRANSACTION_COLUMNS, type TransactionRow } from './transactions';
import { insertTransaction } from './insert';
import { followAmount, linesOf, rebaseLines, refuseTransfer, removeEntry, replaceLines } from './lines';
import { baseOf } from '../rates/valuer';
import { categorizedLines, defaultTaxOf, netEntry } from '../tax/lines';
import { usableTaxCode } from '../tax/codes';
import { assertOpen } from '../access/closing';
import { asCorrection, type Correcting } from '../tax/corrections';
import type { TransactionRecord } from '../../../../db/rows';

/** A row with what the bookkeeper's hand needs besides: its account (never null, a trigger sees to it), how it came to be, its import. */
export type HandRow = TransactionRow & Pick<TransactionRecord, 'origin' | 'import_batch_seq' | 'fingerprint'> & { account_seq: number };

export function handRow(ledger: Ledger, orgSeq: number, id: string): HandRow {
  const row = ledger.rows<HandRow>(
    `SELECT ${TRANSACTION_COLUMNS}, account_seq, origin, import_batch_seq, fingerprint FROM transactions WHERE id = ? AND org_seq = ?`,
    id.toLowerCase(),
    orgSeq,
  )[0];
  if (!row) throw notFound('transaction', id);
  return row;
}

/** Why the date, amount or description of a row cannot be changed by hand, or null when they can. */
export function lockOf(row: Pick<HandRow, 'origin' | 'reconciled'>): string | null {
  if (row.reconciled) return 'it is reconciled: its date and amount are what the bank statement says';
  if (row.origin === 'import' || row.origin === 'feed')
    return "it came from the bank: it keeps the bank's date, amount and description (its category, notes and receipts can change)";
  if (row.origin === 'agent') return 'it was created by an approved journal entry: reverse that approval instead';
  if (row.origin === 'journal') return 'it is a line of a manual journal: reverse the journal instead';
  return null;
}

/** Why a row cannot be deleted by hand, or null: a bank's row that should not be there (a line sent twice) may go until it is reconciled. */
export function deleteLockOf(row: Pick<HandRow, 'origin' | 'reconciled'>): string | null {
  return (row.origin === 'import' || row.origin === 'feed') && !row.reconciled ? null : lockOf(row);
}

const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

export interface NewHandTransaction {
  account: string;
  date: string;
  description: string;
  amount: TypedMoney;
  categoryCode?: string;
  /** Its tax code; absent: the category's default; null: none. */
  taxCode?: string | null;
  /** The amount typed is net of tax (the row is then net + tax); otherwise it is gross, as a bank shows it. */
  net?: boolean;
}

export function addTransaction(ledger: Ledger, orgSeq: number, actor: Human, input: NewHandTransaction): HandRow {
  return ledger.write(() => {
    const account = requireOpenAccount(ledger, orgSeq, input.account);
    assertOpen(ledger, orgSeq, [input.date], 'created');
    const category = input.categoryCode ? resolveCategory(ledger, orgSeq, { categoryCode: input.categoryCode }) : null;
    const description = input.description.trim();
    if (!description) throw invalid([{ field: 'description', message: 'must not be empty' }]);
    const id = newId();
    const typedMinor = typedToMinor(input.amount, account.currency, decimalMarkOf(ledger, orgSeq));
    const taxCodeSeq = input.taxCode ? usableTaxCode(ledger, orgSeq, input.taxCode) : (input.taxCode as null | undefined);
    if (input.net && !category) throw invalid([{ field: 'net', message: 'a net amount needs a category (and its tax code)' }]);
    const net = input.net && category ? netEntry(ledger, input.date, category.seq, typedMinor, taxCodeSeq === undefined ? defaultTaxOf(ledger, category.seq) : taxCodeSeq) : null;
    const amountMinor = net?.grossMinor ?? typedMinor;
    insertTransaction(ledger, orgSeq, {
      id,
      accountSeq: account.seq,
      origin: 'manual',
      date: input.date,
      amountMinor,
      currency: account.currency,
      description,
      categorySeq: category?.seq ?? null,
      lines: net?.lines ?? categorizedLines(ledger, input.date, category?.seq ?? null, amountMinor, taxCodeSeq),
      source: 'manual_csv',
      createdAt: nowIso(),
    });
    const row = handRow(ledger, orgSeq, id);
    appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.created',
      targetType: 'transaction',
      targetId: id,
      summary: `Entered by hand in "${account.name}": ${describeTransaction(row)}${category ? ` -> ${category.code} ${category.name}` : ''}`,
    });
    return row;
  });
}

/** A row's lines after its amount changed: a taxed category line is taxed again at its code (the rest as followAmount). */
function followAmountTaxed(ledger: Ledger, row: HandRow): void {
  const categories = linesOf(ledger, row.seq).filter((l) => l.kind === 'category');
  const [only] = categories;
  if (categories.length === 1 && only.tax_code_seq !== null) {
    replaceLines(ledger, row, categorizedLines(ledger, row.date, only.category_seq, row.amount_minor, only.tax_code_seq), false);
  } else followAmount(ledger, row);
}

export interface HandEdit {
  date?: string;
  description?: string;
  amount?: TypedMoney;
}

export function editTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string, edit: HandEdit, flags: Correcting = {}): HandRow {
  return ledger.write(() => {
    const row = handRow(ledger, orgSeq, id);
    const account = accountBySeq(ledger, row.account_seq);
    if (account.closed_at) throw new LedgerError('conflict', `Account "${account.name}" is closed (read-only).`, { account: account.id });
    const lock = lockOf(row);
    const reconciledDescriptionOnly = row.reconciled === 1 && row.origin === 'manual' && edit.date === undefined && edit.amount === undefined;
    if (lock && !reconciledDescriptionOnly) throw new LedgerError('conflict', `This row cannot be edited: ${lock}.`, { id: row.id, reason: lock });
    const next = {
      date: edit.date ?? row.date,
      description: edit.description?.trim() ?? row.description,
      amount_minor: edit.amount === undefined ? row.amount_minor : typedToMinor(edit.amount, row.currency, decimalMarkOf(ledger, orgSeq)),
    };
    if (!next.description) throw invalid([{ field: 'description', message: 'must not be empty' }]);
    const changes = [
      next.date !== row.date && `date ${row.date} -> ${next.date}`,
      next.description !== row.description && `description "${row.description}" -> "${next.description}"`,
      next.amount_minor !== row.amount_minor && `amount ${money(row.amount_minor, row.currency)} -> ${money(next.amount_minor, row.currency)}`,
    ].filter(Boolean);
    if (changes.length === 0) return row;
    assertOpen(ledger, orgSeq, [row.date, next.date], 'edited');
    asCorrection(ledger, orgSeq, actor, row, flags, () => {
      // Another date or amount is valued again at its date's rate (a row in the base currency: the same amount).
      const base_minor = next.date === row.date && next.amount_minor === row.amount_minor ? row.base_minor : baseOf(ledger, orgSeq, next.amount_minor, row.currency, next.date);
      ledger
        .stmt('UPDATE transactions SET date = ?, description = ?, amount_minor = ?, base_minor = ? WHERE seq = ?')
        .run(next.date, next.description, next.amount_minor, base_minor, row.seq);
      if (next.amount_minor !== row.amount_minor) followAmountTaxed(ledger, { ...row, ...next, base_minor });
      else if (base_minor !== row.base_minor) rebaseLines(ledger, { ...row, ...next, base_minor });
    });
    appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.edited',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Edited by hand in "${account.name}": ${changes.join('; ')}`,
    });
    return handRow(ledger, orgSeq, row.id);
  });
}

export function deleteTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string, flags: Correcting = {}): { id: string; deleted: true } {
  return ledger.write(() => {
    const row = handRow(ledger, orgSeq, id);
    const account = accountBySeq(ledger, row.account_seq);
    if (account.closed_at) throw new LedgerError('conflict', `Account "${account.name}" is closed (read-only).`, { account: account.id });
    const fromBank = row.origin === 'import' || row.origin === 'feed';
    const lock = deleteLockOf(row);
    if (lock) throw new LedgerError('conflict', `This row cannot be deleted: ${lock}.`, { id: row.id, reason: lock });
    const count = (sql: string) => (ledger.stmt(sql).get(row.seq) as { n: number }).n;
    const notes = count('SELECT count(*) AS n FROM notes WHERE transaction_seq = ?');
    const receipts = count('SELECT count(*) AS n FROM receipts WHERE transaction_seq = ?');
    if (notes || receipts || (row.import_batch_seq !== null && !fromBank)) {
      const what = [notes && `${notes} note(s)`, receipts && `${receipts} linked receipt(s)`, row.import_batch_seq !== null && 'a statement line matched to it']
        .filter(Boolean)
        .join(' and ');
      throw new LedgerError('conflict', `This row has ${what}; remove them first (or undo the import that matched it).`, { id: row.id, notes, receipts });
    }
    assertOpen(ledger, orgSeq, [row.date], 'deleted');
    const rejected = ledger
      .stmt(
        `UPDATE proposals SET status = 'rejected', reviewed_at = ?, reviewed_by = ?, review_comment = 'The transaction was deleted by hand.'
         WHERE org_seq = ? AND status = 'pending' AND json_extract(payload, '$.transactionId') = ?`,
      )
      .run(nowIso(), actor.name, orgSeq, row.id).changes;
    asCorrection(ledger, orgSeq, actor, row, flags, () => removeEntry(ledger, row.seq));
    // Remembered, so that the next statement showing it again does not bring it back (dedupe.ts).
    if (fromBank) {
      ledger
        .stmt('INSERT INTO deleted_statement_rows (account_seq, date, amount_minor, external_id, fingerprint, transaction_id, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(row.account_seq, row.date, row.amount_minor, row.external_id, row.fingerprint, row.id, nowIso());
    }
    appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.deleted',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Deleted by hand from "${account.name}": ${describeTransaction(row)}${row.category ? ` (${row.category})` : ''}${fromBank ? ", a bank's row (its statements will not bring it back)" : ''}${rejected ? `; ${rejected} pending proposal(s) on it rejected` : ''}`,
    });
    return { id: row.id, deleted: true };
  });
}

/**
 * Categorizes rows (or clears their category with null): each becomes an
 * entry with one category line (or the suspense line), its status the view of
 * its facts (status.ts), and the agent's suggestion metadata cleared: a person decided.
 */
export function categorizeTransactions(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  ids: string[],
  categoryCode: string | null,
  taxCode?: string | null,
  flags: Correcting = {},
): HandRow[] {
  return ledger.write(() => {
    const category: ResolvedCategory | null = categoryCode === null ? null : resolveCategory(ledger, orgSeq, { categoryCode });
    // A tax code named, none (null), or the category's default (undefined).
    const taxCodeSeq = taxCode ? usableTaxCode(ledger, orgSeq, taxCode) : (taxCode as null | undefined);
    const rows = [...new Set(ids.map((id) => id.toLowerCase()))].map((id) => handRow(ledger, orgSeq, id));
    for (const row of rows) {
      assertOpen(ledger, orgSeq, [row.date], 'categorized');
      refuseTransfer(ledger, row, 'categorized');
      const status = asCorrection(ledger, orgSeq, actor, row, flags, () =>
        replaceLines(ledger, row, categorizedLines(ledger, row.date, category?.seq ?? null, row.amount_minor, taxCodeSeq)),
      );
      ledger.stmt('UPDATE transactions SET suggested_by = NULL, confidence = NULL, reason = NULL WHERE seq = ?').run(row.seq);
      appendAudit(ledger, orgSeq, actor, {
        action: 'transaction.categorized',
        targetType: 'transaction',
        targetId: row.id,
        summary: `Categorized by hand: ${describeTransaction(row)}: ${row.category ?? '(uncategorized)'} [${row.status}] -> ${category ? `${category.code} ${category.name}` : '(uncategorized)'} [${status}]`,
      });
    }
    return rows.map((r) => handRow(ledger, orgSeq, r.id));
  });
}

/** Marks rows as needing a receipt (a fact: status receipt_missing once categorized), or no longer. */
export function markReceiptMissing(ledger: Ledger, orgSeq: number, actor: Human, ids: string[], missing: boolean): HandRow[] {
  return ledger.write(() => {
    const rows = [...new Set(ids.map((id) => id.toLowerCase()))].map((id) => handRow(ledger, orgSeq, id));
    for (const row of rows) {
      const receiptNeeded = missing ? 1 : 0;
      if (receiptNeeded === row.receipt_needed) continue;
      const status = statusOf({ ...row, categorized: row.status !== 'uncategorized', receipt_needed: receiptNeeded });
      ledger.stmt('UPDATE transactions SET receipt_needed = ?, status = ? WHERE seq = ?').run(receiptNeeded, status, row.seq);
      appendAudit(ledger, orgSeq, actor, {
        action: missing ? 'transaction.receipt_missing' : 'transaction.receipt_found',
        targetType: 'transaction',
        targetId: row.id,
        summary: `${missing ? 'Marked as needing a receipt' : 'No longer needs a receipt'}: ${describeTransaction(row)}: status ${row.status} -> ${status}`,
      });
    }
    return rows.map((r) => handRow(ledger, orgSeq, r.id));
  });
}

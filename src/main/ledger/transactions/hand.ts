// The bookkeeper's own hand: add, edit and delete rows entered by hand,
// categorize any row, mark a row as needing a receipt. Each change is one
// SQLite transaction with an audit entry saying what changed, before and
// after; none of it is open to agent tokens.
//
// Locks: a bank's row (imported, or from a feed) keeps the bank's date, amount
// and description: only its category, notes and receipts change. A reconciled
// row's date and amount never change and it is never deleted; its category may.
import { jsonField } from '../core/dialect';
import { accountBySeq, requireOpenAccount } from '../accounts/accounts';
import { appendAudit, type Human } from '../access/audit';
import { resolveCategory, type ResolvedCategory } from '../chart/categories';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
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
import { mapInOrder } from '../core/in-order';

/** A row with what the bookkeeper's hand needs besides: its account (never null, a trigger sees to it), how it came to be, its import. */
export type HandRow = TransactionRow & Pick<TransactionRecord, 'origin' | 'import_batch_seq' | 'fingerprint'> & { account_seq: number };

export async function handRow(ledger: Ledger, orgSeq: number, id: string): Promise<HandRow> {
  const row = (
    await ledger.rows<HandRow>(
      `SELECT ${TRANSACTION_COLUMNS}, account_seq, origin, import_batch_seq, fingerprint FROM transactions WHERE id = ? AND org_seq = ?`,
      id.toLowerCase(),
      orgSeq,
    )
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

export async function addTransaction(ledger: Ledger, orgSeq: number, actor: Human, input: NewHandTransaction): Promise<HandRow> {
  return ledger.write(async () => {
    const account = await requireOpenAccount(ledger, orgSeq, input.account);
    await assertOpen(ledger, orgSeq, [input.date], 'created');
    const category = input.categoryCode ? await resolveCategory(ledger, orgSeq, { categoryCode: input.categoryCode }) : null;
    const description = input.description.trim();
    if (!description) throw invalid([{ field: 'description', message: 'must not be empty' }]);
    const id = newId();
    const typedMinor = typedToMinor(input.amount, account.currency, await decimalMarkOf(ledger, orgSeq));
    const taxCodeSeq = input.taxCode ? await usableTaxCode(ledger, orgSeq, input.taxCode) : (input.taxCode as null | undefined);
    if (input.net && !category) throw invalid([{ field: 'net', message: 'a net amount needs a category (and its tax code)' }]);
    const net =
      input.net && category ? await netEntry(ledger, input.date, category.seq, typedMinor, taxCodeSeq === undefined ? await defaultTaxOf(ledger, category.seq) : taxCodeSeq) : null;
    const amountMinor = net?.grossMinor ?? typedMinor;
    await insertTransaction(ledger, orgSeq, {
      id,
      accountSeq: account.seq,
      origin: 'manual',
      date: input.date,
      amountMinor,
      currency: account.currency,
      description,
      categorySeq: category?.seq ?? null,
      lines: net?.lines ?? (await categorizedLines(ledger, input.date, category?.seq ?? null, amountMinor, taxCodeSeq)),
      source: 'manual_csv',
      createdAt: nowIso(),
    });
    const row = await handRow(ledger, orgSeq, id);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.created',
      targetType: 'transaction',
      targetId: id,
      summary: `Entered by hand in "${account.name}": ${describeTransaction(row)}${category ? ` -> ${category.code} ${category.name}` : ''}`,
    });
    return row;
  });
}

/** A row's lines after its amount changed: a taxed category line is taxed again at its code (the rest as followAmount). */
async function followAmountTaxed(ledger: Ledger, row: HandRow): Promise<void> {
  const categories = (await linesOf(ledger, row.seq)).filter((l) => l.kind === 'category');
  const [only] = categories;
  if (categories.length === 1 && only.tax_code_seq !== null) {
    await replaceLines(ledger, row, await categorizedLines(ledger, row.date, only.category_seq, row.amount_minor, only.tax_code_seq), false);
  } else await followAmount(ledger, row);
}

export interface HandEdit {
  date?: string;
  description?: string;
  amount?: TypedMoney;
}

export async function editTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string, edit: HandEdit, flags: Correcting = {}): Promise<HandRow> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, id);
    const account = await accountBySeq(ledger, row.account_seq);
    if (account.closed_at) throw new LedgerError('conflict', `Account "${account.name}" is closed (read-only).`, { account: account.id });
    const lock = lockOf(row);
    const reconciledDescriptionOnly = row.reconciled === 1 && row.origin === 'manual' && edit.date === undefined && edit.amount === undefined;
    if (lock && !reconciledDescriptionOnly) throw new LedgerError('conflict', `This row cannot be edited: ${lock}.`, { id: row.id, reason: lock });
    const next = {
      date: edit.date ?? row.date,
      description: edit.description?.trim() ?? row.description,
      amount_minor: edit.amount === undefined ? row.amount_minor : typedToMinor(edit.amount, row.currency, await decimalMarkOf(ledger, orgSeq)),
    };
    if (!next.description) throw invalid([{ field: 'description', message: 'must not be empty' }]);
    const changes = [
      next.date !== row.date && `date ${row.date} -> ${next.date}`,
      next.description !== row.description && `description "${row.description}" -> "${next.description}"`,
      next.amount_minor !== row.amount_minor && `amount ${money(row.amount_minor, row.currency)} -> ${money(next.amount_minor, row.currency)}`,
    ].filter(Boolean);
    if (changes.length === 0) return row;
    await assertOpen(ledger, orgSeq, [row.date, next.date], 'edited');
    await asCorrection(ledger, orgSeq, actor, row, flags, async () => {
      // Another date or amount is valued again at its date's rate (a row in the base currency: the same amount).
      const base_minor =
        next.date === row.date && next.amount_minor === row.amount_minor ? row.base_minor : await baseOf(ledger, orgSeq, next.amount_minor, row.currency, next.date);
      await ledger
        .stmt('UPDATE transactions SET date = ?, description = ?, amount_minor = ?, base_minor = ? WHERE seq = ?')
        .run(next.date, next.description, next.amount_minor, base_minor, row.seq);
      if (next.amount_minor !== row.amount_minor) await followAmountTaxed(ledger, { ...row, ...next, base_minor });
      else if (base_minor !== row.base_minor) await rebaseLines(ledger, { ...row, ...next, base_minor });
    });
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.edited',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Edited by hand in "${account.name}": ${changes.join('; ')}`,
    });
    return handRow(ledger, orgSeq, row.id);
  });
}

export async function deleteTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string, flags: Correcting = {}): Promise<{ id: string; deleted: true }> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, id);
    const account = await accountBySeq(ledger, row.account_seq);
    if (account.closed_at) throw new LedgerError('conflict', `Account "${account.name}" is closed (read-only).`, { account: account.id });
    const fromBank = row.origin === 'import' || row.origin === 'feed';
    const lock = deleteLockOf(row);
    if (lock) throw new LedgerError('conflict', `This row cannot be deleted: ${lock}.`, { id: row.id, reason: lock });
    const count = async (sql: string) => ((await ledger.stmt(sql).get(row.seq)) as { n: number }).n;
    const notes = await count('SELECT count(*) AS n FROM notes WHERE transaction_seq = ?');
    const receipts = await count('SELECT count(*) AS n FROM receipts WHERE transaction_seq = ?');
    if (notes || receipts || (row.import_batch_seq !== null && !fromBank)) {
      const what = [notes && `${notes} note(s)`, receipts && `${receipts} linked receipt(s)`, row.import_batch_seq !== null && 'a statement line matched to it']
        .filter(Boolean)
        .join(' and ');
      throw new LedgerError('conflict', `This row has ${what}; remove them first (or undo the import that matched it).`, { id: row.id, notes, receipts });
    }
    await assertOpen(ledger, orgSeq, [row.date], 'deleted');
    const rejected = (
      await ledger
        .stmt(
          `UPDATE proposals SET status = 'rejected', reviewed_at = ?, reviewed_by = ?, review_comment = 'The transaction was deleted by hand.'
         WHERE org_seq = ? AND status = 'pending' AND ${jsonField(ledger, 'payload', 'transactionId')} = ?`,
        )
        .run(nowIso(), actor.name, orgSeq, row.id)
    ).changes;
    await asCorrection(ledger, orgSeq, actor, row, flags, () => removeEntry(ledger, row.seq));
    // Remembered, so that the next statement showing it again does not bring it back (dedupe.ts).
    if (fromBank) {
      await ledger
        .stmt('INSERT INTO deleted_statement_rows (org_seq, account_seq, date, amount_minor, external_id, fingerprint, transaction_id, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(orgSeq, row.account_seq, row.date, row.amount_minor, row.external_id, row.fingerprint, row.id, nowIso());
    }
    await appendAudit(ledger, orgSeq, actor, {
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
export async function categorizeTransactions(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  ids: string[],
  categoryCode: string | null,
  taxCode?: string | null,
  flags: Correcting = {},
): Promise<HandRow[]> {
  return ledger.write(async () => {
    const category: ResolvedCategory | null = categoryCode === null ? null : await resolveCategory(ledger, orgSeq, { categoryCode });
    // A tax code named, none (null), or the category's default (undefined).
    const taxCodeSeq = taxCode ? await usableTaxCode(ledger, orgSeq, taxCode) : (taxCode as null | undefined);
    const rows = await mapInOrder([...new Set(ids.map((id) => id.toLowerCase()))], (id) => handRow(ledger, orgSeq, id));
    for (const row of rows) {
      await assertOpen(ledger, orgSeq, [row.date], 'categorized');
      await refuseTransfer(ledger, row, 'categorized');
      const status = await asCorrection(ledger, orgSeq, actor, row, flags, async () =>
        replaceLines(ledger, row, await categorizedLines(ledger, row.date, category?.seq ?? null, row.amount_minor, taxCodeSeq)),
      );
      await ledger.stmt('UPDATE transactions SET suggested_by = NULL, confidence = NULL, reason = NULL WHERE seq = ?').run(row.seq);
      await appendAudit(ledger, orgSeq, actor, {
        action: 'transaction.categorized',
        targetType: 'transaction',
        targetId: row.id,
        summary: `Categorized by hand: ${describeTransaction(row)}: ${row.category ?? '(uncategorized)'} [${row.status}] -> ${category ? `${category.code} ${category.name}` : '(uncategorized)'} [${status}]`,
      });
    }
    return await mapInOrder(rows, (r) => handRow(ledger, orgSeq, r.id));
  });
}

/** Marks rows as needing a receipt (a fact: status receipt_missing once categorized), or no longer. */
export async function markReceiptMissing(ledger: Ledger, orgSeq: number, actor: Human, ids: string[], missing: boolean): Promise<HandRow[]> {
  return ledger.write(async () => {
    const rows = await mapInOrder([...new Set(ids.map((id) => id.toLowerCase()))], (id) => handRow(ledger, orgSeq, id));
    for (const row of rows) {
      const receiptNeeded = missing ? 1 : 0;
      if (receiptNeeded === row.receipt_needed) continue;
      const status = statusOf({ ...row, categorized: row.status !== 'uncategorized', receipt_needed: receiptNeeded });
      await ledger.stmt('UPDATE transactions SET receipt_needed = ?, status = ? WHERE seq = ?').run(receiptNeeded, status, row.seq);
      await appendAudit(ledger, orgSeq, actor, {
        action: missing ? 'transaction.receipt_missing' : 'transaction.receipt_found',
        targetType: 'transaction',
        targetId: row.id,
        summary: `${missing ? 'Marked as needing a receipt' : 'No longer needs a receipt'}: ${describeTransaction(row)}: status ${row.status} -> ${status}`,
      });
    }
    return await mapInOrder(rows, (r) => handRow(ledger, orgSeq, r.id));
  });
}

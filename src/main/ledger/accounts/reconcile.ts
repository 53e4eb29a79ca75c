// Reconciling an account against a bank statement: the statement's end date
// and ending balance; the rows the person ticks as cleared; finished only when
// the cleared balance equals the statement's. Cleared balance = opening
// balance + every row reconciled before + the rows ticked now. Finishing marks
// the ticked rows `reconciled` (locked: date and amount fixed, never deleted,
// never un-imported) and saves the reconciliation; the last one can be undone.
// A statement dated on or before the closing date is neither reconciled nor
// undone (issue 50): its date is the reconciliation's; a row of a closed period
// still clears on a later statement (a cheque cashed after the close).
import { accountBySeq, accountFacts, isLiability, requireAccount, requireOpenAccount, type AccountRow } from './accounts';
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { decimalMarkOf } from '../access/organizations';
import { TRANSACTION_COLUMNS, transactionColumns, toTransaction, type Transaction, type TransactionRow } from '../transactions/transactions';
import { REFRESH_STATUS } from '../transactions/status';
import { accountTotals } from '../totals/sums';
import type { ReconciliationRecord } from '../../../../db/rows';
import { mapInOrder } from '../core/in-order';

export interface Reconciliation {
  id: string;
  accountId: string;
  statementDate: string;
  statementBalance: number;
  rows: number;
  createdAt: string;
  createdBy: string;
  undoneAt: string | null;
}

type ReconciliationRow = ReconciliationRecord;

const toReconciliation = async (ledger: Ledger, r: ReconciliationRow): Promise<Reconciliation> => {
  const account = await accountBySeq(ledger, r.account_seq);
  return {
    id: r.id,
    accountId: account.id,
    statementDate: r.statement_date,
    statementBalance: fromMinor(r.statement_balance_minor, account.currency),
    rows: r.rows,
    createdAt: r.created_at,
    createdBy: r.created_by,
    undoneAt: r.undone_at,
  };
};

export async function lastReconciliation(ledger: Ledger, accountSeq: number): Promise<Reconciliation | null> {
  const row = (await ledger.stmt('SELECT * FROM reconciliations WHERE account_seq = ? AND undone_at IS NULL ORDER BY seq DESC LIMIT 1').get(accountSeq)) as
    ReconciliationRow | undefined;
  return row ? await toReconciliation(ledger, row) : null;
}

/** Opening balance plus every reconciled row. */
async function reconciledMinor(ledger: Ledger, account: AccountRow): Promise<number> {
  return account.opening_balance_minor + (await accountTotals(ledger, account.seq, { reconciled: true })).minor;
}

export interface ReconcileView {
  /** liability: a card's (or a loan's) statement prints what is owed as a positive figure. */
  account: { id: string; name: string; currency: string; liability: boolean };
  last: Reconciliation | null;
  /** The statement to start from: the latest imported statement's closing balance, when there is one. */
  suggested: { date: string; balance: number } | null;
  /** Opening balance plus the rows reconciled so far. */
  reconciledBalance: number;
  /** Rows not yet reconciled, dated on or before `through`, oldest first (at most `limit`). */
  rows: Transaction[];
  totalCount: number;
}

export async function reconcileView(ledger: Ledger, orgSeq: number, accountRef: string, through: string | undefined, limit = 2000): Promise<ReconcileView> {
  const account = await requireAccount(ledger, orgSeq, accountRef);
  const stated = (await accountFacts(ledger, orgSeq, account.seq)).get(account.seq)?.stated;
  const last = await lastReconciliation(ledger, account.seq);
  const suggested = stated && (!last || stated.date > last.statementDate) ? { date: stated.date, balance: fromMinor(stated.minor, account.currency) } : null;
  const until = through ?? suggested?.date ?? '9999-12-31';
  const where = 'account_seq = ? AND reconciled = 0 AND date <= ?';
  const rows = await ledger.rows<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE ${where} ORDER BY date, seq LIMIT ?`, account.seq, until, limit);
  const { n } = (await ledger.stmt(`SELECT count(*) AS n FROM transactions WHERE ${where}`).get(account.seq, until)) as { n: number };
  return {
    account: { id: account.id, name: account.name, currency: account.currency, liability: isLiability(account.type) },
    last,
    suggested,
    reconciledBalance: fromMinor(await reconciledMinor(ledger, account), account.currency),
    rows: rows.map(toTransaction),
    totalCount: n,
  };
}

export interface ReconcileInput {
  account: string;
  statementDate: string;
  /** As the statement prints it: for a card (a liability), what is owed is a positive figure. */
  statementBalance: TypedMoney;
  /** The rows ticked as cleared, or all rows not yet reconciled up to a date. */
  clear?: string[];
  clearThrough?: string;
}

/** Finishes a reconciliation when the difference is zero; otherwise refuses, naming the difference. */
export async function reconcileAccount(ledger: Ledger, orgSeq: number, actor: Human, input: ReconcileInput): Promise<Reconciliation> {
  return ledger.write(async () => {
    const account = await requireOpenAccount(ledger, orgSeq, input.account);
    // A statement inside a closed period is not reconciled again (issue 50); a row of it clearing on a later statement is.
    await assertOpen(ledger, orgSeq, [input.statementDate], 'reconciled');
    const last = await lastReconciliation(ledger, account.seq);
    if (last && input.statementDate < last.statementDate) {
      throw invalid([{ field: 'statementDate', message: `the account is reconciled through ${last.statementDate}; reconcile a later statement (or undo that one)` }]);
    }
    if ((input.clear === undefined) === (input.clearThrough === undefined)) throw invalid([{ field: 'clear', message: 'give the rows to clear, or a date to clear through' }]);
    const printed = typedToMinor(input.statementBalance, account.currency, await decimalMarkOf(ledger, orgSeq), 'statementBalance');
    // A card's statement prints what is owed as positive; the books hold it as a negative balance.
    const target = isLiability(account.type) ? -printed : printed;
    const rows = input.clear
      ? await mapInOrder([...new Set(input.clear.map((id) => id.toLowerCase()))], async (id) => {
          const row = (await ledger.stmt('SELECT seq, id, date, amount_minor, status, reconciled, account_seq FROM transactions WHERE id = ? AND org_seq = ?').get(id, orgSeq)) as
            { seq: number; id: string; date: string; amount_minor: number; status: string; reconciled: number; account_seq: number } | undefined;
          if (!row || row.account_seq !== account.seq) throw invalid([{ field: 'clear', message: `${id} is not a row of "${account.name}"` }]);
          if (row.reconciled) throw invalid([{ field: 'clear', message: `${id} is already reconciled` }]);
          if (row.date > input.statementDate) throw invalid([{ field: 'clear', message: `${id} is dated ${row.date}, after the statement date ${input.statementDate}` }]);
          return row;
        })
      : ((await ledger
          .stmt('SELECT seq, id, date, amount_minor, status FROM transactions WHERE account_seq = ? AND reconciled = 0 AND date <= ?')
          .all(account.seq, input.clearThrough! > input.statementDate ? input.statementDate : input.clearThrough)) as { seq: number; amount_minor: number; status: string }[]);
    const cleared = (await reconciledMinor(ledger, account)) + rows.reduce((sum, r) => sum + r.amount_minor, 0);
    const difference = target - cleared;
    if (difference !== 0) {
      const money = (minor: number) => fromMinor(minor, account.currency).toFixed(2);
      throw new LedgerError(
        'conflict',
        `Not reconciled: the cleared balance is ${money(cleared)} ${account.currency}, the statement says ${isLiability(account.type) ? `${money(printed)} owed (${money(target)} in the books)` : money(target)}: a difference of ${money(difference)}.`,
        { clearedBalance: fromMinor(cleared, account.currency), statementBalance: fromMinor(target, account.currency), difference: fromMinor(difference, account.currency) },
      );
    }
    const id = newId();
    const lastInsertRowid = await ledger
      .stmt('INSERT INTO reconciliations (id, org_seq, account_seq, statement_date, statement_balance_minor, rows, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .insert(id, orgSeq, account.seq, input.statementDate, target, rows.length, nowIso(), actor.name);
    const remember = ledger.stmt('INSERT INTO reconciliation_rows (org_seq, reconciliation_seq, transaction_seq, previous_status) VALUES (?, ?, ?, ?)');
    const mark = ledger.stmt('UPDATE transactions SET reconciled = 1 WHERE seq = ?');
    const refresh = ledger.stmt(REFRESH_STATUS);
    for (const r of rows) {
      await remember.run(orgSeq, lastInsertRowid, r.seq, r.status);
      await mark.run(r.seq);
      await refresh.run(r.seq);
    }
    await appendAudit(ledger, orgSeq, actor, {
      action: 'account.reconciled',
      targetType: 'account',
      targetId: account.id,
      summary: `Reconciled "${account.name}" through ${input.statementDate} at ${fromMinor(target, account.currency).toFixed(2)} ${account.currency}: ${rows.length} row(s) cleared`,
    });
    return (await lastReconciliation(ledger, account.seq))!;
  });
}

/** Undoes the account's last reconciliation: its rows get back the status they had. */
export async function undoReconciliation(ledger: Ledger, orgSeq: number, actor: Human, accountRef: string): Promise<Reconciliation> {
  return ledger.write(async () => {
    const account = await requireOpenAccount(ledger, orgSeq, accountRef);
    const row = (await ledger.stmt('SELECT * FROM reconciliations WHERE account_seq = ? AND undone_at IS NULL ORDER BY seq DESC LIMIT 1').get(account.seq)) as
      ReconciliationRow | undefined;
    if (!row) throw new LedgerError('conflict', `"${account.name}" has no reconciliation to undo.`, { account: account.id });
    // The closing date keeps the reconciliations it closed over (issue 50), as it keeps every other change.
    await assertOpen(ledger, orgSeq, [row.statement_date], 'un-reconciled');
    // No longer reconciled; the status is the view of the facts as they are now (the category may have changed meanwhile).
    const unmark = ledger.stmt('UPDATE transactions SET reconciled = 0 WHERE seq = ?');
    const refresh = ledger.stmt(REFRESH_STATUS);
    for (const seq of (await ledger.stmt('SELECT transaction_seq FROM reconciliation_rows WHERE reconciliation_seq = ?').pluck().all(row.seq)) as number[]) {
      await unmark.run(seq);
      await refresh.run(seq);
    }
    // The undone reconciliation keeps its date, balance and count; its rows are free again.
    await ledger.stmt('DELETE FROM reconciliation_rows WHERE reconciliation_seq = ?').run(row.seq);
    await ledger.stmt('UPDATE reconciliations SET undone_at = ? WHERE seq = ?').run(nowIso(), row.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'account.reconciliation_undone',
      targetType: 'account',
      targetId: account.id,
      summary: `Undid the reconciliation of "${account.name}" through ${row.statement_date}: ${row.rows} row(s) back to their status before`,
    });
    return toReconciliation(ledger, (await ledger.stmt('SELECT * FROM reconciliations WHERE seq = ?').get(row.seq)) as ReconciliationRow);
  });
}

/** A finished reconciliation as a report an accountant files: from the balance reconciled before to the statement's, with the rows cleared and what was still outstanding. */
export interface ReconciliationReport {
  reconciliation: Reconciliation;
  account: { id: string; name: string; type: string; currency: string };
  /** The reconciled balance before this one (the opening balance for the first). */
  previousBalance: number;
  deposits: { count: number; total: number };
  payments: { count: number; total: number };
  /** previousBalance + deposits + payments: equal to the statement balance. */
  clearedBalance: number;
  difference: number;
  cleared: Transaction[];
  /** Rows dated on or before the statement date that it did not clear (outstanding), as they are now. */
  outstanding: Transaction[];
  /** The books' balance at the statement date: cleared balance plus the outstanding rows. */
  bookBalance: number;
}

export async function reconciliationReport(ledger: Ledger, orgSeq: number, accountRef: string, id?: string): Promise<ReconciliationReport> {
  const account = await requireAccount(ledger, orgSeq, accountRef);
  const row = (
    id
      ? await ledger.stmt('SELECT * FROM reconciliations WHERE id = ? AND account_seq = ?').get(id.toLowerCase(), account.seq)
      : await ledger.stmt('SELECT * FROM reconciliations WHERE account_seq = ? AND undone_at IS NULL ORDER BY seq DESC LIMIT 1').get(account.seq)
  ) as ReconciliationRow | undefined;
  if (!row)
    throw new LedgerError('not_found', id ? `No reconciliation ${id} of "${account.name}".` : `"${account.name}" has not been reconciled yet.`, {
      resource: 'reconciliation',
      id: id ?? null,
    });
  if (row.undone_at)
    throw new LedgerError(
      'conflict',
      `The reconciliation of "${account.name}" through ${row.statement_date} was undone on ${row.undone_at.slice(0, 10)}: there is nothing to report.`,
      { id: row.id },
    );
  const before = (await ledger
    .stmt('SELECT statement_balance_minor AS minor FROM reconciliations WHERE account_seq = ? AND undone_at IS NULL AND seq < ? ORDER BY seq DESC LIMIT 1')
    .get(account.seq, row.seq)) as { minor: number } | undefined;
  const previous = before?.minor ?? account.opening_balance_minor;
  const cleared = await ledger.rows<TransactionRow>(
    `SELECT ${transactionColumns('t')} FROM reconciliation_rows r JOIN transactions t ON t.seq = r.transaction_seq WHERE r.reconciliation_seq = ? ORDER BY t.date, t.seq`,
    row.seq,
  );
  const outstanding = await ledger.rows<TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE account_seq = ? AND reconciled = 0 AND date <= ? ORDER BY date, seq`,
    account.seq,
    row.statement_date,
  );
  const sum = (rows: TransactionRow[]) => rows.reduce((total, r) => total + r.amount_minor, 0);
  const [inflows, outflows] = [cleared.filter((r) => r.amount_minor > 0), cleared.filter((r) => r.amount_minor < 0)];
  const clearedMinor = previous + sum(cleared);
  const money = (minor: number) => fromMinor(minor, account.currency);
  return {
    reconciliation: await toReconciliation(ledger, row),
    account: { id: account.id, name: account.name, type: account.type, currency: account.currency },
    previousBalance: money(previous),
    deposits: { count: inflows.length, total: money(sum(inflows)) },
    payments: { count: outflows.length, total: money(sum(outflows)) },
    clearedBalance: money(clearedMinor),
    difference: money(row.statement_balance_minor - clearedMinor),
    cleared: cleared.map(toTransaction),
    outstanding: outstanding.map(toTransaction),
    bookBalance: money(clearedMinor + sum(outstanding)),
  };
}

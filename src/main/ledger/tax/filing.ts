// Filing a tax return (issue 28): what was filed (the return as computed,
// how many lines, when, by whom) is kept, and the taxed lines it took are
// stamped with it: they no longer change (an edit, a split, a deletion of
// their rows is refused with period_locked naming the return, or made by a
// person as a correction in the next return: corrections.ts; filing that
// return stamps its corrections too). New rows dated
// in a filed period are still welcome: they go into the next open return, as
// tax offices expect, and that return says how many arrived late. Decision:
// the tax control account stays the payable (no journal moves it to another
// account): its balance is what is owed. The payment to the tax office (or
// the refund from it) is a bank row matched with the return like a bill's
// payment: its one line settles the control account.
import { bySql } from '../core/dialect';
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { newId, nowIso, today } from '../core/clock';
import { addDays } from '../../../shared/dates';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, toMinor } from '../core/money';
import { stampLines, taxReturn, type TaxReturn } from './return';
import { stampCorrections } from './adjustments';
import { assertOpen } from '../access/closing';
import { handRow } from '../transactions/hand';
import { refuseTransfer, replaceLines } from '../transactions/lines';
import { describeTransaction } from '../transactions/transactions';

export interface FiledReturn {
  id: string;
  from: string;
  to: string;
  basis: string;
  payable: number;
  lineCount: number;
  filedAt: string;
  filedBy: string;
  report: TaxReturn;
  /** The bank row that paid it (or received the refund), or null. */
  paymentId: string | null;
  /** The tax owed at a conversion, filed before these books (the opening balances keep it). */
  openingBalances: boolean;
  /** The tax office has a receipt of it (a submission: a later issue): never undone. */
  submitted: boolean;
}

interface FiledRow {
  id: string;
  period_from: string;
  period_to: string;
  basis: string;
  report: string;
  payable_minor: number;
  line_count: number;
  filed_at: string;
  filed_by: string;
  payment_id: string | null;
  opening: number | boolean;
  submission_receipt: string | null;
}

const toFiled = (r: FiledRow, currency: string): FiledReturn => ({
  id: r.id,
  from: r.period_from,
  to: r.period_to,
  basis: r.basis,
  payable: fromMinor(r.payable_minor, currency),
  lineCount: r.line_count,
  filedAt: r.filed_at,
  filedBy: r.filed_by,
  // Returns filed before corrections existed (issue 43) included none.
  report: { corrections: [], correctionThreshold: null, warnings: [], ...(JSON.parse(r.report) as Partial<TaxReturn>) } as TaxReturn,
  paymentId: r.payment_id,
  openingBalances: Boolean(r.opening),
  submitted: r.submission_receipt !== null,
});

export async function listTaxReturns(ledger: Ledger, orgSeq: number): Promise<FiledReturn[]> {
  const { currency } = await organizationBySeq(ledger, orgSeq);
  return (
    await ledger.rows<FiledRow>(
      `SELECT r.*, t.id AS payment_id, EXISTS (SELECT 1 FROM journals j WHERE j.tax_return_seq = r.seq) AS opening
       FROM tax_returns r LEFT JOIN transactions t ON t.seq = r.payment_transaction_seq WHERE r.org_seq = ? ORDER BY r.period_to DESC`,
      orgSeq,
    )
  ).map((r) => toFiled(r, currency));
}

/**
 * A period filed exactly as asked, shown as it was filed (the stored report: the original never changes), with how
 * many of its rows were corrected since (their differences are in a later return); null when not filed.
 */
export async function filedView(ledger: Ledger, orgSeq: number, period: { from: string; to: string }): Promise<TaxReturn | null> {
  const row = (await ledger
    .stmt('SELECT seq, id, report, filed_at, filed_by FROM tax_returns WHERE org_seq = ? AND period_from = ? AND period_to = ?')
    .get(orgSeq, period.from, period.to)) as { seq: number; id: string; report: string; filed_at: string; filed_by: string } | undefined;
  if (!row) return null;
  const correctedSince = (await ledger.stmt('SELECT count(DISTINCT transaction_id) FROM tax_corrections WHERE tax_return_seq = ?').pluck().get(row.seq)) as number;
  // Stored before corrections existed (issue 43): none then.
  const report = { corrections: [], correctionThreshold: null, warnings: [], ...(JSON.parse(row.report) as Partial<TaxReturn>) } as TaxReturn;
  return { ...report, filed: { id: row.id, filedAt: row.filed_at, filedBy: row.filed_by, correctedSince } };
}

/**
 * A period that has not ended by the ledger's clock is not filed (issue 50; HMRC's TAX_PERIOD_NOT_ENDED): its rows
 * still arrive, and a filed period would refuse the invoices dated in the rest of it.
 */
function assertEnded(period: { from: string; to: string }): void {
  const now = today();
  if (period.to < now) return;
  const fileFrom = addDays(period.to, 1);
  throw new LedgerError('tax_period_not_ended', `The period ${period.from} to ${period.to} has not ended (today is ${now}): its return can be filed from ${fileFrom}.`, {
    field: 'to',
    to: period.to,
    today: now,
    fileFrom,
  });
}

/**
 * Files the return of a period: refused when the period has not ended (issue 50), overlaps one already filed, or
 * ends before the last one; and, when its corrections of earlier returns exceed the tax office's threshold, unless
 * the person confirms it (issue 43).
 */
export async function fileTaxReturn(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  period: { from: string; to: string; basis?: 'cash' | 'accrual'; confirmCorrections?: boolean },
): Promise<FiledReturn> {
  if (period.from > period.to) throw invalid([{ field: 'to', message: `is before from (${period.from})` }]);
  assertEnded(period);
  return ledger.write(async () => {
    const org = await organizationBySeq(ledger, orgSeq);
    const clash = (await ledger
      .stmt('SELECT period_from, period_to FROM tax_returns WHERE org_seq = ? AND period_from <= ? AND period_to >= ? LIMIT 1')
      .get(orgSeq, period.to, period.from)) as { period_from: string; period_to: string } | undefined;
    if (clash) {
      throw new LedgerError('conflict', `A return for ${clash.period_from} to ${clash.period_to} was already filed; it overlaps ${period.from} to ${period.to}.`, {
        from: clash.period_from,
        to: clash.period_to,
      });
    }
    const report = await taxReturn(ledger, orgSeq, { from: period.from, to: period.to, basis: period.basis });
    const threshold = report.correctionThreshold;
    if (threshold?.exceeded && !period.confirmCorrections) {
      const over = `net value ${threshold.netValue.toFixed(2)}, threshold ${threshold.limit.toFixed(2)} ${org.currency}`;
      throw invalid([
        {
          field: 'confirmCorrections',
          message: `${threshold.message} (${over}); to file them in this return all the same, confirm it (--confirm-corrections; the Tax screen asks)`,
        },
      ]);
    }
    const id = newId();
    const seq = Number(
      await ledger
        .stmt('INSERT INTO tax_returns (id, org_seq, period_from, period_to, basis, report, payable_minor, line_count, filed_at, filed_by) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)')
        .insert(id, orgSeq, period.from, period.to, report.basis, JSON.stringify(report), toMinor(report.payable, org.currency), nowIso(), actor.name),
    );
    const lineCount = await stampLines(ledger, orgSeq, org.currency, period.from, period.to, seq);
    await ledger.stmt('UPDATE tax_returns SET line_count = ? WHERE seq = ?').run(lineCount, seq);
    await stampCorrections(
      ledger,
      report.corrections.map((c) => c.correctionId),
      seq,
    );
    const corrected = new Set(report.corrections.map((c) => c.correctionId)).size;
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.return_filed',
      targetType: 'tax_return',
      targetId: id,
      summary: `Tax return filed for ${period.from} to ${period.to} (${report.basis} basis): ${lineCount} line(s)${report.lateLines ? `, ${report.lateLines} of them late for an earlier period` : ''}${corrected ? `, ${corrected} correction(s) of earlier returns${threshold?.exceeded ? ` over the threshold (${threshold.netValue.toFixed(2)}), confirmed` : ''}` : ''}, payable ${report.payable.toFixed(2)} ${org.currency}`,
    });
    return (await listTaxReturns(ledger, orgSeq)).find((r) => r.id === id)!;
  });
}

/** How long after a period's end its payment may come (HMRC: one month and seven days; more for a late payer). */
export const TAX_PAYMENT_DAYS = 120;

export interface TaxPaymentCandidate {
  returnId: string;
  from: string;
  to: string;
  payable: number;
  transactionId: string;
  date: string;
  description: string;
}

/**
 * Bank rows that may pay a filed, unpaid return, as a bill's payment is found:
 * uncategorized, the payable exactly (money out; money in for a refund due),
 * dated after the period's end and within TAX_PAYMENT_DAYS. Shown to accept, never
 * matched on their own (two payments of one amount are not told apart by it).
 */
export async function taxPaymentCandidates(ledger: Ledger, orgSeq: number): Promise<TaxPaymentCandidate[]> {
  const { currency } = await organizationBySeq(ledger, orgSeq);
  return (
    await ledger.rows<TaxPaymentCandidate & { payable_minor: number }>(
      `SELECT r.id AS "returnId", r.period_from AS "from", r.period_to AS "to", r.payable_minor, t.id AS "transactionId", t.date, t.description
     FROM tax_returns r JOIN transactions t INDEXED BY transactions_org_status_date
       ON t.org_seq = r.org_seq AND t.status = 'uncategorized' AND t.date > r.period_to AND t.date <= ${bySql(ledger, { sqlite: `date(r.period_to, '+${TAX_PAYMENT_DAYS} days')`, postgres: `to_char(r.period_to::date + ${TAX_PAYMENT_DAYS}, 'YYYY-MM-DD')` })} AND t.amount_minor = -r.payable_minor AND t.currency = ?
     WHERE r.org_seq = ? AND r.payment_transaction_seq IS NULL AND r.payable_minor <> 0 ORDER BY r.period_to, t.date`,
      currency,
      orgSeq,
    )
  ).map(({ payable_minor, ...c }) => ({ ...c, payable: fromMinor(payable_minor, currency) }));
}

/** A bank row pays a filed return: its one line settles the tax control account; the return says it is paid. */
export async function payTaxReturn(ledger: Ledger, orgSeq: number, actor: Human, returnId: string, transactionId: string): Promise<FiledReturn> {
  return ledger.write(async () => {
    const filed = (await ledger
      .stmt('SELECT seq, period_from, period_to, payable_minor, payment_transaction_seq FROM tax_returns WHERE org_seq = ? AND id = ?')
      .get(orgSeq, returnId)) as { seq: number; period_from: string; period_to: string; payable_minor: number; payment_transaction_seq: number | null } | undefined;
    if (!filed) throw new LedgerError('not_found', `No filed return ${returnId}.`, { resource: 'tax return', id: returnId });
    if (filed.payment_transaction_seq !== null) throw new LedgerError('conflict', `The return for ${filed.period_from} to ${filed.period_to} is already paid.`, { id: returnId });
    const row = await handRow(ledger, orgSeq, transactionId);
    await assertOpen(ledger, orgSeq, [row.date], 'made a tax payment');
    await refuseTransfer(ledger, row, 'made a tax payment');
    if (row.amount_minor !== -filed.payable_minor) {
      throw invalid([
        {
          field: 'transactionId',
          message: `the row is ${fromMinor(row.amount_minor, row.currency).toFixed(2)}; the return asks ${fromMinor(-filed.payable_minor, row.currency).toFixed(2)}`,
        },
      ]);
    }
    await replaceLines(ledger, row, [{ kind: 'tax', amountMinor: -row.amount_minor }]);
    await ledger.stmt('UPDATE tax_returns SET payment_transaction_seq = ? WHERE seq = ?').run(row.seq, filed.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.return_paid',
      targetType: 'tax_return',
      targetId: returnId,
      summary: `Tax return for ${filed.period_from} to ${filed.period_to} paid by ${describeTransaction(row)}`,
    });
    return (await listTaxReturns(ledger, orgSeq)).find((r) => r.id === returnId)!;
  });
}

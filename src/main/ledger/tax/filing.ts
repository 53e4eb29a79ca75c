// Filing a tax return (issue 28): what was filed (the return as computed,
// how many lines, when, by whom) is kept, and the taxed lines it took are
// stamped with it: they no longer change (an edit, a split, a deletion of
// their rows is refused with period_locked naming the return). New rows dated
// in a filed period are still welcome: they go into the next open return, as
// tax offices expect, and that return says how many arrived late. Decision:
// the tax control account stays the payable (no journal moves it to another
// account): its balance is what is owed, and a payment to the tax office is
// categorized to it.
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/db';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, toMinor } from '../core/money';
import { stampLines, taxReturn, type TaxReturn } from './return';

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
  report: JSON.parse(r.report) as TaxReturn,
});

export function listTaxReturns(ledger: Ledger, orgSeq: number): FiledReturn[] {
  const { currency } = organizationBySeq(ledger, orgSeq);
  return ledger.rows<FiledRow>('SELECT * FROM tax_returns WHERE org_seq = ? ORDER BY period_to DESC', orgSeq).map((r) => toFiled(r, currency));
}

/** Files the return of a period: refused when it overlaps one already filed, or ends before the last one. */
export function fileTaxReturn(ledger: Ledger, orgSeq: number, actor: Human, period: { from: string; to: string; basis?: 'cash' | 'accrual' }): FiledReturn {
  if (period.from > period.to) throw invalid([{ field: 'to', message: 'is before from' }]);
  return ledger.write(() => {
    const org = organizationBySeq(ledger, orgSeq);
    const clash = ledger
      .stmt('SELECT period_from, period_to FROM tax_returns WHERE org_seq = ? AND period_from <= ? AND period_to >= ? LIMIT 1')
      .get(orgSeq, period.to, period.from) as { period_from: string; period_to: string } | undefined;
    if (clash) {
      throw new LedgerError('conflict', `A return for ${clash.period_from} to ${clash.period_to} was already filed; it overlaps ${period.from} to ${period.to}.`, {
        from: clash.period_from,
        to: clash.period_to,
      });
    }
    const report = taxReturn(ledger, orgSeq, period);
    const id = newId();
    const seq = Number(
      ledger
        .stmt('INSERT INTO tax_returns (id, org_seq, period_from, period_to, basis, report, payable_minor, line_count, filed_at, filed_by) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)')
        .run(id, orgSeq, period.from, period.to, report.basis, JSON.stringify(report), toMinor(report.payable, org.currency), nowIso(), actor.name).lastInsertRowid,
    );
    const lineCount = stampLines(ledger, orgSeq, org.currency, period.from, period.to, seq);
    ledger.stmt('UPDATE tax_returns SET line_count = ? WHERE seq = ?').run(lineCount, seq);
    appendAudit(ledger, orgSeq, actor, {
      action: 'tax.return_filed',
      targetType: 'tax_return',
      targetId: id,
      summary: `Tax return filed for ${period.from} to ${period.to} (${report.basis} basis): ${lineCount} line(s)${report.lateLines ? `, ${report.lateLines} of them late for an earlier period` : ''}, payable ${report.payable.toFixed(2)} ${org.currency}`,
    });
    return listTaxReturns(ledger, orgSeq).find((r) => r.id === id)!;
  });
}

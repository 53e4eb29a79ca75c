// Reports as CSV for the Reports screen's downloads and `ledgerdesk report
// ... --csv`: one line per category (or account), amounts as plain numbers.
import type { ProfitAndLoss } from '../ledger/reports/profit-and-loss';
import type { AccountBalance } from '../ledger/reports/reports';
import { csvCell } from './csv';

const line = (cells: (string | number | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * The P&L as a table a spreadsheet sums the same way: one line per category
 * (a parent's figures are its subtotal, its own rows on an "(other)" line),
 * each section's total, gross profit when cost of sales is used, net, and the
 * uncategorized rows apart (not in net). `kind` says which lines are totals.
 */
export function profitAndLossCsv(pl: ProfitAndLoss): string {
  const months = pl.months ?? [];
  const cells = (m: Record<string, number> | undefined, total: number) => [...months.map((month) => m?.[month] ?? 0), total];
  let out = line(['section', 'kind', 'code', 'name', 'parent', ...months, 'total']);
  for (const s of pl.sections) {
    for (const l of pl.lines.filter((x) => x.section === s.section))
      out += line([s.section, l.parent ? 'subtotal' : 'category', l.code, l.name, l.parentCode, ...cells(l.months, l.total)]);
    out += line([s.section, 'total', '', `Total ${s.title.toLowerCase()}`, '', ...cells(s.months, s.total)]);
    if (s.section === 'cost_of_sales' && pl.grossProfit) out += line(['', 'total', '', 'Gross profit', '', ...cells(pl.grossProfit.months, pl.grossProfit.total)]);
  }
  out += line(['', 'total', '', 'Net', '', ...cells(pl.netMonths, pl.net)]);
  out += line(['', 'uncategorized', '', 'Uncategorized (not in net)', '', ...cells(pl.uncategorized.months, pl.uncategorized.amount)]);
  return out;
}

export function balancesCsv(report: { date: string; accounts: AccountBalance[] }): string {
  let out = line(['account', 'type', 'currency', 'date', 'balance', 'cleared', 'reconciled', 'unreconciled']);
  for (const a of report.accounts) out += line([a.name, a.type, a.currency, report.date, a.balance, a.cleared, a.reconciled, a.unreconciled]);
  return out;
}

// Reports as CSV for the Reports screen's downloads and `ledgerdesk report
// ... --csv`: one line per category (or account), amounts as plain numbers.
import type { AccountBalance, ProfitAndLoss } from '../ledger/reports';
import { csvCell } from './csv';

const line = (cells: (string | number | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;

export function profitAndLossCsv(pl: ProfitAndLoss): string {
  const months = pl.months ?? [];
  let out = line(['code', 'name', 'type', 'parent', ...(months.length ? months : []), 'amount', 'total']);
  for (const l of pl.lines) out += line([l.code, l.name, l.type, l.parentCode, ...months.map((m) => l.months?.[m] ?? 0), l.amount, l.total]);
  out += line(['', 'Uncategorized', '', '', ...months.map((m) => pl.uncategorized.months?.[m] ?? 0), pl.uncategorized.amount, pl.uncategorized.amount]);
  out += line(['', 'Net (revenue + expenses)', '', '', ...months.map(() => null), pl.net, pl.net]);
  return out;
}

export function balancesCsv(report: { date: string; accounts: AccountBalance[] }): string {
  let out = line(['account', 'type', 'currency', 'date', 'balance', 'cleared', 'reconciled', 'unreconciled']);
  for (const a of report.accounts) out += line([a.name, a.type, a.currency, report.date, a.balance, a.cleared, a.reconciled, a.unreconciled]);
  return out;
}

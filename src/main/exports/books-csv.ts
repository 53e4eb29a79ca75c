// The balance sheet, the trial balance and the general ledger as CSV (the
// Reports screen's downloads and `ledgerdesk report ... --csv`): one line per
// account, amounts as plain numbers, totals marked by `kind` (a joined line's
// figures follow it as `part`).
import type { BalanceSheet, TrialBalance } from '../ledger/reports/balance-sheet';
import type { GeneralLedger } from '../ledger/reports/general-ledger';
import { csvCell } from './csv';

const line = (cells: (string | number | null | undefined)[]) => `${cells.map((c) => csvCell(c ?? '')).join(',')}\r\n`;

export function balanceSheetCsv(bs: BalanceSheet): string {
  let out = line(['section', 'kind', 'code', 'name', 'amount']);
  for (const [name, section] of [
    ['assets', bs.assets],
    ['liabilities', bs.liabilities],
    ['equity', bs.equity],
  ] as const) {
    for (const l of section.lines) {
      out += line([name, 'account', l.code, l.name, l.amount]);
      // Retained earnings joined with its account (issue 50): what the line is made of, not added again.
      for (const p of l.parts ?? []) out += line([name, 'part', p.code, p.name, p.amount]);
    }
    out += line([name, 'total', '', `Total ${name}`, section.total]);
  }
  out += line(['', 'total', '', 'Total liabilities and equity', bs.liabilitiesAndEquity]);
  return out;
}

export function trialBalanceCsv(tb: TrialBalance): string {
  let out = line(['kind', 'code', 'name', 'debit', 'credit']);
  for (const l of tb.lines) {
    out += line(['account', l.code, l.name, l.debit, l.credit]);
    for (const p of l.parts ?? []) out += line(['part', p.code, p.name, p.debit, p.credit]);
  }
  return out + line(['total', '', 'Total', tb.totalDebit, tb.totalCredit]);
}

/** A ledger of several categories (a P&L parent's subtotal) names each posting's category in a column after the transaction. */
export function generalLedgerCsv(gl: GeneralLedger): string {
  const several = gl.account.includes !== undefined;
  const row = (cells: Parameters<typeof line>[0], category: string) => line(several ? [...cells.slice(0, 2), category, ...cells.slice(2)] : cells);
  let out = row(['date', 'transaction', 'description', 'memo', 'other side', 'debit', 'credit', 'balance'], 'category');
  out += row([gl.from, '', 'Starting balance', '', '', '', '', gl.startingBalance], '');
  for (const p of gl.data)
    out += row([p.date, p.transactionId, p.description, p.memo, p.other, p.debit, p.credit, p.balance], p.category ? `${p.category.code} ${p.category.name}` : '');
  return out;
}

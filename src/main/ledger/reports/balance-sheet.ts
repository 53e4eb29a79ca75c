// The balance sheet at a date and the trial balance of a period, as an
// accountant signs them, from the positions of the books (positions.ts).
// Assets = liabilities + equity always holds: every entry balances, and the
// earnings (revenue and expense lines) are equity, split at the fiscal year's
// start into retained earnings (earlier years) and current-year earnings.
import { consistent } from '../core/consistent';
import { today } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { earningsBefore, fiscalYearOf, linePositions, positionsThrough, reportCurrency, type BookClass, type BookRef, type Position } from './positions';

export interface StatementLine {
  code?: string;
  name: string;
  amount: number;
  /** What the general ledger opens for it (`report ledger --account <ref>`); none for a computed figure. */
  ref?: BookRef;
}

export interface StatementSection {
  lines: StatementLine[];
  total: number;
}

export interface BalanceSheet {
  date: string;
  currency: string;
  fiscalYearStart: string;
  assets: StatementSection;
  liabilities: StatementSection;
  equity: StatementSection;
  retainedEarnings: number;
  currentYearEarnings: number;
  liabilitiesAndEquity: number;
}

const byCode = (a: Position, b: Position) => (a.code ?? '~' + a.name).localeCompare(b.code ?? '~' + b.name);

/** A section's lines in its own sign (assets debit, the others credit), zero lines left out; computed lines (earnings) last. */
function section(positions: Position[], cls: BookClass, currency: string): StatementSection {
  const sign = cls === 'asset' ? 1 : -1;
  const mine = positions.filter((p) => p.class === cls);
  const lines: StatementLine[] = mine
    .filter((p) => p.minor !== 0)
    .sort((a, b) => Number(a.ref === undefined) - Number(b.ref === undefined) || byCode(a, b))
    .map((p) => ({ ...(p.code ? { code: p.code } : {}), name: p.name, amount: fromMinor(sign * p.minor, currency), ...(p.ref ? { ref: p.ref } : {}) }));
  return {
    lines,
    total: fromMinor(
      mine.reduce((s, p) => s + sign * p.minor, 0),
      currency,
    ),
  };
}

export const balanceSheet = consistent(async function balanceSheet(ledger: Ledger, orgSeq: number, options: { date?: string; currency?: string } = {}): Promise<BalanceSheet> {
  const date = options.date ?? today();
  const { currency, sums } = await reportCurrency(ledger, orgSeq, options.currency);
  const positions = await positionsThrough(ledger, orgSeq, sums, date);
  const fyStart = await fiscalYearOf(ledger, orgSeq, date);
  // Debits positive: minus the earnings.
  const all = positions.filter((p) => p.class === 'revenue' || p.class === 'expense').reduce((s, p) => s + p.minor, 0);
  const before = await earningsBefore(ledger, orgSeq, sums, fyStart);
  const earnings: Position[] = [
    { name: 'Retained earnings', class: 'equity', minor: before },
    { name: 'Current-year earnings', class: 'equity', minor: all - before },
  ];
  const sheet = [...positions, ...earnings];
  const liabilities = section(sheet, 'liability', currency);
  const equity = section(sheet, 'equity', currency);
  const minorOf = (cls: BookClass) => -sheet.filter((p) => p.class === cls).reduce((s, p) => s + p.minor, 0);
  return {
    date,
    currency,
    fiscalYearStart: fyStart,
    assets: section(sheet, 'asset', currency),
    liabilities,
    equity,
    retainedEarnings: fromMinor(-before, currency),
    currentYearEarnings: fromMinor(before - all, currency),
    liabilitiesAndEquity: fromMinor(minorOf('liability') + minorOf('equity'), currency),
  };
});

export interface TrialBalanceLine {
  code?: string;
  name: string;
  debit: number;
  credit: number;
  ref?: BookRef;
}

export interface TrialBalance {
  from: string;
  to: string;
  currency: string;
  lines: TrialBalanceLine[];
  totalDebit: number;
  totalCredit: number;
}

const CLASS_ORDER: BookClass[] = ['asset', 'liability', 'equity', 'revenue', 'expense'];

/**
 * Every account with a balance: the balance sheet's through `to`, revenue
 * and expense over [from, to] (from: the fiscal year's start), and the
 * earnings before `from` as retained earnings. Each balance in the debit or
 * the credit column; the columns add up to the same total.
 */
export const trialBalance = consistent(async function trialBalance(
  ledger: Ledger,
  orgSeq: number,
  options: { from?: string; to?: string; currency?: string } = {},
): Promise<TrialBalance> {
  const to = options.to ?? today();
  const from = options.from ?? (await fiscalYearOf(ledger, orgSeq, to));
  const { currency, sums } = await reportCurrency(ledger, orgSeq, options.currency);
  const profitOrLoss = (p: Position) => p.class === 'revenue' || p.class === 'expense';
  const positions = [
    ...(await positionsThrough(ledger, orgSeq, sums, to)).filter((p) => !profitOrLoss(p)),
    ...(await linePositions(ledger, orgSeq, sums, from, to)).filter(profitOrLoss),
  ];
  const retained = await earningsBefore(ledger, orgSeq, sums, from);
  if (retained !== 0) positions.push({ name: 'Retained earnings', class: 'equity', minor: retained });
  const lines = positions
    .filter((p) => p.minor !== 0)
    .sort((a, b) => CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class) || byCode(a, b))
    .map(({ ref, code, name, minor }) => ({
      ...(code ? { code } : {}),
      name,
      debit: fromMinor(Math.max(minor, 0), currency),
      credit: fromMinor(Math.max(-minor, 0), currency),
      ...(ref ? { ref } : {}),
    }));
  const debit = positions.reduce((s, p) => s + Math.max(p.minor, 0), 0);
  const credit = positions.reduce((s, p) => s + Math.max(-p.minor, 0), 0);
  return { from, to, currency, lines, totalDebit: fromMinor(debit, currency), totalCredit: fromMinor(credit, currency) };
});

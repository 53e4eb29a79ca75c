// The balance sheet at a date and the trial balance of a period, as an
// accountant signs them, from the positions of the books (positions.ts).
// Assets = liabilities + equity always holds: every entry balances, and the
// earnings (revenue and expense lines) are equity, split at the fiscal year's
// start into retained earnings (earlier years) and current-year earnings. The
// chart's retained earnings account, when it names one, and the earlier years'
// earnings are one line (issue 50).
import { consistent } from '../core/consistent';
import { today } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { earningsBefore, fiscalYearOf, linePositions, positionsThrough, reportCurrency, withRetainedEarnings, type BookClass, type BookRef, type Position } from './positions';

export interface StatementLine {
  code?: string;
  name: string;
  amount: number;
  /** What the general ledger opens for it (`report ledger --account <ref>`); none for a computed figure. */
  ref?: BookRef;
  /** A line of two figures (retained earnings: the account, the earlier years' earnings), each opening its own. */
  parts?: Omit<StatementLine, 'parts'>[];
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

const statementLine = (p: Omit<Position, 'class'>, sign: number, currency: string): StatementLine => ({
  ...(p.code ? { code: p.code } : {}),
  name: p.name,
  amount: fromMinor(sign * p.minor, currency),
  ...(p.ref ? { ref: p.ref } : {}),
});

/** A section's lines in its own sign (assets debit, the others credit), zero lines left out; computed lines (earnings) last. */
function section(positions: Position[], cls: BookClass, currency: string): StatementSection {
  const sign = cls === 'asset' ? 1 : -1;
  const mine = positions.filter((p) => p.class === cls);
  const lines: StatementLine[] = mine
    .filter((p) => p.minor !== 0)
    .sort((a, b) => Number(a.ref === undefined) - Number(b.ref === undefined) || byCode(a, b))
    .map((p) => ({ ...statementLine(p, sign, currency), ...(p.parts ? { parts: p.parts.map((x) => statementLine(x, sign, currency)) } : {}) }));
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
  const sheet = [
    ...(await withRetainedEarnings(ledger, orgSeq, positions, before, fyStart)),
    { name: 'Current-year earnings', class: 'equity', minor: all - before } satisfies Position,
  ];
  const retained = sheet.find((p) => p.parts) ?? { minor: before };
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
    retainedEarnings: fromMinor(-retained.minor, currency),
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
  /** Retained earnings joined with its account (issue 50): the two figures, debits positive. */
  parts?: Omit<TrialBalanceLine, 'parts'>[];
}

const trialLine = ({ ref, code, name, minor }: Omit<Position, 'class'>, currency: string): TrialBalanceLine => ({
  ...(code ? { code } : {}),
  name,
  debit: fromMinor(Math.max(minor, 0), currency),
  credit: fromMinor(Math.max(-minor, 0), currency),
  ...(ref ? { ref } : {}),
});

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
 * earnings before `from` as retained earnings (with its account, when the chart names one). Each balance in the debit or
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
  const all = await withRetainedEarnings(ledger, orgSeq, positions, await earningsBefore(ledger, orgSeq, sums, from), from);
  const lines = all
    .filter((p) => p.minor !== 0)
    .sort((a, b) => CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class) || byCode(a, b))
    .map((p) => ({ ...trialLine(p, currency), ...(p.parts ? { parts: p.parts.map((x) => trialLine(x, currency)) } : {}) }));
  const debit = all.reduce((s, p) => s + Math.max(p.minor, 0), 0);
  const credit = all.reduce((s, p) => s + Math.max(-p.minor, 0), 0);
  return { from, to, currency, lines, totalDebit: fromMinor(debit, currency), totalCredit: fromMinor(credit, currency) };
});

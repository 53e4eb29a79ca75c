// Reports from maintained aggregates (per category and per account, by day and
// by month: migrations 0006 and 0008; see totals.ts), so a year of a
// million-row ledger answers in milliseconds. Amounts are signed as in the ledger: revenue positive,
// expenses negative.
//
// Profit and loss: the revenue and expense categories of the chart, parents
// with their children's subtotal; uncategorized rows on their own line (not in
// net); rows categorized to asset, liability or equity categories (transfers
// between the organization's own accounts, owner's money) left out and counted.
import { accountRows, type AccountType } from './accounts';
import { chart } from './categories';
import type { Ledger } from './db';
import { fromMinor } from './money';
import { organizationBySeq } from './organizations';
import { trailingMonths } from './dashboard';
import { accountSumsThrough, categorySums, lastDayOf, monthsOf } from './totals';

export interface PlLine {
  code: string;
  name: string;
  type: 'revenue' | 'expense';
  parentCode: string | null;
  /** This category's own rows. */
  amount: number;
  /** Its own rows and its descendants'. */
  total: number;
  /** Per month (YYYY-MM) when asked by month. */
  months?: Record<string, number>;
}

export interface ProfitAndLoss {
  currency: string;
  from: string;
  to: string;
  months: string[] | null;
  lines: PlLine[];
  revenue: number;
  expenses: number;
  /** revenue + expenses (uncategorized rows are not in it). */
  net: number;
  uncategorized: { amount: number; months?: Record<string, number> };
  /** Rows categorized to asset, liability or equity categories: not profit or loss. */
  transfers: number;
}

export interface Period {
  from?: string;
  to?: string;
  byMonth?: boolean;
  currency?: string;
}

/** The default period: the twelve months ending with the latest transaction's month (as the dashboard). */
export function defaultPeriod(ledger: Ledger, orgSeq: number, currency: string): { from: string; to: string } {
  const { last } = ledger.stmt('SELECT max(month) AS last FROM transaction_month_totals WHERE org_seq = ? AND currency = ?').get(orgSeq, currency) as { last: string | null };
  const months = trailingMonths(last ?? new Date().toISOString().slice(0, 7));
  return { from: `${months[0]}-01`, to: lastDayOf(months[months.length - 1]) };
}

export function profitAndLoss(ledger: Ledger, orgSeq: number, period: Period = {}): ProfitAndLoss {
  const currency = (period.currency ?? organizationBySeq(ledger, orgSeq).currency).toUpperCase();
  const { from, to } = { ...defaultPeriod(ledger, orgSeq, currency), ...Object.fromEntries(Object.entries({ from: period.from, to: period.to }).filter(([, v]) => v)) };
  const money = (minor: number) => fromMinor(minor, currency);
  const sums = categorySums(ledger, orgSeq, currency, from, to);
  const byName = new Map(chart(ledger, orgSeq).map((c) => [c.name, c]));
  const own = new Map<string, { minor: number; months: Map<string, number> }>();
  let transfers = 0;
  for (const s of sums) {
    const c = byName.get(s.category);
    if (s.category !== '' && c && c.type !== 'revenue' && c.type !== 'expense') {
      transfers += s.minor;
      continue;
    }
    const key = s.category;
    const entry = own.get(key) ?? own.set(key, { minor: 0, months: new Map() }).get(key)!;
    entry.minor += s.minor;
    entry.months.set(s.month, (entry.months.get(s.month) ?? 0) + s.minor);
  }
  const months = period.byMonth ? monthsOf(from, to) : null;
  const perMonth = (m: Map<string, number>) => (months ? Object.fromEntries(months.map((month) => [month, money(m.get(month) ?? 0)])) : undefined);
  // Categories with activity, and the parents above them (for their subtotals).
  const shown = new Set<string>();
  for (const name of own.keys()) {
    for (let c = byName.get(name); c && !shown.has(c.code); c = c.parentCode ? [...byName.values()].find((p) => p.code === c!.parentCode) : undefined) shown.add(c.code);
  }
  const categories = [...byName.values()].filter((c) => shown.has(c.code) && (c.type === 'revenue' || c.type === 'expense'));
  const totalOf = (code: string): number =>
    (own.get(categories.find((c) => c.code === code)!.name)?.minor ?? 0) + categories.filter((c) => c.parentCode === code).reduce((sum, c) => sum + totalOf(c.code), 0);
  const lines: PlLine[] = categories
    .map((c) => ({
      code: c.code,
      name: c.name,
      type: c.type as 'revenue' | 'expense',
      parentCode: c.parentCode,
      amount: money(own.get(c.name)?.minor ?? 0),
      total: money(totalOf(c.code)),
      months: perMonth(own.get(c.name)?.months ?? new Map()),
    }))
    .sort((a, b) => (a.type === b.type ? (a.code < b.code ? -1 : 1) : a.type === 'revenue' ? -1 : 1));
  const sumOf = (type: 'revenue' | 'expense') => [...own.entries()].filter(([name]) => byName.get(name)?.type === type).reduce((sum, [, e]) => sum + e.minor, 0);
  const revenue = sumOf('revenue');
  const expenses = sumOf('expense');
  const none = own.get('') ?? { minor: 0, months: new Map() };
  return {
    currency,
    from,
    to,
    months,
    lines,
    revenue: money(revenue),
    expenses: money(expenses),
    net: money(revenue + expenses),
    uncategorized: { amount: money(none.minor), months: perMonth(none.months) },
    transfers: money(transfers),
  };
}

export interface AccountBalance {
  id: string;
  name: string;
  type: AccountType;
  currency: string;
  /** Opening balance + movements up to the date. */
  balance: number;
  /** Opening balance + the rows the bank has shown (imported, from a feed, or matched to a statement line) or reconciled, up to the date. */
  cleared: number;
  /** Opening balance + reconciled rows up to the date. */
  reconciled: number;
  /** Rows not yet reconciled, up to the date. */
  unreconciled: number;
}

/**
 * Every account's balance at a date (default: today): from the per-account
 * totals, less, for the cleared balance, the rows entered by hand or by an
 * approved journal entry that no statement has shown yet (few, and indexed).
 */
export function balancesAt(ledger: Ledger, orgSeq: number, date = new Date().toISOString().slice(0, 10)): { date: string; accounts: AccountBalance[] } {
  const sums = new Map<number, { all: number; reconciled: number; uncleared: number }>();
  const of = (seq: number) => sums.get(seq) ?? sums.set(seq, { all: 0, reconciled: 0, uncleared: 0 }).get(seq)!;
  for (const r of accountSumsThrough(ledger, orgSeq, date)) {
    const s = of(r.account_seq);
    s.all += r.minor;
    if (r.reconciled) s.reconciled += r.minor;
  }
  for (const r of ledger.rows<{ account_seq: number; minor: number }>(
    // The partial index holds exactly the rows no statement has shown: a walk over them, not the year.
    `SELECT account_seq, sum(amount_minor) AS minor FROM transactions INDEXED BY transactions_match_candidates
     WHERE org_seq = ? AND origin IN ('manual', 'agent') AND import_batch_seq IS NULL AND reconciled = 0 AND date <= ? GROUP BY account_seq`,
    orgSeq,
    date,
  ))
    of(r.account_seq).uncleared += r.minor;
  const accounts = accountRows(ledger, orgSeq).map((a): AccountBalance => {
    const s = of(a.seq);
    const money = (minor: number) => fromMinor(minor, a.currency);
    const opening = a.opening_balance_minor;
    return {
      id: a.id,
      name: a.name,
      type: a.type,
      currency: a.currency,
      balance: money(opening + s.all),
      cleared: money(opening + s.all - s.uncleared),
      reconciled: money(opening + s.reconciled),
      unreconciled: money(s.all - s.reconciled),
    };
  });
  return { date, accounts };
}

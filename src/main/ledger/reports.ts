// Reports from maintained aggregates (per category and day, per account and
// day: migration 0006 and 0008), so a year of a million-row ledger answers in
// milliseconds. Amounts are signed as in the ledger: revenue positive,
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

const lastDay = (month: string): string => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

/** The default period: the twelve months ending with the latest transaction's month (as the dashboard). */
export function defaultPeriod(ledger: Ledger, orgSeq: number, currency: string): { from: string; to: string } {
  const { last } = ledger.stmt('SELECT max(month) AS last FROM transaction_month_totals WHERE org_seq = ? AND currency = ?').get(orgSeq, currency) as { last: string | null };
  const months = trailingMonths(last ?? new Date().toISOString().slice(0, 7));
  return { from: `${months[0]}-01`, to: lastDay(months[months.length - 1]) };
}

/** The months a period touches, oldest first. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); ) {
    out.push(m);
    const d = new Date(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)), 1));
    m = d.toISOString().slice(0, 7);
  }
  return out;
}

export function profitAndLoss(ledger: Ledger, orgSeq: number, period: Period = {}): ProfitAndLoss {
  const currency = (period.currency ?? organizationBySeq(ledger, orgSeq).currency).toUpperCase();
  const { from, to } = { ...defaultPeriod(ledger, orgSeq, currency), ...Object.fromEntries(Object.entries({ from: period.from, to: period.to }).filter(([, v]) => v)) };
  const money = (minor: number) => fromMinor(minor, currency);
  const sums = ledger.rows<{ category: string; month: string; minor: number }>(
    `SELECT category, substr(date, 1, 7) AS month, sum(sum_minor) AS minor FROM category_day_totals
     WHERE org_seq = ? AND currency = ? AND date BETWEEN ? AND ? AND n > 0 GROUP BY category, month`,
    orgSeq,
    currency,
    from,
    to,
  );
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
  /** Opening balance + reconciled rows up to the date (Ledgerdesk's cleared balance). */
  reconciled: number;
  /** Rows not yet reconciled, up to the date. */
  unreconciled: number;
}

/** Every account's balance at a date (default: today), from the per-account day totals. */
export function balancesAt(ledger: Ledger, orgSeq: number, date = new Date().toISOString().slice(0, 10)): { date: string; accounts: AccountBalance[] } {
  const sums = new Map<number, { all: number; reconciled: number }>();
  for (const r of ledger.rows<{ account_seq: number; status: string; minor: number }>(
    `SELECT d.account_seq, d.status, sum(d.sum_minor) AS minor FROM account_day_totals d JOIN accounts a ON a.seq = d.account_seq
     WHERE a.org_seq = ? AND d.date <= ? GROUP BY d.account_seq, d.status`,
    orgSeq,
    date,
  )) {
    const s = sums.get(r.account_seq) ?? sums.set(r.account_seq, { all: 0, reconciled: 0 }).get(r.account_seq)!;
    s.all += r.minor;
    if (r.status === 'reconciled') s.reconciled += r.minor;
  }
  const accounts = accountRows(ledger, orgSeq).map((a): AccountBalance => {
    const s = sums.get(a.seq) ?? { all: 0, reconciled: 0 };
    const money = (minor: number) => fromMinor(minor, a.currency);
    return { id: a.id, name: a.name, type: a.type, currency: a.currency, balance: money(a.opening_balance_minor + s.all), reconciled: money(a.opening_balance_minor + s.reconciled), unreconciled: money(s.all - s.reconciled) };
  });
  return { date, accounts };
}

// Reports from maintained aggregates (per category and per account, by day and
// by month: migrations 0006 and 0008; see totals.ts), so a year of a
// million-row ledger answers in milliseconds. Amounts are signed as in the ledger: revenue positive,
// expenses negative.
//
// Profit and loss: the revenue and expense categories of the chart, parents
// with their children's subtotal; uncategorized rows on their own line (not in
// net); rows categorized to asset, liability or equity categories (transfers
// between the organization's own accounts, owner's money) left out and counted.
import { accountRows, type AccountType } from '../accounts/accounts';
import { chart, type ChartRow } from '../chart/categories';
import type { Ledger } from '../core/db';
import { fromMinor } from '../core/money';
import { organizationBySeq } from '../access/organizations';
import { accountSumsThrough, categorySums, lastDayOf, monthsOf, trailingMonths } from '../totals/sums';

export type PlSection = 'revenue' | 'cost_of_sales' | 'expenses';
export const PL_SECTIONS: Record<PlSection, string> = { revenue: 'Revenue', cost_of_sales: 'Cost of sales', expenses: 'Expenses' };

export interface PlLine {
  code: string;
  name: string;
  type: 'revenue' | 'expense';
  parentCode: string | null;
  section: PlSection;
  /** 0 for a top-level category, 1 under it, and so on. */
  depth: number;
  /** It has categories under it: its figures are their subtotal (with its own rows). */
  parent: boolean;
  /** A parent's own rows, apart from its children's ("5000 Operating expenses (other)"). */
  direct?: boolean;
  /** This category's own rows. */
  amount: number;
  /** Its own rows and its descendants'. */
  total: number;
  /** total per month (YYYY-MM) when asked by month: a parent's subtotal in every column. */
  months?: Record<string, number>;
}

export interface PlTotal {
  total: number;
  months?: Record<string, number>;
}

export interface ProfitAndLoss {
  currency: string;
  from: string;
  to: string;
  months: string[] | null;
  /** In reading order: revenue, cost of sales (when used), expenses; each category under its parent, by code. */
  lines: PlLine[];
  /** Each section present, with its total per column. */
  sections: (PlTotal & { section: PlSection; title: string })[];
  revenue: number;
  /** Cost of sales and expenses together (negative). */
  expenses: number;
  /** Revenue + cost of sales, when any category is cost of sales. */
  grossProfit: PlTotal | null;
  /** revenue + expenses (uncategorized rows are not in it). */
  net: number;
  netMonths?: Record<string, number>;
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

/** Minor units per month, added up. */
type Sums = Map<string, number>;
const addInto = (into: Sums, from: Sums) => from.forEach((v, k) => into.set(k, (into.get(k) ?? 0) + v));
const sumOf = (m: Sums) => [...m.values()].reduce((a, b) => a + b, 0);

export function profitAndLoss(ledger: Ledger, orgSeq: number, period: Period = {}): ProfitAndLoss {
  const currency = (period.currency ?? organizationBySeq(ledger, orgSeq).currency).toUpperCase();
  const { from, to } = { ...defaultPeriod(ledger, orgSeq, currency), ...Object.fromEntries(Object.entries({ from: period.from, to: period.to }).filter(([, v]) => v)) };
  const money = (minor: number) => fromMinor(minor, currency);
  const months = period.byMonth ? monthsOf(from, to) : null;
  const perMonth = (m: Sums) => (months ? Object.fromEntries(months.map((month) => [month, money(m.get(month) ?? 0)])) : undefined);
  const rows = chart(ledger, orgSeq);
  const byName = new Map(rows.map((c) => [c.name, c]));
  const own = new Map<string, Sums>(); // by code
  const none: Sums = new Map();
  let transfers = 0;
  for (const s of categorySums(ledger, orgSeq, currency, from, to)) {
    const c = s.category === '' ? undefined : byName.get(s.category);
    if (c && c.type !== 'revenue' && c.type !== 'expense') {
      transfers += s.minor;
      continue;
    }
    const into = c ? (own.get(c.code) ?? own.set(c.code, new Map()).get(c.code)!) : none;
    into.set(s.month, (into.get(s.month) ?? 0) + s.minor);
  }
  // The categories with activity and every parent above them, as a tree.
  const byCode = new Map(rows.filter((c) => c.code).map((c) => [c.code, c]));
  const shown = new Set<string>();
  for (const code of own.keys()) for (let c = byCode.get(code); c && !shown.has(c.code); c = c.parent_code ? byCode.get(c.parent_code) : undefined) shown.add(c.code);
  const childrenOf = (code: string | null) => [...shown].map((k) => byCode.get(k)!).filter((c) => (c.parent_code && shown.has(c.parent_code) ? c.parent_code : null) === code).sort((a, b) => (a.code < b.code ? -1 : 1));
  // Cost of sales: the category or one above it says so (a chart is a few levels deep; 20 stops a loop).
  const costOfSales = (c: ChartRow | undefined, up = 0): boolean => Boolean(c) && up < 20 && (Boolean(c!.cost_of_sales) || costOfSales(c!.parent_code ? byCode.get(c!.parent_code) : undefined, up + 1));
  const sectionOf = (c: ChartRow): PlSection => (c.type === 'revenue' ? 'revenue' : costOfSales(c) ? 'cost_of_sales' : 'expenses');
  const lines: PlLine[] = [];
  const totals = new Map<PlSection, Sums>();
  /** Walks a category and its children, depth first; returns its subtotal per month. */
  const walk = (c: ChartRow, depth: number, section: PlSection): Sums => {
    const mine = own.get(c.code) ?? new Map<string, number>();
    const kids = childrenOf(c.code);
    const line: PlLine = { code: c.code, name: c.name, type: c.type as 'revenue' | 'expense', parentCode: c.parent_code, section, depth, parent: kids.length > 0, amount: money(sumOf(mine)), total: 0 };
    lines.push(line);
    const subtotal: Sums = new Map(mine);
    if (kids.length && sumOf(mine) !== 0) {
      lines.push({ ...line, name: `${c.name} (other)`, depth: depth + 1, parent: false, direct: true, total: line.amount, months: perMonth(mine) });
    }
    for (const k of kids) addInto(subtotal, walk(k, depth + 1, section));
    line.total = money(sumOf(subtotal));
    line.months = perMonth(subtotal);
    return subtotal;
  };
  const order: PlSection[] = ['revenue', 'cost_of_sales', 'expenses'];
  for (const section of order) {
    for (const root of childrenOf(null).filter((c) => (c.type === 'revenue' || c.type === 'expense') && sectionOf(c) === section)) {
      const sub = walk(root, 0, section);
      addInto(totals.get(section) ?? totals.set(section, new Map()).get(section)!, sub);
    }
  }
  const sections = order.filter((k) => totals.has(k) || k === 'revenue' || k === 'expenses').map((section) => {
    const m = totals.get(section) ?? new Map();
    return { section, title: PL_SECTIONS[section], total: money(sumOf(m)), months: perMonth(m) };
  });
  const net: Sums = new Map();
  for (const m of totals.values()) addInto(net, m);
  const gross: Sums = new Map(totals.get('revenue') ?? []);
  addInto(gross, totals.get('cost_of_sales') ?? new Map());
  const revenue = sumOf(totals.get('revenue') ?? new Map());
  return {
    currency,
    from,
    to,
    months,
    lines,
    sections,
    revenue: money(revenue),
    expenses: money(sumOf(net) - revenue),
    grossProfit: totals.has('cost_of_sales') ? { total: money(sumOf(gross)), months: perMonth(gross) } : null,
    net: money(sumOf(net)),
    netMonths: perMonth(net),
    uncategorized: { amount: money(sumOf(none)), months: perMonth(none) },
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

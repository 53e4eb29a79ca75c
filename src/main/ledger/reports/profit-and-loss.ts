// The profit and loss of a period, from the lines' maintained totals
// (migration 0014; totals/sums.ts), as an accountant reads it: sections
// (revenue, cost of sales when used, expenses), each category under its
// parent in its section (cost of sales is a property of a category wherever
// it sits: chart/sections.ts), a parent's subtotal in every column, gross
// profit and net per column. Amounts are signed as in the ledger: revenue positive, costs
// negative. Uncategorized rows (their suspense lines) on their own line (not
// in net); transfers between the organization's own accounts are not profit or
// loss and are left out; lines to asset, liability or equity categories
// (owner's money, loans) left out and counted.
import { consistent } from '../core/consistent';
import { organizationBySeq } from '../access/organizations';
import { chartRows, type ChartRow } from '../chart/categories';
import { ChartTree, type PlSection } from '../chart/sections';
import { onBasis, type Basis } from '../documents/basis';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { defaultMonths, lastDayOf, lineSums, monthsOf, type InCurrency } from '../totals/sums';
import { reportCurrency } from './positions';

export type { PlSection };
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
  basis: Basis;
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
  /** Invoices and bills by their dates (accrual) or by their payments' (cash); default: the organization's setting. */
  basis?: Basis;
}

/** The default period: the twelve months ending with the latest transaction's month (as the dashboard). */
export async function defaultPeriod(ledger: Ledger, orgSeq: number, currency: InCurrency): Promise<{ from: string; to: string }> {
  const months = await defaultMonths(ledger, orgSeq, currency);
  return { from: `${months[0]}-01`, to: lastDayOf(months[months.length - 1]) };
}

/** Minor units per month, added up. */
type Sums = Map<string, number>;
const addInto = (into: Sums, from: Sums) => from.forEach((v, k) => into.set(k, (into.get(k) ?? 0) + v));
const sumOf = (m: Sums) => [...m.values()].reduce((a, b) => a + b, 0);

/** Each revenue and expense category's own lines per month (by code, signed as money: revenue positive), the uncategorized rows, and what went to other categories. */
async function ownSums(ledger: Ledger, orgSeq: number, currency: InCurrency, from: string, to: string, chart: ChartRow[], basis: Basis) {
  const bySeq = new Map(chart.map((c) => [c.seq, c]));
  const own = new Map<string, Sums>();
  const none: Sums = new Map();
  let transfers = 0;
  for (const s of await onBasis(ledger, orgSeq, currency, from, to, await lineSums(ledger, orgSeq, currency, from, to), basis)) {
    if (s.kind !== 'category' && s.kind !== 'suspense') continue; // transfers, tax, receivables and payables are not profit or loss
    const c = s.kind === 'category' ? bySeq.get(s.category_seq) : undefined;
    // A line balances the money: revenue's lines are credits (negative), its money positive.
    const minor = -s.minor;
    if (c && c.type !== 'revenue' && c.type !== 'expense') {
      transfers += minor;
      continue;
    }
    const into = c ? (own.get(c.code) ?? own.set(c.code, new Map()).get(c.code)!) : none;
    into.set(s.month, (into.get(s.month) ?? 0) + minor);
  }
  return { own, none, transfers };
}

/** The categories with activity and every parent they are reported under, as a tree read depth first into lines. */
class Tree {
  readonly lines: PlLine[] = [];
  private readonly shown = new Set<string>();

  constructor(
    readonly chart: ChartTree,
    private readonly own: Map<string, Sums>,
    private readonly perMonth: (m: Sums) => Record<string, number> | undefined,
    private readonly money: (minor: number) => number,
  ) {
    for (const code of own.keys()) for (let c = chart.get(code); c && !this.shown.has(c.code); c = chart.reportedParent(c)) this.shown.add(c.code);
  }

  /** The shown categories reported under a parent (null: the top of their sections), by code. */
  childrenOf(code: string | null): ChartRow[] {
    return [...this.shown]
      .map((k) => this.chart.get(k)!)
      .filter((c) => (this.chart.reportedParent(c)?.code ?? null) === code)
      .sort((a, b) => (a.code < b.code ? -1 : 1));
  }

  /** A category's line and its children's, depth first (a parent's own rows on an "(other)" line); its subtotal per month. */
  walk(c: ChartRow, depth: number, section: PlSection): Sums {
    const mine = this.own.get(c.code) ?? new Map<string, number>();
    const kids = this.childrenOf(c.code);
    const line: PlLine = {
      code: c.code,
      name: c.name,
      type: c.type as 'revenue' | 'expense',
      parentCode: c.parent_code,
      section,
      depth,
      parent: kids.length > 0,
      amount: this.money(sumOf(mine)),
      total: 0,
    };
    this.lines.push(line);
    if (kids.length && sumOf(mine) !== 0)
      this.lines.push({ ...line, name: `${c.name} (other)`, depth: depth + 1, parent: false, direct: true, total: line.amount, months: this.perMonth(mine) });
    const subtotal: Sums = new Map(mine);
    for (const k of kids) addInto(subtotal, this.walk(k, depth + 1, section));
    line.total = this.money(sumOf(subtotal));
    line.months = this.perMonth(subtotal);
    return subtotal;
  }
}

const ORDER: PlSection[] = ['revenue', 'cost_of_sales', 'expenses'];

export const profitAndLoss = consistent(async function profitAndLoss(ledger: Ledger, orgSeq: number, period: Period = {}): Promise<ProfitAndLoss> {
  const { currency, sums } = await reportCurrency(ledger, orgSeq, period.currency);
  const { from, to } = { ...(await defaultPeriod(ledger, orgSeq, sums)), ...Object.fromEntries(Object.entries({ from: period.from, to: period.to }).filter(([, v]) => v)) };
  const money = (minor: number) => fromMinor(minor, currency);
  const months = period.byMonth ? monthsOf(from, to) : null;
  const perMonth = (m: Sums) => (months ? Object.fromEntries(months.map((month) => [month, money(m.get(month) ?? 0)])) : undefined);
  const chart = await chartRows(ledger, orgSeq);
  const basis = period.basis ?? ((await organizationBySeq(ledger, orgSeq)).reportBasis as Basis);
  const { own, none, transfers } = await ownSums(ledger, orgSeq, sums, from, to, chart, basis);
  const tree = new Tree(new ChartTree(chart), own, perMonth, money);
  const totals = new Map<PlSection, Sums>();
  for (const section of ORDER) {
    for (const root of tree.childrenOf(null).filter((c) => tree.chart.sectionOf(c) === section)) {
      addInto(totals.get(section) ?? totals.set(section, new Map()).get(section)!, tree.walk(root, 0, section));
    }
  }
  const total = (section: PlSection) => totals.get(section) ?? new Map<string, number>();
  const net: Sums = new Map();
  for (const m of totals.values()) addInto(net, m);
  const gross: Sums = new Map(total('revenue'));
  addInto(gross, total('cost_of_sales'));
  const revenue = sumOf(total('revenue'));
  return {
    currency,
    from,
    to,
    basis,
    months,
    lines: tree.lines,
    sections: ORDER.filter((k) => totals.has(k) || k !== 'cost_of_sales').map((section) => ({
      section,
      title: PL_SECTIONS[section],
      total: money(sumOf(total(section))),
      months: perMonth(total(section)),
    })),
    revenue: money(revenue),
    expenses: money(sumOf(net) - revenue),
    grossProfit: totals.has('cost_of_sales') ? { total: money(sumOf(gross)), months: perMonth(gross) } : null,
    net: money(sumOf(net)),
    netMonths: perMonth(net),
    uncategorized: { amount: money(sumOf(none)), months: perMonth(none) },
    transfers: money(transfers),
  };
});

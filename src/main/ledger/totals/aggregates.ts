// The maintained totals of rows written or deleted in bulk, counted in JS as
// the rows go by and added to their tables once (bulk.ts). Rows of one load
// share nearly everything but the day (an import: one organization, account,
// status, source, currency, no category), so they are counted per group of
// those and per day, with no key built per row; the tables' own groupings are
// derived from these few entries at the end.
import type { Ledger } from '../core/db';
import { descriptionShape } from '../transactions/transactions';

/** What the totals need of each transaction written in bulk. */
export interface BulkRow {
  orgSeq: number;
  accountSeq: number;
  date: string;
  status: string;
  /** 1 when a reconciliation cleared it (account totals keep those apart). */
  reconciled: number;
  source: string;
  currency: string;
  amountMinor: number;
  description: string;
  category: string | null;
}

interface Day {
  n: number;
  sum: number;
  inflow: number;
  outflow: number;
}

interface Group {
  org: number;
  account: number;
  status: string;
  reconciled: number;
  source: string;
  currency: string;
  category: string;
  days: Map<string, Day>;
}

const SEP = '\u0000';

export class Aggregates {
  private readonly groups = new Map<string, Group>();
  private readonly shapes = new Map<number, Map<string, number>>();
  private last: Group | null = null;

  /** countShapes false: the rows keep their descriptions (an update), so their shapes' counts stay. */
  constructor(
    private readonly sign: 1 | -1,
    private readonly countShapes = true,
  ) {}

  add(r: BulkRow): void {
    const category = r.category ?? '';
    let g = this.last;
    if (!g || g.account !== r.accountSeq || g.status !== r.status || g.reconciled !== r.reconciled || g.source !== r.source || g.currency !== r.currency || g.category !== category || g.org !== r.orgSeq) {
      const key = [r.orgSeq, r.accountSeq, r.status, r.reconciled, r.source, r.currency, category].join(SEP);
      g = this.groups.get(key) ?? null;
      if (!g) this.groups.set(key, (g = { org: r.orgSeq, account: r.accountSeq, status: r.status, reconciled: r.reconciled, source: r.source, currency: r.currency, category, days: new Map() }));
      this.last = g;
    }
    let d = g.days.get(r.date);
    if (!d) g.days.set(r.date, (d = { n: 0, sum: 0, inflow: 0, outflow: 0 }));
    const amount = r.amountMinor;
    d.n++;
    d.sum += amount;
    if (amount > 0) d.inflow += amount;
    else d.outflow -= amount;
    if (!this.countShapes) return;
    const shapes = this.shapes.get(r.orgSeq) ?? this.shapes.set(r.orgSeq, new Map()).get(r.orgSeq)!;
    const shape = descriptionShape(r.description);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }

  /** Adds (or, for a delete, takes away) the counted totals, one upsert per group of each table. */
  flush(ledger: Ledger): void {
    const s = this.sign;
    // Each table's groups, summed from the (group, day) entries: [n, sum, inflow, outflow] per key.
    const tables = new Map<string, Map<string, number[]>>();
    const add = (table: string, key: (string | number)[], d: Day) => {
      const map = tables.get(table) ?? tables.set(table, new Map()).get(table)!;
      const k = key.join(SEP);
      const t = map.get(k) ?? map.set(k, [0, 0, 0, 0]).get(k)!;
      t[0] += d.n;
      t[1] += d.sum;
      t[2] += d.inflow;
      t[3] += d.outflow;
    };
    for (const g of this.groups.values()) {
      for (const [date, d] of g.days) {
        const month = date.slice(0, 7);
        add('transaction_day_counts', [g.org, date, g.status, g.source], d);
        add('transaction_status_counts', [g.org, g.status, g.source], d);
        add('transaction_month_totals', [g.org, month, g.currency], d);
        add('account_day_totals', [g.account, date, g.status, g.reconciled], d);
        add('account_month_totals', [g.account, month, g.status, g.reconciled], d);
        add('category_day_totals', [g.org, g.currency, date, g.category], d);
        add('category_month_totals', [g.org, g.currency, month, g.category], d);
      }
    }
    const upsert = (table: string, sql: string, values: (key: string[], t: number[]) => unknown[]) => {
      const stmt = ledger.sqlite.prepare(sql);
      for (const [k, t] of tables.get(table) ?? []) stmt.run(...values(k.split(SEP), t.map((v) => s * v)));
    };
    const org = Number;
    upsert(
      'transaction_day_counts',
      `INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n`,
      ([o, date, status, source], [n]) => [org(o), date, status, source, n],
    );
    upsert(
      'transaction_status_counts',
      `INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (?, ?, ?, ?)
       ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n`,
      ([o, status, source], [n]) => [org(o), status, source, n],
    );
    upsert(
      'transaction_month_totals',
      `INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_seq, currency, month) DO UPDATE SET
         inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor`,
      ([o, month, currency], [, , inflow, outflow]) => [org(o), month, currency, inflow, outflow],
    );
    for (const [table, unit] of [['account_day_totals', 'date'], ['account_month_totals', 'month']] as const) {
      upsert(
        table,
        `INSERT INTO ${table} (account_seq, ${unit}, status, reconciled, n, sum_minor) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_seq, ${unit}, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor`,
        ([account, when, status, reconciled], [n, sum]) => [Number(account), when, status, Number(reconciled), n, sum],
      );
    }
    for (const [table, unit] of [['category_day_totals', 'date'], ['category_month_totals', 'month']] as const) {
      upsert(
        table,
        `INSERT INTO ${table} (org_seq, currency, ${unit}, category, n, sum_minor) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_seq, currency, ${unit}, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor`,
        ([o, currency, when, category], [n, sum]) => [org(o), currency, when, category, n, sum],
      );
    }
    const shape = ledger.sqlite.prepare('INSERT INTO description_shapes (org_seq, shape, n) VALUES (?, ?, ?) ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + excluded.n');
    for (const [o, shapes] of this.shapes) for (const [text, n] of shapes) shape.run(o, text, s * n);
  }
}

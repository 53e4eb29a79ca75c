// The declared totals (declared.ts) of rows written or deleted in bulk,
// counted in JS as the rows go by and added to their tables once (bulk.ts).
// Rows of one load share nearly everything but the day (an import: one
// organization, account, status, source, currency; its lines one kind), so
// they are counted per group of the key columns other than the day or month,
// and per day, with no key built per row; each total's keys are derived from
// these few entries at the end. Totals keyed by a row's own text (description
// shapes) are counted row by row.
import type { Ledger } from '../core/sqlite/open';
import { LINE_TOTALS, MEASURES, TRANSACTION_TOTALS, type BulkLine, type BulkRow, type KeyPart, type Total } from './declared';

export type { BulkLine, BulkRow } from './declared';

/** The sums of one group on one day: a count, the amount, and the amount in the base currency. */
interface Day {
  n: number;
  sum_minor: number;
  sum_base: number;
}

interface Group {
  values: (string | number)[];
  days: Map<string, Day>;
}

const SEP = '\u0000';
const DATED = new Set(['date', 'month']);

/** One key of a total (its values, and as a map's key) and its sums. */
interface Sums {
  key: (string | number)[];
  values: number[];
}

function sumsAt(byKey: Map<string, Sums>, t: Total<unknown>, key: (string | number)[]): number[] {
  const k = key.join(SEP);
  let at = byKey.get(k);
  if (!at) byKey.set(k, (at = { key, values: t.measures.map(() => 0) }));
  return at.values;
}

/** The totals of one source counted over rows of it (a load, or the rows a delete or update takes away). */
export class Aggregates<R extends { date: string; amountMinor: number; baseMinor: number | null }> {
  private readonly grouped: readonly Total<R>[];
  private readonly perRowTotals: readonly Total<R>[];
  /** The key columns other than the day or month, once each, in a fixed order. */
  private readonly parts: KeyPart<R>[];
  private readonly groups = new Map<string, Group>();
  private readonly perRow = new Map<Total<R>, Map<string, Sums>>();
  private last: Group | null = null;

  /** perRowToo false: the rows keep their descriptions (an update), so the totals keyed by them stay. */
  constructor(
    totals: readonly Total<R>[],
    private readonly sign: 1 | -1,
    private readonly perRowToo = true,
  ) {
    this.grouped = totals.filter((t) => !t.perRow);
    this.perRowTotals = totals.filter((t) => t.perRow);
    const byColumn = new Map<string, KeyPart<R>>();
    for (const t of this.grouped) for (const k of t.key) if (!DATED.has(k.column)) byColumn.set(k.column, k);
    this.parts = [...byColumn.values()];
  }

  add(r: R): void {
    let g = this.last;
    if (!g || this.parts.some((p, i) => p.js!(r) !== g!.values[i])) {
      const values = this.parts.map((p) => p.js!(r));
      const key = values.join(SEP);
      g = this.groups.get(key) ?? null;
      if (!g) this.groups.set(key, (g = { values, days: new Map() }));
      this.last = g;
    }
    let d = g.days.get(r.date);
    if (!d) g.days.set(r.date, (d = { n: 0, sum_minor: 0, sum_base: 0 }));
    d.n++;
    d.sum_minor += r.amountMinor;
    d.sum_base += r.baseMinor ?? 0;
    if (!this.perRowToo) return;
    for (const t of this.perRowTotals) {
      const at = sumsAt(
        this.perRow.get(t) ?? this.perRow.set(t, new Map()).get(t)!,
        t as Total<unknown>,
        t.key.map((k) => k.js!(r)),
      );
      t.measures.forEach((m, i) => (at[i] += MEASURES[m].js(r)));
    }
  }

  /** Adds (or, for a delete, takes away) the counted totals: one upsert per key of each total. */
  flush(ledger: Ledger): void {
    const sums = new Map<Total<R>, Map<string, Sums>>(this.perRow);
    const at = new Map(this.parts.map((p, i) => [p.column, i]));
    for (const t of this.grouped) {
      const byKey = new Map<string, Sums>();
      sums.set(t, byKey);
      for (const g of this.groups.values()) {
        for (const [date, d] of g.days) {
          const key = t.key.map((k) => (k.column === 'date' ? date : k.column === 'month' ? date.slice(0, 7) : g.values[at.get(k.column)!]));
          const values = sumsAt(byKey, t as Total<unknown>, key);
          t.measures.forEach((m, i) => (values[i] += d[m]));
        }
      }
    }
    for (const [t, byKey] of sums) {
      const columns = [...t.key.map((k) => k.column), ...t.measures];
      const stmt = ledger.sqlite.prepare(
        `INSERT INTO ${t.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
         ON CONFLICT (${t.key.map((k) => k.column).join(', ')}) DO UPDATE SET ${t.measures.map((m) => `${m} = ${m} + excluded.${m}`).join(', ')}`,
      );
      for (const { key, values } of byKey.values()) stmt.run(...key, ...values.map((v) => this.sign * v));
    }
  }
}

/** The totals kept over transactions (money-account lines) and over the other lines, counted together. */
export class EntryAggregates {
  readonly rows: Aggregates<BulkRow>;
  readonly lines: Aggregates<BulkLine>;

  constructor(sign: 1 | -1, perRowToo = true) {
    this.rows = new Aggregates(TRANSACTION_TOTALS, sign, perRowToo);
    this.lines = new Aggregates(LINE_TOTALS, sign, perRowToo);
  }

  flush(ledger: Ledger): void {
    this.rows.flush(ledger);
    this.lines.flush(ledger);
  }
}

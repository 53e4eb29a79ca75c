// The declared totals (declared.ts) of rows written or deleted in bulk,
// counted in JS as the rows go by and added to their tables once (bulk.ts).
// Rows of one load share nearly everything but the day (an import: one
// organization, account, status, source, currency, no category), so they are
// counted per group of those and per day, with no key built per row; each
// total's keys are derived from these few entries at the end. Totals keyed by
// a row's own text (description shapes) are counted row by row.
import type { Ledger } from '../core/db';
import { MEASURES, TRANSACTION_TOTALS, type BulkRow, type Measure, type Total } from './declared';

export type { BulkRow } from './declared';

/** The sums of one group on one day: as many as the measures (a count, the amount, money in, money out). */
interface Day {
  n: number;
  sum_minor: number;
  inflow_minor: number;
  outflow_minor: number;
}

type Group = Omit<BulkRow, 'date' | 'amountMinor' | 'description'> & { days: Map<string, Day> };

const SEP = '\u0000';

/** One key of a total (its values, and as a map's key) and its sums. */
interface Sums {
  key: (string | number)[];
  values: number[];
}

function sumsAt(byKey: Map<string, Sums>, t: Total, key: (string | number)[]): number[] {
  const k = key.join(SEP);
  let at = byKey.get(k);
  if (!at) byKey.set(k, (at = { key, values: t.measures.map(() => 0) }));
  return at.values;
}
const GROUPED = TRANSACTION_TOTALS.filter((t) => !t.perRow);
const PER_ROW = TRANSACTION_TOTALS.filter((t) => t.perRow);

export class Aggregates {
  private readonly groups = new Map<string, Group>();
  private readonly perRow = new Map<Total, Map<string, Sums>>();
  private last: Group | null = null;

  /** perRowToo false: the rows keep their descriptions (an update), so the totals keyed by them stay. */
  constructor(
    private readonly sign: 1 | -1,
    private readonly perRowToo = true,
  ) {}

  add(r: BulkRow): void {
    let g = this.last;
    if (
      !g ||
      g.accountSeq !== r.accountSeq ||
      g.status !== r.status ||
      g.reconciled !== r.reconciled ||
      g.source !== r.source ||
      g.currency !== r.currency ||
      g.category !== r.category ||
      g.orgSeq !== r.orgSeq
    ) {
      const key = [r.orgSeq, r.accountSeq, r.status, r.reconciled, r.source, r.currency, r.category ?? ''].join(SEP);
      g = this.groups.get(key) ?? null;
      if (!g)
        this.groups.set(
          key,
          (g = {
            orgSeq: r.orgSeq,
            accountSeq: r.accountSeq,
            status: r.status,
            reconciled: r.reconciled,
            source: r.source,
            currency: r.currency,
            category: r.category,
            days: new Map(),
          }),
        );
      this.last = g;
    }
    let d = g.days.get(r.date);
    if (!d) g.days.set(r.date, (d = { n: 0, sum_minor: 0, inflow_minor: 0, outflow_minor: 0 }));
    const amount = r.amountMinor;
    d.n++;
    d.sum_minor += amount;
    if (amount > 0) d.inflow_minor += amount;
    else d.outflow_minor -= amount;
    if (!this.perRowToo) return;
    for (const t of PER_ROW) {
      const at = sumsAt(
        this.perRow.get(t) ?? this.perRow.set(t, new Map()).get(t)!,
        t,
        t.key.map((k) => k.js!(r)),
      );
      t.measures.forEach((m, i) => (at[i] += MEASURES[m].js(r)));
    }
  }

  /** Adds (or, for a delete, takes away) the counted totals: one upsert per key of each total. */
  flush(ledger: Ledger): void {
    const sums = new Map<Total, Map<string, Sums>>(this.perRow);
    for (const t of GROUPED) {
      const byKey = new Map<string, Sums>();
      sums.set(t, byKey);
      for (const g of this.groups.values()) {
        for (const [date, d] of g.days) {
          const row = { ...g, date, amountMinor: 0, description: '' };
          const at = sumsAt(
            byKey,
            t,
            t.key.map((k) => k.js!(row)),
          );
          t.measures.forEach((m: Measure, i) => (at[i] += d[m]));
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

// Where the profit and loss reports a category: revenue, cost of sales or
// expenses. Cost of sales is a property of an expense category wherever it
// sits in the chart: marked, it and the categories under it are reported
// above gross profit, even under an ordinary expense parent, whose subtotal
// then leaves it out. So a category is reported under its chart parent only
// when both are in the same section; otherwise it heads its own subtree there.
// The P&L and the general ledger a P&L figure opens read the same tree here.
import type { ChartRow } from './categories';

export type PlSection = 'revenue' | 'cost_of_sales' | 'expenses';

/** A chart by code, to walk up a category's parents (a chart is a few levels deep; 20 stops a loop). */
export class ChartTree {
  private readonly byCode: Map<string, ChartRow>;

  constructor(readonly rows: readonly ChartRow[]) {
    this.byCode = new Map(rows.filter((c) => c.code).map((c) => [c.code, c]));
  }

  get(code: string): ChartRow | undefined {
    return this.byCode.get(code);
  }

  /** Its chart parent, if any. */
  parentOf(c: ChartRow): ChartRow | undefined {
    return c.parent_code ? this.byCode.get(c.parent_code) : undefined;
  }

  /** The category itself or the nearest one above it marked cost of sales; none for an ordinary expense. */
  costOfSalesFrom(c: ChartRow): ChartRow | undefined {
    if (c.type !== 'expense') return undefined;
    for (let at: ChartRow | undefined = c, up = 0; at && up < 20; at = this.parentOf(at), up++) if (at.cost_of_sales) return at;
    return undefined;
  }

  /** Its section; null for asset, liability and equity categories (not profit or loss). */
  sectionOf(c: ChartRow): PlSection | null {
    if (c.type === 'revenue') return 'revenue';
    if (c.type !== 'expense') return null;
    return this.costOfSalesFrom(c) ? 'cost_of_sales' : 'expenses';
  }

  /** The parent it is reported under: its chart parent when that is in the same section; else none (it heads its section's subtree). */
  reportedParent(c: ChartRow): ChartRow | undefined {
    const parent = this.parentOf(c);
    return parent && this.sectionOf(parent) === this.sectionOf(c) ? parent : undefined;
  }

  /** The categories a P&L line of this category adds up: it and every category reported under it, by seq. */
  reportedWith(c: ChartRow): ChartRow[] {
    const out = [c];
    for (let i = 0; i < out.length; i++) {
      for (const k of this.rows) if (k.parent_code === out[i].code && k.code && this.reportedParent(k) === out[i] && !out.includes(k)) out.push(k);
    }
    return out;
  }
}

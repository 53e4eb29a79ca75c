// What a row's taxed lines put on a return (issue 43): per tax code and side,
// their net and tax in the return's sign (a sale and its output tax positive,
// a purchase and its input tax positive; another currency's lines in the base
// currency, as the return reads them) and the boxes they fill by the code's
// mapping. A correction keeps these for what the filed returns took and for
// what the row says now; the next open return takes the difference.
import { roundDiv } from '../core/dialect';
import type { Ledger } from '../core/sqlite/open';
import type { TaxBox } from './codes';

export interface TaxFigure {
  taxCodeSeq: number;
  code: string;
  kind: string;
  side: 'sales' | 'purchases';
  /** Minor units of the base currency, in the return's sign. */
  net: number;
  tax: number;
  /** The boxes this code and side fill (minor units). */
  boxes: Record<string, number>;
}

/** Adds a code's net and tax on one side to the boxes its mapping names (net, tax or gross). */
export function fillBoxes(mapping: readonly TaxBox[], sales: boolean, net: number, tax: number, into: Map<string, number>): void {
  for (const b of mapping) {
    if ((b.side === 'sales') !== sales) continue;
    const value = b.measure === 'net' ? net : b.measure === 'tax' ? tax : net + tax;
    into.set(b.box, (into.get(b.box) ?? 0) + value);
  }
}

/** A line's tax in the base currency at its booked rate, as the return reads another currency's lines. */
const TAX_IN_BASE = `CASE WHEN l.amount_minor = 0 THEN 0 ELSE ${roundDiv('coalesce(l.tax_minor, 0) * l.base_minor', 'l.amount_minor')} END`;

/** The figures of a row's taxed category lines, per code and side. */
export async function rowFigures(ledger: Ledger, base: string, transactionSeq: number): Promise<TaxFigure[]> {
  return (
    await ledger.rows<{ seq: number; code: string; kind: string; boxes: string; sales: number; net: number; tax: number }>(
      `SELECT t.seq, t.code, t.kind, t.boxes, c.type = 'revenue' AS sales,
         sum(CASE WHEN l.currency = ? THEN l.amount_minor ELSE l.base_minor END) AS net,
         sum(CASE WHEN l.currency = ? THEN coalesce(l.tax_minor, 0) ELSE ${TAX_IN_BASE} END) AS tax
       FROM lines l JOIN tax_codes t ON t.seq = l.tax_code_seq JOIN categories c ON c.seq = l.category_seq
       WHERE l.transaction_seq = ? AND l.kind = 'category' AND l.tax_code_seq IS NOT NULL
       GROUP BY t.seq, t.code, t.kind, t.boxes, sales ORDER BY t.code, sales DESC`,
      base,
      base,
      transactionSeq,
    )
  ).map((g) => {
    // Money's sign: a sale's line is a credit (negative), a purchase's a debit.
    const [net, tax] = g.sales ? [-g.net, -g.tax] : [g.net, g.tax];
    const boxes = new Map<string, number>();
    fillBoxes(JSON.parse(g.boxes) as TaxBox[], Boolean(g.sales), net, tax, boxes);
    return { taxCodeSeq: g.seq, code: g.code, kind: g.kind, side: g.sales ? 'sales' : 'purchases', net, tax, boxes: Object.fromEntries(boxes) };
  });
}

const keyOf = (f: Pick<TaxFigure, 'taxCodeSeq' | 'side'>) => `${f.taxCodeSeq}/${f.side}`;

/** After less before, per code and side (by code, sales first); the pairs with no difference left out. */
export function figureDifferences(before: readonly TaxFigure[], after: readonly TaxFigure[]): TaxFigure[] {
  const out = new Map<string, TaxFigure>();
  const add = (f: TaxFigure, sign: 1 | -1) => {
    const d = out.get(keyOf(f)) ?? { ...f, net: 0, tax: 0, boxes: {} };
    d.net += sign * f.net;
    d.tax += sign * f.tax;
    for (const [box, value] of Object.entries(f.boxes)) d.boxes[box] = (d.boxes[box] ?? 0) + sign * value;
    out.set(keyOf(f), d);
  };
  for (const f of before) add(f, -1);
  for (const f of after) add(f, 1);
  return [...out.values()]
    .filter((d) => d.net !== 0 || d.tax !== 0 || Object.values(d.boxes).some((v) => v !== 0))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.side < b.side ? 1 : a.side > b.side ? -1 : 0));
}

/** What the figures add to the payable: output tax less recoverable input tax, the reverse charge cancelling. */
export const payableOf = (figures: readonly TaxFigure[]): number => figures.reduce((s, f) => (f.kind === 'reverse_charge' ? s : s + (f.side === 'sales' ? f.tax : -f.tax)), 0);

// The tax return of a period (issue 28): from the category lines that carry a
// tax code, per code and side (sales: revenue categories; purchases: the
// rest), their net and tax in money's sign (a sale and its output tax
// positive; a purchase and its input tax positive; refunds the other way);
// the set's boxes from each code's box mapping, and the boxes that are sums
// of others. Cash basis: the lines' dates are the bank's (accrual equals it
// until invoices and bills exist).
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/db';
import { fromMinor } from '../core/money';
import { TAX_SETS, type TaxBox } from './codes';

export interface TaxCodeFigures {
  code: string;
  name: string;
  /** The rate in force at the period's end. */
  rate: number;
  netSales: number;
  taxSales: number;
  netPurchases: number;
  taxPurchases: number;
}

export interface TaxReturn {
  from: string;
  to: string;
  currency: string;
  basis: 'cash' | 'accrual';
  /** The ready-made set whose boxes these are (null: the per-code summary is the return). */
  set: string | null;
  /** Each box of the set by its name ("1".."9", "G1", "1A", "1B"). */
  boxes: Record<string, number>;
  boxTitles: Record<string, string>;
  codes: TaxCodeFigures[];
  /** Output tax less recoverable input tax: positive is owed to the tax office. */
  payable: number;
  /** Lines dated in a period already filed that arrived after it: in this return. */
  lateLines: number;
}

interface Group {
  seq: number;
  code: string;
  name: string;
  boxes: string;
  kind: string;
  sales: number;
  net: number;
  tax: number;
}

/**
 * Which taxed category lines a return takes: those dated in the period, and those that arrived late for a
 * period already filed (dated on or before the last filed return's end, in no return): tax offices expect them
 * in the next open return.
 */
const TAKEN = `l.org_seq = ? AND l.currency = ? AND l.tax_code_seq IS NOT NULL AND l.kind = 'category'
  AND (l.date BETWEEN ? AND ? OR (l.date < ? AND l.date <= ? AND l.tax_return_seq IS NULL))`;

/** The end of the latest filed return ('' when none). */
export const lastFiledTo = (ledger: Ledger, orgSeq: number): string =>
  (ledger.stmt('SELECT max(period_to) FROM tax_returns WHERE org_seq = ?').pluck().get(orgSeq) as string | null) ?? '';

const takenParams = (ledger: Ledger, orgSeq: number, currency: string, from: string, to: string) => [orgSeq, currency, from, to, from, lastFiledTo(ledger, orgSeq)];

/** The period's taxed category lines per code and side, summed (line signs). */
const taxedGroups = (ledger: Ledger, orgSeq: number, currency: string, from: string, to: string): Group[] =>
  ledger.rows<Group>(
    `SELECT t.seq, t.code, t.name, t.boxes, t.kind, c.type = 'revenue' AS sales, sum(l.amount_minor) AS net, sum(coalesce(l.tax_minor, 0)) AS tax
     FROM lines l INDEXED BY lines_tax_date JOIN tax_codes t ON t.seq = l.tax_code_seq JOIN categories c ON c.seq = l.category_seq
     WHERE ${TAKEN} GROUP BY t.seq, sales ORDER BY t.code`,
    ...takenParams(ledger, orgSeq, currency, from, to),
  );

/** Stamps the lines a filed return took (and answers how many): they no longer change. */
export function stampLines(ledger: Ledger, orgSeq: number, currency: string, from: string, to: string, returnSeq: number): number {
  return ledger.stmt(`UPDATE lines AS l SET tax_return_seq = ? WHERE ${TAKEN} AND l.tax_return_seq IS NULL`).run(returnSeq, ...takenParams(ledger, orgSeq, currency, from, to))
    .changes;
}

export function taxReturn(ledger: Ledger, orgSeq: number, period: { from: string; to: string; basis?: 'cash' | 'accrual' }): TaxReturn {
  const org = organizationBySeq(ledger, orgSeq);
  const money = (minor: number) => fromMinor(minor, org.currency);
  const groups = taxedGroups(ledger, orgSeq, org.currency, period.from, period.to);
  const set = org.taxSet ? TAX_SETS[org.taxSet] : undefined;
  const boxMinor = new Map<string, number>((set?.boxes ?? []).map((b) => [b.box, 0]));
  const byCode = new Map<string, { code: string; name: string; minor: [number, number, number, number] }>();
  let payable = 0;
  const rate = ledger.stmt('SELECT rate_e4 FROM tax_rates WHERE tax_code_seq = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1').pluck();
  for (const g of groups) {
    // Money's sign: a sale's line is a credit (negative), a purchase's a debit.
    const net = g.sales ? -g.net : g.net;
    const tax = g.sales ? -g.tax : g.tax;
    const figures = byCode.get(g.code) ?? byCode.set(g.code, { code: g.code, name: g.name, minor: [0, 0, 0, 0] }).get(g.code)!;
    figures.minor[g.sales ? 0 : 2] += net;
    figures.minor[g.sales ? 1 : 3] += tax;
    // The reverse charge's output and input tax cancel: nothing is paid for it.
    if (g.kind !== 'reverse_charge') payable += g.sales ? tax : -tax;
    for (const b of JSON.parse(g.boxes) as TaxBox[]) {
      if ((b.side === 'sales') !== Boolean(g.sales)) continue;
      const value = b.measure === 'net' ? net : b.measure === 'tax' ? tax : net + tax;
      boxMinor.set(b.box, (boxMinor.get(b.box) ?? 0) + value);
    }
  }
  for (const b of set?.boxes ?? []) {
    if (b.sum)
      boxMinor.set(
        b.box,
        b.sum.reduce((s, part) => s + (part.startsWith('-') ? -(boxMinor.get(part.slice(1)) ?? 0) : (boxMinor.get(part) ?? 0)), 0),
      );
  }
  const codes = [...byCode.values()].map((c) => {
    const seq = groups.find((g) => g.code === c.code)!.seq;
    return {
      code: c.code,
      name: c.name,
      rate: ((rate.get(seq, period.to) as number | undefined) ?? 0) / 10_000,
      netSales: money(c.minor[0]),
      taxSales: money(c.minor[1]),
      netPurchases: money(c.minor[2]),
      taxPurchases: money(c.minor[3]),
    };
  });
  return {
    from: period.from,
    to: period.to,
    currency: org.currency,
    basis: period.basis ?? 'cash',
    set: org.taxSet,
    boxes: Object.fromEntries([...boxMinor].map(([box, minor]) => [box, money(minor)])),
    boxTitles: Object.fromEntries((set?.boxes ?? []).map((b) => [b.box, b.title])),
    codes,
    payable: money(payable),
    lateLines: ledger
      .stmt(
        `SELECT count(*) FROM lines l WHERE l.org_seq = ? AND l.currency = ? AND l.tax_code_seq IS NOT NULL AND l.kind = 'category' AND l.date < ? AND l.date <= ? AND l.tax_return_seq IS NULL`,
      )
      .pluck()
      .get(orgSeq, org.currency, period.from, lastFiledTo(ledger, orgSeq)) as number,
  };
}

/** A line behind the return's figures (the tax audit report). */
export interface TaxAuditLine {
  transactionId: string;
  date: string;
  description: string;
  code: string;
  side: 'sales' | 'purchases';
  net: number;
  tax: number;
  /** Dated in an earlier, filed period: in this return because it arrived late. */
  late: boolean;
}

/**
 * Every taxed line a return takes, oldest first, or those behind one box (the codes that feed it, on its side)
 * or one code: what the tax audit report shows, and what a figure on screen opens.
 */
export function taxAudit(ledger: Ledger, orgSeq: number, q: { from: string; to: string; box?: string; code?: string; limit: number; offset: number }) {
  const org = organizationBySeq(ledger, orgSeq);
  const rows = ledger.rows<{ id: string; date: string; description: string; code: string; boxes: string; sales: number; net: number; tax: number }>(
    `SELECT tr.id, l.date, tr.description, t.code, t.boxes, c.type = 'revenue' AS sales, l.amount_minor AS net, coalesce(l.tax_minor, 0) AS tax
     FROM lines l INDEXED BY lines_tax_date JOIN tax_codes t ON t.seq = l.tax_code_seq JOIN categories c ON c.seq = l.category_seq JOIN transactions tr ON tr.seq = l.transaction_seq
     WHERE ${TAKEN} ORDER BY l.date, l.transaction_seq, l.position`,
    ...takenParams(ledger, orgSeq, org.currency, q.from, q.to),
  );
  const feeds = (r: (typeof rows)[number]) =>
    (q.code === undefined || r.code.toLowerCase() === q.code.toLowerCase()) &&
    (q.box === undefined || (JSON.parse(r.boxes) as TaxBox[]).some((b) => b.box === q.box && (b.side === 'sales') === Boolean(r.sales)));
  const chosen = rows.filter(feeds);
  const money = (minor: number) => fromMinor(minor, org.currency);
  return {
    data: chosen.slice(q.offset, q.offset + q.limit).map((r): TaxAuditLine => ({
      transactionId: r.id,
      date: r.date,
      description: r.description,
      code: r.code,
      side: r.sales ? 'sales' : 'purchases',
      net: money(r.sales ? -r.net : r.net),
      tax: money(r.sales ? -r.tax : r.tax),
      late: r.date < q.from,
    })),
    meta: { totalCount: chosen.length, limit: q.limit, offset: q.offset },
  };
}

// The tax return of a period (issue 28): from the category lines that carry a
// tax code, per code and side (sales: revenue categories; purchases: the
// rest), their net and tax in money's sign (a sale and its output tax
// positive; a purchase and its input tax positive; refunds the other way);
// the set's boxes from each code's box mapping, and the boxes that are sums
// of others. A bank row's lines are dated the bank's day on either basis;
// invoices' and bills' lines their own dates (accrual) or their payments'
// in proportion (cash), documents/basis.ts.
// A return after a filed one also includes the corrections of earlier returns
// (issue 43, adjustments.ts): their differences in its boxes and payable.
import { consistent } from '../core/consistent';
import { roundDiv } from '../core/dialect';
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { documentTaxedLinesSql, documentTaxedParams, type Basis } from '../documents/basis';
import { fromMinor } from '../core/money';
import { TAX_SETS, type TaxBox, type TaxSetBox } from './codes';
import { returnAdjustments, thresholdCheck, type CorrectionThresholdCheck, type TaxCorrectionLine } from './adjustments';
import { fillBoxes, payableOf } from './figures';
import { addDays, dayBefore } from '../../../shared/dates';
import { today } from '../core/clock';
import { openingVatWarning, type OpeningVatWarning } from '../journals/opening-vat';
import { bookCurrencies } from '../totals/sums';
import { mapInOrder } from '../core/in-order';

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
  /** Corrections of earlier returns (issue 43): in the boxes, the per-code summary and the payable; listed apart here. */
  corrections: TaxCorrectionLine[];
  /** The tax office's threshold for them (null: none included, or the set knows none). */
  correctionThreshold: CorrectionThresholdCheck | null;
  /** A filed period is shown as filed (filing.ts, filedView): when, by whom, and how many of its rows were corrected since. */
  filed?: { id: string; filedAt: string; filedBy: string; correctedSince: number };
  /** What to mend before filing (issue 50): on the cash basis, open documents of the opening balances paid in the period without their VAT. */
  warnings: OpeningVatWarning[];
  /** A period that has not ended by the ledger's clock (issue 50): the first day it may be filed. Absent once it has ended. */
  fileFrom?: string;
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
 * in the next open return. Two index ranges: the period on the covering index, the late ones on the index of
 * lines no return took (a few, once returns are filed).
 */
const OWN = 'amount_minor, tax_minor';
/** Another currency's lines in the base currency (issue 30): each line's base amount, its tax at the same booked rate. */
const IN_BASE = `base_minor AS amount_minor, CASE WHEN amount_minor = 0 THEN 0 ELSE ${roundDiv('coalesce(tax_minor, 0) * base_minor', 'amount_minor')} END AS tax_minor`;
const inPeriod = (amounts: string) => `SELECT transaction_seq, position, tax_code_seq, category_seq, ${amounts}, date FROM lines INDEXED BY lines_tax_date
  WHERE org_seq = ? AND currency = ? AND date BETWEEN ? AND ? AND tax_code_seq IS NOT NULL AND kind = 'category'`;
const late = (amounts: string) => `SELECT transaction_seq, position, tax_code_seq, category_seq, ${amounts}, date FROM lines INDEXED BY lines_tax_unfiled
  WHERE org_seq = ? AND currency = ? AND date <= ? AND tax_code_seq IS NOT NULL AND kind = 'category' AND tax_return_seq IS NULL`;
/** The last day a late line may be dated: before the period and within a filed one (null: none can be late). */
async function lateBound(ledger: Ledger, orgSeq: number, from: string): Promise<string | null> {
  const filedTo = await lastFiledTo(ledger, orgSeq);
  if (!filedTo) return null;
  const before = dayBefore(from);
  return before < filedTo ? before : filedTo;
}

/** The other currencies the organization's lines (and documents' postings) are in: each its own index range. */
export const otherCurrencies = async (ledger: Ledger, orgSeq: number, base: string): Promise<string[]> => (await bookCurrencies(ledger, orgSeq)).filter((c) => c !== base);

/** The taken lines' query and its parameters, every currency in the base one: the late range only once a return was filed. */
export async function taken(ledger: Ledger, orgSeq: number, base: string, from: string, to: string): Promise<{ sql: string; params: unknown[] }> {
  const lateUntil = await lateBound(ledger, orgSeq, from);
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const currency of [base, ...(await otherCurrencies(ledger, orgSeq, base))]) {
    const amounts = currency === base ? OWN : IN_BASE;
    parts.push(inPeriod(amounts));
    params.push(orgSeq, currency, from, to);
    if (lateUntil) {
      parts.push(late(amounts));
      params.push(orgSeq, currency, lateUntil);
    }
  }
  return { sql: parts.join(' UNION ALL '), params };
}

/** The end of the latest filed return ('' when none). */
export const lastFiledTo = async (ledger: Ledger, orgSeq: number): Promise<string> =>
  ((await ledger.stmt('SELECT max(period_to) FROM tax_returns WHERE org_seq = ?').pluck().get(orgSeq)) as string | null) ?? '';

/** The last day of a filed return that an invoice's or bill's taxed entry may not be dated on ('' when none: returns on the cash basis, or none filed). */
export const documentsFiledTo = async (ledger: Ledger, orgSeq: number): Promise<string> => ((await returnBasis(ledger, orgSeq)) === 'accrual' ? lastFiledTo(ledger, orgSeq) : '');

/**
 * Refuses an invoice's or bill's taxed entry (or its reversal) dated in a period a filed return covers, when the
 * returns are on the accrual basis: it would be in no return (a bank row dated there goes into the next one).
 */
export async function assertNotInFiledPeriod(ledger: Ledger, orgSeq: number, date: string, what: string): Promise<void> {
  const filedTo = await documentsFiledTo(ledger, orgSeq);
  if (date > filedTo) return;
  const r = (await ledger.stmt('SELECT id, period_from, period_to FROM tax_returns WHERE org_seq = ? AND period_to >= ? ORDER BY period_to LIMIT 1').get(orgSeq, date)) as {
    id: string;
    period_from: string;
    period_to: string;
  };
  throw new LedgerError(
    'period_locked',
    `A tax return was filed for ${r.period_from} to ${r.period_to} (accrual basis): ${what} dated ${date} would be in no return. Date it after ${filedTo}.`,
    { taxReturn: r.id, from: r.period_from, to: r.period_to, date },
  );
}

/** Whether a summed line is a sale: its document's side (g.side), else its category's type. */
const SALES = "coalesce(g.side, CASE WHEN c.type = 'revenue' THEN 1 ELSE 0 END)";

/** The basis the organization's returns are on (tax settings, periods.ts), when a report names none. */
const returnBasis = async (ledger: Ledger, orgSeq: number): Promise<Basis> => (await ledger.stmt('SELECT tax_basis FROM organizations WHERE seq = ?').pluck().get(orgSeq)) as Basis;

/** The period's taxed category lines per code and side, summed (line signs): summed per code and category first, on the index, then named. */
async function taxedGroups(ledger: Ledger, orgSeq: number, currency: string, from: string, to: string, basis: Basis): Promise<Group[]> {
  const { sql, params } = await taken(ledger, orgSeq, currency, from, to);
  // With the invoices' and bills' taxed lines: on their dates (accrual) or their payments' (cash), documents/basis.ts; another currency's in base.
  const documents = [currency, ...(await otherCurrencies(ledger, orgSeq, currency))];
  // The side is the category's (revenue: sales), or the document's for an open document of the opening balances (no category).
  const all = [
    `SELECT tax_code_seq, category_seq, amount_minor, tax_minor, CAST(NULL AS INTEGER) AS side FROM (${sql}) AS sub`,
    ...documents.map((c) => `SELECT tax_code_seq, category_seq, amount_minor, tax_minor, sales AS side FROM (${documentTaxedLinesSql(basis, c !== currency)}) AS sub`),
  ].join(' UNION ALL ');
  return ledger.rows<Group>(
    `SELECT t.seq, t.code, t.name, t.boxes, t.kind, ${SALES} AS sales, sum(g.net) AS net, sum(g.tax) AS tax
     FROM (SELECT tax_code_seq, category_seq, side, sum(amount_minor) AS net, sum(coalesce(tax_minor, 0)) AS tax FROM (${all}) AS sub GROUP BY tax_code_seq, category_seq, side) g
     JOIN tax_codes t ON t.seq = g.tax_code_seq LEFT JOIN categories c ON c.seq = g.category_seq
     GROUP BY t.seq, t.code, t.name, t.boxes, t.kind, ${SALES} ORDER BY t.code`,
    ...params,
    ...documents.flatMap((c) => documentTaxedParams(basis, orgSeq, c, from, to)),
  );
}

/** Stamps the lines a filed return took (and answers how many): they no longer change. */
export async function stampLines(ledger: Ledger, orgSeq: number, currency: string, from: string, to: string, returnSeq: number): Promise<number> {
  const { sql, params } = await taken(ledger, orgSeq, currency, from, to);
  return (
    await ledger
      .stmt(`UPDATE lines SET tax_return_seq = ? WHERE (transaction_seq, position) IN (SELECT transaction_seq, position FROM (${sql}) AS sub) AND tax_return_seq IS NULL`)
      .run(returnSeq, ...params)
  ).changes;
}

async function lateLines(ledger: Ledger, orgSeq: number, base: string, from: string): Promise<number> {
  const until = await lateBound(ledger, orgSeq, from);
  if (!until) return 0;
  let n = 0;
  for (const currency of [base, ...(await otherCurrencies(ledger, orgSeq, base))])
    n += (await ledger
      .stmt(`SELECT count(*) FROM (${late(OWN)}) AS sub`)
      .pluck()
      .get(orgSeq, currency, until)) as number;
  return n;
}

/** Each code's net and tax on either side (minor units: net sales, tax sales, net purchases, tax purchases), by seq. */
type ByCode = Map<number, { code: string; name: string; minor: [number, number, number, number] }>;

/** The per-code summary, by code, each with its rate at the period's end. */
async function codeSummary(ledger: Ledger, byCode: ByCode, to: string, money: (minor: number) => number): Promise<TaxCodeFigures[]> {
  const rate = ledger.stmt('SELECT rate_e4 FROM tax_rates WHERE tax_code_seq = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1').pluck();
  return await mapInOrder(
    [...byCode].sort(([, a], [, b]) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)),
    async ([seq, c]) => ({
      code: c.code,
      name: c.name,
      rate: (((await rate.get(seq, to)) as number | undefined) ?? 0) / 10_000,
      netSales: money(c.minor[0]),
      taxSales: money(c.minor[1]),
      netPurchases: money(c.minor[2]),
      taxPurchases: money(c.minor[3]),
    }),
  );
}

/** The boxes that are sums of others (UK box 3 = 1 + 2, box 5 = 3 - 4), in the set's order. */
function addSums(boxes: TaxSetBox[], boxMinor: Map<string, number>): void {
  for (const b of boxes) {
    if (b.sum)
      boxMinor.set(
        b.box,
        b.sum.reduce((s, part) => s + (part.startsWith('-') ? -(boxMinor.get(part.slice(1)) ?? 0) : (boxMinor.get(part) ?? 0)), 0),
      );
  }
}

export const taxReturn = consistent(async function taxReturn(ledger: Ledger, orgSeq: number, period: { from: string; to: string; basis?: 'cash' | 'accrual' }): Promise<TaxReturn> {
  // A period that ends before it starts is a mistake to say, not an empty return (as filing one is).
  if (period.from > period.to) throw invalid([{ field: 'to', message: `is before from (${period.from})` }]);
  const org = await organizationBySeq(ledger, orgSeq);
  const money = (minor: number) => fromMinor(minor, org.currency);
  const basis = period.basis ?? (await returnBasis(ledger, orgSeq));
  const groups = await taxedGroups(ledger, orgSeq, org.currency, period.from, period.to, basis);
  const adjustments = await returnAdjustments(ledger, orgSeq, org.currency, period, await lastFiledTo(ledger, orgSeq));
  const set = org.taxSet ? TAX_SETS[org.taxSet] : undefined;
  const boxMinor = new Map<string, number>((set?.boxes ?? []).map((b) => [b.box, 0]));
  const byCode: ByCode = new Map();
  const add = (seq: number, code: string, name: string, sales: boolean, net: number, tax: number) => {
    const figures = byCode.get(seq) ?? byCode.set(seq, { code, name, minor: [0, 0, 0, 0] }).get(seq)!;
    figures.minor[sales ? 0 : 2] += net;
    figures.minor[sales ? 1 : 3] += tax;
  };
  let payable = 0;
  for (const g of groups) {
    // Money's sign: a sale's line is a credit (negative), a purchase's a debit.
    const net = g.sales ? -g.net : g.net;
    const tax = g.sales ? -g.tax : g.tax;
    add(g.seq, g.code, g.name, Boolean(g.sales), net, tax);
    // The reverse charge's output and input tax cancel: nothing is paid for it.
    if (g.kind !== 'reverse_charge') payable += g.sales ? tax : -tax;
    fillBoxes(JSON.parse(g.boxes) as TaxBox[], Boolean(g.sales), net, tax, boxMinor);
  }
  // The corrections' differences, each on the boxes it filled when it was kept.
  const nameOf = ledger.stmt('SELECT name FROM tax_codes WHERE seq = ?').pluck();
  for (const { figure: f } of adjustments) {
    add(f.taxCodeSeq, f.code, (await nameOf.get(f.taxCodeSeq)) as string, f.side === 'sales', f.net, f.tax);
    for (const [box, value] of Object.entries(f.boxes)) boxMinor.set(box, (boxMinor.get(box) ?? 0) + value);
  }
  payable += payableOf(adjustments.map((a) => a.figure));
  addSums(set?.boxes ?? [], boxMinor);
  return {
    from: period.from,
    to: period.to,
    currency: org.currency,
    basis,
    set: org.taxSet,
    boxes: Object.fromEntries([...boxMinor].map(([box, minor]) => [box, money(minor)])),
    boxTitles: Object.fromEntries((set?.boxes ?? []).map((b) => [b.box, b.title])),
    codes: await codeSummary(ledger, byCode, period.to, money),
    payable: money(payable),
    lateLines: await lateLines(ledger, orgSeq, org.currency, period.from),
    corrections: adjustments.map((a) => a.line),
    correctionThreshold: thresholdCheck(set?.correctionThreshold, org.currency, adjustments, boxMinor),
    warnings: [await openingVatWarning(ledger, orgSeq, { ...period, basis })].filter((w) => w !== null),
    ...(period.to >= today() ? { fileFrom: addDays(period.to, 1) } : {}),
  };
});

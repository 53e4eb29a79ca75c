// The tax return of a period (issue 28): from the category lines that carry a
// tax code, per code and side (sales: revenue categories; purchases: the
// rest), their net and tax in money's sign (a sale and its output tax
// positive; a purchase and its input tax positive; refunds the other way);
// the set's boxes from each code's box mapping, and the boxes that are sums
// of others. A bank row's lines are dated the bank's day on either basis;
// invoices' and bills' lines their own dates (accrual) or their payments'
// in proportion (cash), documents/basis.ts.
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/db';
import { LedgerError } from '../core/errors';
import { documentTaxedLinesSql, documentTaxedParams, type Basis } from '../documents/basis';
import { fromMinor } from '../core/money';
import { TAX_SETS, type TaxBox } from './codes';
import { dayBefore } from '../../../shared/dates';
import { bookCurrencies } from '../totals/sums';

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
 * in the next open return. Two index ranges: the period on the covering index, the late ones on the index of
 * lines no return took (a few, once returns are filed).
 */
const OWN = 'amount_minor, tax_minor';
/** Another currency's lines in the base currency (issue 30): each line's base amount, its tax at the same booked rate. */
const IN_BASE =
  'base_minor AS amount_minor, CASE WHEN amount_minor = 0 THEN 0 ELSE CAST(round(coalesce(tax_minor, 0) * 1.0 * base_minor / amount_minor) AS INTEGER) END AS tax_minor';
const inPeriod = (amounts: string) => `SELECT transaction_seq, position, tax_code_seq, category_seq, ${amounts}, date FROM lines INDEXED BY lines_tax_date
  WHERE org_seq = ? AND currency = ? AND date BETWEEN ? AND ? AND tax_code_seq IS NOT NULL AND kind = 'category'`;
const late = (amounts: string) => `SELECT transaction_seq, position, tax_code_seq, category_seq, ${amounts}, date FROM lines INDEXED BY lines_tax_unfiled
  WHERE org_seq = ? AND currency = ? AND date <= ? AND tax_code_seq IS NOT NULL AND kind = 'category' AND tax_return_seq IS NULL`;
/** The last day a late line may be dated: before the period and within a filed one (null: none can be late). */
function lateBound(ledger: Ledger, orgSeq: number, from: string): string | null {
  const filedTo = lastFiledTo(ledger, orgSeq);
  if (!filedTo) return null;
  const before = dayBefore(from);
  return before < filedTo ? before : filedTo;
}

/** The other currencies the organization's lines (and documents' postings) are in: each its own index range. */
const otherCurrencies = (ledger: Ledger, orgSeq: number, base: string): string[] => bookCurrencies(ledger, orgSeq).filter((c) => c !== base);

/** The taken lines' query and its parameters, every currency in the base one: the late range only once a return was filed. */
function taken(ledger: Ledger, orgSeq: number, base: string, from: string, to: string): { sql: string; params: unknown[] } {
  const lateUntil = lateBound(ledger, orgSeq, from);
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const currency of [base, ...otherCurrencies(ledger, orgSeq, base)]) {
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
export const lastFiledTo = (ledger: Ledger, orgSeq: number): string =>
  (ledger.stmt('SELECT max(period_to) FROM tax_returns WHERE org_seq = ?').pluck().get(orgSeq) as string | null) ?? '';

/**
 * Refuses an invoice's or bill's taxed entry (or its reversal) dated in a period a filed return covers, when the
 * returns are on the accrual basis: it would be in no return (a bank row dated there goes into the next one).
 */
export function assertNotInFiledPeriod(ledger: Ledger, orgSeq: number, date: string, what: string): void {
  const filedTo = lastFiledTo(ledger, orgSeq);
  if (date > filedTo || ledger.stmt('SELECT tax_basis FROM organizations WHERE seq = ?').pluck().get(orgSeq) !== 'accrual') return;
  const r = ledger.stmt('SELECT id, period_from, period_to FROM tax_returns WHERE org_seq = ? AND period_to >= ? ORDER BY period_to LIMIT 1').get(orgSeq, date) as {
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

/** The period's taxed category lines per code and side, summed (line signs): summed per code and category first, on the index, then named. */
function taxedGroups(ledger: Ledger, orgSeq: number, currency: string, from: string, to: string, basis: Basis): Group[] {
  const { sql, params } = taken(ledger, orgSeq, currency, from, to);
  // With the invoices' and bills' taxed lines: on their dates (accrual) or their payments' (cash), documents/basis.ts; another currency's in base.
  const documents = [currency, ...otherCurrencies(ledger, orgSeq, currency)];
  const all = [
    `SELECT tax_code_seq, category_seq, amount_minor, tax_minor FROM (${sql})`,
    ...documents.map((c) => `SELECT tax_code_seq, category_seq, amount_minor, tax_minor FROM (${documentTaxedLinesSql(basis, c !== currency)})`),
  ].join(' UNION ALL ');
  return ledger.rows<Group>(
    `SELECT t.seq, t.code, t.name, t.boxes, t.kind, c.type = 'revenue' AS sales, sum(g.net) AS net, sum(g.tax) AS tax
     FROM (SELECT tax_code_seq, category_seq, sum(amount_minor) AS net, sum(coalesce(tax_minor, 0)) AS tax FROM (${all}) GROUP BY tax_code_seq, category_seq) g
     JOIN tax_codes t ON t.seq = g.tax_code_seq JOIN categories c ON c.seq = g.category_seq
     GROUP BY t.seq, sales ORDER BY t.code`,
    ...params,
    ...documents.flatMap((c) => documentTaxedParams(basis, orgSeq, c, from, to)),
  );
}

/** Stamps the lines a filed return took (and answers how many): they no longer change. */
export function stampLines(ledger: Ledger, orgSeq: number, currency: string, from: string, to: string, returnSeq: number): number {
  const { sql, params } = taken(ledger, orgSeq, currency, from, to);
  return ledger
    .stmt(`UPDATE lines SET tax_return_seq = ? WHERE (transaction_seq, position) IN (SELECT transaction_seq, position FROM (${sql})) AND tax_return_seq IS NULL`)
    .run(returnSeq, ...params).changes;
}

function lateLines(ledger: Ledger, orgSeq: number, base: string, from: string): number {
  const until = lateBound(ledger, orgSeq, from);
  if (!until) return 0;
  return [base, ...otherCurrencies(ledger, orgSeq, base)].reduce(
    (n, currency) =>
      n +
      (ledger
        .stmt(`SELECT count(*) FROM (${late(OWN)})`)
        .pluck()
        .get(orgSeq, currency, until) as number),
    0,
  );
}

export function taxReturn(ledger: Ledger, orgSeq: number, period: { from: string; to: string; basis?: 'cash' | 'accrual' }): TaxReturn {
  const org = organizationBySeq(ledger, orgSeq);
  const money = (minor: number) => fromMinor(minor, org.currency);
  const groups = taxedGroups(ledger, orgSeq, org.currency, period.from, period.to, period.basis ?? 'cash');
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
    lateLines: lateLines(ledger, orgSeq, org.currency, period.from),
  };
}

/** A line behind the return's figures (the tax audit report). */
export interface TaxAuditLine {
  /** The bank row's id ('' for an invoice's or bill's line). */
  transactionId: string;
  /** The invoice, credit note or bill whose line it is (issue 29), on its date (accrual) or its payment's (cash). */
  document?: { id: string; kind: string; number: string };
  date: string;
  description: string;
  code: string;
  side: 'sales' | 'purchases';
  net: number;
  tax: number;
  /** Dated in an earlier, filed period: in this return because it arrived late. */
  late: boolean;
}

/** Which (code, side) pairs an audit asks for: every one, one code's, or those feeding the box. */
function auditPairs(ledger: Ledger, orgSeq: number, q: { box?: string; code?: string }): number[][] {
  return ledger
    .rows<{ seq: number; code: string; boxes: string }>('SELECT seq, code, boxes FROM tax_codes WHERE org_seq = ?', orgSeq)
    .flatMap((c) =>
      [1, 0]
        .filter(
          (sales) =>
            (q.code === undefined || c.code.toLowerCase() === q.code.toLowerCase()) &&
            (q.box === undefined || (JSON.parse(c.boxes) as TaxBox[]).some((b) => b.box === q.box && (b.side === 'sales') === (sales === 1))),
        )
        .map((sales) => [c.seq, sales]),
    );
}

/**
 * Every taxed line a return takes, oldest first, or those behind one box (the codes that feed it, on its side)
 * or one code: what the tax audit report shows, and what a figure on screen opens.
 */
export function taxAudit(ledger: Ledger, orgSeq: number, q: { from: string; to: string; box?: string; code?: string; basis?: Basis; limit: number; offset: number }) {
  const org = organizationBySeq(ledger, orgSeq);
  const pairs = auditPairs(ledger, orgSeq, q);
  const money = (minor: number) => fromMinor(minor, org.currency);
  if (!pairs.length) return { data: [] as TaxAuditLine[], meta: { totalCount: 0, limit: q.limit, offset: q.offset } };
  const lines = taken(ledger, orgSeq, org.currency, q.from, q.to);
  // The bank rows' taxed lines (src 0) and the documents' (src 1) on the return's basis (as taxReturn, cash unless told), as the return takes them.
  const basis = q.basis ?? 'cash';
  // Books without documents read the lines alone (no union to sort a page out of).
  const hasDocuments = ledger.stmt('SELECT 1 FROM documents WHERE org_seq = ? LIMIT 1').get(orgSeq) !== undefined;
  const currencies = hasDocuments ? [org.currency, ...otherCurrencies(ledger, orgSeq, org.currency)] : [];
  const all = [
    `SELECT 0 AS src, transaction_seq AS seq, position, date, tax_code_seq, category_seq, amount_minor, tax_minor FROM (${lines.sql})`,
    ...currencies.map((c) => `SELECT 1, posting_seq, 0, date, tax_code_seq, category_seq, amount_minor, tax_minor FROM (${documentTaxedLinesSql(basis, c !== org.currency)})`),
  ].join(' UNION ALL ');
  const chosen = `FROM (${all}) k JOIN categories c ON c.seq = k.category_seq WHERE (${pairs.map(() => "(k.tax_code_seq = ? AND (c.type = 'revenue') = ?)").join(' OR ')})`;
  const params = [...lines.params, ...currencies.flatMap((c) => documentTaxedParams(basis, orgSeq, c, q.from, q.to)), ...pairs.flat()];
  const total = ledger
    .stmt(`SELECT count(*) ${chosen}`)
    .pluck()
    .get(...params) as number;
  const page = ledger.rows<{
    id: string;
    date: string;
    description: string;
    code: string;
    sales: number;
    net: number;
    tax: number;
    doc_id: string | null;
    doc_kind: string;
    doc_number: string;
  }>(
    `SELECT coalesce(tr.id, '') AS id, p.date, coalesce(tr.description, CASE d.kind WHEN 'bill' THEN 'Bill ' WHEN 'credit_note' THEN 'Credit note ' ELSE 'Invoice ' END || d.number || ' ' || cp.name) AS description, t.code, p.sales, p.net, p.tax, d.id AS doc_id, d.kind AS doc_kind, d.number AS doc_number
     FROM (SELECT k.src, k.seq, k.position, k.date, k.tax_code_seq, c.type = 'revenue' AS sales, k.amount_minor AS net, coalesce(k.tax_minor, 0) AS tax ${chosen}
           ORDER BY k.date, k.src, k.seq, k.position LIMIT ? OFFSET ?) p
     LEFT JOIN transactions tr ON p.src = 0 AND tr.seq = p.seq LEFT JOIN postings po ON p.src = 1 AND po.seq = p.seq
     LEFT JOIN documents d ON d.seq = po.document_seq LEFT JOIN counterparties cp ON cp.seq = d.contact_seq
     JOIN tax_codes t ON t.seq = p.tax_code_seq ORDER BY p.date, p.src, p.seq, p.position`,
    ...params,
    q.limit,
    q.offset,
  );
  return {
    data: page.map((r): TaxAuditLine => ({
      transactionId: r.id,
      ...(r.doc_id ? { document: { id: r.doc_id, kind: r.doc_kind, number: r.doc_number } } : {}),
      date: r.date,
      description: r.description,
      code: r.code,
      side: r.sales ? 'sales' : 'purchases',
      net: money(r.sales ? -r.net : r.net),
      tax: money(r.sales ? -r.tax : r.tax),
      late: r.date < q.from,
    })),
    meta: { totalCount: total, limit: q.limit, offset: q.offset },
  };
}

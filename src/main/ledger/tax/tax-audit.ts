// The tax audit report (issue 28): the lines behind a return, or behind one
// box or one code, as the return takes them: the bank rows' taxed lines, the
// invoices' and bills' on the return's basis, and (issue 43) the adjustments
// of the corrections of earlier returns it includes, after them, each naming
// its row and the return it corrects: the lines behind a box add up to it.
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { documentTaxedLinesSql, documentTaxedParams, type Basis } from '../documents/basis';
import { returnAdjustments, type TaxCorrectionLine } from './adjustments';
import type { TaxBox } from './codes';
import { lastFiledTo, otherCurrencies, taken } from './return';
import { journalNumberSql } from '../journals/numbers';

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
  /** An adjustment correcting a filed return (issue 43): net and tax are the differences. */
  correction?: { id: string; taxReturn: { id: string; from: string; to: string; filedAt: string } };
}

/** Which (code, side) pairs an audit asks for: every one, one code's, or those feeding the box. */
async function auditPairs(ledger: Ledger, orgSeq: number, q: { box?: string; code?: string }): Promise<number[][]> {
  return (await ledger.rows<{ seq: number; code: string; boxes: string }>('SELECT seq, code, boxes FROM tax_codes WHERE org_seq = ?', orgSeq)).flatMap((c) =>
    [1, 0]
      .filter(
        (sales) =>
          (q.code === undefined || c.code.toLowerCase() === q.code.toLowerCase()) &&
          (q.box === undefined || (JSON.parse(c.boxes) as TaxBox[]).some((b) => b.box === q.box && (b.side === 'sales') === (sales === 1))),
      )
      .map((sales) => [c.seq, sales]),
  );
}

/** A correction's adjustment as the audit lists it: its differences, naming the return it corrects. */
const correctionAuditLine = (a: TaxCorrectionLine): TaxAuditLine => ({
  transactionId: a.transactionId,
  date: a.date,
  description: a.description,
  code: a.code,
  side: a.side,
  net: a.net,
  tax: a.tax,
  late: false,
  correction: { id: a.correctionId, taxReturn: a.taxReturn },
});

/** Whether a line is a sale: an open document's side (issue 50: no category), else its category's type. */
const SIDE = "coalesce(k.side, CASE WHEN c.type = 'revenue' THEN 1 ELSE 0 END)";

interface PageRow {
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
}

/** A page of the chosen lines, oldest first, each named by its row or its document. */
async function linePage(
  ledger: Ledger,
  chosen: string,
  params: unknown[],
  page: { limit: number; offset: number; from: string },
  money: (minor: number) => number,
): Promise<TaxAuditLine[]> {
  return (
    await ledger.rows<PageRow>(
      `SELECT coalesce(tr.id, '') AS id, p.date, coalesce(tr.description, CASE d.kind WHEN 'bill' THEN 'Bill ' WHEN 'credit_note' THEN 'Credit note ' ELSE 'Invoice ' END || d.number || ' ' || cp.name, ${journalNumberSql('j')} || ' ' || j.narration) AS description, t.code, p.sales, p.net, p.tax, d.id AS doc_id, d.kind AS doc_kind, d.number AS doc_number
     FROM (SELECT k.src, k.seq, k.position, k.date, k.tax_code_seq, ${SIDE} AS sales, k.amount_minor AS net, coalesce(k.tax_minor, 0) AS tax ${chosen}
           ORDER BY k.date, k.src, k.seq, k.position LIMIT ? OFFSET ?) p
     LEFT JOIN transactions tr ON p.src = 0 AND tr.seq = p.seq LEFT JOIN postings po ON p.src = 1 AND po.seq = p.seq
     LEFT JOIN documents d ON d.seq = po.document_seq LEFT JOIN counterparties cp ON cp.seq = d.contact_seq LEFT JOIN journals j ON j.seq = po.journal_seq
     JOIN tax_codes t ON t.seq = p.tax_code_seq ORDER BY p.date, p.src, p.seq, p.position`,
      ...params,
      page.limit,
      page.offset,
    )
  ).map((r) => ({
    transactionId: r.id,
    ...(r.doc_id ? { document: { id: r.doc_id, kind: r.doc_kind, number: r.doc_number } } : {}),
    date: r.date,
    description: r.description,
    code: r.code,
    side: r.sales ? 'sales' : 'purchases',
    net: money(r.sales ? -r.net : r.net),
    tax: money(r.sales ? -r.tax : r.tax),
    late: r.date < page.from,
  }));
}

/**
 * Every taxed line a return takes, oldest first, or those behind one box (the codes that feed it, on its side)
 * or one code: what the tax audit report shows, and what a figure on screen opens. The corrections' adjustments
 * the return includes come after the lines.
 */
export async function taxAudit(ledger: Ledger, orgSeq: number, q: { from: string; to: string; box?: string; code?: string; basis?: Basis; limit: number; offset: number }) {
  const org = await organizationBySeq(ledger, orgSeq);
  const pairs = await auditPairs(ledger, orgSeq, q);
  const money = (minor: number) => fromMinor(minor, org.currency);
  if (!pairs.length) return { data: [] as TaxAuditLine[], meta: { totalCount: 0, limit: q.limit, offset: q.offset } };
  const lines = await taken(ledger, orgSeq, org.currency, q.from, q.to);
  // The bank rows' taxed lines (src 0) and the documents' (src 1) on the return's basis (as taxReturn, cash unless told), as the return takes them.
  const basis = q.basis ?? 'cash';
  // Books without documents (or journals: issue 43) read the lines alone (no union to sort a page out of).
  const hasDocuments = (await ledger.stmt('SELECT 1 FROM postings WHERE org_seq = ? LIMIT 1').get(orgSeq)) !== undefined;
  const currencies = hasDocuments ? [org.currency, ...(await otherCurrencies(ledger, orgSeq, org.currency))] : [];
  const all = [
    `SELECT 0 AS src, transaction_seq AS seq, position, date, tax_code_seq, category_seq, amount_minor, tax_minor, CAST(NULL AS INTEGER) AS side FROM (${lines.sql}) AS sub`,
    ...currencies.map(
      (c) => `SELECT 1, posting_seq, 0, date, tax_code_seq, category_seq, amount_minor, tax_minor, sales FROM (${documentTaxedLinesSql(basis, c !== org.currency)}) AS sub`,
    ),
  ].join(' UNION ALL ');
  const chosen = `FROM (${all}) k LEFT JOIN categories c ON c.seq = k.category_seq WHERE (${pairs.map(() => `(k.tax_code_seq = ? AND ${SIDE} = ?)`).join(' OR ')})`;
  const params = [...lines.params, ...currencies.flatMap((c) => documentTaxedParams(basis, orgSeq, c, q.from, q.to)), ...pairs.flat()];
  const count = (await ledger
    .stmt(`SELECT count(*) ${chosen}`)
    .pluck()
    .get(...params)) as number;
  const page = q.offset < count ? await linePage(ledger, chosen, params, q, money) : [];
  const wanted = new Set(pairs.map(([seq, sales]) => `${seq}/${sales ? 'sales' : 'purchases'}`));
  const adjustments = (await returnAdjustments(ledger, orgSeq, org.currency, q, await lastFiledTo(ledger, orgSeq))).filter((a) =>
    wanted.has(`${a.figure.taxCodeSeq}/${a.figure.side}`),
  );
  const skip = Math.max(0, q.offset - count);
  return {
    data: page.concat(adjustments.slice(skip, skip + q.limit - page.length).map(({ line }) => correctionAuditLine(line))),
    meta: { totalCount: count + adjustments.length, limit: q.limit, offset: q.offset },
  };
}

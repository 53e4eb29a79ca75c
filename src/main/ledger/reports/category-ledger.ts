// The general ledger of categories where the plain read (one category's lines
// and postings in their index's order, general-ledger.ts) does not give what a
// P&L figure adds up: several categories at once (a parent's subtotal: it and
// those the P&L reports under it, chart/sections.ts), invoices' and bills'
// lines on the cash basis (what each payment recognizes, on its day, as
// documents/basis.ts counts it), and the unrealized revaluations in the base
// currency (rates/revalue.ts). Its postings come from up to three sources in
// one order (date, source, seq, position); a page is found from the counts
// per day, so it reads only the days it shows.
import { anyOf } from '../core/dialect';
import type { Ledger } from '../core/sqlite/open';
import { cashRecognitionsSql, paymentParams, type Basis } from '../documents/basis';
import { lineRange, type InCurrency, type RangeTotals } from '../totals/sums';
import { journalNumberSql } from '../journals/numbers';

/** A posting as the general ledger reads it (general-ledger.ts shapes it). */
export interface Posting {
  /** 0: a bank row's line; 1: a document's or a journal's posting; 2: what a payment recognized of one (cash basis); 3: a revaluation's line; 4: an account's opening balance. */
  src: number;
  seq: number;
  position: number;
  doc_id?: string | null;
  doc_kind?: string | null;
  doc_number?: string | null;
  /** A journal's posting (issue 43): which journal. */
  jnl_id?: string | null;
  jnl_number?: string | null;
  id: string;
  date: string;
  description: string;
  memo: string | null;
  minor: number;
  account_seq: number;
  category_seq?: number;
  /** Its other side, when the source says it (a recognition, a revaluation). */
  other?: string | null;
}

export interface CategorySet {
  orgSeq: number;
  seqs: number[];
  /** A currency's own lines, or (null) every currency's base amounts with the revaluations. */
  currency: InCurrency;
  basis: Basis;
}

const docName = `CASE d.kind WHEN 'bill' THEN 'Bill' WHEN 'credit_note' THEN 'Credit note' ELSE 'Invoice' END`;

/** The sources' postings dated in [from, to], in the ledger's order, and their parameters. */
function postingsSql(ledger: Ledger, s: CategorySet, from: string, to: string): { sql: string; params: unknown[] } {
  const amount = s.currency === null ? 'base_minor' : 'amount_minor';
  const cur = (alias: string) => (s.currency === null ? '' : ` AND ${alias}.currency = ?`);
  const curParam = s.currency === null ? [] : [s.currency];
  const seqs = s.seqs;
  const parts = [
    `SELECT 0 AS src, l.transaction_seq AS seq, l.position, t.id, l.date, t.description, l.memo, l.${amount} AS minor, t.account_seq, l.category_seq,
       NULL AS doc_id, NULL AS doc_kind, NULL AS doc_number, NULL AS other, NULL AS jnl_id, NULL AS jnl_number
     FROM lines l JOIN transactions t ON t.seq = l.transaction_seq
     WHERE l.org_seq = ? AND l.kind = 'category' AND l.category_seq ${anyOf(ledger)}${cur('l')} AND l.date BETWEEN ? AND ?`,
  ];
  const params: unknown[] = [s.orgSeq, seqs, ...curParam, from, to];
  // Documents' postings on their dates (accrual), or what payments recognized of them (cash); journals' on their dates on either basis.
  const own = s.basis === 'accrual' ? '' : ' AND p.journal_seq IS NOT NULL';
  parts.push(`SELECT 1, p.seq, 0, '', p.date, coalesce(coalesce(c.name || ' ', '') || d.number, j.narration), p.memo, p.${amount}, NULL, p.category_seq, d.id, d.kind, d.number,
       CASE WHEN j.seq IS NULL THEN NULL WHEN j.number IS NULL THEN ${journalNumberSql('j')} ELSE 'Journal ' || ${journalNumberSql('j')} END, j.id, ${journalNumberSql('j')}
     FROM postings p LEFT JOIN documents d ON d.seq = p.document_seq LEFT JOIN counterparties c ON c.seq = d.contact_seq LEFT JOIN journals j ON j.seq = p.journal_seq
     WHERE p.org_seq = ? AND p.kind = 'category' AND p.category_seq ${anyOf(ledger)}${cur('p')} AND p.date BETWEEN ? AND ?${own}`);
  params.push(s.orgSeq, seqs, ...curParam, from, to);
  if (s.basis === 'cash') {
    parts.push(`SELECT 2, r.posting_seq, r.via, '', r.date, coalesce(c.name || ' ', '') || d.number, p.memo, r.minor, NULL, r.category_seq, d.id, d.kind, d.number,
       ${docName} || ' ' || d.number || CASE r.via WHEN 1 THEN ', credit applied' ELSE ', paid' END, NULL, NULL
     FROM (${cashRecognitionsSql(s.currency)}) r JOIN postings p ON p.seq = r.posting_seq JOIN documents d ON d.seq = r.document_seq
       LEFT JOIN counterparties c ON c.seq = d.contact_seq
     WHERE r.category_seq ${anyOf(ledger)}`);
    params.push(...paymentParams(s.orgSeq, s.currency, from, to), seqs);
  }
  if (s.currency === null) {
    parts.push(`SELECT 3, v.revaluation_seq, v.position, '', v.date, v.memo, NULL, v.base_minor, NULL, v.category_seq, NULL, NULL, NULL, 'Exchange revaluation', NULL, NULL
     FROM revaluation_lines v WHERE v.org_seq = ? AND v.kind = 'category' AND v.category_seq ${anyOf(ledger)} AND v.date BETWEEN ? AND ?`);
    params.push(s.orgSeq, seqs, from, to);
  }
  return { sql: `${parts.join(' UNION ALL ')} ORDER BY 5, 1, 2, 3`, params };
}

/** The number of postings per day over [from, to], by date: the lines' (and postings') maintained counts, on the cash basis with recognitions instead of postings. */
async function dayCounts(ledger: Ledger, s: CategorySet, from: string, to: string): Promise<[string, number][]> {
  const counts = new Map<string, number>();
  const add = (rows: { date: string; n: number }[], sign = 1) => rows.forEach((r) => counts.set(r.date, (counts.get(r.date) ?? 0) + sign * r.n));
  const seqs = s.seqs;
  const cur = s.currency === null ? '' : ' AND currency = ?';
  const curParam = s.currency === null ? [] : [s.currency];
  add(
    await ledger.rows(
      `SELECT date, sum(n) AS n FROM line_day_totals WHERE org_seq = ? AND kind = 'category' AND category_seq ${anyOf(ledger)}${cur} AND date BETWEEN ? AND ? GROUP BY date`,
      s.orgSeq,
      seqs,
      ...curParam,
      from,
      to,
    ),
  );
  if (s.basis === 'cash') {
    add(
      await ledger.rows(
        `SELECT date, count(*) AS n FROM postings WHERE org_seq = ? AND kind = 'category' AND category_seq ${anyOf(ledger)}${cur} AND date BETWEEN ? AND ? AND document_seq IS NOT NULL GROUP BY date`,
        s.orgSeq,
        seqs,
        ...curParam,
        from,
        to,
      ),
      -1,
    );
    add(
      await ledger.rows(
        `SELECT date, count(*) AS n FROM (${cashRecognitionsSql(s.currency)}) AS sub WHERE category_seq ${anyOf(ledger)} GROUP BY date`,
        ...paymentParams(s.orgSeq, s.currency, from, to),
        seqs,
      ),
    );
  }
  if (s.currency === null) {
    add(
      await ledger.rows(
        `SELECT date, count(*) AS n FROM revaluation_lines WHERE org_seq = ? AND kind = 'category' AND category_seq ${anyOf(ledger)} AND date BETWEEN ? AND ? GROUP BY date`,
        s.orgSeq,
        seqs,
        from,
        to,
      ),
    );
  }
  return [...counts].filter(([, n]) => n > 0).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** Count and sum over [from, to]: the maintained totals per category, corrected by the few document and revaluation rows. */
async function range(ledger: Ledger, s: CategorySet, from: string, to: string): Promise<RangeTotals> {
  const out = { n: 0, minor: 0 };
  const add = (r: RangeTotals, sign = 1) => {
    out.n += sign * r.n;
    out.minor += sign * r.minor;
  };
  for (const seq of s.seqs) add(await lineRange(ledger, s.orgSeq, s.currency, 'category', seq, from, to));
  const seqs = s.seqs;
  const cur = s.currency === null ? '' : ' AND currency = ?';
  const curParam = s.currency === null ? [] : [s.currency];
  const amount = s.currency === null ? 'base_minor' : 'amount_minor';
  const totals = async (sql: string, ...params: unknown[]) =>
    (await ledger.stmt(`SELECT count(*) AS n, coalesce(sum(m), 0) AS minor FROM (${sql}) AS sub`).get(...params)) as RangeTotals;
  if (s.basis === 'cash') {
    const postings = `SELECT ${amount} AS m FROM postings WHERE org_seq = ? AND kind = 'category' AND category_seq ${anyOf(ledger)}${cur} AND date BETWEEN ? AND ? AND document_seq IS NOT NULL`;
    add(await totals(postings, s.orgSeq, seqs, ...curParam, from, to), -1);
    const recognized = `SELECT minor AS m FROM (${cashRecognitionsSql(s.currency)}) AS sub WHERE category_seq ${anyOf(ledger)}`;
    add(await totals(recognized, ...paymentParams(s.orgSeq, s.currency, from, to), seqs));
  }
  if (s.currency === null) {
    const revalued = `SELECT base_minor AS m FROM revaluation_lines WHERE org_seq = ? AND kind = 'category' AND category_seq ${anyOf(ledger)} AND date BETWEEN ? AND ?`;
    add(await totals(revalued, s.orgSeq, seqs, from, to));
  }
  return out;
}

/** The day a page at `offset` starts on (and how many of its postings come first), and the day it ends on. */
function window(days: [string, number][], offset: number, limit: number): { start: string; skip: number; end: string } | null {
  let seen = 0;
  let start: { date: string; skip: number } | null = null;
  for (const [date, n] of days) {
    if (!start && seen + n > offset) start = { date, skip: offset - seen };
    seen += n;
    if (start && seen >= offset + limit) return { start: start.date, skip: start.skip, end: date };
  }
  return start && { start: start.date, skip: start.skip, end: days[days.length - 1][0] };
}

/** Whether the plain one-category read would miss something: several categories, documents on the cash basis, revaluations. */
export async function needsCategoriesReader(ledger: Ledger, s: CategorySet): Promise<boolean> {
  const any = async (table: string) =>
    (await ledger.stmt(`SELECT 1 FROM ${table} WHERE org_seq = ? AND kind = 'category' AND category_seq ${anyOf(ledger)} LIMIT 1`).get(s.orgSeq, s.seqs)) !== undefined;
  return s.seqs.length > 1 || (s.basis === 'cash' && (await any('postings'))) || (s.currency === null && (await any('revaluation_lines')));
}

/** A reader of a set of categories' postings, as general-ledger.ts asks its readers. */
export function categoriesReader(ledger: Ledger, s: CategorySet) {
  const read = async (from: string, to: string) => {
    const { sql, params } = postingsSql(ledger, s, from, to);
    return ledger.rows<Posting>(sql, ...params);
  };
  const order = (p: Posting) => [p.src, p.seq, p.position];
  const before = (a: Posting, b: Posting) => {
    const [x, y] = [order(a), order(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
    return false;
  };
  return {
    page: async (from: string, to: string, limit: number, offset: number): Promise<Posting[]> => {
      const at = window(await dayCounts(ledger, s, from, to), offset, limit);
      return at ? (await read(at.start, at.end)).slice(at.skip, at.skip + limit) : [];
    },
    sameDayBefore: async (p: Posting): Promise<number> => (await read(p.date, p.date)).filter((q) => before(q, p)).reduce((sum, q) => sum + q.minor, 0),
    range: (from: string, to: string): Promise<RangeTotals> => range(ledger, s, from, to),
  };
}

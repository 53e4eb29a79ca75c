// The general ledger of Opening balances (issue 43): each money account's
// opening balance (on its opening date; one without a date the day before its
// first row) and what the opening entry and its open invoices and bills leave
// there (postings of kind 'opening'), in the base currency whatever the books
// hold (the money accounts are not among the lines a ledger counts currencies by). Few postings
// (an account each, a document each): read whole and paged in memory.
import type { Ledger } from '../core/sqlite/open';
import type { RangeTotals } from '../totals/sums';
import { Valuer } from '../rates/valuer';
import { dayBefore } from '../../../shared/dates';
import { journalNumberSql } from '../journals/numbers';
import type { Posting } from './category-ledger';
import { mapInOrder } from '../core/in-order';

/** Every posting of Opening balances, oldest first (debits positive: an opening balance of money is a credit here). */
async function all(ledger: Ledger, orgSeq: number): Promise<Posting[]> {
  const valuer = new Valuer(ledger, orgSeq);
  const accounts = await mapInOrder(
    await ledger.rows<{ seq: number; name: string; currency: string; opening_balance_minor: number; opening_date: string | null; first: string | null }>(
      `SELECT a.seq, a.name, a.currency, a.opening_balance_minor, a.opening_date, (SELECT min(date) FROM account_day_totals WHERE account_seq = a.seq) AS first
       FROM accounts a WHERE a.org_seq = ? AND a.opening_balance_minor <> 0`,
      orgSeq,
    ),
    async (a): Promise<Posting> => {
      const date = a.opening_date ?? (a.first ? dayBefore(a.first) : '0001-01-01');
      const minor = await valuer.opening(a, date);
      return { src: 4, seq: a.seq, position: 0, id: '', date, description: `Opening balance of ${a.name}`, memo: null, minor: -minor, account_seq: a.seq, other: a.name };
    },
  );
  const postings = await ledger.rows<Posting>(
    `SELECT 1 AS src, p.seq, 0 AS position, '' AS id, p.date, coalesce(c.name || ' ' || d.number, j.narration) AS description, p.memo, coalesce(p.base_minor, 0) AS minor, NULL AS account_seq,
       d.id AS doc_id, d.kind AS doc_kind, d.number AS doc_number, j.id AS jnl_id, CASE WHEN j.seq IS NULL THEN NULL ELSE ${journalNumberSql('j')} END AS jnl_number,
       CASE d.kind WHEN 'bill' THEN 'Bill ' || d.number WHEN 'invoice' THEN 'Invoice ' || d.number ELSE ${journalNumberSql('j')} END AS other
     FROM postings p LEFT JOIN documents d ON d.seq = p.document_seq LEFT JOIN counterparties c ON c.seq = d.contact_seq LEFT JOIN journals j ON j.seq = p.journal_seq
     WHERE p.org_seq = ? AND p.kind = 'opening'`,
    orgSeq,
  );
  return [...accounts, ...postings].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.src - b.src || a.seq - b.seq));
}

/** A reader of Opening balances' postings, as general-ledger.ts asks its readers. */
export function openingReader(ledger: Ledger, orgSeq: number) {
  let cached: Posting[] | null = null;
  const postings = async () => (cached ??= await all(ledger, orgSeq));
  const within = async (from: string, to: string) => (await postings()).filter((p) => p.date >= from && p.date <= to);
  return {
    page: async (from: string, to: string, limit: number, offset: number): Promise<Posting[]> => (await within(from, to)).slice(offset, offset + limit),
    sameDayBefore: async (p: Posting): Promise<number> => {
      const day = await within(p.date, p.date);
      return day.slice(0, day.indexOf(p)).reduce((s, q) => s + q.minor, 0);
    },
    range: async (from: string, to: string): Promise<RangeTotals> => {
      const ps = await within(from, to);
      return { n: ps.length, minor: ps.reduce((s, p) => s + p.minor, 0) };
    },
  };
}

// Reading journals (issue 43): one by its number or id with its lines as the
// books hold them (a taxed line's tax on the posting after it, marked as
// worked out; a money account's line with its row in the register), whether
// it was reversed or reverses another, and the repeat it belongs to; the list
// newest first.
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import { organizationBySeq } from '../access/organizations';
import { categoryRef, OPENING_NAME, type BookRef } from '../reports/positions';
import { TAX_CONTROL } from '../tax/lines';
import { journalNumber, journalNumberSql, numberFrom } from './numbers';
import { repeatOf, type JournalRepeat } from './repeat-row';
import type { PostingDraft } from './lines';
import { mapInOrder } from '../core/in-order';

export interface JournalRow {
  seq: number;
  id: string;
  org_seq: number;
  kind: 'journal' | 'opening';
  number: number | null;
  date: string;
  narration: string;
  reverses_seq: number | null;
  repeat_seq: number | null;
  tax_return_seq: number | null;
  created_at: string;
  created_by: string;
}

export interface JournalLine {
  /** What it posts to, as the reports name it: its general ledger is `report ledger --account <ref>`. */
  ref: BookRef;
  code?: string;
  name: string;
  /** Debit positive. */
  amount: number;
  debit: number;
  credit: number;
  taxCode: string | null;
  /** A taxed line's tax (in its sign), posted on the line after it. */
  tax: number | null;
  /** The tax of the line before it, worked out by the ledger from that line's code and the date's rate. */
  worked: boolean;
  memo: string | null;
  /** A money account's line: its row in the account's register. */
  transactionId?: string;
}

export interface JournalLink {
  id: string;
  number: string;
  date: string;
}

export interface Journal {
  id: string;
  number: string;
  kind: 'journal' | 'opening';
  date: string;
  narration: string;
  currency: string;
  lines: JournalLine[];
  totalDebit: number;
  totalCredit: number;
  /** The journal this one reverses, and the one that reverses this (each journal is reversed once at most). */
  reverses: JournalLink | null;
  reversedBy: JournalLink | null;
  repeat: JournalRepeat | null;
  createdAt: string;
  createdBy: string;
}

const LINK = `SELECT id, number, date FROM journals WHERE`;
const link = async (ledger: Ledger, where: string, seq: number): Promise<JournalLink | null> => {
  const r = (await ledger.stmt(`${LINK} ${where}`).get(seq)) as { id: string; number: number | null; date: string } | undefined;
  return r ? { id: r.id, number: journalNumber(r.number), date: r.date } : null;
};

/** A journal by its number (JNL-0003, 3) or id; a 404 naming what was asked otherwise. */
export async function requireJournal(ledger: Ledger, orgSeq: number, ref: string): Promise<JournalRow> {
  const n = numberFrom(ref);
  const row =
    (n !== null ? await ledger.stmt("SELECT * FROM journals WHERE org_seq = ? AND kind = 'journal' AND number = ?").get(orgSeq, n) : undefined) ??
    (await ledger.stmt('SELECT * FROM journals WHERE org_seq = ? AND id = ?').get(orgSeq, ref.trim().toLowerCase()));
  if (!row) throw new LedgerError('not_found', `No journal ${ref} in this organization (ledgerdesk journal list).`, { resource: 'journal', id: ref });
  return row as JournalRow;
}

interface PostingRow {
  kind: string;
  amount_minor: number;
  tax_minor: number | null;
  memo: string | null;
  code: string | null;
  category: string | null;
  category_seq: number | null;
  account_id: string | null;
  account: string | null;
  tax_code: string | null;
  tax_code_seq: number | null;
}

/** A posting as a journal line shows it; a clearing posting as its money account's line. */
function lineOf(p: PostingRow, currency: string, prev: PostingRow | undefined): JournalLine {
  const money = (minor: number) => fromMinor(minor, currency);
  const amount = money(p.amount_minor);
  const common = { amount, debit: Math.max(amount, 0), credit: Math.max(-amount, 0), memo: p.memo };
  if (p.kind === 'journal') return { ref: `account:${p.account_id}`, name: p.account!, ...common, taxCode: null, tax: null, worked: false };
  if (p.kind === 'category') {
    const ref = categoryRef({ code: p.code ?? '', seq: p.category_seq! });
    return { ref, ...(p.code ? { code: p.code } : {}), name: p.category!, ...common, taxCode: p.tax_code, tax: p.tax_minor === null ? null : money(p.tax_minor), worked: false };
  }
  if (p.kind === 'opening') return { ref: 'opening-balances', name: OPENING_NAME, ...common, taxCode: null, tax: null, worked: false };
  // A tax posting with a code follows the taxed line it is the tax of.
  const worked = p.tax_code_seq !== null && prev?.kind === 'category' && prev.tax_code_seq === p.tax_code_seq;
  return { ref: 'tax-control', name: TAX_CONTROL, ...common, taxCode: p.tax_code, tax: null, worked };
}

export async function journalLines(ledger: Ledger, journalSeq: number, currency: string): Promise<JournalLine[]> {
  const postings = await ledger.rows<PostingRow>(
    `SELECT p.kind, p.amount_minor, p.tax_minor, p.memo, c.code, c.name AS category, p.category_seq, a.id AS account_id, a.name AS account, t.code AS tax_code, p.tax_code_seq
     FROM postings p LEFT JOIN categories c ON c.seq = p.category_seq LEFT JOIN accounts a ON a.seq = p.account_seq LEFT JOIN tax_codes t ON t.seq = p.tax_code_seq
     WHERE p.journal_seq = ? ORDER BY p.seq`,
    journalSeq,
  );
  // Its money rows, in the order they were written: the clearing postings' order.
  const rows = (await ledger.stmt('SELECT id FROM transactions WHERE journal_seq = ? ORDER BY seq').pluck().all(journalSeq)) as string[];
  let next = 0;
  return postings.map((p, i) => {
    const line = lineOf(p, currency, postings[i - 1]);
    return p.kind === 'journal' ? { ...line, transactionId: rows[next++] } : line;
  });
}

/** Postings not yet written (a preview) as a journal's lines. */
export async function previewLines(ledger: Ledger, postings: readonly PostingDraft[], currency: string): Promise<JournalLine[]> {
  const category = ledger.stmt('SELECT code, name FROM categories WHERE seq = ?');
  const account = ledger.stmt('SELECT id, name FROM accounts WHERE seq = ?');
  const taxCode = ledger.stmt('SELECT code FROM tax_codes WHERE seq = ?').pluck();
  const rows = await mapInOrder(postings, async (p): Promise<PostingRow> => {
    const c = p.categorySeq === null ? undefined : ((await category.get(p.categorySeq)) as { code: string; name: string });
    const a = p.accountSeq === null ? undefined : ((await account.get(p.accountSeq)) as { id: string; name: string });
    return {
      kind: p.kind,
      amount_minor: p.amountMinor,
      tax_minor: p.taxMinor,
      memo: p.memo,
      code: c?.code ?? null,
      category: c?.name ?? null,
      category_seq: p.categorySeq,
      account_id: a?.id ?? null,
      account: a?.name ?? null,
      tax_code: p.taxCodeSeq === null ? null : ((await taxCode.get(p.taxCodeSeq)) as string),
      tax_code_seq: p.taxCodeSeq,
    };
  });
  return rows.map((r, i) => lineOf(r, currency, rows[i - 1]));
}

export async function toJournal(ledger: Ledger, row: JournalRow): Promise<Journal> {
  const currency = (await organizationBySeq(ledger, row.org_seq)).currency;
  const debit = fromMinor(
    (await ledger.stmt('SELECT coalesce(sum(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END), 0) FROM postings WHERE journal_seq = ?').pluck().get(row.seq)) as number,
    currency,
  );
  return {
    id: row.id,
    number: journalNumber(row.number),
    kind: row.kind,
    date: row.date,
    narration: row.narration,
    currency,
    lines: await journalLines(ledger, row.seq, currency),
    totalDebit: debit,
    totalCredit: debit,
    reverses: row.reverses_seq === null ? null : await link(ledger, 'seq = ?', row.reverses_seq),
    reversedBy: await link(ledger, 'reverses_seq = ?', row.seq),
    repeat: row.repeat_seq === null ? null : await repeatOf(ledger, row.repeat_seq),
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

export const journalBySeq = async (ledger: Ledger, seq: number): Promise<JournalRow> => (await ledger.stmt('SELECT * FROM journals WHERE seq = ?').get(seq)) as JournalRow;

export interface JournalSummary {
  id: string;
  number: string;
  date: string;
  narration: string;
  /** Its debits (its credits are the same). */
  total: number;
  reverses: string | null;
  reversedBy: JournalLink | null;
  /** Made by a repeat (monthly): the first journal of it. */
  repeatOf: string | null;
}

export interface JournalQuery {
  dateFrom?: string;
  dateTo?: string;
  limit: number;
  offset: number;
}

/** The organization's journals (not the opening entry), newest first. */
export async function listJournals(
  ledger: Ledger,
  orgSeq: number,
  q: JournalQuery,
): Promise<{ data: JournalSummary[]; meta: { totalCount: number; limit: number; offset: number } }> {
  const where = "j.org_seq = ? AND j.kind = 'journal' AND j.date >= ? AND j.date <= ?";
  const params = [orgSeq, q.dateFrom ?? '0001-01-01', q.dateTo ?? '9999-12-31'];
  const total = (await ledger
    .stmt(`SELECT count(*) FROM journals j WHERE ${where}`)
    .pluck()
    .get(...params)) as number;
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  const rows = await ledger.rows<{
    id: string;
    number: string;
    date: string;
    narration: string;
    debit: number;
    reverses: string | null;
    rev_id: string | null;
    rev_number: string | null;
    rev_date: string | null;
    first: string | null;
  }>(
    `SELECT j.id, ${journalNumberSql('j')} AS number, j.date, j.narration,
       (SELECT coalesce(sum(CASE WHEN p.amount_minor > 0 THEN p.amount_minor ELSE 0 END), 0) FROM postings p WHERE p.journal_seq = j.seq) AS debit,
       (SELECT ${journalNumberSql('o')} FROM journals o WHERE o.seq = j.reverses_seq) AS reverses,
       r.id AS rev_id, ${journalNumberSql('r')} AS rev_number, r.date AS rev_date,
       (SELECT ${journalNumberSql('f')} FROM journals f WHERE f.repeat_seq = j.repeat_seq ORDER BY f.date LIMIT 1) AS first
     FROM journals j LEFT JOIN journals r ON r.reverses_seq = j.seq
     WHERE ${where} ORDER BY j.date DESC, j.seq DESC LIMIT ? OFFSET ?`,
    ...params,
    q.limit,
    q.offset,
  );
  const data = rows.map((r) => ({
    id: r.id,
    number: r.number,
    date: r.date,
    narration: r.narration,
    total: fromMinor(r.debit, currency),
    reverses: r.reverses,
    reversedBy: r.rev_id ? { id: r.rev_id, number: r.rev_number!, date: r.rev_date! } : null,
    repeatOf: r.first,
  }));
  return { data, meta: { totalCount: total, limit: q.limit, offset: q.offset } };
}

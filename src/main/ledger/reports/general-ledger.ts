// The general ledger: every posting of one account of the books (a money
// account's rows, a category's lines, the suspense or in-transit lines) over
// a period, oldest first (a money account's rows of one day by amount, as
// its index holds them), with the running balance (debits positive, as
// hledger's register shows it) and the entry's other side. Paged like the
// register: the count and the balance before a page come from the maintained
// totals, so any page costs about the same. A category's ledger may take the
// categories the P&L reports under it and either basis (category-ledger.ts),
// so that a P&L figure opens exactly the postings that add up to it.
import type { AccountRow } from '../accounts/accounts';
import type { Basis } from '../documents/basis';
import { invalid } from '../core/errors';
import { categoriesReader, needsCategoriesReader, type Posting } from './category-ledger';
import { describeTarget, targetOf, type LedgerAccount, type Target } from './ledger-target';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { accountRange, BEGINNING, bookCurrencies, lineRange, type RangeTotals } from '../totals/sums';
import { accountDays, deepPageStart, lineDays } from '../totals/day-walk';
import { dayBefore } from '../../../shared/dates';
import { orgCurrency, PAYABLES_NAME, RECEIVABLES_NAME } from './positions';
import { today } from '../core/clock';
import { otherSides } from './other-side';
import { openingReader } from './opening-ledger';
import { JOURNAL_PREFIX, journalNumberSql } from '../journals/numbers';

/** A journal posting's journal, by number (null for any other posting). */
const JOURNAL_NUMBER = `CASE WHEN j.seq IS NULL THEN NULL ELSE ${journalNumberSql('j')} END`;

export interface LedgerPosting {
  /** The bank row's id; empty for an invoice's or bill's posting (its document says which). */
  transactionId: string;
  /** An issued invoice's, credit note's or bill's posting (issue 29): which document. */
  document?: { id: string; kind: string; number: string };
  /** A manual journal's (or the opening entry's) posting (issue 43): which journal. */
  journal?: { id: string; number: string };
  date: string;
  description: string;
  memo: string | null;
  /** The entry's other side: the category (or "Split: ..."), the money account, the other account of a transfer. */
  other: string;
  /** In a ledger of several categories (withChildren): the one this posting is in. */
  category?: { code: string; name: string };
  /** Debits positive. */
  amount: number;
  debit: number;
  credit: number;
  /** After this posting. */
  balance: number;
}

export interface GeneralLedger {
  account: LedgerAccount;
  currency: string;
  /** A category's: invoices' and bills' lines at their dates (accrual, the books) or their payments' (cash). */
  basis?: Basis;
  from: string;
  to: string;
  /** Before the period (with a money account's opening balance). */
  startingBalance: number;
  endingBalance: number;
  /** The period's postings added up (debits positive): what a P&L figure of the period is, with its sign turned. */
  net: number;
  data: LedgerPosting[];
  meta: { totalCount: number; limit: number; offset: number };
}

export interface LedgerQuery {
  account: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
  /** A category with the categories the P&L reports under it: a parent's subtotal. */
  withChildren?: boolean;
  /** A category's invoices and bills by their dates (accrual, the default: the books) or their payments' (cash). */
  basis?: Basis;
  /** A category's lines in one currency, in it (default: every currency's, in the base currency, as the reports). */
  currency?: string;
}

/** Lines (or postings) in more than one currency: the general ledger of a category is then in the base currency. */
const severalCurrencies = async (ledger: Ledger, orgSeq: number): Promise<boolean> => (await bookCurrencies(ledger, orgSeq)).length > 1;

/** A money account's rows. */
function moneyReader(ledger: Ledger, account: AccountRow) {
  // The page's rows found on the index alone, then read: a deep page skips index entries, not rows. A day's
  // rows in the index's order (by amount), so that no page sorts the period.
  // A deep page starts at the day the account's maintained counts say, not after skipping every row before it.
  const page = `SELECT seq FROM transactions INDEXED BY transactions_account_date WHERE account_seq = ? AND date BETWEEN ? AND ? ORDER BY date, amount_minor, seq LIMIT ? OFFSET ?`;
  return {
    page: async (from: string, to: string, limit: number, offset: number) => {
      const start = await deepPageStart(offset, () => accountDays(ledger, account.org_seq, account.seq, from, to));
      return ledger.rows<Posting>(
        `SELECT 0 AS src, t.seq, 0 AS position, t.id, t.date, t.description, NULL AS memo, t.amount_minor AS minor, t.account_seq FROM (${page}) p JOIN transactions t ON t.seq = p.seq ORDER BY t.date, t.amount_minor, t.seq`,
        account.seq,
        start?.date ?? from,
        to,
        limit,
        start?.skip ?? offset,
      );
    },
    sameDayBefore: async (p: Posting) =>
      (await ledger
        .stmt('SELECT coalesce(sum(amount_minor), 0) FROM transactions WHERE account_seq = ? AND date = ? AND (amount_minor < ? OR (amount_minor = ? AND seq < ?))')
        .pluck()
        .get(account.seq, p.date, p.minor, p.minor, p.seq)) as number,
    range: (from: string, to: string): Promise<RangeTotals> => accountRange(ledger, account.org_seq, account.seq, from, to),
  };
}

/** How a target's postings are read: the page, the same-day postings before one, the range totals. */
async function reader(ledger: Ledger, orgSeq: number, currency: string, t: Target, inBase: boolean) {
  if (t.kind === 'money') return moneyReader(ledger, t.account);
  const [kind, categorySeq, where] =
    t.kind === 'category' ? ['category', t.seq, 'x.org_seq = ? AND x.category_seq = ?'] : ([t.kind, 0, `x.org_seq = ? AND x.kind = '${t.kind}' AND 0 = ?`] as const);
  // In books of several currencies, every currency's lines at their base amounts (issue 30); else one currency's.
  const cur = inBase ? '' : ' AND x.currency = ?';
  const amount = inBase ? 'base_minor' : 'amount_minor';
  const params = inBase ? [orgSeq, categorySeq] : [orgSeq, categorySeq, currency];
  if (t.kind === 'suspense') return suspenseReader(ledger, orgSeq, currency, kind, categorySeq, inBase);
  // The lines of bank rows and the postings of invoices and bills (issue 29), in one order: by date, a day's lines
  // first. Books without documents for the account read the lines alone, in their index's order.
  const posted = (await ledger.stmt(`SELECT 1 FROM postings x WHERE ${where}${cur} LIMIT 1`).get(...params)) !== undefined;
  const lineKeys = `SELECT 0 AS src, x.transaction_seq AS seq, x.position, x.date FROM lines x WHERE ${where}${cur} AND x.date BETWEEN ? AND ?`;
  const keys = posted
    ? `${lineKeys} UNION ALL SELECT 1, x.seq, 0, x.date FROM postings x WHERE ${where}${cur} AND x.date BETWEEN ? AND ? ORDER BY 4, 1, 2, 3 LIMIT ? OFFSET ?`
    : `${lineKeys} ORDER BY x.date, x.transaction_seq, x.position LIMIT ? OFFSET ?`;
  const currencyOrBase = inBase ? null : currency;
  return {
    page: async (from: string, to: string, limit: number, offset: number) => {
      const start = await deepPageStart(offset, () => lineDays(ledger, orgSeq, currencyOrBase, kind, categorySeq, from, to));
      return ledger.rows<Posting>(
        `SELECT k.src, k.seq, k.position, coalesce(t.id, '') AS id, k.date, coalesce(t.description, c.name || ' ' || d.number, j.narration) AS description, coalesce(l.memo, p.memo) AS memo,
           coalesce(l.${amount}, p.${amount}) AS minor, t.account_seq, d.id AS doc_id, d.kind AS doc_kind, d.number AS doc_number, j.id AS jnl_id, ${JOURNAL_NUMBER} AS jnl_number
         FROM (${keys}) k LEFT JOIN lines l ON k.src = 0 AND l.transaction_seq = k.seq AND l.position = k.position LEFT JOIN transactions t ON k.src = 0 AND t.seq = k.seq
         LEFT JOIN postings p ON k.src = 1 AND p.seq = k.seq LEFT JOIN documents d ON d.seq = p.document_seq LEFT JOIN counterparties c ON c.seq = d.contact_seq
         LEFT JOIN journals j ON j.seq = p.journal_seq
         ORDER BY k.date, k.src, k.seq, k.position`,
        ...(posted ? [...params, start?.date ?? from, to] : []),
        ...params,
        start?.date ?? from,
        to,
        limit,
        start?.skip ?? offset,
      );
    },
    sameDayBefore: async (p: Posting) =>
      ((await ledger
        .stmt(
          `SELECT coalesce(sum(x.${amount}), 0) FROM lines x WHERE ${where}${cur} AND x.date = ? AND (? = 1 OR x.transaction_seq < ? OR (x.transaction_seq = ? AND x.position < ?))`,
        )
        .pluck()
        .get(...params, p.date, p.src, p.seq, p.seq, p.position)) as number) +
      (p.src === 0
        ? 0
        : ((await ledger
            .stmt(`SELECT coalesce(sum(x.${amount}), 0) FROM postings x WHERE ${where}${cur} AND x.date = ? AND x.seq < ?`)
            .pluck()
            .get(...params, p.date, p.seq)) as number)),
    range: (from: string, to: string): Promise<RangeTotals> => lineRange(ledger, orgSeq, currencyOrBase, kind, categorySeq, from, to),
  };
}

/** Suspense lines are the uncategorized rows' (one each): paged on the rows' status index, which holds them in date order. */
function suspenseReader(ledger: Ledger, orgSeq: number, currency: string, kind: string, categorySeq: number, inBase: boolean) {
  // Every uncategorized row: in books of several currencies at their base amounts, else in the one currency.
  const amount = inBase ? 'base_minor' : 'amount_minor';
  const keys = `SELECT seq AS transaction_seq, 0 AS position FROM transactions INDEXED BY transactions_org_status_date
    WHERE org_seq = ? AND status = 'uncategorized' AND CAST(? AS TEXT) IS NOT NULL AND date BETWEEN ? AND ? ORDER BY date, seq LIMIT ? OFFSET ?`;
  const currencyOrBase = inBase ? null : currency;
  return {
    page: async (from: string, to: string, limit: number, offset: number) => {
      const start = await deepPageStart(offset, () => lineDays(ledger, orgSeq, currencyOrBase, kind, categorySeq, from, to));
      return ledger.rows<Posting>(
        `SELECT 0 AS src, l.transaction_seq AS seq, l.position, t.id, l.date, t.description, l.memo, l.${amount} AS minor, t.account_seq
         FROM (${keys}) k JOIN lines l ON l.transaction_seq = k.transaction_seq AND l.position = k.position JOIN transactions t ON t.seq = l.transaction_seq
         ORDER BY l.date, l.transaction_seq, l.position`,
        orgSeq,
        currency,
        start?.date ?? from,
        to,
        limit,
        start?.skip ?? offset,
      );
    },
    sameDayBefore: async (p: Posting) =>
      (await ledger
        .stmt(`SELECT -coalesce(sum(${amount}), 0) FROM transactions WHERE org_seq = ? AND status = 'uncategorized' AND CAST(? AS TEXT) IS NOT NULL AND date = ? AND seq < ?`)
        .pluck()
        .get(orgSeq, currency, p.date, p.seq)) as number,
    range: (from: string, to: string): Promise<RangeTotals> => lineRange(ledger, orgSeq, currencyOrBase, kind, categorySeq, from, to),
  };
}

/**
 * A target's reader. A category's several-category ledger, its cash basis (when documents post to it) and its
 * revaluations (in the base currency) are category-ledger.ts's; the rest reads one account's index in order.
 */
async function readerOf(ledger: Ledger, orgSeq: number, target: Target, q: LedgerQuery) {
  const several = !q.currency && (await severalCurrencies(ledger, orgSeq));
  const currency = target.kind === 'money' ? target.account.currency : await orgCurrency(ledger, orgSeq, q.currency);
  if (target.kind !== 'category') {
    const asked = q.withChildren ? 'withChildren' : q.basis === 'cash' ? 'basis' : q.currency ? 'currency' : null;
    if (asked) throw invalid([{ field: asked, message: 'only a category ledger takes it (a money account or the suspense lines have one basis and currency)' }]);
    if (target.kind === 'opening') return { currency, read: openingReader(ledger, orgSeq) };
    return { currency, read: await reader(ledger, orgSeq, currency, target, target.kind !== 'money' && several) };
  }
  const seqs = [target.seq, ...target.under.map((c) => c.seq)];
  const set = { orgSeq, seqs, currency: several ? null : currency, basis: q.basis ?? 'accrual' };
  const wide = await needsCategoriesReader(ledger, set);
  return { currency, read: wide ? categoriesReader(ledger, set) : await reader(ledger, orgSeq, currency, target, several) };
}

/**
 * One snapshot. One account's or category's statements are keyed by organization, target and dates: one plan for
 * any values (a page 0.5 to 1.4 ms sooner on PostgreSQL); with its children (a list of categories) the planner
 * does better per call (measured: 9 ms against 14).
 */
export const generalLedger = (ledger: Ledger, orgSeq: number, q: LedgerQuery): Promise<GeneralLedger> =>
  ledger.snapshot(() => readGeneralLedger(ledger, orgSeq, q), q.withChildren ? undefined : { genericPlans: true });

async function readGeneralLedger(ledger: Ledger, orgSeq: number, q: LedgerQuery): Promise<GeneralLedger> {
  const target = await targetOf(ledger, orgSeq, q.account, q.withChildren);
  const from = q.from ?? BEGINNING;
  const to = q.to ?? today();
  const { currency, read } = await readerOf(ledger, orgSeq, target, q);
  const opening = target.kind === 'money' && (target.account.opening_date ?? BEGINNING) <= to ? target.account.opening_balance_minor : 0;
  const starting = opening + (from > BEGINNING ? (await read.range(BEGINNING, dayBefore(from))).minor : 0);
  const period = await read.range(from, to);
  const postings = await read.page(from, to, q.limit, q.offset);
  const first = postings[0];
  let balance = first ? starting + (first.date > from ? (await read.range(from, dayBefore(first.date))).minor : 0) + (await read.sameDayBefore(first)) : starting;
  const others = await otherSides(
    ledger,
    target.kind === 'money' ? 'money' : 'line',
    postings.filter((p) => p.src === 0),
  );
  // A document's posting: its other side is what the contact owes (or is owed), or, from there, the document; a journal's, the journal.
  const documentSide = (p: Posting) =>
    p.jnl_number
      ? p.jnl_number.startsWith(JOURNAL_PREFIX)
        ? `Journal ${p.jnl_number}`
        : p.jnl_number
      : target.kind === 'receivable' || target.kind === 'payable'
        ? `${p.doc_kind === 'bill' ? 'Bill' : p.doc_kind === 'credit_note' ? 'Credit note' : 'Invoice'} ${p.doc_number}`
        : p.doc_kind === 'bill'
          ? PAYABLES_NAME
          : RECEIVABLES_NAME;
  const money = (minor: number) => fromMinor(minor, currency);
  const categories = new Map(target.kind === 'category' ? [target, ...target.under].map((c) => [c.seq, { code: c.code, name: c.name }]) : []);
  const data = postings.map((p): LedgerPosting => {
    balance += p.minor;
    return {
      transactionId: p.id,
      ...(p.doc_id ? { document: { id: p.doc_id, kind: p.doc_kind!, number: p.doc_number! } } : {}),
      ...(p.jnl_id ? { journal: { id: p.jnl_id, number: p.jnl_number! } } : {}),
      date: p.date,
      description: p.description,
      memo: p.memo,
      other: p.other ?? (p.src === 1 ? documentSide(p) : (others.get(`${p.seq}:${p.position}`) ?? '')),
      ...(categories.size > 1 && p.category_seq !== undefined ? { category: categories.get(p.category_seq) } : {}),
      amount: money(p.minor),
      debit: money(Math.max(p.minor, 0)),
      credit: money(Math.max(-p.minor, 0)),
      balance: money(balance),
    };
  });
  return {
    account: describeTarget(target),
    currency,
    ...(target.kind === 'category' ? { basis: q.basis ?? 'accrual' } : {}),
    from,
    to,
    startingBalance: money(starting),
    endingBalance: money(starting + period.minor),
    net: money(period.minor),
    data,
    meta: { totalCount: period.n, limit: q.limit, offset: q.offset },
  };
}

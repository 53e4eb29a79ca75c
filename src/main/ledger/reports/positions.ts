// The books as the balance sheet, the trial balance and the general ledger
// read them: every account of the double-entry books with its balance
// through a date (debits positive), from the maintained totals only. The
// accounts are the money accounts (their rows and opening balances), the
// categories (their lines), the suspense account (uncategorized rows), the
// transfers in transit, and the opening balances' equity (what each money
// account held when its books here began, with what the opening entry's
// other lines leave over: issue 43).
import { organizationBySeq } from '../access/organizations';
import { accountRows, type AccountRow } from '../accounts/accounts';
import { chartRows, type ChartRow } from '../chart/categories';
import type { Ledger } from '../core/sqlite/open';
import { accountSumsThrough, lineSums, type InCurrency } from '../totals/sums';
import { Valuer } from '../rates/valuer';
import { IN_TRANSIT } from '../transfers/transfers';
import { TAX_CONTROL } from '../tax/lines';
import { isLiability } from '../../../shared/accounts';
import { dayBefore } from '../../../shared/dates';

export type BookClass = 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';

/** What the general ledger is asked for ("account:<id>", "category:<code>") and every report line names. */
export type BookRef = `account:${string}` | `category:${string}` | 'suspense' | 'in-transit' | 'tax-control' | 'opening-balances' | 'receivables' | 'payables';

export const SUSPENSE_NAME = 'Uncategorized (suspense)';
export const OPENING_NAME = 'Opening balances';
export const RECEIVABLES_NAME = 'Accounts receivable';
export const PAYABLES_NAME = 'Accounts payable';
export const CONVERSIONS_NAME = 'Currency conversions';
export const RETAINED_NAME = 'Retained earnings';

export interface Position {
  /** None for a computed figure (retained earnings). */
  ref?: BookRef;
  code?: string;
  name: string;
  class: BookClass;
  /** Debits positive, in minor units. */
  minor: number;
  /** What a line joining two figures is made of (retained earnings: the account and the earlier years' earnings). */
  parts?: Omit<Position, 'class' | 'parts'>[];
}

/** Whether an opening balance is in the books by a date (no date: from the account's first row on). */
const openedBy = (a: AccountRow, date: string) => a.opening_date === null || a.opening_date <= date;

export const categoryRef = (c: Pick<ChartRow, 'code' | 'seq'>): BookRef => (c.code ? `category:${c.code}` : `category:#${c.seq}`);

/**
 * Every account's balance through `to` (from null: since the books began;
 * revenue and expense categories are the ones a range makes sense for).
 * In a currency's own figures, accounts in another currency are left out
 * (their lines are in theirs); in the base currency (null) every account
 * counts at its booked base amounts, an opening balance at its date's rate.
 */
export async function positionsThrough(ledger: Ledger, orgSeq: number, currency: InCurrency, to: string): Promise<Position[]> {
  const out: Position[] = [];
  let openings = 0;
  const sums = new Map<number, number>();
  for (const r of await accountSumsThrough(ledger, orgSeq, to, currency === null)) sums.set(r.account_seq, (sums.get(r.account_seq) ?? 0) + r.minor);
  if (currency === null) for (const r of await revaluedAccounts(ledger, orgSeq, to)) sums.set(r.account_seq, (sums.get(r.account_seq) ?? 0) + r.minor);
  const valuer = currency === null ? new Valuer(ledger, orgSeq) : null;
  for (const a of await accountRows(ledger, orgSeq)) {
    if (currency !== null && a.currency !== currency) continue;
    const opening = !openedBy(a, to) ? 0 : valuer ? await valuer.opening(a, to) : a.opening_balance_minor;
    openings += opening;
    const minor = opening + (sums.get(a.seq) ?? 0);
    if (minor !== 0 || a.closed_at === null) out.push({ ref: `account:${a.id}`, name: a.name, class: isLiability(a.type) ? 'liability' : 'asset', minor });
  }
  const lines = await linePositions(ledger, orgSeq, currency, null, to);
  // The opening entry's lines and open documents leave their difference there too (issue 43): one line.
  const equity = lines.find((p) => p.ref === 'opening-balances');
  if (equity) equity.minor -= openings;
  else if (openings !== 0) out.push({ ref: 'opening-balances', name: OPENING_NAME, class: 'equity', minor: -openings });
  out.push(...lines);
  const converted = currency === null ? 0 : await convertedThrough(ledger, orgSeq, currency, to);
  if (converted !== 0) out.push({ name: CONVERSIONS_NAME, class: 'equity', minor: -converted });
  return out;
}

/**
 * What entries between two currencies left in one of them through a date (issue 43: a EUR invoice paid from the
 * GBP account balances in the base currency, not in each): the money and lines in that currency of the rows that
 * pay a document in another. In that currency's own figures it is equity, "Currency conversions", as hledger's
 * conversion equity; in the base currency it is nothing. Read from the settling lines (few), not the totals.
 */
async function convertedThrough(ledger: Ledger, orgSeq: number, currency: string, to: string): Promise<number> {
  return (await ledger
    .stmt(
      `WITH crossed AS (SELECT DISTINCT l.transaction_seq AS seq FROM lines l INDEXED BY lines_settles JOIN transactions t ON t.seq = l.transaction_seq
         WHERE l.settles_seq IS NOT NULL AND l.org_seq = ? AND l.currency <> t.currency AND l.date <= ?)
       SELECT coalesce((SELECT sum(t.amount_minor) FROM transactions t JOIN crossed c ON c.seq = t.seq WHERE t.currency = ?), 0)
         + coalesce((SELECT sum(l.amount_minor) FROM lines l JOIN crossed c ON c.seq = l.transaction_seq WHERE l.currency = ?), 0)`,
    )
    .pluck()
    .get(orgSeq, to, currency, currency)) as number;
}

/** What unrealized revaluations (rates/revalue.ts) added to money accounts in the base currency through a date. */
const revaluedAccounts = (ledger: Ledger, orgSeq: number, to: string) =>
  ledger.rows<{ account_seq: number; minor: number }>(
    "SELECT account_seq, sum(base_minor) AS minor FROM revaluation_lines WHERE org_seq = ? AND kind = 'money' AND date <= ? GROUP BY account_seq",
    orgSeq,
    to,
  );

/** The lines' accounts (categories, suspense, in transit) over [from, to]. */
export async function linePositions(ledger: Ledger, orgSeq: number, currency: InCurrency, from: string | null, to: string): Promise<Position[]> {
  const chart = new Map((await chartRows(ledger, orgSeq)).map((c) => [c.seq, c]));
  const byRef = new Map<BookRef, Position>();
  const add = (p: Omit<Position, 'minor'> & { ref: BookRef }, minor: number) => {
    const at = byRef.get(p.ref) ?? byRef.set(p.ref, { ...p, minor: 0 }).get(p.ref)!;
    at.minor += minor;
  };
  for (const s of await lineSums(ledger, orgSeq, currency, from, to, false)) {
    if (s.kind === 'suspense') add({ ref: 'suspense', name: SUSPENSE_NAME, class: 'equity' }, s.minor);
    else if (s.kind === 'transfer') add({ ref: 'in-transit', name: IN_TRANSIT, class: 'asset' }, s.minor);
    else if (s.kind === 'tax') add({ ref: 'tax-control', name: TAX_CONTROL, class: 'liability' }, s.minor);
    else if (s.kind === 'receivable') add({ ref: 'receivables', name: RECEIVABLES_NAME, class: 'asset' }, s.minor);
    else if (s.kind === 'payable') add({ ref: 'payables', name: PAYABLES_NAME, class: 'liability' }, s.minor);
    else if (s.kind === 'opening') add({ ref: 'opening-balances', name: OPENING_NAME, class: 'equity' }, s.minor);
    // A manual journal's money rows and its clearing postings cancel, journal by journal (journals/write.ts).
    else if (s.kind === 'journal') continue;
    else {
      const c = chart.get(s.category_seq)!;
      add({ ref: categoryRef(c), ...(c.code ? { code: c.code } : {}), name: c.name, class: c.type }, s.minor);
    }
  }
  return [...byRef.values()];
}

/** The first day of the fiscal year a date falls in (the organization's start, MM-DD). */
export async function fiscalYearOf(ledger: Ledger, orgSeq: number, date: string): Promise<string> {
  const start = (await organizationBySeq(ledger, orgSeq)).fiscalYearStart;
  const thisYear = `${date.slice(0, 4)}-${start}`;
  return thisYear <= date ? thisYear : `${Number(date.slice(0, 4)) - 1}-${start}`;
}

/** The chart's retained earnings account (issue 50), if it names one. */
export const retainedEarningsAccount = async (ledger: Ledger, orgSeq: number): Promise<ChartRow | undefined> =>
  (await chartRows(ledger, orgSeq)).find((c) => c.role === 'retained_earnings');

/**
 * The earnings of the years before `since` (debits positive) put among positions (issue 50): with the retained
 * earnings account's own balance in one line when the chart names one (its parts: the account, which opens its
 * general ledger, and the computed earnings), else a computed "Retained earnings" line of their own.
 */
export async function withRetainedEarnings(ledger: Ledger, orgSeq: number, positions: Position[], before: number, since: string): Promise<Position[]> {
  const account = await retainedEarningsAccount(ledger, orgSeq);
  if (!account) return before === 0 ? positions : [...positions, { name: RETAINED_NAME, class: 'equity', minor: before }];
  const ref = categoryRef(account);
  const own = positions.find((p) => p.ref === ref)?.minor ?? 0;
  const parts = [
    { ref, code: account.code, name: account.name, minor: own },
    { name: `Earnings before ${since}`, minor: before },
  ];
  return [...positions.filter((p) => p.ref !== ref), { code: account.code, name: account.name, class: 'equity', minor: own + before, parts }];
}

/** Revenue and expense lines before a date, net (debits positive): minus the earnings. */
export async function earningsBefore(ledger: Ledger, orgSeq: number, currency: InCurrency, date: string): Promise<number> {
  return (await linePositions(ledger, orgSeq, currency, null, dayBefore(date))).filter((p) => p.class === 'revenue' || p.class === 'expense').reduce((s, p) => s + p.minor, 0);
}

export const orgCurrency = async (ledger: Ledger, orgSeq: number, currency?: string): Promise<string> =>
  (currency ?? (await organizationBySeq(ledger, orgSeq)).currency).toUpperCase();

/** A report's figures (issue 30): a currency named is its own figures; none, every currency's in the base currency. */
export const reportCurrency = async (ledger: Ledger, orgSeq: number, currency?: string): Promise<{ currency: string; sums: InCurrency }> =>
  currency ? { currency: currency.toUpperCase(), sums: currency.toUpperCase() } : { currency: (await organizationBySeq(ledger, orgSeq)).currency, sums: null };

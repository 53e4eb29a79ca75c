// Sums over a date range from the maintained totals (migrations 0006, 0008):
// whole months from the month tables, the partial months at either end from
// the day tables. A balance on any date is then ~a year of month rows plus at
// most a month of day rows, however old the books.
import type { Ledger } from '../core/sqlite/open';

/**
 * An account's rows in a totals table: on PostgreSQL by organization too, the first column of the tables' keys
 * (row-level security checks each row otherwise, and account_day_totals' walk index holds no organization); on
 * SQLite by account alone, which its walk index answers.
 */
const ofAccount = (ledger: Ledger, orgSeq: number, accountSeq: number, alias = ''): { where: string; params: number[] } =>
  ledger.engine === 'postgres'
    ? { where: `${alias}org_seq = ? AND ${alias}account_seq = ?`, params: [orgSeq, accountSeq] }
    : { where: `${alias}account_seq = ?`, params: [accountSeq] };

/** The last day (YYYY-MM-DD) of a month (YYYY-MM). */
export const lastDayOf = (month: string): string => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

const shiftMonth = (month: string, by: number): string => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + by, 1)).toISOString().slice(0, 7);

/**
 * Which figures a report sums (issue 30): a currency's own amounts, or (null) every currency's in the
 * organization's base currency, at the rates they were booked at.
 */
export type InCurrency = string | null;

/** The latest month with a transaction in a currency (null: in any) (YYYY-MM), or null. */
export const latestMonth = async (ledger: Ledger, orgSeq: number, currency: InCurrency): Promise<string | null> =>
  (
    (currency === null
      ? await ledger.stmt('SELECT max(month) AS last FROM line_month_totals WHERE org_seq = ? AND n > 0').get(orgSeq)
      : await ledger.stmt('SELECT max(month) AS last FROM line_month_totals WHERE org_seq = ? AND currency = ? AND n > 0').get(orgSeq, currency)) as { last: string | null }
  ).last;

/** The twelve months ending with the latest month with a transaction (this month on empty books): the default period of the dashboard and the reports. */
export const defaultMonths = async (ledger: Ledger, orgSeq: number, currency: InCurrency): Promise<string[]> =>
  trailingMonths((await latestMonth(ledger, orgSeq, currency)) ?? new Date().toISOString().slice(0, 7));

/** The twelve months ending with `last` (YYYY-MM), oldest first: the default period of the dashboard and the reports. */
export function trailingMonths(last: string, count = 12): string[] {
  return Array.from({ length: count }, (_, i) => shiftMonth(last, i - count + 1));
}

/** The months a period touches, oldest first. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); m = shiftMonth(m, 1)) out.push(m);
  return out;
}

/** A period [from, to] as whole months and the day ranges left at its ends. */
export interface Slices {
  months: [string, string] | null;
  days: [string, string][];
}

export function slicesOf(from: string, to: string): Slices {
  if (from > to) return { months: null, days: [] };
  const first = from.slice(0, 7);
  const last = to.slice(0, 7);
  const wholeFirst = from.endsWith('-01') ? first : shiftMonth(first, 1);
  const wholeLast = to === lastDayOf(last) ? last : shiftMonth(last, -1);
  if (wholeFirst > wholeLast)
    return {
      months: null,
      days:
        first === last
          ? [[from, to]]
          : [
              [from, lastDayOf(first)],
              [`${last}-01`, to],
            ],
    };
  const days: [string, string][] = [];
  if (wholeFirst !== first) days.push([from, lastDayOf(first)]);
  if (wholeLast !== last) days.push([`${last}-01`, to]);
  return { months: [wholeFirst, wholeLast], days };
}

/** Before any book's first day: a range from it is "since the books began". */
export const BEGINNING = '0001-01-01';

/** The currencies an organization's lines (and documents' postings) are in: the one list every base-currency read takes (few). */
export const bookCurrencies = async (ledger: Ledger, orgSeq: number): Promise<string[]> =>
  (await ledger.stmt('SELECT DISTINCT currency FROM line_month_totals WHERE org_seq = ?').pluck().all(orgSeq)) as string[];

/** The sum of an organization's lines of one kind and category (0: none) in a currency, per month or over the whole range. */
export interface LineSum {
  kind: string;
  category_seq: number;
  month: string;
  minor: number;
}

/**
 * The lines' sums over [from, to] (from null: since the books began) in a
 * currency, per kind and category, and per month when asked (else month is
 * the range's last). Debits positive: a category line's amount balances the
 * money line, so an expense's lines are positive and revenue's negative.
 */
export async function lineSums(ledger: Ledger, orgSeq: number, currency: InCurrency, from: string | null, to: string, byMonth = true): Promise<LineSum[]> {
  const { months, days } = slicesOf(from ?? BEGINNING, to);
  const parts: string[] = [];
  const params: unknown[] = [];
  // A currency's own sums, or every currency's base sums (each currency its own index range: a few).
  const currencies = currency === null ? await bookCurrencies(ledger, orgSeq) : [currency];
  const sum = currency === null ? 'sum_base AS sum_minor' : 'sum_minor';
  const which = ` AND currency IN (${currencies.map(() => '?').join(', ') || 'NULL'})`;
  const of = currencies;
  if (months) {
    parts.push(`SELECT kind, category_seq, month, ${sum} FROM line_month_totals WHERE org_seq = ?${which} AND month BETWEEN ? AND ? AND n > 0`);
    params.push(orgSeq, ...of, ...months);
  }
  for (const range of days) {
    parts.push(`SELECT kind, category_seq, substr(date, 1, 7) AS month, ${sum} FROM line_day_totals WHERE org_seq = ?${which} AND date BETWEEN ? AND ? AND n > 0`);
    params.push(orgSeq, ...of, ...range);
  }
  // In the base currency, the unrealized revaluations' lines too (rates/revalue.ts: few, read directly).
  if (currency === null && (months || days.length)) {
    parts.push(
      "SELECT kind, coalesce(category_seq, 0), substr(date, 1, 7) AS month, base_minor AS sum_minor FROM revaluation_lines WHERE org_seq = ? AND kind <> 'money' AND date BETWEEN ? AND ?",
    );
    params.push(orgSeq, from ?? BEGINNING, to);
  }
  if (!parts.length) return [];
  const month = byMonth ? 'month' : `'${to.slice(0, 7)}' AS month`;
  return ledger.rows(
    `SELECT kind, category_seq, ${month}, sum(sum_minor) AS minor FROM (${parts.join(' UNION ALL ')}) AS sub GROUP BY kind, category_seq${byMonth ? ', month' : ''}`,
    ...params,
  );
}

/** Per account, reconciled rows apart: the sum of an organization's rows dated on or before `date` (in the base currency when asked). */
export async function accountSumsThrough(ledger: Ledger, orgSeq: number, date: string, inBase = false): Promise<{ account_seq: number; reconciled: number; minor: number }[]> {
  const month = date.slice(0, 7);
  const sum = inBase ? 'sum_base' : 'sum_minor';
  // PostgreSQL: the totals by organization too (ofAccount); SQLite reads the day totals by account, date (walk index).
  const [m, d] = ledger.engine === 'postgres' ? ['m.org_seq = a.org_seq AND ', 'd.org_seq = a.org_seq AND '] : ['', ''];
  return ledger.rows(
    `SELECT account_seq, reconciled, sum(s) AS minor FROM (
       SELECT m.account_seq, m.reconciled, m.${sum} AS s FROM account_month_totals m JOIN accounts a ON ${m}a.seq = m.account_seq WHERE a.org_seq = ? AND m.month < ?
       UNION ALL
       SELECT d.account_seq, d.reconciled, d.${sum} AS s FROM account_day_totals d JOIN accounts a ON ${d}a.seq = d.account_seq WHERE a.org_seq = ? AND d.date BETWEEN ? AND ?
     ) AS sub GROUP BY account_seq, reconciled`,
    orgSeq,
    month,
    orgSeq,
    `${month}-01`,
    date,
  );
}

/** The sum of an account's rows dated before `date` (all statuses), in minor units (of the base currency when asked). */
export async function accountSumBefore(ledger: Ledger, orgSeq: number, accountSeq: number, date: string, inBase = false): Promise<number> {
  const sum = inBase ? 'sum_base' : 'sum_minor';
  const month = date.slice(0, 7);
  const account = ofAccount(ledger, orgSeq, accountSeq);
  const { minor } = (await ledger
    .stmt(
      `SELECT coalesce((SELECT sum(${sum}) FROM account_month_totals WHERE ${account.where} AND month < ?), 0)
            + coalesce((SELECT sum(${sum}) FROM account_day_totals WHERE ${account.where} AND date >= ? AND date < ?), 0) AS minor`,
    )
    .get(...account.params, month, ...account.params, `${month}-01`, date)) as { minor: number };
  return minor;
}

/** An account's rows ever (only the reconciled ones, when asked): their count and sum in minor units. */
export async function accountTotals(ledger: Ledger, accountSeq: number, only: { reconciled?: boolean } = {}): Promise<{ n: number; minor: number }> {
  const sql = 'SELECT coalesce(sum(n), 0) AS n, coalesce(sum(sum_minor), 0) AS minor FROM account_month_totals WHERE account_seq = ?';
  return (only.reconciled ? await ledger.stmt(`${sql} AND reconciled = 1`).get(accountSeq) : await ledger.stmt(sql).get(accountSeq)) as { n: number; minor: number };
}

/** What a general ledger page needs of a range: how many postings and their sum. */
export interface RangeTotals {
  n: number;
  minor: number;
}

/** Counts and sums over [from, to] from a pair of month/day tables (whole months from one, the ends from the other). */
async function rangeTotals(
  ledger: Ledger,
  tables: { month: string; day: string; where: string; sum?: 'sum_base' },
  params: unknown[],
  from: string,
  to: string,
): Promise<RangeTotals> {
  const { months, days } = slicesOf(from, to);
  const parts: string[] = [];
  const all: unknown[] = [];
  const sum = tables.sum ? `${tables.sum} AS sum_minor` : 'sum_minor';
  if (months) {
    parts.push(`SELECT n, ${sum} FROM ${tables.month} WHERE ${tables.where} AND month BETWEEN ? AND ?`);
    all.push(...params, ...months);
  }
  for (const range of days) {
    parts.push(`SELECT n, ${sum} FROM ${tables.day} WHERE ${tables.where} AND date BETWEEN ? AND ?`);
    all.push(...params, ...range);
  }
  if (!parts.length) return { n: 0, minor: 0 };
  return (await ledger.stmt(`SELECT coalesce(sum(n), 0) AS n, coalesce(sum(sum_minor), 0) AS minor FROM (${parts.join(' UNION ALL ')}) AS sub`).get(...all)) as RangeTotals;
}

/** An account's rows over [from, to]. */
export const accountRange = (ledger: Ledger, orgSeq: number, accountSeq: number, from: string, to: string): Promise<RangeTotals> => {
  const account = ofAccount(ledger, orgSeq, accountSeq);
  return rangeTotals(ledger, { month: 'account_month_totals', day: 'account_day_totals', where: account.where }, account.params, from, to);
};

/** An organization's lines of one kind and category (0: none) in a currency (null: every currency's, in the base one) over [from, to]. */
export const lineRange = async (ledger: Ledger, orgSeq: number, currency: InCurrency, kind: string, categorySeq: number, from: string, to: string): Promise<RangeTotals> =>
  currency === null
    ? await rangeTotals(
        ledger,
        { month: 'line_month_totals', day: 'line_day_totals', where: 'org_seq = ? AND kind = ? AND category_seq = ?', sum: 'sum_base' },
        [orgSeq, kind, categorySeq],
        from,
        to,
      )
    : await rangeTotals(
        ledger,
        { month: 'line_month_totals', day: 'line_day_totals', where: 'org_seq = ? AND currency = ? AND kind = ? AND category_seq = ?' },
        [orgSeq, currency, kind, categorySeq],
        from,
        to,
      );

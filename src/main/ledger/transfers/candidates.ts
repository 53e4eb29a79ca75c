// Which rows may be the two sides of one transfer between the organization's
// own money accounts. A pair is: two different accounts, one currency, amounts
// exactly opposite (not zero), dates at most TRANSFER_WINDOW_DAYS apart, each
// side open (uncategorized, or a transfer in transit whose other account is
// the other side's). The sides are read once for a date range and paired in
// memory by amount: no index on amounts is needed, and a page, an import or
// the whole backlog costs one scan of the open rows in its dates.
import { anyOf } from '../core/dialect';
import type { Ledger } from '../core/sqlite/open';

/**
 * Days apart the two sides' dates may be: a transfer posts on both sides within
 * one to three business days (ACH, SEPA, a card payment), and a weekend or a
 * bank holiday adds two; five days covers those without pairing unrelated rows
 * of the same amount weeks apart.
 */
export const TRANSFER_WINDOW_DAYS = 5;

/** A row that may be one side of a transfer: what pairing needs (an import may read half a million of them). */
export interface Side {
  seq: number;
  account_seq: number;
  date: string;
  amount_minor: number;
  currency: string;
  /** In transit: the account its person said the money went to (null: uncategorized). */
  to_account: number | null;
}

/** A side as shown and matched: with its row's id and description, read only for the sides that pair. */
export interface ShownSide extends Side {
  id: string;
  description: string;
}

export async function shownSide(ledger: Ledger, side: Side): Promise<ShownSide> {
  const row = (await ledger.stmt('SELECT id, description FROM transactions WHERE seq = ?').get(side.seq)) as { id: string; description: string };
  return { ...side, id: row.id, description: row.description };
}

const DAY_MS = 86_400_000;
export const daysApart = (a: string, b: string): number => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;

const SIDE = 't.seq, t.account_seq, t.date, t.amount_minor, t.currency';

const IN_TRANSIT_SIDES = `SELECT ${SIDE}, l.account_seq AS to_account FROM lines l JOIN transactions t ON t.seq = l.transaction_seq
   WHERE l.org_seq = ? AND l.kind = 'transfer' AND l.counterpart_seq IS NULL AND l.date BETWEEN ? AND ?`;

const OPEN_SIDES = `SELECT ${SIDE}, NULL AS to_account FROM transactions t WHERE t.org_seq = ? AND t.status = 'uncategorized' AND t.date BETWEEN ? AND ?
   UNION ALL ${IN_TRANSIT_SIDES}`;

// Only rows of these amounts (a list; an in-transit line's amount is the row's negated): found on the accounts'
// (account, date, amount) index, whose entries say the amount without reading the row; only the rows of a
// fitting amount are read (for their status).
const uncategorizedOfAmounts = (ledger: Ledger) => `SELECT ${SIDE}, NULL AS to_account FROM transactions t INDEXED BY transactions_account_date
   WHERE t.account_seq IN (SELECT seq FROM accounts WHERE org_seq = ?) AND t.date BETWEEN ? AND ?
     AND t.amount_minor ${anyOf(ledger)} AND t.status = 'uncategorized'`;
const inTransitOfAmounts = (ledger: Ledger) => `${IN_TRANSIT_SIDES} AND l.amount_minor ${anyOf(ledger)}`;
const openSidesOfAmounts = (ledger: Ledger) => `${uncategorizedOfAmounts(ledger)} UNION ALL ${inTransitOfAmounts(ledger)}`;
// Near a new row: asked of the index entry and its account's currency (a row's currency is its account's) before
// the row is read for its status, so that only the few near ones are read. SQLite asks a function of this
// connection; PostgreSQL cannot call back into JavaScript, so there the rows of fitting amounts are read and the
// window asked of each here.
const UNCATEGORIZED_NEAR = `SELECT ${SIDE}, NULL AS to_account FROM accounts a JOIN transactions t INDEXED BY transactions_account_date ON t.account_seq = a.seq
   WHERE a.org_seq = ? AND t.date BETWEEN ? AND ? AND t.amount_minor IN (SELECT value FROM json_each(?))
     AND ldk_side_near(a.currency, t.amount_minor, t.date) AND t.status = 'uncategorized'`;
const OPEN_SIDES_NEAR = `${UNCATEGORIZED_NEAR} UNION ALL ${IN_TRANSIT_SIDES} AND l.amount_minor IN (SELECT value FROM json_each(?)) AND ldk_side_near(t.currency, t.amount_minor, t.date)`;

/**
 * The open sides of an organization dated in [from, to]: its uncategorized
 * rows and its transfers in transit; only those of these amounts when given
 * (an import's or a page's opposites): a statement into books of millions
 * reads the rows that can pair with it, not every open one.
 */
export async function openSides(ledger: Ledger, orgSeq: number, from: string, to: string, amounts?: ReadonlySet<number>): Promise<Side[]> {
  if (!amounts) return ledger.rows<Side>(OPEN_SIDES, orgSeq, from, to, orgSeq, from, to);
  return ledger.rows<Side>(openSidesOfAmounts(ledger), ...ofAmounts(orgSeq, from, to, [...amounts]));
}

/** Both halves' parameters (uncategorized rows of these amounts, transfers in transit of their opposites). */
const ofAmounts = (orgSeq: number, from: string, to: string, list: number[]) => [orgSeq, from, to, list, orgSeq, from, to, list.map((a) => -a)];

/**
 * The open sides that may pair with these (an import's new rows): of their
 * opposite amounts, and dated within the window of one of them. The
 * window is checked by SQLite as it reads (a function of this connection), so
 * that of half a million open rows of fitting amounts only the few near a new
 * row become objects. Only a filter: partnersOf still decides each pair.
 */
export async function openSidesNear(ledger: Ledger, orgSeq: number, near: SideDays): Promise<Side[]> {
  const [from, to] = windowAround(near.first, near.last);
  const list = near.oppositeAmounts();
  if (ledger.engine === 'postgres') {
    const sides = await openSides(ledger, orgSeq, from, to, new Set(list));
    return sides.filter((s) => near.near(s.currency, s.amount_minor, s.date));
  }
  const ask = (fn: (currency: string, amount: number, date: string) => boolean) =>
    ledger.sqlite.function('ldk_side_near', { directOnly: true }, (currency, amount, date) => (fn(currency as string, amount as number, date as string) ? 1 : 0));
  ask((currency, amount, date) => near.near(currency, amount, date));
  try {
    return await ledger.rows<Side>(OPEN_SIDES_NEAR, ...ofAmounts(orgSeq, from, to, list));
  } finally {
    ask(() => false); // the connection outlives the import: it keeps no hold on its rows' days
  }
}

/** Whether two open sides dated `apart` days apart can be one transfer. */
export function pairs(a: Pick<Side, 'account_seq' | 'amount_minor' | 'currency' | 'to_account'>, b: typeof a, apart: number): boolean {
  return (
    a.account_seq !== b.account_seq &&
    a.currency === b.currency &&
    a.amount_minor !== 0 &&
    a.amount_minor === -b.amount_minor &&
    apart <= TRANSFER_WINDOW_DAYS &&
    (a.to_account === null || a.to_account === b.account_seq) &&
    (b.to_account === null || b.to_account === a.account_seq)
  );
}

const dayCache = new Map<string, number>();
/** Days since 1970 of an ISO date, parsed once per date (an import asks a million times, for a thousand dates). */
function dayNumber(date: string): number {
  let day = dayCache.get(date);
  if (day === undefined) dayCache.set(date, (day = Date.parse(`${date}T00:00:00Z`) / DAY_MS));
  return day;
}

/** The list kept for a currency and amount, made when first asked for. */
function listOf<T>(byCurrency: Map<string, Map<number, T[]>>, currency: string, amount: number): T[] {
  let amounts = byCurrency.get(currency);
  if (!amounts) byCurrency.set(currency, (amounts = new Map()));
  let list = amounts.get(amount);
  if (!list) amounts.set(amount, (list = []));
  return list;
}

/**
 * Sides' days by currency and amount (numbers only: an import's million new rows), to ask whether an open row is
 * near one. Keyed by the amount as a number under its currency: SQLite asks once per open row of a fitting
 * amount (over half a million for a large import), and a string key built per question was a quarter of the time.
 */
export class SideDays {
  private readonly byCurrency = new Map<string, Map<number, number[]>>();
  private sorted = true;
  first = '';
  last = '';

  add(currency: string, amount: number, date: string): void {
    listOf(this.byCurrency, currency, amount).push(dayNumber(date));
    if (!this.first || date < this.first) this.first = date;
    if (date > this.last) this.last = date;
    this.sorted = false;
  }

  /** The amounts that pair with these sides. */
  oppositeAmounts(): number[] {
    return [...new Set([...this.byCurrency.values()].flatMap((amounts) => [...amounts.keys()].map((a) => -a)))];
  }

  private sortOnce(): void {
    if (!this.sorted) for (const amounts of this.byCurrency.values()) for (const days of amounts.values()) days.sort((a, b) => a - b);
    this.sorted = true;
  }

  /** Whether a side of this currency, amount and date has one here of the opposite amount within the window of its date. */
  near(currency: string, amount: number, date: string): boolean {
    this.sortOnce();
    const days = this.byCurrency.get(currency)?.get(-amount);
    if (!days) return false;
    const day = dayNumber(date);
    const lo = firstFrom(days, (d) => d, day - TRANSFER_WINDOW_DAYS);
    return lo < days.length && days[lo] <= day + TRANSFER_WINDOW_DAYS;
  }
}

/**
 * The pool's sides by currency and amount, each amount's in date order, to look up the opposite of a side: only
 * the sides within the window of its date are looked at (an import of a million rows asks a million times).
 */
export class SidePool<S extends Side> {
  /** By currency, then amount (a number key, as SideDays': asked once per new row). */
  private readonly byCurrency = new Map<string, Map<number, { side: S; day: number }[]>>();

  constructor(sides: Iterable<S>) {
    for (const side of sides) {
      listOf(this.byCurrency, side.currency, side.amount_minor).push({ side, day: dayNumber(side.date) });
    }
    for (const amounts of this.byCurrency.values()) for (const list of amounts.values()) list.sort((a, b) => a.day - b.day);
  }

  /** The pool's sides that pair with this one (closest date first). */
  partnersOf(side: Side): S[] {
    const list = this.byCurrency.get(side.currency)?.get(-side.amount_minor);
    if (!list) return [];
    const day = dayNumber(side.date);
    const lo = firstFrom(list, (e) => e.day, day - TRANSFER_WINDOW_DAYS);
    const found: { side: S; apart: number }[] = [];
    for (let k = lo; k < list.length && list[k].day <= day + TRANSFER_WINDOW_DAYS; k++) {
      const apart = Math.abs(list[k].day - day);
      if (list[k].side.seq !== side.seq && pairs(side, list[k].side, apart)) found.push({ side: list[k].side, apart });
    }
    return found.sort((a, b) => a.apart - b.apart || a.side.seq - b.side.seq).map((f) => f.side);
  }
}

/** The first entry of a day-ordered list on or after a day (binary search). */
function firstFrom<T>(list: readonly T[], dayOf: (entry: T) => number, day: number): number {
  let lo = 0;
  for (let hi = list.length; lo < hi;) {
    const mid = (lo + hi) >> 1;
    if (dayOf(list[mid]) < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first and last dates the partners of sides dated in [from, to] can have. */
export function windowAround(from: string, to: string): [string, string] {
  const shift = (d: string, days: number) => new Date(Date.parse(`${d}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
  return [shift(from, -TRANSFER_WINDOW_DAYS), shift(to, TRANSFER_WINDOW_DAYS)];
}

// Which rows may be the two sides of one transfer between the organization's
// own money accounts. A pair is: two different accounts, one currency, amounts
// exactly opposite (not zero), dates at most TRANSFER_WINDOW_DAYS apart, each
// side open (uncategorized, or a transfer in transit whose other account is
// the other side's). The sides are read once for a date range and paired in
// memory by amount: no index on amounts is needed, and a page, an import or
// the whole backlog costs one scan of the open rows in its dates.
import type { Ledger } from '../core/db';

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

export function shownSide(ledger: Ledger, side: Side): ShownSide {
  const row = ledger.stmt('SELECT id, description FROM transactions WHERE seq = ?').get(side.seq) as { id: string; description: string };
  return { ...side, id: row.id, description: row.description };
}

const DAY_MS = 86_400_000;
export const daysApart = (a: string, b: string): number => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;

const SIDE = 't.seq, t.account_seq, t.date, t.amount_minor, t.currency';

const IN_TRANSIT_SIDES = `SELECT ${SIDE}, l.account_seq AS to_account FROM lines l JOIN transactions t ON t.seq = l.transaction_seq
   WHERE l.org_seq = ? AND l.kind = 'transfer' AND l.counterpart_seq IS NULL AND l.date BETWEEN ? AND ?`;

const OPEN_SIDES = `SELECT ${SIDE}, NULL AS to_account FROM transactions t WHERE t.org_seq = ? AND t.status = 'uncategorized' AND t.date BETWEEN ? AND ?
   UNION ALL ${IN_TRANSIT_SIDES}`;

// Only rows of these amounts: found on the accounts' (account, date, amount) index, whose entries say the amount
// without reading the row; only the rows of a fitting amount are read (for their status).
const OPEN_SIDES_OF_AMOUNTS = `SELECT ${SIDE}, NULL AS to_account FROM transactions t INDEXED BY transactions_account_date
   WHERE t.account_seq IN (SELECT seq FROM accounts WHERE org_seq = ?) AND t.date BETWEEN ? AND ?
     AND t.amount_minor IN (SELECT value FROM json_each(?)) AND t.status = 'uncategorized'
   UNION ALL ${IN_TRANSIT_SIDES} AND l.amount_minor IN (SELECT -value FROM json_each(?))`;

/**
 * The open sides of an organization dated in [from, to]: its uncategorized
 * rows and its transfers in transit; only those of these amounts when given
 * (an import's or a page's opposites): a statement into books of millions
 * reads the rows that can pair with it, not every open one.
 */
export function openSides(ledger: Ledger, orgSeq: number, from: string, to: string, amounts?: ReadonlySet<number>): Side[] {
  if (!amounts) return ledger.rows<Side>(OPEN_SIDES, orgSeq, from, to, orgSeq, from, to);
  const list = JSON.stringify([...amounts]);
  return ledger.rows<Side>(OPEN_SIDES_OF_AMOUNTS, orgSeq, from, to, list, orgSeq, from, to, list);
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

/**
 * The pool's sides by currency and amount, each amount's in date order, to look up the opposite of a side: only
 * the sides within the window of its date are looked at (an import of a million rows asks a million times).
 */
export class SidePool<S extends Side> {
  private readonly byAmount = new Map<string, { side: S; day: number }[]>();
  private readonly days = new Map<string, number>();

  constructor(sides: Iterable<S>) {
    for (const side of sides) {
      const key = `${side.currency}|${side.amount_minor}`;
      const entry = { side, day: this.dayOf(side.date) };
      const list = this.byAmount.get(key);
      if (list) list.push(entry);
      else this.byAmount.set(key, [entry]);
    }
    for (const list of this.byAmount.values()) list.sort((a, b) => a.day - b.day);
  }

  /** Days since 1970 of an ISO date, read once per date. */
  private dayOf(date: string): number {
    let day = this.days.get(date);
    if (day === undefined) this.days.set(date, (day = Date.parse(`${date}T00:00:00Z`) / DAY_MS));
    return day;
  }

  /** The pool's sides that pair with this one (closest date first). */
  partnersOf(side: Side): S[] {
    const list = this.byAmount.get(`${side.currency}|${-side.amount_minor}`);
    if (!list) return [];
    const day = this.dayOf(side.date);
    let lo = 0;
    for (let hi = list.length; lo < hi;) {
      const mid = (lo + hi) >> 1;
      if (list[mid].day < day - TRANSFER_WINDOW_DAYS) lo = mid + 1;
      else hi = mid;
    }
    const found: { side: S; apart: number }[] = [];
    for (let k = lo; k < list.length && list[k].day <= day + TRANSFER_WINDOW_DAYS; k++) {
      const apart = Math.abs(list[k].day - day);
      if (list[k].side.seq !== side.seq && pairs(side, list[k].side, apart)) found.push({ side: list[k].side, apart });
    }
    return found.sort((a, b) => a.apart - b.apart || a.side.seq - b.side.seq).map((f) => f.side);
  }
}

/** The first and last dates the partners of sides dated in [from, to] can have. */
export function windowAround(from: string, to: string): [string, string] {
  const shift = (d: string, days: number) => new Date(Date.parse(`${d}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
  return [shift(from, -TRANSFER_WINDOW_DAYS), shift(to, TRANSFER_WINDOW_DAYS)];
}

// A CSV's running Balance column as the statement's stated balances (as OFX's
// LEDGERBAL is): the balance after the chronologically last row is the closing
// balance, the one before the first row the opening. Files list rows newest-
// first or oldest-first, and several rows of one day in either order: within
// a day the rows are put in the order their figures chain in (the balance
// before a row plus its amount is its balance). A column whose figures do not
// chain is said, not used: a wrong closing balance would reconcile to a lie.
import { sumDecimals } from '../../shared/amounts';
import type { StatedBalance } from './types';

export interface BalanceRow {
  line: number;
  date: string; // YYYY-MM-DD
  amount: string;
  /** The balance cell read as decimal text; null when empty or not an amount. */
  balance: string | null;
}

export type StatedBalances = { opening: StatedBalance; closing: StatedBalance } | { disagree: { line: number; message: string } };

const minus = (a: string, b: string) => sumDecimals([a, b.startsWith('-') ? b.slice(1) : b === '0' ? '0' : `-${b}`]);
const same = (a: string, b: string) => sumDecimals([a]) === sumDecimals([b]);

/** The statement's opening and closing balances from its rows, or where the column disagrees with the amounts. Null for no rows. */
export function statedBalances(rows: BalanceRow[]): StatedBalances | null {
  if (rows.length === 0) return null;
  const missing = rows.find((r) => r.balance === null);
  if (missing) return { disagree: { line: missing.line, message: 'has no figure in the balance column' } };
  // Newest-first files are turned around; rows of one day keep the file's order unless their figures say otherwise.
  const ordered = rows[0].date > rows[rows.length - 1].date ? [...rows].reverse() : [...rows];
  const days = new Map<string, BalanceRow[]>();
  for (const r of [...ordered].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))) {
    const day = days.get(r.date);
    if (day) day.push(r);
    else days.set(r.date, [r]);
  }
  let before: string | null = null;
  const chain: BalanceRow[] = [];
  for (const day of days.values()) {
    const chained = chainDay(day, before);
    if ('line' in chained) return { disagree: chained };
    chain.push(...chained);
    before = chained[chained.length - 1].balance;
  }
  const first = chain[0];
  const last = chain[chain.length - 1];
  return { opening: { date: first.date, amount: minus(first.balance!, first.amount) }, closing: { date: last.date, amount: sumDecimals([last.balance!]) } };
}

/**
 * One day's rows in the order their figures chain in, from the balance the day
 * starts at (unknown for the file's first day: the row no other row leads to).
 * Among rows that fit, the file's order decides (a row of zero, a repeated figure).
 */
function chainDay(day: BalanceRow[], start: string | null): BalanceRow[] | { line: number; message: string } {
  const left = [...day];
  const out: BalanceRow[] = [];
  let at = start;
  while (left.length) {
    const i =
      at === null
        ? Math.max(
            0,
            left.findIndex((r) => !left.some((o) => o !== r && same(o.balance!, minus(r.balance!, r.amount)))),
          )
        : left.findIndex((r) => same(minus(r.balance!, r.amount), at!));
    if (i < 0) {
      const r = left[0];
      return {
        line: r.line,
        message: `has a balance that does not follow from the amounts (${at} then ${r.amount} makes ${sumDecimals([at!, r.amount])}; the file says ${r.balance})`,
      };
    }
    const [r] = left.splice(i, 1);
    out.push(r);
    at = r.balance;
  }
  return out;
}

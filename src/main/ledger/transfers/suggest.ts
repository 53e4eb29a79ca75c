// Possible transfers: pairs of open rows (candidates.ts) that may be one
// transfer, shown with both dates (equal amounts days apart are the usual
// wrong pair) for a person to accept with one key or command. Never matched
// on their own: two unrelated rows of opposite amounts (a refund and a
// purchase) can look alike, and a wrong transfer hides an expense. Only a side
// a person already made a transfer to an account is matched by that account's
// statement when it brings the one row that fits (imports/transfers.ts).
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { BEGINNING } from '../totals/sums';
import { daysApart, openSides, shownSide, SidePool, TRANSFER_WINDOW_DAYS, windowAround, type Side } from './candidates';

export interface TransferSide {
  id: string;
  date: string;
  amount: number;
  currency: string;
  description: string;
  account: { id: string; name: string };
  /** Already a transfer in transit (a person said where it went). */
  inTransit: boolean;
}

export interface PossibleTransfer {
  /** The side that left (the negative amount) and the side that arrived. */
  from: TransferSide;
  to: TransferSide;
  daysApart: number;
  /** Each side has no other possible partner. */
  unique: boolean;
}

async function sideView(ledger: Ledger, side: Side, accounts: Map<number, { id: string; name: string }>): Promise<TransferSide> {
  const s = await shownSide(ledger, side);
  return {
    id: s.id,
    date: s.date,
    amount: fromMinor(s.amount_minor, s.currency),
    currency: s.currency,
    description: s.description,
    account: accounts.get(s.account_seq)!,
    inTransit: s.to_account !== null,
  };
}

const accountsOf = async (ledger: Ledger, orgSeq: number) =>
  new Map(
    (await ledger.rows<{ seq: number; id: string; name: string }>('SELECT seq, id, name FROM accounts WHERE org_seq = ?', orgSeq)).map((a) => [a.seq, { id: a.id, name: a.name }]),
  );

/** Every possible transfer among the open rows dated in [from, to], newest first. */
export async function suggestTransfers(
  ledger: Ledger,
  orgSeq: number,
  period: { from?: string; to?: string; limit?: number } = {},
): Promise<{ data: PossibleTransfer[]; totalCount: number }> {
  const sides = await openSides(ledger, orgSeq, period.from ?? BEGINNING, period.to ?? '9999-12-31');
  const pool = new SidePool(sides);
  const partners = new Map(sides.map((s) => [s.seq, pool.partnersOf(s)]));
  const accounts = await accountsOf(ledger, orgSeq);
  const found: PossibleTransfer[] = [];
  for (const s of sides) {
    if (s.amount_minor > 0) continue; // each pair once, from the side the money left
    for (const p of partners.get(s.seq)!) {
      found.push({
        from: await sideView(ledger, s, accounts),
        to: await sideView(ledger, p, accounts),
        daysApart: daysApart(s.date, p.date),
        unique: partners.get(s.seq)!.length === 1 && partners.get(p.seq)!.length === 1,
      });
    }
  }
  found.sort((a, b) => (a.from.date === b.from.date ? (a.from.id < b.from.id ? 1 : -1) : a.from.date < b.from.date ? 1 : -1));
  return { data: found.slice(0, period.limit ?? 100), totalCount: found.length };
}

/** For rows of a page: the best possible other side of each open one (closest date), by the row's seq. */
export async function possibleTransfersFor(
  ledger: Ledger,
  orgSeq: number,
  rows: readonly Pick<Side, 'seq' | 'date' | 'amount_minor'>[],
): Promise<Map<number, TransferSide & { candidates: number }>> {
  const out = new Map<number, TransferSide & { candidates: number }>();
  const accounts = await accountsOf(ledger, orgSeq);
  // Rows far apart are searched apart: a page spanning months reads the days around its rows, not the months between.
  for (const group of nearGroups(rows)) {
    const [from, to] = windowAround(group[0].date, group[group.length - 1].date);
    // The group's rows themselves and their opposites: nothing else can pair with them.
    const amounts = new Set(group.flatMap((r) => [r.amount_minor, -r.amount_minor]));
    const sides = await openSides(ledger, orgSeq, from, to, amounts);
    const pool = new SidePool(sides);
    const bySeq = new Map(sides.map((s) => [s.seq, s]));
    for (const r of group) {
      const side = bySeq.get(r.seq);
      const partners = side ? pool.partnersOf(side) : [];
      if (partners.length) out.set(r.seq, { ...(await sideView(ledger, partners[0], accounts)), candidates: partners.length });
    }
  }
  return out;
}

/** Rows in date order, in groups whose windows overlap (each row within two windows of the one before it). */
function nearGroups<T extends { date: string }>(rows: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (const r of [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))) {
    const last = groups[groups.length - 1];
    if (last && daysApart(last[last.length - 1].date, r.date) <= 2 * TRANSFER_WINDOW_DAYS) last.push(r);
    else groups.push([r]);
  }
  return groups;
}

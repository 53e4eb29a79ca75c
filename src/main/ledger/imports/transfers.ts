// A statement's new rows against the transfers in the books (transfers/):
//
// - A row is matched, not doubled, when the books hold exactly one transfer in
//   transit to this account that it fits (opposite amount, dates at most
//   TRANSFER_WINDOW_DAYS apart) and no other new row fits that transfer: a
//   person already said the money went here.
// - A row that fits an uncategorized row of another account (or several
//   transfers) is a possible transfer: shown in the preview with the other
//   side's date, imported as it is unless the person decides `transfer`, which
//   matches it with the closest one.
//
// Undoing the import puts the other sides' lines back (import_line_changes).
import type { Ledger } from '../core/sqlite/open';
import { openSidesNear, SideDays, SidePool, type Side } from '../transfers/candidates';
import type { LedgerRows } from './statement-rows';

/** What of a plan the transfers look at: the rows, those to import, each section's account and currency, the person's decisions. */
export interface TransferScope {
  rows: LedgerRows;
  toImport: Int32Array;
  sections: readonly { row: { seq: number } | null; currency: string }[];
  decisions?: Record<string, string>;
  /** The closing date: rows of the books on or before it do not change, so they are no one's other side. */
  closedThrough?: string | null;
}

export interface PlannedTransfer {
  /** The row in the books that is (or may be) the other side (its id and description read only where shown or matched: shownSide). */
  with: Side;
  /** matched: written as one transfer; possible: shown, imported as it is unless decided. */
  kind: 'matched' | 'possible';
  /** How many rows of the books it could be. */
  candidates: number;
}

/** Each new row's transfer (by position in the file), as the plan's decisions have it. */
export async function planTransfers(ledger: Ledger, orgSeq: number, scope: TransferScope): Promise<Map<number, PlannedTransfer>> {
  const out = new Map<number, PlannedTransfer>();
  const { rows: L, toImport, sections, decisions } = scope;
  if (toImport.length === 0) return out;
  const wanted = new SideDays();
  for (const i of toImport) wanted.add(sections[L.rows.section[i]].currency, L.amountMinor[i], L.rows.date[i]);
  const closed = scope.closedThrough;
  const pool = new SidePool((await openSidesNear(ledger, orgSeq, wanted)).filter((s) => !closed || s.date > closed));
  // A section whose account the import makes has no seq yet: a stand-in no row of the books has.
  const accountOf = (section: number) => sections[section].row?.seq ?? -1 - section;
  const found = new Map<number, Side[]>();
  const fits = new Map<number, number>(); // transfer in transit -> how many new rows fit it
  for (const i of toImport) {
    const account = accountOf(L.rows.section[i]);
    const side = { seq: -1 - i, account_seq: account, date: L.rows.date[i], amount_minor: L.amountMinor[i], currency: sections[L.rows.section[i]].currency, to_account: null };
    const partners = pool.partnersOf(side);
    if (partners.length === 0) continue;
    found.set(i, partners);
    for (const p of partners) if (p.to_account === account) fits.set(p.seq, (fits.get(p.seq) ?? 0) + 1);
  }
  const taken = new Set<number>();
  for (const [i, partners] of found) {
    const declared = partners.filter((p) => p.to_account !== null);
    const auto = declared.length === 1 && partners.length === 1 && fits.get(declared[0].seq) === 1;
    const asked = decisions?.[String(i)] === 'transfer';
    const other = partners.find((p) => !taken.has(p.seq));
    if ((auto || asked) && other) {
      taken.add(other.seq);
      out.set(i, { with: other, kind: 'matched', candidates: partners.length });
    } else out.set(i, { with: partners[0], kind: 'possible', candidates: partners.length });
  }
  return out;
}

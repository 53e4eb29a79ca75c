// A contact's credit and what of it was applied to later documents (issue
// 29, apply-credit.ts applies it). The credit is what bank rows paid beyond their
// documents (their receivable or payable lines naming no document); an
// application uses some of it from its day on. Whatever changes those rows
// (a payment undone or re-allotted, a row deleted) must leave every applied
// amount covered by the credit there was by its day: checked here.
import type { Ledger } from '../../core/sqlite/open';
import { LedgerError } from '../../core/errors';

export type CreditKind = 'receivable' | 'payable';

/** A contact's credit in one currency, as a customer (receivable) or a vendor (payable). */
export interface CreditRef {
  contact_seq: number;
  kind: CreditKind;
  currency: string;
}

/** A contact's credit rows (positive: credit) and applications (negative), per day. */
const MOVES = `SELECT date, ? * amount_minor AS minor FROM lines INDEXED BY lines_credits
  WHERE contact_seq = ? AND settles_seq IS NULL AND kind = ? AND currency = ?
  UNION ALL SELECT date, -amount_minor FROM credit_applications WHERE contact_seq = ? AND kind = ? AND currency = ?`;

// A customer's credit is a receivable line below zero (money in beyond the invoices); a vendor's, a payable one above.
const movesParams = (c: CreditRef) => [c.kind === 'payable' ? 1 : -1, c.contact_seq, c.kind, c.currency, c.contact_seq, c.kind, c.currency];

/**
 * What of a contact's credit can still be applied on a day: what the rows had left by then, less everything
 * applied (on any day: an application after it draws on the same credit).
 */
export async function availableCredit(ledger: Ledger, c: CreditRef, date: string): Promise<number> {
  return (await ledger
    .stmt(`SELECT coalesce(sum(minor), 0) FROM (${MOVES}) AS sub WHERE minor < 0 OR date <= ?`)
    .pluck()
    .get(...movesParams(c), date)) as number;
}

/** The first day on which more of a contact's credit was applied than it had, or null. */
async function shortfall(ledger: Ledger, c: CreditRef): Promise<string | null> {
  let left = 0;
  const days = await ledger.rows<{ date: string; minor: number }>(`SELECT date, sum(minor) AS minor FROM (${MOVES}) AS sub GROUP BY date ORDER BY date`, ...movesParams(c));
  for (const m of days) {
    left += m.minor;
    if (left < 0) return m.date;
  }
  return null;
}

/** The credits a bank row's lines hold (read before they change). */
export const creditsOnRow = (ledger: Ledger, transactionSeq: number): Promise<CreditRef[]> =>
  ledger.rows<CreditRef>(
    "SELECT DISTINCT contact_seq, kind, currency FROM lines WHERE transaction_seq = ? AND contact_seq IS NOT NULL AND settles_seq IS NULL AND kind IN ('receivable', 'payable')",
    transactionSeq,
  );

/** Refuses a change that took away credit an application uses (the caller's transaction is rolled back). */
export async function assertCreditsCover(ledger: Ledger, credits: readonly CreditRef[]): Promise<void> {
  for (const c of credits) {
    const day = await shortfall(ledger, c);
    if (day === null) continue;
    const used = (await ledger
      .stmt(
        'SELECT d.number FROM credit_applications a JOIN documents d ON d.seq = a.document_seq WHERE a.contact_seq = ? AND a.kind = ? AND a.currency = ? ORDER BY a.date, a.seq',
      )
      .pluck()
      .all(c.contact_seq, c.kind, c.currency)) as string[];
    throw new LedgerError(
      'conflict',
      `This takes away the credit applied to ${used.join(', ')} (short on ${day}): take the credit off ${used.length > 1 ? 'them' : 'it'} first (ledgerdesk ${c.kind === 'payable' ? 'bill' : 'invoice'} unapply-credit <number>).`,
      { documents: used, shortOn: day, currency: c.currency },
    );
  }
}

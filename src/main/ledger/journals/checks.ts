// What may refuse a journal's date (issue 43): the closing date, like any
// write; and, for a journal with taxed lines, a period a filed tax return
// covers, on either basis: a journal counts in the return of its own date
// (it is never paid), so one dated in a filed period would be in no return
// (documents are refused the same way on the accrual basis: docs/tax.md).
import { assertOpen } from '../access/closing';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { lastFiledTo } from '../tax/return';
import type { PostingDraft } from './lines';

export const isTaxed = (postings: readonly PostingDraft[]): boolean => postings.some((p) => p.kind === 'category' && p.taxCodeSeq !== null);

/** Refuses writing these postings on a date the books are closed through, or (taxed) a filed return covers. */
export async function assertDateOpen(ledger: Ledger, orgSeq: number, date: string, postings: readonly PostingDraft[], what: string): Promise<void> {
  await assertOpen(ledger, orgSeq, [date], what);
  if (!isTaxed(postings) || date > (await lastFiledTo(ledger, orgSeq))) return;
  const r = (await ledger.stmt('SELECT id, period_from, period_to FROM tax_returns WHERE org_seq = ? AND period_to >= ? ORDER BY period_to LIMIT 1').get(orgSeq, date)) as {
    id: string;
    period_from: string;
    period_to: string;
  };
  throw new LedgerError(
    'period_locked',
    `A tax return was filed for ${r.period_from} to ${r.period_to}: a journal with taxed lines dated ${date} would be in no return. Date it after ${await lastFiledTo(ledger, orgSeq)}.`,
    { taxReturn: r.id, from: r.period_from, to: r.period_to, date },
  );
}

// The day a void is dated when none is named (issue 50): the document's own
// date while its period is open, so that voiding an August invoice in
// November takes its revenue, tax and debtor out of August, where they were
// booked (as Xero and QuickBooks void in place); else the first open day
// after the closing date or, for a taxed entry on accrual returns, after the
// last filed return (a closed period stays as filed). The command, the desk
// operation and the screen's void dialog (which shows it) all take it here.
import { lockedThrough } from '../access/closing';
import type { Ledger } from '../core/sqlite/open';
import { addDays } from '../../../shared/dates';
import { documentsFiledTo } from '../tax/return';
import { hasTaxedEntry } from './book';
import type { DocumentRow } from './documents';

export interface VoidDate {
  /** The date a void takes when none is named. */
  date: string;
  issueDate: string;
  /** Why it is not the document's own date: the closing date, or the filed return, it falls on or before. */
  closed: { by: 'closing_date' | 'tax_return'; through: string } | null;
}

export async function voidDateOf(ledger: Ledger, doc: DocumentRow): Promise<VoidDate> {
  let closed: VoidDate['closed'] = null;
  const through = await lockedThrough(ledger, doc.org_seq);
  if (through && doc.issue_date <= through) closed = { by: 'closing_date', through };
  // A draft has no entry: only the closing date holds it.
  const filedTo = doc.state === 'issued' && (await hasTaxedEntry(ledger, doc)) ? await documentsFiledTo(ledger, doc.org_seq) : '';
  if (filedTo && doc.issue_date <= filedTo && filedTo > (closed?.through ?? '')) closed = { by: 'tax_return', through: filedTo };
  return { date: closed ? addDays(closed.through, 1) : doc.issue_date, issueDate: doc.issue_date, closed };
}

// Payment reminders failing (issue 55): reminders whose message could not be
// sent (the mail server refused it or the sign-in, or the organization has no
// mail settings), each kept with why until a later pass sends it
// (ledger/mail/reminders.ts). Red when any is failing. Read from the reminder
// records, one per invoice and step: an organization's are few beside its rows,
// and its failing ones fewer.
import { inList } from '../../core/dialect';
import { column, figures, NONE, place, seqsOf } from '../column';

export interface RemindersFigure {
  failing: number;
  /** The latest failure's words. */
  latest: string | null;
}

export const reminders = column<RemindersFigure>({
  id: 'reminders',
  label: 'Reminders failing',
  read: async (ledger, seen) => {
    // Every failing reminder's words, the latest first: as few as the failures waiting.
    const rows = await ledger.rows<{ org_seq: number; failure: string }>(
      `SELECT org_seq, failure FROM reminders_sent WHERE ${inList(ledger, 'org_seq')} AND failure IS NOT NULL ORDER BY org_seq, failed_at DESC, document_seq DESC`,
      seqsOf(seen),
    );
    return figures(seen, rows, (mine) => ({ failing: mine.length, latest: mine[0]?.failure ?? null }));
  },
  cell: (f, org) => ({
    text: f.failing ? `${f.failing} not sent: ${f.latest}` : NONE,
    red: f.failing > 0,
    href: place(org, 'reminders'),
    sort: f.failing || null,
  }),
});

// Payment reminders failing (issue 55): reminders whose message could not be
// sent (the mail server refused it or the sign-in, or the organization has no
// mail settings), each kept with why until a later pass sends it
// (ledger/mail/reminders.ts). Red when any is failing. Read from the reminder
// records, one per invoice and step: an organization's are few beside its rows.
import { column, NONE, place } from '../column';

export interface RemindersFigure {
  failing: number;
  /** The latest failure's words. */
  latest: string | null;
}

export const reminders = column<RemindersFigure>({
  id: 'reminders',
  label: 'Reminders failing',
  read: async (ledger, org) => {
    const latest = (await ledger
      .stmt('SELECT failure FROM reminders_sent WHERE org_seq = ? AND failure IS NOT NULL ORDER BY failed_at DESC, document_seq DESC LIMIT 1')
      .pluck()
      .get(org.seq)) as string | undefined;
    if (latest === undefined) return { failing: 0, latest: null };
    const failing = (await ledger.stmt('SELECT count(*) FROM reminders_sent WHERE org_seq = ? AND failure IS NOT NULL').pluck().get(org.seq)) as number | string;
    return { failing: Number(failing), latest };
  },
  cell: (f, org) => ({
    text: f.failing ? `${f.failing} not sent: ${f.latest}` : NONE,
    red: f.failing > 0,
    href: place(org, 'reminders'),
    sort: f.failing || null,
  }),
});

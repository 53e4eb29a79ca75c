// The daily reminders pass (issue 53): the reminders due on a day (the clock is
// a parameter: the jobs runner passes today, a test moves it, `reminders run
// --as-of` names one), each taken before it is sent so that it goes once
// whatever runs at the same time, sent with the invoice's PDF through the
// organization's server and recorded with its audit entry; one that fails is
// kept with why (the Practice screen shows it) and tried again at the next pass. --dry-run lists what would go and sends nothing.
import type { Actor } from '../ledger/access/audit';
import { organizationBySeq } from '../ledger/access/organizations';
import type { Ledger } from '../ledger/core/storage';
import { documentBySeq } from '../ledger/documents/documents';
import { documentPdf } from '../ledger/documents/pdf/pdf';
import { documentFilling } from '../ledger/mail/compose';
import { recordMessage } from '../ledger/mail/messages';
import { dueReminders, reminderSchedule, reminderFailed, reminderSent, takeReminder, type DueReminder } from '../ledger/mail/reminders';
import { mailServer } from '../ledger/mail/settings';
import { fillTemplate } from '../ledger/mail/templates';
import { deliver, keepingConnections } from './transport';

/** Who the pass's messages and audit entries name: the app itself, not a person. */
export const REMINDERS_ACTOR: Actor = { type: 'human', userId: 'reminders', name: 'Payment reminders (daily pass)', channel: 'desk' };

export interface RemindersRun {
  asOf: string;
  dryRun: boolean;
  /** What is due on the day (with --dry-run: what would go). */
  due: DueReminder[];
  sent: (DueReminder & { messageId: string })[];
  /** Not sent, with why in words: no address, or the mail server's refusal (tried again next pass). */
  notSent: (DueReminder & { reason: string })[];
  /** Taken by another pass running at the same time (another process): it sends them. */
  takenElsewhere: DueReminder[];
}

async function sendOne(ledger: Ledger, orgSeq: number, actor: Actor, r: DueReminder & { to: string }): Promise<string> {
  const step = (await reminderSchedule(ledger, orgSeq)).find((s) => s.days === r.days)!;
  const row = await documentBySeq(ledger, r.documentSeq);
  const values = { ...(await documentFilling(ledger, await organizationBySeq(ledger, orgSeq), row)), daysLate: String(Math.max(0, r.days)) };
  const { subject, body } = fillTemplate(step, values);
  const attachment = `${row.number}.pdf`;
  const sent = await deliver(await mailServer(ledger, orgSeq), {
    to: [r.to],
    subject,
    text: body,
    attachments: [{ filename: attachment, content: await documentPdf(ledger, orgSeq, row), contentType: 'application/pdf' }],
  });
  const { seq } = await recordMessage(ledger, orgSeq, actor, {
    kind: 'reminder',
    document: { seq: row.seq, id: row.id, number: row.number },
    contactSeq: row.contact_seq,
    to: [r.to],
    subject,
    body,
    attachment,
    messageId: sent.messageId,
    serverReply: sent.response,
  });
  await reminderSent(ledger, orgSeq, r, seq);
  return sent.messageId;
}

/** The reminders pass for one organization on one day. */
export async function runReminders(ledger: Ledger, orgSeq: number, options: { asOf: string; dryRun?: boolean; actor?: Actor }): Promise<RemindersRun> {
  // One connection to the mail server for the whole pass (mail/transport.ts).
  return keepingConnections(() =>
    ledger.forOrg(orgSeq, async () => {
      const due = await dueReminders(ledger, orgSeq, options.asOf);
      const run: RemindersRun = { asOf: options.asOf, dryRun: Boolean(options.dryRun), due, sent: [], notSent: [], takenElsewhere: [] };
      if (options.dryRun) return run;
      // One at a time: each is taken, sent and recorded before the next.
      for (const r of due) {
        if (!r.to) {
          run.notSent.push({ ...r, reason: `${r.customer} has no email address` });
          continue;
        }
        if (!(await takeReminder(ledger, orgSeq, r))) {
          run.takenElsewhere.push(r);
          continue;
        }
        try {
          run.sent.push({ ...r, messageId: await sendOne(ledger, orgSeq, options.actor ?? REMINDERS_ACTOR, { ...r, to: r.to }) });
        } catch (error) {
          const reason = (error as Error).message;
          await reminderFailed(ledger, orgSeq, r, reason);
          run.notSent.push({ ...r, reason });
        }
      }
      return run;
    }),
  );
}

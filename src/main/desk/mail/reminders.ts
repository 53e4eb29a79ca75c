// Payment reminders at the desk and as owner commands (issue 53): the schedule
// (`ledgerdesk reminders set --days -3,0,7,14,30`), what goes out on a day
// before it goes and what went (the Reminders screen, `reminders show`), the
// pass run by hand for a day (`reminders run [--as-of DATE] [--dry-run]`), and
// "no reminders" on an invoice or a customer.
import * as z from 'zod';
import { DateString, Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { today } from '../../ledger/core/clock';
import { messagesOfKind } from '../../ledger/mail/messages';
import { dueReminders, reminderSchedule, setNoReminders, setReminderSchedule, stepLabel, type DueReminder } from '../../ledger/mail/reminders';
import { runReminders, type RemindersRun } from '../../mail/reminders';
import { op, Org, orgSeq } from '../operation';
import { KEEPERS, STAFF } from '../roles';
import { Number_ } from '../documents/documents';

const Days = z.coerce.number().int().min(-60).max(365);
const Step = z.strictObject({ days: Days, subject: Line(300).nullable().optional(), body: Prose(10_000).nullable().optional() });

const dueText = (r: DueReminder) => `${r.on}  ${r.number.padEnd(12)} ${r.customer.slice(0, 28).padEnd(28)} ${stepLabel(r.days).padEnd(18)} ${r.to ?? '(no address)'}`;

function runText(r: RemindersRun): string[] {
  if (!r.due.length) return [`No reminder due on ${r.asOf}.`];
  if (r.dryRun) return [`Due on ${r.asOf} (nothing sent):`, ...r.due.map(dueText)];
  return [
    ...r.sent.map((s) => `Sent ${s.number} (${stepLabel(s.days)}) to ${s.to}: ${s.messageId}`),
    ...r.notSent.map((s) => `Not sent ${s.number} (${stepLabel(s.days)}): ${s.reason}`),
    ...r.takenElsewhere.map((s) => `${s.number} (${stepLabel(s.days)}): sent by another pass running at the same time`),
  ];
}

export const reminderOperations = {
  /** The Reminders screen: the schedule, what goes out on the day before it goes, and what went. */
  reminders: op(
    STAFF,
    z.strictObject({ ...Org, asOf: DateString.optional().describe('The day (default today)') }),
    async (ctx, { orgId, asOf }) => {
      const seq = await orgSeq(ctx, orgId);
      const day = asOf ?? today();
      return {
        asOf: day,
        steps: await reminderSchedule(ctx.ledger, seq),
        due: await dueReminders(ctx.ledger, seq, day),
        sent: await messagesOfKind(ctx.ledger, seq, 'reminder', 50),
      };
    },
    {
      name: 'reminders show',
      summary: 'the reminder schedule, what goes out on the day, and the last reminders sent',
      print: (r) => [
        r.steps.length ? `Schedule: ${r.steps.map((s) => stepLabel(s.days)).join(', ')}` : 'No reminder schedule.',
        ...(r.due.length ? [`Due on ${r.asOf}:`, ...r.due.map(dueText)] : [`Nothing due on ${r.asOf}.`]),
        ...r.sent.slice(0, 10).map((m) => `Sent ${m.sentAt.slice(0, 10)} ${m.number ?? ''} to ${m.to.join(', ')}: ${m.subject}`),
      ],
    },
  ),
  setReminders: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      days: z.array(Days).max(10).optional().describe('The steps in days from the due date (-3: three days before; 0: the day; 7: a week late), each with the default wording'),
      steps: z.array(Step).max(10).optional().describe('The steps with their own wording (the screen)'),
    }),
    async (ctx, { orgId, days, steps }) => setReminderSchedule(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, steps ?? (days ?? []).map((d) => ({ days: d }))),
    {
      name: 'reminders set',
      summary: 'the reminder schedule: --days -3,0,7,14,30 (none: no reminders)',
      print: (s) => [s.length ? `Reminders: ${s.map((x) => stepLabel(x.days)).join(', ')}` : 'No reminders.'],
    },
  ),
  runReminders: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      asOf: DateString.optional().describe('The day the pass runs for (default today)'),
      dryRun: z.boolean().optional().describe('List what would go; send nothing'),
    }),
    async (ctx, { orgId, asOf, dryRun }) => runReminders(ctx.ledger, await orgSeq(ctx, orgId), { asOf: asOf ?? today(), dryRun, actor: ctx.reviewer }),
    { name: 'reminders run', summary: 'send the reminders due on a day (the pass the app runs daily)', print: runText, failed: (r) => r.notSent.length > 0 },
  ),
  setNoReminders: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      number: Number_.optional().describe('An invoice'),
      customer: Line(200).trim().min(1).optional().describe('A customer: its name or id'),
      resume: z.boolean().optional().describe('Send reminders again'),
    }),
    async (ctx, { orgId, number, customer, resume }) => {
      const seq = await orgSeq(ctx, orgId);
      if (!number === !customer) throw L.invalid([{ field: number ? 'customer' : 'number', message: 'name an invoice or a customer, one of them' }]);
      const what = number
        ? await L.requireDocument(ctx.ledger, seq, ['invoice'], number).then((d) => ({ table: 'documents' as const, seq: d.seq, id: d.id, label: `Invoice ${d.number}` }))
        : await L.requireContactRow(ctx.ledger, seq, customer!).then((c) => ({ table: 'counterparties' as const, seq: c.seq, id: c.id, label: c.name }));
      await setNoReminders(ctx.ledger, seq, ctx.reviewer, what, !resume);
      return { [number ? 'number' : 'customer']: what.label, reminders: Boolean(resume) };
    },
    {
      name: 'reminders exempt',
      summary: 'no reminders for an invoice (--number) or a customer (--customer); --resume undoes it',
      print: (r) => [`${Object.values(r)[0]}: ${r.reminders ? 'reminders again' : 'no reminders'}`],
    },
  ),
};

// The passes of issue 53 that happen by themselves: repeating invoices made
// when due (each occurrence once, by its record) and sent when so set (each
// once, taken before it goes), and payment reminders sent
// (each once, by its record), both for the day of the runner's clock. Each is
// safe to run as often as the runner likes: the records, not the schedule,
// keep them from happening twice.
import { runReminders } from '../mail/reminders';
import { runAndSendRepeatingInvoices } from '../mail/repeats';
import type { Human } from '../ledger/access/audit';
import { eachOrganization } from './each-organization';
import type { Job } from './job';

const HOUR = 3_600_000;
const REPEAT_ACTOR: Human = { type: 'human', userId: 'ledgerdesk', name: 'Repeating invoices (scheduled)', channel: 'desk' };
const day = (now: Date) => now.toISOString().slice(0, 10);

export const repeatingInvoicesJob: Job = {
  name: 'invoices.repeat',
  every: HOUR,
  run: (ledger, now) => eachOrganization(ledger, async (org) => void (await runAndSendRepeatingInvoices(ledger, org, day(now), REPEAT_ACTOR))),
};

export const remindersJob: Job = {
  name: 'invoices.remind',
  every: HOUR,
  run: (ledger, now) => eachOrganization(ledger, async (org) => void (await runReminders(ledger, org, { asOf: day(now) }))),
};

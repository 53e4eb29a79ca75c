// Payment reminders (issue 53) over a calendar the test moves (the pass takes
// its day as a parameter): a schedule of 3 days before due, the due day and 7
// days late; each reminder sent once, with the invoice's PDF; none after
// payment, none for an invoice or a customer marked "no reminders"; a dry run
// lists and sends nothing; two processes on one database (`ledgerdesk
// reminders run`) running the pass at once send each reminder once.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runReminders, type RemindersRun } from '../src/main/mail/reminders';
import { booksFlags } from './support/books';
import { dueReminders, reminderFailed, takeReminder } from '../src/main/ledger/mail/reminders';
import { deskAs } from './support/desk';
import { mailBooks, mailSettingsFor } from './support/mail-books';
import { type TestSmtp } from './support/smtp';

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
let ctx: DeskContext;
let org: L.Organization;
let smtp: TestSmtp;
let dir: string;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const invoice = async (customer: string, due: string) =>
  (await desk<L.Document>('createInvoice', { customer, date: '2026-04-01', dueDate: due, lines: ['Consulting;1;100.00;4000;S'], issue: true })).number;
const days = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += 86_400_000) out.push(new Date(d).toISOString().slice(0, 10));
  return out;
};
/** The messages the server received about an invoice. */
const receivedFor = (number: string) => smtp.received.filter((m) => m.parsed.subject?.includes(number));

let a: string; // reminded at every step
let paid: string; // paid after its first reminder
let exempt: string; // the invoice marked "no reminders"
let quiet: string; // its customer marked "no reminders"

beforeAll(async () => {
  ({ smtp, dir, org, ctx } = await mailBooks());
  await desk('setMailSettings', mailSettingsFor(smtp));
  await desk('addContact', { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example' });
  await desk('addContact', { name: 'Quiet Co', customer: true, email: 'quiet@quiet.example' });
  a = await invoice('Zoë Brontë', '2026-04-15');
  paid = await invoice('Zoë Brontë', '2026-04-15');
  exempt = await invoice('Zoë Brontë', '2026-04-15');
  quiet = await invoice('Quiet Co', '2026-04-15');
  await desk('setNoReminders', { number: exempt });
  await desk('setNoReminders', { customer: 'Quiet Co' });
  await desk('createAccount', { name: 'Current' });
});

describe('the reminders pass over a moving calendar', () => {
  it('sets the schedule, each step with the default wording unless given its own', async () => {
    const steps = await desk('setReminders', { steps: [{ days: 7 }, { days: 0, subject: 'Due today: {number}' }, { days: -3 }] });
    expect(steps.map((s: { days: number }) => s.days)).toEqual([-3, 0, 7]);
    expect(steps[1].subject).toBe('Due today: {number}');
    expect(steps[0].body).toContain('is due on {dueDate}');
  });

  it('lists what goes out on a day before it goes, and a dry run sends nothing', async () => {
    const shown = await desk('reminders', { asOf: '2026-04-12' });
    expect(shown.due.map((r: { number: string; days: number }) => [r.number, r.days])).toEqual([
      [a, -3],
      [paid, -3],
    ]);
    const dry = await runReminders(ctx.ledger, org.seq, { asOf: '2026-04-12', dryRun: true });
    expect(dry.due).toHaveLength(2);
    expect(dry.sent).toEqual([]);
    expect(smtp.received).toHaveLength(0);
  });

  it('sends each reminder once, on its day, never after payment nor to what is marked "no reminders"', async () => {
    for (const day of days('2026-04-10', '2026-04-30')) {
      const run = await runReminders(ctx.ledger, org.seq, { asOf: day });
      expect(run.notSent).toEqual([]);
      // The same day again: nothing more.
      expect((await runReminders(ctx.ledger, org.seq, { asOf: day })).sent).toEqual([]);
      if (day === '2026-04-12') {
        const total = (await desk<L.Document>('showInvoice', { number: paid })).total;
        const row = await desk<{ id: string }>('addTransaction', { account: 'Current', date: '2026-04-13', amount: total.toFixed(2), description: 'BRONTE PAYMENT' });
        await desk('payInvoice', { numbers: [paid], transactionId: row.id });
      }
    }
    expect(receivedFor(a).map((m) => m.parsed.subject)).toEqual([`Reminder: invoice ${a} from Łódź Sp. z o.o.`, `Due today: ${a}`, `Overdue: invoice ${a} from Łódź Sp. z o.o.`]);
    expect(receivedFor(a)[2].parsed.text).toContain(`was due on 2026-04-15 and is 7 days late`);
    expect(receivedFor(a)[2].parsed.attachments[0].filename).toBe(`${a}.pdf`);
    expect(receivedFor(paid)).toHaveLength(1);
    expect(receivedFor(exempt)).toEqual([]);
    expect(receivedFor(quiet)).toEqual([]);
    const shown = await desk('reminders', { asOf: '2026-04-30' });
    expect(shown.due).toEqual([]);
    expect(shown.sent).toHaveLength(4);
    const onA = await desk('documentMessages', { number: a });
    expect(onA.map((m: { kind: string }) => m.kind)).toEqual(['reminder', 'reminder', 'reminder']);
    expect(onA[0].sentBy.name).toBe('Payment reminders (daily pass)');
  });

  it('takes each reminder once: of two passes that both found it due, the second to take it is refused', async () => {
    const number = await invoice('Zoë Brontë', '2026-06-20');
    const [due] = await ctx.ledger.forOrg(org.seq, () => dueReminders(ctx.ledger, org.seq, '2026-06-17'));
    expect(due).toMatchObject({ number, days: -3 });
    const takes = [];
    for (let i = 0; i < 2; i++) takes.push(await ctx.ledger.forOrg(org.seq, () => takeReminder(ctx.ledger, org.seq, due)));
    expect(takes).toEqual([true, false]);
    // Its message failed: kept with why, due again, and taken again by one pass alone.
    await ctx.ledger.forOrg(org.seq, () => reminderFailed(ctx.ledger, org.seq, due, 'The mail server refused the sign-in.'));
    expect(await ctx.ledger.forOrg(org.seq, () => dueReminders(ctx.ledger, org.seq, '2026-06-17'))).toEqual([due]);
    const again = [];
    for (let i = 0; i < 2; i++) again.push(await ctx.ledger.forOrg(org.seq, () => takeReminder(ctx.ledger, org.seq, due)));
    expect(again).toEqual([true, false]);
    await ctx.ledger.forOrg(org.seq, () => reminderFailed(ctx.ledger, org.seq, due, 'The mail server refused the sign-in.'));
  });

  it('sends once when two processes on one database run the pass at the same time', async () => {
    const both = await invoice('Zoë Brontë', '2026-05-20');
    const run = () =>
      new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'reminders', 'run', '--as-of', '2026-05-17', '--org', 'lodz', '--json', ...booksFlags(dir)], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let [out, err] = ['', ''];
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (err += c.toString()));
        child.on('close', (status) => resolve({ status, out, err }));
      });
    const runs = await Promise.all([run(), run()]);
    expect(
      runs.map((r) => r.status),
      runs.map((r) => r.out + r.err).join('\n'),
    ).toEqual([0, 0]);
    const answers = runs.map((r) => JSON.parse(r.out) as RemindersRun);
    expect(answers.flatMap((r) => r.sent).map((r) => r.number)).toEqual([both]);
    expect(receivedFor(both)).toHaveLength(1);
    expect(await desk('documentMessages', { number: both })).toHaveLength(1);
  });
});

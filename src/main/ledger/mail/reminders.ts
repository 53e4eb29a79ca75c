// Payment reminders (issue 53): an organization's schedule of steps, each a
// number of days from an invoice's due date (-3: three days before; 0: on the
// day; 7: a week late) with its own wording; which reminders are due on a day;
// and the record of each taken, one per invoice and step. The record is taken
// (inserted, its key unique) before the message goes, so two processes running
// the pass at once never both send it: the second's insert changes nothing. A
// reminder whose message failed keeps its record with why (the Practice
// screen's "reminders failing"), and is due, and taken, again.
import { appendAudit, type Human } from '../access/audit';
import { nowIso } from '../core/clock';
import { invalid } from '../core/errors';
import type { Ledger } from '../core/storage';
import { defaultReminder, type MailTemplate } from './templates';

export interface ReminderStep extends MailTemplate {
  /** Days from the due date: negative before it, 0 on it, positive after. */
  days: number;
}

/** A reminder due on a day: the invoice, the step, and where it goes (none: it is listed, not sent). */
export interface DueReminder {
  documentSeq: number;
  number: string;
  customer: string;
  to: string | null;
  dueDate: string;
  days: number;
  /** The day the step falls on. */
  on: string;
}

const MAX_STEPS = 10;

export const stepLabel = (days: number): string => (days < 0 ? `${-days} days before due` : days === 0 ? 'on the due day' : `${days} days late`);

export async function reminderSchedule(ledger: Ledger, orgSeq: number): Promise<ReminderStep[]> {
  const rows = await ledger.rows<ReminderStep>('SELECT days, subject, body FROM reminder_steps WHERE org_seq = ? ORDER BY days', orgSeq);
  return rows.map((r) => ({ ...r, days: Number(r.days) }));
}

/** Replaces the schedule (an empty one: no reminders), each step's wording its own or the default, audited. */
export async function setReminderSchedule(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  steps: { days: number; subject?: string | null; body?: string | null }[],
): Promise<ReminderStep[]> {
  const issues = [
    steps.length > MAX_STEPS && { field: 'steps', message: `at most ${MAX_STEPS} steps` },
    ...steps.map((s, i) => !(Number.isInteger(s.days) && s.days >= -60 && s.days <= 365) && { field: `steps[${i}].days`, message: 'is a whole number of days, -60 to 365' }),
    ...steps.map((s, i) => steps.findIndex((o) => o.days === s.days) !== i && { field: `steps[${i}].days`, message: `${s.days} is given twice` }),
  ].filter((x): x is { field: string; message: string } => Boolean(x));
  if (issues.length) throw invalid(issues);
  return ledger.write(async () => {
    await ledger.stmt('DELETE FROM reminder_steps WHERE org_seq = ?').run(orgSeq);
    for (const s of [...steps].sort((a, b) => a.days - b.days)) {
      const wording = defaultReminder(s.days);
      await ledger
        .stmt('INSERT INTO reminder_steps (org_seq, days, subject, body) VALUES (?, ?, ?, ?)')
        .run(orgSeq, s.days, s.subject?.trim() || wording.subject, s.body?.trim() ? s.body : wording.body);
    }
    await appendAudit(ledger, orgSeq, actor, {
      action: 'reminders.schedule',
      targetType: 'organization',
      targetId: String(orgSeq),
      summary: steps.length
        ? `Reminders: ${[...steps]
            .sort((a, b) => a.days - b.days)
            .map((s) => stepLabel(s.days))
            .join(', ')}`
        : 'No reminders',
    });
    return reminderSchedule(ledger, orgSeq);
  });
}

const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface OpenInvoice {
  seq: number;
  number: string;
  due_date: string;
  issue_date: string;
  customer: string;
  email: string | null;
}

/**
 * The reminders due on a day: for each invoice still owed (issued, not paid, credited in full or void), neither it
 * nor its customer marked "no reminders", the latest step whose day has come (on or after its issue date), unless
 * that step was taken already. Steps an earlier closed app missed are not sent late one by one: the latest stands
 * for them.
 */
export async function dueReminders(ledger: Ledger, orgSeq: number, asOf: string): Promise<DueReminder[]> {
  const steps = (await reminderSchedule(ledger, orgSeq)).map((s) => s.days).sort((a, b) => b - a);
  if (!steps.length) return [];
  const open = await ledger.rows<OpenInvoice>(
    `SELECT d.seq, d.number, d.due_date, d.issue_date, c.name AS customer, c.email FROM documents d JOIN counterparties c ON c.seq = d.contact_seq
     WHERE d.org_seq = ? AND d.kind = 'invoice' AND d.state = 'issued' AND d.settled_minor < d.total_minor
       AND d.no_reminders = 0 AND c.no_reminders = 0 AND d.due_date >= ? AND d.issue_date <= ?
     ORDER BY d.due_date, d.seq`,
    orgSeq,
    addDays(asOf, -Math.max(...steps)),
    asOf,
  );
  const taken = new Set(
    (await ledger.rows<{ document_seq: number; days: number }>('SELECT document_seq, days FROM reminders_sent WHERE org_seq = ? AND failure IS NULL', orgSeq)).map(
      (r) => `${r.document_seq}:${r.days}`,
    ),
  );
  return open.flatMap((d) => {
    const days = steps.find((s) => addDays(d.due_date, s) <= asOf && addDays(d.due_date, s) >= d.issue_date);
    if (days === undefined || taken.has(`${d.seq}:${days}`)) return [];
    return [{ documentSeq: Number(d.seq), number: d.number, customer: d.customer, to: d.email, dueDate: d.due_date, days, on: addDays(d.due_date, days) }];
  });
}

/**
 * Takes a reminder before it is sent: true for the one process whose insert made the record, or whose update took
 * back one that had failed (its failure cleared).
 */
export async function takeReminder(ledger: Ledger, orgSeq: number, r: Pick<DueReminder, 'documentSeq' | 'days'>): Promise<boolean> {
  return ledger.write(
    async () =>
      (
        await ledger
          .stmt(
            `INSERT INTO reminders_sent (org_seq, document_seq, days, taken_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (org_seq, document_seq, days) DO UPDATE SET taken_at = excluded.taken_at, failure = NULL, failed_at = NULL
             WHERE reminders_sent.failure IS NOT NULL`,
          )
          .run(orgSeq, r.documentSeq, r.days, nowIso())
      ).changes === 1,
  );
}

/** A taken reminder's message, once the server accepted it. */
export async function reminderSent(ledger: Ledger, orgSeq: number, r: Pick<DueReminder, 'documentSeq' | 'days'>, messageSeq: number): Promise<void> {
  await ledger.write(() =>
    ledger.stmt('UPDATE reminders_sent SET message_seq = ? WHERE org_seq = ? AND document_seq = ? AND days = ?').run(messageSeq, orgSeq, r.documentSeq, r.days),
  );
}

/** A taken reminder whose message failed: kept with why (the Practice screen shows it), and due again at the next pass. */
export async function reminderFailed(ledger: Ledger, orgSeq: number, r: Pick<DueReminder, 'documentSeq' | 'days'>, reason: string): Promise<void> {
  await ledger.write(() =>
    ledger
      .stmt('UPDATE reminders_sent SET failure = ?, failed_at = ? WHERE org_seq = ? AND document_seq = ? AND days = ? AND message_seq IS NULL')
      .run(reason.slice(0, 500), nowIso(), orgSeq, r.documentSeq, r.days),
  );
}

/** Marks an invoice, or a customer, "no reminders" (or not again), audited. */
export async function setNoReminders(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  what: { table: 'documents' | 'counterparties'; seq: number; id: string; label: string },
  off: boolean,
): Promise<void> {
  await ledger.write(async () => {
    await ledger.stmt(`UPDATE ${what.table} SET no_reminders = ? WHERE org_seq = ? AND seq = ?`).run(off ? 1 : 0, orgSeq, what.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'reminders.exempt',
      targetType: what.table === 'documents' ? 'document' : 'contact',
      targetId: what.id,
      summary: `${what.label}: ${off ? 'no reminders' : 'reminders again'}`,
    });
  });
}

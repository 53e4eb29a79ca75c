// Repeating invoices (issue 53): a template with a customer, lines, a currency,
// a schedule (shared/schedule.ts) and what to do when due (a draft, issue it,
// or issue it and flag it to send). Its lines are checked when it is saved, as
// an invoice of its customer on its start date, and kept as the command's lines
// (codes; a line without a tax code takes the default when each invoice is
// made). Paused: nothing is made; resumed on a day: what fell due while paused
// is not made. Deleted: the template and its record of occurrences go; the
// invoices it made stay. Every change is audited.
import { appendAudit, type Human } from '../../access/audit';
import { newId, nowIso } from '../../core/clock';
import type { Ledger } from '../../core/sqlite/open';
import { invalid, LedgerError, type FieldIssue } from '../../core/errors';
import { fromMinor } from '../../core/money';
import { mapInOrder } from '../../core/in-order';
import { addDays, isCalendarDate } from '../../../../shared/dates';
import { nextDates, scheduleText, type Schedule } from '../../../../shared/schedule';
import type { RepeatAction, RepeatSending, RepeatUnit } from '../../../../../db/values';
import { requireCurrency } from '../../rates/currencies';
import { contactFor, workLines, type DocumentLineInput } from '../draft';
import { lookups } from '../lookups';
import { statusOf, type DocumentStatus } from '../documents';

export interface RepeatInput {
  /** What the person calls it (default: the customer's name). */
  name?: string;
  customer: string;
  currency?: string;
  taxInclusive?: boolean;
  termsDays?: number;
  notes?: string | null;
  lines: DocumentLineInput[];
  schedule: Schedule;
  action: RepeatAction;
}

export interface RepeatRow {
  seq: number;
  id: string;
  org_seq: number;
  name: string;
  contact_seq: number;
  currency: string;
  tax_inclusive: number;
  lines: string;
  terms_days: number | null;
  notes: string | null;
  unit: RepeatUnit;
  every: number;
  month_day: number | null;
  month_end: number;
  start_date: string;
  end_count: number | null;
  end_date: string | null;
  action: RepeatAction;
  paused_at: string | null;
  resumed_on: string | null;
  created_at: string;
  created_by: string;
}

/** One occurrence as listed: the invoice it made (or why none), whether it was late and its sending. */
export interface Occurrence {
  date: string;
  madeOn: string;
  invoice: string | null;
  status: DocumentStatus | null;
  late: boolean;
  sending: RepeatSending | null;
  failure: string | null;
}

export interface RepeatingInvoice {
  id: string;
  name: string;
  customer: { id: string; name: string };
  currency: string;
  taxInclusive: boolean;
  termsDays: number | null;
  notes: string | null;
  lines: DocumentLineInput[];
  schedule: Schedule;
  /** "monthly on the 31st (the last day of shorter months) from 2026-01-31" */
  scheduleText: string;
  action: RepeatAction;
  paused: boolean;
  /** The next three dates from the day asked about (none when it ended). */
  nextDates: string[];
  occurrences: Occurrence[];
}

export const scheduleOf = (r: RepeatRow): Schedule => ({
  unit: r.unit,
  every: r.every,
  monthDay: r.month_day,
  monthEnd: r.month_end === 1,
  start: r.start_date,
  endCount: r.end_count,
  endDate: r.end_date,
});

/** The schedule checked, each bad field named (schedule.every...). */
export function checkSchedule(s: Schedule): Schedule {
  const issues: FieldIssue[] = [];
  const at = (f: string, message: string) => issues.push({ field: `schedule.${f}`, message });
  if (s.unit !== 'week' && s.unit !== 'month') at('unit', 'is week or month');
  if (!Number.isInteger(s.every) || s.every < 1 || s.every > (s.unit === 'week' ? 52 : 24)) at('every', `is a whole number from 1 to ${s.unit === 'week' ? 52 : 24}`);
  if (!isCalendarDate(s.start)) at('start', 'is a date, YYYY-MM-DD');
  if (s.unit === 'week' && (s.monthDay != null || s.monthEnd)) at('monthDay', 'is for monthly schedules');
  if (s.monthDay != null && (!Number.isInteger(s.monthDay) || s.monthDay < 1 || s.monthDay > 31)) at('monthDay', 'is a day of the month, 1 to 31');
  if (s.monthDay != null && s.monthEnd) at('monthEnd', 'is instead of a day of the month: one or the other');
  if (s.endCount != null && (!Number.isInteger(s.endCount) || s.endCount < 1 || s.endCount > 1000)) at('endCount', 'is a whole number from 1 to 1000');
  if (s.endDate != null && (!isCalendarDate(s.endDate) || s.endDate < s.start)) at('endDate', `is a date on or after the start ${s.start}`);
  if (s.endCount != null && s.endDate != null) at('endDate', 'is instead of endCount: one or the other');
  if (issues.length) throw invalid(issues);
  return { unit: s.unit, every: s.every, monthDay: s.monthDay ?? null, monthEnd: !!s.monthEnd, start: s.start, endCount: s.endCount ?? null, endDate: s.endDate ?? null };
}

export const repeatAudit = (ledger: Ledger, r: Pick<RepeatRow, 'org_seq' | 'id'>, actor: Human, verb: string, summary: string) =>
  appendAudit(ledger, r.org_seq, actor, { action: `invoice_repeat.${verb}`, targetType: 'invoice_repeat', targetId: r.id, summary });

/** Saves a repeating invoice: its lines checked as its customer's invoice on the start date. */
export async function createRepeatingInvoice(ledger: Ledger, orgSeq: number, actor: Human, input: RepeatInput, on: string): Promise<RepeatingInvoice> {
  return ledger.write(async () => {
    const schedule = checkSchedule(input.schedule);
    const look = await lookups(ledger, orgSeq);
    const contact = await contactFor(look, 'invoice', input.customer);
    const currency = input.currency === undefined ? look.org.currency : requireCurrency(input.currency);
    const worked = await workLines(look, 'invoice', schedule.start, input.taxInclusive ?? false, input.lines, contact, currency);
    // Kept as the command's lines, each price in the currency's decimals (read once, in the organization's mark).
    const lines = input.lines.map((l, i) => ({ ...l, quantity: worked.lines[i].quantityMilli / 1000, unitPrice: fromMinor(worked.lines[i].unitPriceMinor, currency) }));
    const id = newId();
    await ledger
      .stmt(
        `INSERT INTO invoice_repeats (id, org_seq, name, contact_seq, currency, tax_inclusive, lines, terms_days, notes, unit, every, month_day, month_end, start_date, end_count, end_date, action, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .insert(
        id,
        orgSeq,
        input.name?.trim() || contact.name,
        contact.seq,
        currency,
        input.taxInclusive ? 1 : 0,
        JSON.stringify(lines),
        input.termsDays ?? null,
        input.notes?.trim() || null,
        schedule.unit,
        schedule.every,
        schedule.monthDay,
        schedule.monthEnd ? 1 : 0,
        schedule.start,
        schedule.endCount,
        schedule.endDate,
        input.action,
        nowIso(),
        actor.name,
      );
    const row = await requireRepeat(ledger, orgSeq, id);
    await repeatAudit(ledger, row, actor, 'created', `Repeating invoice "${row.name}" for ${contact.name}: ${scheduleText(schedule)}, ${ACTION_TEXT[row.action]}`);
    return toRepeating(ledger, row, on);
  });
}

export const ACTION_TEXT: Record<RepeatAction, string> = { draft: 'a draft each time', issue: 'issued each time', issue_and_send: 'issued and sent each time' };

/** A repeating invoice by its id or its name. */
export async function requireRepeat(ledger: Ledger, orgSeq: number, ref: string): Promise<RepeatRow> {
  const rows = await ledger.rows<RepeatRow>('SELECT * FROM invoice_repeats WHERE org_seq = ? AND (id = ? OR lower(name) = lower(?)) ORDER BY seq', orgSeq, ref, ref.trim());
  if (rows.length === 0) throw new LedgerError('not_found', `No repeating invoice ${ref} in this organization.`, { resource: 'repeating invoice', id: ref });
  if (rows.length > 1) throw new LedgerError('conflict', `More than one repeating invoice is called ${ref}: name it by its id.`, { ids: rows.map((r) => r.id) });
  return rows[0];
}

export async function occurrencesOf(ledger: Ledger, r: RepeatRow): Promise<Occurrence[]> {
  const rows = await ledger.rows<{
    date: string;
    made_on: string;
    late: number;
    sending: RepeatSending | null;
    failure: string | null;
    number: string | null;
    kind: 'invoice' | null;
    state: 'draft' | 'issued' | 'void' | null;
    total_minor: number | null;
    settled_minor: number | null;
  }>(
    `SELECT o.date, o.made_on, o.late, o.sending, o.failure, d.number, d.kind, d.state, d.total_minor, d.settled_minor
     FROM invoice_repeat_occurrences o LEFT JOIN documents d ON d.seq = o.document_seq WHERE o.repeat_seq = ? ORDER BY o.date`,
    r.seq,
  );
  return rows.map((o) => ({
    date: o.date,
    madeOn: o.made_on,
    invoice: o.number,
    status: o.number === null ? null : statusOf({ kind: 'invoice', state: o.state!, total_minor: o.total_minor!, settled_minor: o.settled_minor! }),
    late: o.late === 1,
    sending: o.sending,
    failure: o.failure,
  }));
}

export async function toRepeating(ledger: Ledger, r: RepeatRow, on: string): Promise<RepeatingInvoice> {
  const schedule = scheduleOf(r);
  const customer = (await ledger.stmt('SELECT id, name FROM counterparties WHERE seq = ?').get(r.contact_seq)) as { id: string; name: string };
  const made = await occurrencesOf(ledger, r);
  // The next dates not made yet: from the day asked about, the day it resumed and the day after the last one made.
  const from = [on, r.resumed_on ?? '', made.length ? addDays(made[made.length - 1].date, 1) : ''].sort().at(-1)!;
  return {
    id: r.id,
    name: r.name,
    customer,
    currency: r.currency,
    taxInclusive: r.tax_inclusive === 1,
    termsDays: r.terms_days,
    notes: r.notes,
    lines: JSON.parse(r.lines) as DocumentLineInput[],
    schedule,
    scheduleText: scheduleText(schedule),
    action: r.action,
    paused: r.paused_at !== null,
    nextDates: r.paused_at ? [] : nextDates(schedule, from),
    occurrences: made,
  };
}

export async function listRepeatingInvoices(ledger: Ledger, orgSeq: number, on: string): Promise<RepeatingInvoice[]> {
  const rows = await ledger.rows<RepeatRow>('SELECT * FROM invoice_repeats WHERE org_seq = ? ORDER BY lower(name), seq', orgSeq);
  return mapInOrder(rows, (r) => toRepeating(ledger, r, on));
}

/** Pauses (nothing is made) or resumes on `on` (made from that day: what fell due while paused is not made). */
export async function pauseRepeatingInvoice(ledger: Ledger, orgSeq: number, actor: Human, ref: string, pause: boolean, on: string): Promise<RepeatingInvoice> {
  return ledger.write(async () => {
    const r = await requireRepeat(ledger, orgSeq, ref);
    if (pause === (r.paused_at !== null)) throw new LedgerError('conflict', `Repeating invoice "${r.name}" is ${pause ? 'already paused' : 'not paused'}.`, { id: r.id });
    if (pause) await ledger.stmt('UPDATE invoice_repeats SET paused_at = ? WHERE seq = ?').run(nowIso(), r.seq);
    else await ledger.stmt('UPDATE invoice_repeats SET paused_at = NULL, resumed_on = ? WHERE seq = ?').run(on, r.seq);
    await repeatAudit(ledger, r, actor, pause ? 'paused' : 'resumed', `Repeating invoice "${r.name}" ${pause ? 'paused' : `resumed from ${on}`}`);
    return toRepeating(ledger, await requireRepeat(ledger, orgSeq, r.id), on);
  });
}

/** Deletes a repeating invoice and its record of occurrences; the invoices it made stay (the audit entry names them). */
export async function deleteRepeatingInvoice(ledger: Ledger, orgSeq: number, actor: Human, ref: string): Promise<{ id: string; name: string; invoices: string[] }> {
  return ledger.write(async () => {
    const r = await requireRepeat(ledger, orgSeq, ref);
    const invoices = (await occurrencesOf(ledger, r)).flatMap((o) => (o.invoice ? [o.invoice] : []));
    await ledger.stmt('DELETE FROM invoice_repeat_occurrences WHERE repeat_seq = ?').run(r.seq);
    await ledger.stmt('DELETE FROM invoice_repeats WHERE seq = ?').run(r.seq);
    await repeatAudit(ledger, r, actor, 'deleted', `Repeating invoice "${r.name}" deleted${invoices.length ? `; the invoices it made stay: ${invoices.join(', ')}` : ''}`);
    return { id: r.id, name: r.name, invoices };
  });
}

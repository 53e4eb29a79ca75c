// Repeating invoices at the desk and as owner commands (issue 53): `ledgerdesk
// invoice repeat create|list|show|pause|resume|delete|release` and `invoice
// repeat run [--as-of DATE]`, the pass the app runs by itself, by hand for a
// given day. A bookkeeper and up set schedules (as invoices: a preparer may
// not). The schedule's next three dates come from shared/schedule.ts, as the
// screen shows them; `create --dry-run` shows them before anything is saved.
import { ANYONE, KEEPERS } from '../roles';
import * as z from 'zod';
import { DateString, Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { today } from '../../ledger/core/clock';
import { REPEAT_ACTIONS } from '../../../../db/values';
import { checkSchedule } from '../../ledger/documents/repeats/template';
import { repeatRunText, runAndSendRepeatingInvoices } from '../../mail/repeats';
import { nextDates, scheduleText, type Schedule } from '../../../shared/schedule';
import { op, Org, orgSeq } from '../operation';
import { Lines } from './documents';

const Ref = Line(200).trim().min(1).describe('The repeating invoice: its name or id');

const ScheduleFields = {
  unit: z.enum(['week', 'month']).describe('Weeks or months'),
  every: z.int().min(1).max(52).default(1).describe('Every this many weeks or months (default 1)'),
  day: z.int().min(1).max(31).optional().describe("Months: the day of the month (default the start's; a shorter month's last day when it has none)"),
  lastDay: z.boolean().optional().describe("Months: the month's last day"),
  start: DateString.describe('The first day it may fall on'),
  count: z.int().min(1).max(1000).optional().describe('End after this many invoices'),
  until: DateString.optional().describe('End with the last date on or before this one'),
};
type ScheduleInput = { unit: 'week' | 'month'; every: number; day?: number; lastDay?: boolean; start: string; count?: number; until?: string };
const scheduleFrom = (s: ScheduleInput): Schedule =>
  checkSchedule({ unit: s.unit, every: s.every, monthDay: s.day ?? null, monthEnd: !!s.lastDay, start: s.start, endCount: s.count ?? null, endDate: s.until ?? null });

const occurrenceText = (o: L.Occurrence) =>
  `  ${o.date}  ${o.invoice ? `${o.invoice} (${o.status})` : `not made: ${o.failure}`}${o.late ? `, made late on ${o.madeOn}` : ''}${o.sending ? `, ${o.sending.replace('_', ' ')}` : ''}${o.invoice && o.failure ? ` (${o.failure})` : ''}`;

export const repeatSummary = (r: L.RepeatingInvoice) =>
  `${r.name.padEnd(24)} ${r.customer.name.padEnd(24)} ${r.scheduleText}, ${L.ACTION_TEXT[r.action]}${r.paused ? ' [paused]' : ''}  next: ${r.nextDates.join(', ') || 'none'}`;

function repeatText(r: L.RepeatingInvoice): string[] {
  return [
    `Repeating invoice "${r.name}" (${r.id}) for ${r.customer.name}, ${r.currency}${r.paused ? ' [paused]' : ''}`,
    `${r.scheduleText}${r.schedule.endCount ? `, ${r.schedule.endCount} times` : ''}${r.schedule.endDate ? `, until ${r.schedule.endDate}` : ''}; ${L.ACTION_TEXT[r.action]}`,
    ...r.lines.map((l) => `  ${l.description}; ${l.quantity} x ${l.unitPrice}; ${l.categoryCode}${l.taxCode === undefined ? '' : `; ${l.taxCode ?? 'no tax'}`}`),
    `Next: ${r.nextDates.join(', ') || 'none (ended or paused)'}`,
    ...(r.occurrences.length ? ['Made:', ...r.occurrences.map(occurrenceText)] : ['Made: none yet']),
  ];
}

export const repeatOperations = {
  createRepeatingInvoice: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      name: Line(200).trim().min(1).optional().describe("What you call it (default: the customer's name)"),
      customer: Line(200).trim().min(1).describe('The customer: its name or id'),
      ...ScheduleFields,
      action: z.enum(REPEAT_ACTIONS).default('draft').describe('When due: make a draft, issue it, or issue it and send it (default draft)'),
      currency: Line(3).trim().min(3).optional(),
      taxInclusive: z.boolean().optional(),
      termsDays: z.int().min(0).max(365).optional().describe("Payment terms in days (default: the customer's, else 30)"),
      notes: Prose(2000).nullable().optional(),
      lines: Lines,
      dryRun: z.boolean().optional().describe('Check it and show the next three dates; save nothing'),
    }),
    async (ctx, { orgId, unit, every, day, lastDay, start, count, until, dryRun, customer, ...input }) => {
      const schedule = scheduleFrom({ unit, every, day, lastDay, start, count, until });
      if (dryRun) return { saved: false as const, scheduleText: scheduleText(schedule), nextDates: nextDates(schedule, [today(), start].sort()[1]) };
      const made = await L.createRepeatingInvoice(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { ...input, customer, schedule }, today());
      return { saved: true as const, ...made };
    },
    {
      name: 'invoice repeat create',
      summary:
        'a repeating invoice: a customer, lines and a schedule (--unit week|month --every N [--day D | --last-day] --start D [--count N | --until D]); --dry-run shows the next three dates',
      flags: { lines: 'line', termsDays: 'terms' },
      repeated: ['lines'],
      print: (r) => (r.saved ? repeatText(r) : [`${r.scheduleText}: next ${r.nextDates.join(', ') || 'none'} (nothing saved)`]),
    },
  ),
  listRepeatingInvoices: op(ANYONE, z.strictObject({ ...Org }), async (ctx, { orgId }) => L.listRepeatingInvoices(ctx.ledger, await orgSeq(ctx, orgId), today()), {
    name: 'invoice repeat list',
    summary: 'repeating invoices with their schedule and next three dates',
    print: (rs) => (rs.length ? rs.map(repeatSummary) : ['No repeating invoices.']),
  }),
  showRepeatingInvoice: op(
    ANYONE,
    z.strictObject({ ...Org, ref: Ref }),
    async (ctx, { orgId, ref }) => {
      const seq = await orgSeq(ctx, orgId);
      return L.toRepeating(ctx.ledger, await L.requireRepeat(ctx.ledger, seq, ref), today());
    },
    { name: 'invoice repeat show', summary: 'one repeating invoice: its lines, schedule, next dates and the invoices it made', args: ['ref'], print: repeatText },
  ),
  pauseRepeatingInvoice: op(
    KEEPERS,
    z.strictObject({ ...Org, ref: Ref }),
    async (ctx, { orgId, ref }) => L.pauseRepeatingInvoice(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, ref, true, today()),
    { name: 'invoice repeat pause', summary: 'make nothing until resumed', args: ['ref'], print: (r) => [repeatSummary(r)] },
  ),
  resumeRepeatingInvoice: op(
    KEEPERS,
    z.strictObject({ ...Org, ref: Ref }),
    async (ctx, { orgId, ref }) => L.pauseRepeatingInvoice(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, ref, false, today()),
    { name: 'invoice repeat resume', summary: 'make invoices again from today (what fell due while paused is not made)', args: ['ref'], print: (r) => [repeatSummary(r)] },
  ),
  deleteRepeatingInvoice: op(
    KEEPERS,
    z.strictObject({ ...Org, ref: Ref }),
    async (ctx, { orgId, ref }) => L.deleteRepeatingInvoice(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, ref),
    {
      name: 'invoice repeat delete',
      summary: 'delete a repeating invoice (the invoices it made stay)',
      args: ['ref'],
      print: (r) => [`Deleted "${r.name}".${r.invoices.length ? ` The invoices it made stay: ${r.invoices.join(', ')}.` : ''}`],
    },
  ),
  runRepeatingInvoices: op(
    KEEPERS,
    z.strictObject({ ...Org, asOf: DateString.optional().describe('The day to run it for (default today)') }),
    async (ctx, { orgId, asOf }) => runAndSendRepeatingInvoices(ctx.ledger, await orgSeq(ctx, orgId), asOf ?? today(), ctx.reviewer),
    {
      name: 'invoice repeat run',
      summary: 'make the repeating invoices due by a day and send those set to be sent (the pass the app runs by itself); each once, however often it runs',
      print: repeatRunText,
    },
  ),
  releaseRepeatInvoice: op(
    KEEPERS,
    z.strictObject({ ...Org, number: Line(60).trim().min(1).describe('The invoice held') }),
    async (ctx, { orgId, number }) => L.releaseRepeatInvoice(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, number),
    {
      name: 'invoice repeat release',
      summary: 'let an invoice made more than a period late, or whose sending failed, be sent by the next pass (it waits for your word)',
      args: ['number'],
      print: (r) => [`Invoice ${r.invoice}: to send.`],
    },
  ),
};

// Manual journals at the desk and as owner commands (issue 43): `ledgerdesk
// journal add|list|show|reverse|stop`, the Journals screen's list and form
// (previewJournal: the postings and the difference, tax worked out, nothing
// written). Listing, showing and entering journals first makes the repeating
// journals' occurrences that fell due (journals/repeats.ts).
import { ACCOUNTANTS, JOURNALISTS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { today } from '../../ledger/core/clock';
import { op, Org, proposable, orgSeq, Page, pageLine, TypedAmount, type DeskContext } from '../operation';

/** "<account>=<amount>[:<memo>][@<tax code>]" (the command's --line): debit positive, e.g. 5200=500.00:March rent@S or Current=-600. */
const JournalLineText = Line(700)
  .regex(/^[^=]+=[^:@]+(:.*)?(@[A-Za-z0-9][A-Za-z0-9_.-]{0,19})?$/, 'is <account>=<amount>[:<memo>][@<tax code>] (debit positive), e.g. 5200=500.00:March rent@S, or Current=-600')
  .transform((text) => {
    const [, rest, taxCode] = /^(.*?)(?:@([A-Za-z0-9][A-Za-z0-9_.-]{0,19}))?$/.exec(text)!;
    const [, account, amount, memo] = /^([^=]+)=([^:]+)(?::(.*))?$/.exec(rest)!;
    return { account: account.trim(), amount: amount.trim(), memo: memo?.trim() || undefined, taxCode };
  });
export const JournalLine = z.union([
  z.strictObject({
    account: Line(200).trim().min(1).describe('A category code or name, a money account (name or id), tax-control or opening-balances'),
    amount: TypedAmount.describe('Debit positive, credit negative'),
    taxCode: Line(20).trim().nullable().optional().describe("A category line's tax code: its amount is then net, its tax posted beside it"),
    memo: Line(500).trim().nullable().optional(),
  }),
  JournalLineText,
]);
const Lines = z
  .array(JournalLine)
  .min(2)
  .max(L.MAX_JOURNAL_LINES)
  .describe('A line: <account>=<amount>[:<memo>][@<tax code>], debit positive (repeat --line; a money account by its name in place of a code)');

const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;
const summaryLine = (j: L.JournalSummary, currency: string) =>
  `${j.number.padEnd(9)} ${j.date}  ${money(j.total, currency).padStart(16)}  ${j.narration}${j.reverses ? `  (reverses ${j.reverses})` : ''}${j.reversedBy ? `  [reversed by ${j.reversedBy.number} on ${j.reversedBy.date}]` : ''}${j.repeatOf ? `  [repeat of ${j.repeatOf}]` : ''}`;

export function journalText(j: L.Journal): string[] {
  const line = (l: L.JournalLine) =>
    `  ${`${l.code ?? ''} ${l.name}`.trim().padEnd(34)} ${(l.debit ? l.debit.toFixed(2) : '').padStart(13)} ${(l.credit ? l.credit.toFixed(2) : '').padStart(13)}  ${l.worked ? `(tax at ${l.taxCode})` : l.taxCode ? `@${l.taxCode}` : ''}${l.memo ? `  ${l.memo}` : ''}`;
  const repeat = j.repeat;
  return [
    `${j.number} ${j.date}  ${j.narration}`,
    `  ${'Account'.padEnd(34)} ${'Debit'.padStart(13)} ${'Credit'.padStart(13)}`,
    ...j.lines.map(line),
    `  ${'Total'.padEnd(34)} ${j.totalDebit.toFixed(2).padStart(13)} ${j.totalCredit.toFixed(2).padStart(13)}  ${j.currency}`,
    ...(j.reverses ? [`Reverses ${j.reverses.number} (${j.reverses.date}).`] : []),
    ...(j.reversedBy ? [`Reversed by ${j.reversedBy.number} on ${j.reversedBy.date}.`] : []),
    ...(repeat
      ? [
          `Repeats monthly from ${repeat.firstDate}${repeat.until ? ` until ${repeat.until}` : ''}${repeat.count ? `, ${repeat.count} times` : ''}${repeat.reverseDays ? `, each reversed ${repeat.reverseDays} day(s) later` : ''}: ${repeat.journals.join(', ')}; ${repeat.nextDate ? `next on ${repeat.nextDate}` : repeat.stoppedAt ? 'stopped' : 'ended'}.`,
        ]
      : []),
  ];
}

/** The repeating journals' occurrences due by today, made before the journals are read. */
const caughtUp = async (ctx: DeskContext, orgId: string): Promise<number> => {
  const seq = await orgSeq(ctx, orgId);
  // Made by the schedule (as schedule.ts makes them), not by whoever happens to read.
  await L.catchUpRepeats(ctx.ledger, L.deskActor(), today(), seq);
  return seq;
};

const JournalRef = Line(60).trim().min(1).describe('The journal: its number (JNL-0003, or 3) or id');

export const journalOperations = {
  listJournals: op(
    STAFF,
    z.strictObject({ ...Org, dateFrom: DateString.optional(), dateTo: DateString.optional(), ...Page(500) }),
    async (ctx, { orgId, ...q }) => {
      const seq = await caughtUp(ctx, orgId);
      return { ...(await L.listJournals(ctx.ledger, seq, q)), currency: (await L.organizationBySeq(ctx.ledger, seq)).currency };
    },
    {
      name: 'journal list',
      summary: 'the manual journals, newest first (number, date, total, narration, reversal, repeat)',
      flags: { dateFrom: 'from', dateTo: 'to' },
      print: (r) =>
        r.data.length
          ? [...r.data.map((j) => summaryLine(j, r.currency)), pageLine({ offset: r.meta.offset, shown: r.data.length, total: r.meta.totalCount }, 'journal')]
          : ['No journals.'],
    },
  ),

  showJournal: op(
    STAFF,
    z.strictObject({ ...Org, number: JournalRef }),
    async (ctx, { orgId, number }) => L.toJournal(ctx.ledger, await L.requireJournal(ctx.ledger, await caughtUp(ctx, orgId), number)),
    {
      name: 'journal show',
      summary: 'one journal: its lines (debit, credit, tax, memo), reversal and repeat',
      args: ['number'],
      print: journalText,
    },
  ),

  addJournal: proposable(
    op(
      JOURNALISTS,
      z.strictObject({
        ...Org,
        date: DateString.describe("The journal's date"),
        narration: Prose(500).trim().min(1).describe('What it is for'),
        lines: Lines,
        reverseOn: DateString.optional().describe('Reverse it on this date (an accrual: the first of next month), written with it'),
        repeat: z.enum(L.REPEAT_EVERY).optional().describe('Repeat it (depreciation): made on each date, the first one this'),
        until: DateString.optional().describe('A repeat: the last date one may fall on'),
        count: z.int().min(2).max(600).optional().describe('A repeat: how many in all, this one included'),
      }),
      async (ctx, { orgId, repeat, until, count, ...input }) => {
        if (!repeat && (until || count)) throw L.invalid([{ field: until ? 'until' : 'count', message: 'goes with --repeat monthly' }]);
        return L.addJournal(ctx.ledger, await caughtUp(ctx, orgId), ctx.reviewer, { ...input, repeat: repeat ? { every: repeat, until, count } : undefined });
      },
      {
        name: 'journal add',
        summary: 'a manual journal, saved only when it balances (--line <account>=<amount>[:<memo>][@<tax>] ..., debit positive; --reverse-on, --repeat monthly)',
        flags: { lines: 'line' },
        repeated: ['lines'],
        print: (j) => [`Entered ${j.number}.`, ...journalText(j)],
      },
    ),
    async (ctx, { orgId, repeat, ...input }) => L.proposeJournal(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { ...input, repeat: repeat ? { every: repeat } : undefined }),
  ),

  previewJournal: op(STAFF, z.strictObject({ ...Org, date: DateString, lines: z.array(JournalLine).max(L.MAX_JOURNAL_LINES) }), async (ctx, { orgId, date, lines }) =>
    L.previewJournal(ctx.ledger, await orgSeq(ctx, orgId), date, lines),
  ),

  reverseJournal: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, number: JournalRef, date: DateString.optional().describe("The reversal's date (default today; not before the journal's)") }),
    async (ctx, { orgId, number, date }) => L.reverseJournal(ctx.ledger, await caughtUp(ctx, orgId), ctx.reviewer, number, date),
    {
      name: 'journal reverse',
      summary: 'reverse a journal on a date (its lines negated, a journal of its own)',
      args: ['number'],
      print: (j) => [`Entered ${j.number}.`, ...journalText(j)],
    },
  ),

  stopJournalRepeat: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, number: JournalRef }),
    async (ctx, { orgId, number }) => L.stopJournalRepeat(ctx.ledger, await caughtUp(ctx, orgId), ctx.reviewer, number),
    {
      name: 'journal stop',
      summary: 'stop a repeating journal (the one named, or any of its occurrences): no more are made',
      args: ['number'],
      print: (j) => journalText(j),
    },
  ),
};

// The opening balances at the desk and as owner commands (issue 43):
// `ledgerdesk opening-balances show|set`, the Opening balances screen. Dated
// the day before the conversion date, open documents with their VAT (issue 50).
import { ACCOUNTANTS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Line } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq, TypedAmount } from '../operation';
import { JournalLine } from './journals';

/**
 * "<number>;<contact>;<date>;<due>;<outstanding>[;<currency>[;<tax code>;<VAT>]]" (the command's --invoice and
 * --bill); the due date and the currency may be left empty.
 */
const DocumentText = (party: string) =>
  Line(700)
    .regex(
      /^[^;]+;[^;]+;[^;]+;[^;]*;[^;]+(;[^;]*){0,3}$/,
      `is <number>;<${party}>;<date>;<due>;<outstanding>[;<currency>[;<tax code>;<VAT>]], e.g. "INV-0412;Acme Ltd;2026-05-20;2026-06-19;1,200.00" or "INV-0412;Acme Ltd;2026-05-20;;1,200.00;;S;200.00"`,
    )
    .transform((text) => {
      const [number, contact, date, dueDate, outstanding, currency, taxCode, tax] = text.split(';').map((p) => p.trim());
      return { number, contact, date, dueDate: dueDate || undefined, outstanding, currency: currency || undefined, taxCode: taxCode || undefined, tax: tax || undefined };
    });
const OpenDocument = (party: string) =>
  z.union([
    z.strictObject({
      number: Line(60).trim().min(1),
      contact: Line(200).trim().min(1).describe(`The ${party}, by name or id`),
      date: DateString,
      dueDate: DateString.optional(),
      outstanding: TypedAmount.describe('What is still owed at the conversion'),
      currency: Line(3).trim().min(3).optional(),
      taxCode: Line(20).trim().min(1).optional().describe('The tax code of the VAT inside what is outstanding (given with tax)'),
      tax: TypedAmount.optional().describe('The VAT inside what is outstanding (given with taxCode; 0 for none)'),
    }),
    DocumentText(party),
  ]);

/** "<from>..<to>" or "none" (the command's --tax-return), or the period as an object (the screen). */
const TaxReturnPeriod = z.union([
  z.strictObject({ from: DateString, to: DateString }),
  z.null(),
  Line(30)
    .trim()
    .regex(/^(none|\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2})$/, 'is <from>..<to> (YYYY-MM-DD..YYYY-MM-DD) or none')
    .transform((text) => (text === 'none' ? null : { from: text.slice(0, 10), to: text.slice(12) })),
]);

const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;

/** Where the earlier years' earnings go (issue 50): the retained earnings account, or the one to make it. */
const retainedText = (r: L.OpeningBalances['retainedEarnings']): string[] =>
  !r
    ? []
    : r.offered
      ? [
          `Note: ${r.code} ${r.name} reads as the retained earnings account; make it one (ledgerdesk category retained-earnings ${r.code}) and the balance sheet shows it with the earlier years' earnings as one "Retained earnings" line.`,
        ]
      : [`${r.code} ${r.name} is the retained earnings account: the balance sheet shows it with the earlier years' earnings as one line.`];

export function openingText(o: L.OpeningBalances): string[] {
  const cell = (n: number) => (n ? n.toFixed(2) : '').padStart(14);
  const line = (l: L.OpeningLine) =>
    `  ${`${l.code ?? ''} ${l.name}`.trim().padEnd(34)} ${cell(l.debit)} ${cell(l.credit)}${l.own ? `  (${money(l.own.amount, l.own.currency)})` : ''}${l.date !== undefined ? `  opening ${l.date ?? 'from its first row'}` : ''}`;
  const doc = (d: L.OpenDocument) =>
    `    ${d.number.padEnd(12)} ${d.contact.padEnd(24)} ${d.date}  due ${d.dueDate}  ${money(d.outstanding, d.currency).padStart(16)}  ${d.taxCode === null ? 'no VAT given' : `VAT ${money(d.tax ?? 0, d.currency)} at ${d.taxCode}`}${d.settled ? '  (paid or credited since)' : ''}`;
  return [
    o.date
      ? `Opening balances as at ${o.asAt}, the day before the conversion date ${o.date}`
      : 'No opening entry yet: the money accounts\u2019 opening balances stand alone (ledgerdesk opening-balances set).',
    `  ${'Account'.padEnd(34)} ${'Debit'.padStart(14)} ${'Credit'.padStart(14)}`,
    ...o.lines.map(line),
    `  ${'Total'.padEnd(34)} ${cell(o.totalDebit)} ${cell(o.totalCredit)}  ${o.currency}`,
    o.difference === 0
      ? '  Debits equal credits.'
      : `  ${money(Math.abs(o.difference), o.currency)} left over, at Opening balances (equity, a ${o.difference > 0 ? 'credit' : 'debit'}).`,
    ...(o.invoices.length ? [`Open invoices (${o.invoices.length}):`, ...o.invoices.map(doc)] : []),
    ...(o.bills.length ? [`Open bills (${o.bills.length}):`, ...o.bills.map(doc)] : []),
    ...(o.taxReturn
      ? [
          `Tax owed at the conversion: the return for ${o.taxReturn.from} to ${o.taxReturn.to}, ${money(o.taxReturn.payable, o.currency)}, ${o.taxReturn.paid ? 'paid' : 'unpaid (ledgerdesk tax return payments)'}.`,
        ]
      : []),
    ...o.warnings.map((w) => `Warning: ${w}`),
    ...retainedText(o.retainedEarnings),
  ];
}

export const openingOperations = {
  openingBalances: op(STAFF, z.strictObject({ ...Org }), async (ctx, { orgId }) => L.showOpeningBalances(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'opening-balances show',
    summary: 'the opening entry: every balance-sheet account as at the day before the conversion date, the open invoices and bills with their VAT, the difference',
    print: openingText,
  }),

  setOpeningBalances: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      date: DateString.describe('The conversion date: the day these books start'),
      lines: z
        .array(JournalLine)
        .max(L.MAX_JOURNAL_LINES)
        .default([])
        .describe('A line: <account>=<amount>, debit positive: a money account (in its currency), a category code, tax-control (repeat --line)'),
      invoices: z
        .array(OpenDocument('customer'))
        .max(100_000)
        .default([])
        .describe('An open invoice: <number>;<customer>;<date>;<due>;<outstanding>[;<currency>[;<tax code>;<VAT>]] (repeat --invoice)'),
      bills: z
        .array(OpenDocument('vendor'))
        .max(100_000)
        .default([])
        .describe('An open bill: <number>;<vendor>;<date>;<due>;<outstanding>[;<currency>[;<tax code>;<VAT>]] (repeat --bill)'),
      taxReturn: TaxReturnPeriod.optional().describe(
        'The return the tax owed was filed in before these books: <from>..<to>, or none (default: the tax period ending the day before)',
      ),
      balanceToEquity: z.boolean().optional().describe('Put what debits and credits leave over to Opening balances (equity)'),
    }),
    async (ctx, { orgId, ...input }) => L.setOpeningBalances(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, input),
    {
      name: 'opening-balances set',
      summary: 'set the opening entry of a conversion date, dated the day before (replaces it): --line <account>=<amount> ..., --invoice/--bill, --balance-to-equity',
      flags: { lines: 'line', invoices: 'invoice', bills: 'bill' },
      repeated: ['lines', 'invoices', 'bills'],
      print: openingText,
    },
  ),
};

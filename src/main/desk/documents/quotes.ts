// Quotes at the desk and as owner commands (issue 53): `ledgerdesk quote
// create|edit|list|show|mark-sent|accept|decline|pdf` (`quote send` mails
// one: desk/mail/mail.ts). A bookkeeper and up write, mark sent and decide them (as invoices: a preparer may not, documents take no
// proposals today); anyone who reads invoices reads them. The day a quote's
// status is read for, and the default dates, are today's here: the ledger
// takes them as parameters.
import { ANYONE, KEEPERS } from '../roles';
import { writeFileSync } from 'node:fs';
import * as z from 'zod';
import { DateString, Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { today } from '../../ledger/core/clock';
import { op, Org, orgSeq } from '../operation';
import { Lines, Number_, summary as invoiceSummary } from './documents';

const QUOTE_STATES = ['draft', 'sent', 'accepted', 'declined', 'expired'] as const;
const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;

export const quoteSummary = (q: L.Quote) =>
  `${q.number.padEnd(12)} ${q.date}  until ${q.expiryDate}  ${q.contact.name.padEnd(24)} ${money(q.total, q.currency).padStart(14)}  ${q.status.padEnd(9)}${q.invoice ? ` -> ${q.invoice}` : ''}`;

function quoteText(q: L.Quote): string[] {
  return [
    `Quote ${q.number} - ${q.status}${q.decidedOn ? ` on ${q.decidedOn}` : ''}${q.invoice ? `, invoice ${q.invoice}` : ''}`,
    `Customer: ${q.contact.name}    dated ${q.date}, valid until ${q.expiryDate}    amounts ${q.taxInclusive ? 'include' : 'exclude'} tax`,
    ...q.lines.map(
      (l) =>
        `  ${l.description.padEnd(30)} ${String(l.quantity).padStart(8)} x ${l.unitPrice.toFixed(2).padStart(10)}  ${l.categoryCode} ${l.taxCode ?? '-'}  net ${l.net.toFixed(2)} tax ${l.tax.toFixed(2)}`,
    ),
    `Net ${money(q.net, q.currency)}  tax ${money(q.tax, q.currency)}  total ${money(q.total, q.currency)}`,
  ];
}

const Fields = {
  date: DateString.optional().describe("The quote's date (default today)"),
  expiryDate: DateString.optional().describe('Valid until (default: its date plus 30 days)'),
  taxInclusive: z.boolean().optional().describe('Unit prices include tax (default: they exclude it)'),
  currency: Line(3).trim().min(3).optional().describe("ISO 4217 code (default: the organization's)"),
  notes: Prose(2000).nullable().optional(),
};
const Customer = Line(200).trim().min(1).describe('The customer: its name or id');
const command = { flags: { lines: 'line', expiryDate: 'expiry' }, repeated: ['lines'] };

const seqOf = orgSeq;

export const quoteOperations = {
  createQuote: op(
    KEEPERS,
    z.strictObject({ ...Org, customer: Customer, ...Fields, lines: Lines }),
    async (ctx, { orgId, customer, expiryDate, date, ...input }) =>
      L.createQuote(ctx.ledger, await seqOf(ctx, orgId), ctx.reviewer, { ...input, contact: customer, date: date ?? today(), dueDate: expiryDate }, today()),
    {
      name: 'quote create',
      summary: "write a quote to a customer (numbered in the quotes' series); prints its number",
      ...command,
      print: (q) => [q.number, ...quoteText(q).slice(1)],
    },
  ),
  editQuote: op(
    KEEPERS,
    z.strictObject({ ...Org, number: Number_, customer: Customer.optional(), ...Fields, lines: Lines.optional() }),
    async (ctx, { orgId, number, customer, expiryDate, ...input }) =>
      L.editQuote(ctx.ledger, await seqOf(ctx, orgId), ctx.reviewer, number, { ...input, contact: customer, dueDate: expiryDate }, today()),
    { name: 'quote edit', summary: 'change a quote not yet accepted or declined (--line replaces all its lines)', args: ['number'], ...command, print: quoteText },
  ),
  listQuotes: op(
    ANYONE,
    z.strictObject({ ...Org, status: z.enum(QUOTE_STATES).optional().describe('Only these'), customer: Customer.optional().describe("Only this customer's") }),
    async (ctx, { orgId, status, customer }) => {
      const seq = await seqOf(ctx, orgId);
      return L.listQuotes(ctx.ledger, seq, today(), { status, contactSeq: customer ? (await L.requireContactRow(ctx.ledger, seq, customer)).seq : undefined });
    },
    {
      name: 'quote list',
      summary: 'quotes, newest first, with their status (expired: past their expiry date, not decided)',
      print: (qs) => (qs.length ? qs.map(quoteSummary) : ['No quotes.']),
    },
  ),
  showQuote: op(
    ANYONE,
    z.strictObject({ ...Org, number: Number_ }),
    async (ctx, { orgId, number }) => {
      const seq = await seqOf(ctx, orgId);
      return L.toQuote(ctx.ledger, await L.requireQuote(ctx.ledger, seq, number), today());
    },
    { name: 'quote show', summary: 'one quote: lines, totals, status, the invoice it became', args: ['number'], print: quoteText },
  ),
  sendQuote: op(
    KEEPERS,
    z.strictObject({ ...Org, number: Number_ }),
    async (ctx, { orgId, number }) => L.markQuoteSent(ctx.ledger, await seqOf(ctx, orgId), ctx.reviewer, number, today()),
    { name: 'quote mark-sent', summary: 'mark a quote sent (you sent it yourself; quote send mails it)', args: ['number'], print: (q) => [quoteSummary(q)] },
  ),
  acceptQuote: op(
    KEEPERS,
    z.strictObject({ ...Org, number: Number_, date: DateString.optional().describe('The day the customer accepted (default today): the draft invoice is dated so') }),
    async (ctx, { orgId, number, date }) => L.acceptQuote(ctx.ledger, await seqOf(ctx, orgId), ctx.reviewer, number, date ?? today()),
    {
      name: 'quote accept',
      summary: 'the customer accepted: a draft invoice with its lines is made (issue it with invoice issue)',
      args: ['number'],
      print: (r) => [quoteSummary(r.quote), `Draft invoice ${r.invoice.number} made from it:`, invoiceSummary(r.invoice)],
    },
  ),
  declineQuote: op(
    KEEPERS,
    z.strictObject({ ...Org, number: Number_, date: DateString.optional().describe('The day the customer declined (default today)'), reason: Prose(500).optional() }),
    async (ctx, { orgId, number, date, reason }) => L.declineQuote(ctx.ledger, await seqOf(ctx, orgId), ctx.reviewer, number, date ?? today(), reason),
    { name: 'quote decline', summary: 'the customer declined the quote', args: ['number'], print: (q) => [quoteSummary(q)] },
  ),
  quotePdf: op(
    ANYONE,
    z.strictObject({ ...Org, number: Number_, out: Line(1000).trim().min(1).describe('The PDF file to write') }),
    async (ctx, { orgId, number, out }) => {
      if (ctx.mode !== 'command') throw L.invalid([{ field: 'out', message: 'only an owner command writes to a path of its choosing' }]);
      const seq = await seqOf(ctx, orgId);
      const bytes = await L.documentPdf(ctx.ledger, seq, await L.requireQuote(ctx.ledger, seq, number));
      writeFileSync(out, bytes);
      return { number, out, bytes: bytes.length };
    },
    { name: 'quote pdf', summary: "write a quote as a PDF (the invoice's layout)", args: ['number'], print: (r) => [`Wrote ${r.out} (${r.bytes} bytes).`] },
  ),
  /** The Quotes screen's preview and download. */
  quotePdfBytes: op(ANYONE, z.strictObject({ ...Org, number: Number_ }), async (ctx, { orgId, number }) => {
    const seq = await seqOf(ctx, orgId);
    const row = await L.requireQuote(ctx.ledger, seq, number);
    return { fileName: `${row.number}.pdf`, mimeType: 'application/pdf', base64: (await L.documentPdf(ctx.ledger, seq, row)).toString('base64') };
  }),
};

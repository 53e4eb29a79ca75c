// Invoices and bills at the desk and as owner commands (issue 29): `ledgerdesk
// invoice create|issue|edit|show|list|pay|credit|pdf`, `bill create|
// enter|show|list|pay`, `payment undo`, `report aging` (`void`: voids.ts).
// Invoices and bills share one definition; what differs is named per kind.
import { ANYONE, KEEPERS, STAFF } from '../roles';
import { writeFileSync } from 'node:fs';
import * as z from 'zod';
import { DateString, Line, Prose, Uuid } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq, TypedAmount, type DeskContext } from '../operation';

/** "<description>;<quantity>;<unit price>;<category code>[;<tax code>]" (the command's --line) as a document line. */
const LineText = Line(700)
  .regex(/^[^;]+;[^;]+;[^;]+;[^;]+(;[^;]*)?$/, 'is <description>;<quantity>;<unit price>;<category code>[;<tax code>], e.g. "Design work;10;85.00;4000;S"')
  .transform((text) => {
    const [description, quantity, unitPrice, categoryCode, taxCode] = text.split(';').map((p) => p.trim());
    return { description, quantity, unitPrice, categoryCode, ...(taxCode === undefined ? {} : { taxCode: taxCode || null }) };
  });
const DocumentLine = z.union([
  z.strictObject({
    description: Line(500).trim().min(1),
    quantity: z.union([z.number().positive(), Line(20).trim()]).describe('How many (up to three decimals)'),
    unitPrice: TypedAmount,
    categoryCode: Line(50).trim().min(1),
    taxCode: Line(20).trim().nullable().optional().describe("Its tax code; absent: the contact's or the category's default; null: none"),
  }),
  LineText,
]);
export const Lines = z.array(DocumentLine).min(1).max(200);
export const Number_ = Line(60).trim().min(1);

export type Kind = 'invoice' | 'bill';
export const KINDS: Record<Kind, readonly L.DocumentKind[]> = { invoice: ['invoice', 'credit_note'], bill: ['bill'] };

const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;
const STATUS_TEXT: Record<L.DocumentStatus, string> = { draft: 'draft', sent: 'sent', open: 'open', partially_paid: 'partly paid', paid: 'paid', void: 'void' };
export const summary = (d: L.Document) =>
  `${d.number.padEnd(12)} ${d.issueDate}  due ${d.dueDate}  ${d.contact.name.padEnd(24)} ${money(d.total, d.currency).padStart(14)}  ${(STATUS_TEXT[d.status] + (d.overdue ? ', overdue' : '')).padEnd(20)} balance ${money(d.balance, d.currency)}`;

function detail(d: L.Document): string[] {
  return [
    `${L.KIND_NAMES[d.kind]} ${d.number} - ${STATUS_TEXT[d.status]}${d.overdue ? ' (overdue)' : ''}${d.credits ? ` against invoice ${d.credits}` : ''}${d.quote ? ` from quote ${d.quote}` : ''}`,
    `${d.kind === 'bill' ? 'Vendor' : 'Customer'}: ${d.contact.name}    issued ${d.issueDate}, due ${d.dueDate}    amounts ${d.taxInclusive ? 'include' : 'exclude'} tax`,
    ...d.lines.map(
      (l) =>
        `  ${l.description.padEnd(30)} ${String(l.quantity).padStart(8)} x ${l.unitPrice.toFixed(2).padStart(10)}  ${l.categoryCode} ${l.taxCode ?? '-'}  net ${l.net.toFixed(2)} tax ${l.tax.toFixed(2)}`,
    ),
    `Net ${money(d.net, d.currency)}  tax ${money(d.tax, d.currency)}  total ${money(d.total, d.currency)}`,
    ...d.settlements.map(
      (s) => `  ${s.date} ${s.creditNote ? `credit note ${s.creditNote}` : s.creditApplied ? 'credit applied' : `payment ${s.transactionId}`}: ${money(s.amount, d.currency)}`,
    ),
    `Paid ${money(d.paid, d.currency)}  credited ${money(d.credited, d.currency)}  balance ${money(d.balance, d.currency)}`,
    ...(d.voidReason || d.voidDate ? [`Voided ${d.voidDate ?? ''}${d.voidReason ? `: ${d.voidReason}` : ''}`] : []),
  ];
}

const Fields = {
  date: DateString.optional().describe('The issue date (default today)'),
  dueDate: DateString.optional().describe('The due date (default: the issue date plus the terms)'),
  termsDays: z.int().min(0).max(365).optional().describe("Payment terms in days (default: the contact's, else 30)"),
  taxInclusive: z.boolean().optional().describe('Unit prices include tax (default: they exclude it)'),
  currency: Line(3).trim().min(3).optional().describe("ISO 4217 code (default: the organization's); another books at its issue date's rate"),
  notes: Prose(2000).nullable().optional(),
};

function documentOperations(kind: Kind) {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  const seqOf = (ctx: DeskContext, orgId: string) => orgSeq(ctx, orgId);
  return {
    issue: op(
      KEEPERS,
      z.strictObject({ ...Org, number: Number_ }),
      async (ctx, { orgId, number }) => L.issueDocument(ctx.ledger, await seqOf(ctx, orgId), ctx.reviewer, KINDS[kind], number),
      {
        name: kind === 'bill' ? 'bill enter' : 'invoice issue',
        summary: kind === 'bill' ? 'enter a draft bill (it is then owed)' : 'issue a draft invoice (its entry goes into the books; "sent")',
        args: ['number'],
        print: (d) => [summary(d)],
      },
    ),
    edit: op(
      KEEPERS,
      z.strictObject({ ...Org, number: Number_, [party]: Line(200).trim().min(1).optional(), ...Fields, lines: Lines.optional() }),
      async (ctx, { orgId, number, ...input }) => {
        const i = input as Record<string, unknown>;
        return L.updateDraft(ctx.ledger, await seqOf(ctx, orgId), ctx.reviewer, KINDS[kind], number, {
          ...(i as Partial<L.DocumentInput>),
          contact: i[party] as string | undefined,
        });
      },
      {
        name: `${kind} edit`,
        summary: `change a draft ${kind} (--line replaces all its lines)`,
        args: ['number'],
        flags: { lines: 'line', dueDate: 'due', termsDays: 'terms' },
        repeated: ['lines'],
        print: detail,
      },
    ),
    ...readOperations(kind),
  };
}

/** What the pay form names (several documents, or an amount and what it settles of one) as the ledger's allocations. */
function allocationsOf(kind: Kind, input: { numbers: string[]; amount?: string | number; settles?: string | number }): L.Allocation[] {
  const { numbers, amount, settles } = input;
  if (amount !== undefined && numbers.length > 1) throw L.invalid([{ field: 'amount', message: `names what goes to one ${kind}: pay several one by one` }]);
  if (settles !== undefined && numbers.length > 1) throw L.invalid([{ field: 'settles', message: `names what of one ${kind} the row settles: pay several one by one` }]);
  return numbers.map((document) => ({ document, amount, settles }));
}

/** A document paid in another currency, as the command prints it. */
const exchangeText = (x: L.Exchange) =>
  `${x.document}: ${money(x.settles, x.currency)} for ${money(x.paid, x.baseCurrency)} (${x.rate} per ${x.currency}${x.dayRate ? `, the day's rate ${x.dayRate}` : ''}); booked at ${money(x.booked, x.baseCurrency)}: realized ${x.difference >= 0 ? 'gain' : 'loss'} ${money(Math.abs(x.difference), x.baseCurrency)}`;

/** Reading and paying: the same for invoices and bills (voiding: voids.ts). */
function readOperations(kind: Kind) {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  const seqOf = (ctx: DeskContext, orgId: string) => orgSeq(ctx, orgId);
  return {
    show: op(
      ANYONE,
      z.strictObject({ ...Org, number: Number_ }),
      async (ctx, { orgId, number }) => L.toDocument(ctx.ledger, await L.requireDocument(ctx.ledger, await seqOf(ctx, orgId), KINDS[kind], number)),
      {
        name: `${kind} show`,
        summary: `one ${kind}: lines, totals, payments, balance`,
        args: ['number'],
        print: detail,
      },
    ),
    list: op(
      ANYONE,
      z.strictObject({
        ...Org,
        status: z.enum(['draft', 'sent', 'open', 'partially_paid', 'paid', 'void', 'overdue']).optional().describe('Only these (overdue: open past their due date)'),
        [party]: Line(200).trim().min(1).optional().describe(`Only this ${party}'s`),
      }),
      async (ctx, { orgId, status, ...rest }) => {
        const seq = await seqOf(ctx, orgId);
        const who = (rest as Record<string, string | undefined>)[party];
        return (await L.listDocuments(ctx.ledger, seq, { kinds: KINDS[kind], status, contactSeq: who ? (await L.requireContactRow(ctx.ledger, seq, who)).seq : undefined })).data;
      },
      { name: `${kind} list`, summary: `${kind}s, newest first`, print: (ds) => (ds.length ? ds.map(summary) : [`No ${kind}s.`]) },
    ),
    pay: op(
      KEEPERS,
      z.strictObject({
        ...Org,
        numbers: z.array(Number_).min(1).max(50).describe(`The ${kind}s the row pays`),
        transactionId: Uuid.describe('The bank row that pays them'),
        amount: TypedAmount.optional().describe(`What of the row goes to the ${kind}, in the row's currency (one ${kind} only; default: its balance)`),
        settles: TypedAmount.optional().describe(
          `A ${kind} in another currency than the row's: what of it the row settles, in its currency (one ${kind} only; default: its balance)`,
        ),
      }),
      async (ctx, input) => L.payDocuments(ctx.ledger, await seqOf(ctx, input.orgId), ctx.reviewer, kind, input.transactionId, allocationsOf(kind, input)),
      {
        name: `${kind} pay`,
        summary: `a bank row pays ${kind}s (all of their balance, or --amount of one; in another currency, --settles of it)`,
        args: ['numbers...'],
        flags: { transactionId: 'transaction' },
        print: (r) => [...r.documents.map(summary), ...r.exchanges.map(exchangeText), ...(r.credit > 0 ? [`${r.credit.toFixed(2)} left as a credit on the ${party}.`] : [])],
      },
    ),
  };
}

const createCommand = (kind: Kind) => ({
  name: `${kind} create`,
  summary: kind === 'bill' ? 'enter a bill from a vendor (open unless --draft)' : 'write an invoice (a draft unless --issue); prints its number',
  flags: { lines: 'line', dueDate: 'due', termsDays: 'terms' },
  repeated: ['lines'],
  print: (d: L.Document) => [d.number, ...detail(d).slice(1)],
});
const Contact = (party: string) => Line(200).trim().min(1).describe(`The ${party}: its name or id`);

const createInvoice = op(
  KEEPERS,
  z.strictObject({
    ...Org,
    customer: Contact('customer'),
    ...Fields,
    paymentInstructions: Prose(1000).nullable().optional().describe("How to pay (default: the organization's)"),
    lines: Lines,
    issue: z.boolean().optional().describe('Issue it at once (default: a draft)'),
  }),
  async (ctx, { orgId, customer, issue, ...input }) =>
    L.createDocument(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { ...input, contact: customer }, { kind: 'invoice', issue }),
  createCommand('invoice'),
);

const createBill = op(
  KEEPERS,
  z.strictObject({
    ...Org,
    vendor: Contact('vendor'),
    number: Number_.describe("The vendor's number of the bill"),
    ...Fields,
    lines: Lines,
    draft: z.boolean().optional().describe('Keep it a draft (default: entered, open)'),
  }),
  async (ctx, { orgId, vendor, draft, ...input }) =>
    L.createDocument(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { ...input, contact: vendor }, { kind: 'bill', issue: !draft }),
  createCommand('bill'),
);

const invoice = documentOperations('invoice');
const bill = documentOperations('bill');

export const documentDeskOperations = {
  createInvoice,
  issueInvoice: invoice.issue,
  editInvoice: invoice.edit,
  showInvoice: invoice.show,
  listInvoices: invoice.list,
  payInvoice: invoice.pay,
  creditInvoice: op(
    KEEPERS,
    z.strictObject({ ...Org, number: Number_, date: DateString.optional(), taxInclusive: z.boolean().optional(), notes: Prose(2000).nullable().optional(), lines: Lines }),
    async (ctx, { orgId, number, ...input }) => L.creditInvoice(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, number, input as Parameters<typeof L.creditInvoice>[4]),
    {
      name: 'invoice credit',
      summary: 'issue a credit note against an invoice (at most what it still asks); prints its number',
      args: ['number'],
      flags: { lines: 'line' },
      repeated: ['lines'],
      print: (d) => [d.number, ...detail(d).slice(1)],
    },
  ),
  invoicePdf: op(
    ANYONE,
    z.strictObject({ ...Org, number: Number_, out: Line(1000).trim().min(1).describe('The PDF file to write') }),
    async (ctx, { orgId, number, out }) => {
      if (ctx.mode !== 'command') throw L.invalid([{ field: 'out', message: 'only an owner command writes to a path of its choosing' }]);
      const seq = await orgSeq(ctx, orgId);
      const bytes = await L.documentPdf(ctx.ledger, seq, await L.requireDocument(ctx.ledger, seq, KINDS.invoice, number));
      writeFileSync(out, bytes);
      return { number, out, bytes: bytes.length };
    },
    { name: 'invoice pdf', summary: 'write an invoice or credit note as a PDF', args: ['number'], print: (r) => [`Wrote ${r.out} (${r.bytes} bytes).`] },
  ),
  /** The screens' preview and download: the same PDF as bytes. */
  invoicePdfBytes: op(ANYONE, z.strictObject({ ...Org, number: Number_ }), async (ctx, { orgId, number }) => {
    const seq = await orgSeq(ctx, orgId);
    const doc = await L.requireDocument(ctx.ledger, seq, KINDS.invoice, number);
    // Base64: plain JSON over the browser route as over IPC.
    return { fileName: `${doc.number}.pdf`, mimeType: 'application/pdf', base64: (await L.documentPdf(ctx.ledger, seq, doc)).toString('base64') };
  }),
  createBill,
  enterBill: bill.issue,
  editBill: bill.edit,
  showBill: bill.show,
  listBills: bill.list,
  payBill: bill.pay,
  /** The Record payment form: what paying would settle in another currency and the difference, nothing written. */
  previewPayment: op(
    STAFF,
    z.strictObject({
      ...Org,
      kind: z.enum(['invoice', 'bill']),
      numbers: z.array(Number_).min(1).max(50),
      transactionId: Uuid,
      amount: TypedAmount.optional(),
      settles: TypedAmount.optional(),
    }),
    async (ctx, { kind, ...input }) => L.previewPayment(ctx.ledger, await orgSeq(ctx, input.orgId), kind, input.transactionId, allocationsOf(kind, input)),
  ),
  undoPayment: op(
    KEEPERS,
    z.strictObject({ ...Org, transactionId: Uuid }),
    async (ctx, { orgId, transactionId }) => L.undoPayment(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, transactionId),
    {
      name: 'payment undo',
      summary: 'a bank row no longer pays invoices or bills (uncategorized again)',
      args: ['transactionId'],
      print: (r) => [`Transaction ${r.transactionId} no longer pays ${r.reopened.join(', ') || 'anything'}.`],
    },
  ),
  suggestPayments: op(STAFF, z.strictObject({ ...Org }), async (ctx, { orgId }) => L.suggestPayments(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'payment suggest',
    summary: 'bank rows that may pay open invoices or bills (accept with invoice pay / bill pay)',
    print: (ss) =>
      ss.length
        ? ss.map(
            (s) =>
              `${s.transactionId}  ${s.date}  ${s.amount.toFixed(2).padStart(12)}  ${s.description.slice(0, 40).padEnd(40)}  -> ${s.kind} ${s.documents.map((d) => `${d.number} (${d.contact}, ${money(d.balance, d.currency)})`).join(' or ')}`,
          )
        : ['No bank row looks like a payment of an open invoice or bill.'],
  }),
  contactStatement: op(
    ANYONE,
    z.strictObject({
      ...Org,
      contact: Line(200).trim().min(1).describe('The customer (or vendor): its name or id'),
      from: DateString.optional().describe("First day (default: the month's first)"),
      to: DateString.optional().describe('Last day (default today)'),
      payables: z.boolean().optional().describe("What is owed to it as a vendor (default: a vendor-only contact's)"),
      currency: Line(3).trim().min(3).optional().describe("In this currency (default: the one the contact's documents are in, else the organization's)"),
    }),
    async (ctx, { orgId, contact, ...q }) => L.contactStatement(ctx.ledger, await orgSeq(ctx, orgId), contact, q),
    {
      name: 'report statement',
      summary: "a customer's statement: what it owed, invoices, credit notes and payments in the period, what it owes, the open invoices",
      args: ['contact'],
      print: (st) => [
        `Statement of ${st.contact.name}, ${st.from} to ${st.to}, ${st.currency}`,
        `${st.from}  Balance brought forward${st.opening.toFixed(2).padStart(44)}`,
        ...st.lines.map((l) => `${l.date}  ${l.what.slice(0, 46).padEnd(46)} ${l.amount.toFixed(2).padStart(12)} ${l.balance.toFixed(2).padStart(12)}`),
        `${st.to}  Balance owed${st.closing.toFixed(2).padStart(57)}`,
        ...(st.open.length
          ? ['Open:', ...st.open.map((d) => `  ${d.number} due ${d.dueDate}${d.daysPastDue ? ` (${d.daysPastDue} days late)` : ''}: ${d.balance.toFixed(2)}`)]
          : []),
      ],
    },
  ),
  aging: op(
    ANYONE,
    z.strictObject({
      ...Org,
      receivables: z.boolean().optional().describe('What customers owe (the default)'),
      payables: z.boolean().optional().describe('What is owed to vendors'),
      date: DateString.optional().describe('At this date (default today)'),
      currency: Line(3).trim().min(3).optional().describe('Only documents in this currency, in it (default: all, in the base currency)'),
    }),
    async (ctx, { orgId, payables, date, currency }) => L.aging(ctx.ledger, await orgSeq(ctx, orgId), payables ? 'payables' : 'receivables', date, currency),
    {
      name: 'report aging',
      summary: 'aged receivables (--payables: payables) at a date, per contact by days past due',
      print: (a) => [
        `Aged ${a.side} at ${a.date}, ${a.currency}`,
        `${'Contact'.padEnd(28)} ${['Current', '1-30', '31-60', '61-90', '>90', 'Credit', 'Total'].map((h) => h.padStart(11)).join('')}`,
        ...[...a.contacts, { name: 'Total', ...a.totals, total: a.total }].map(
          (c) =>
            `${c.name.slice(0, 28).padEnd(28)} ${[c.current, c.days1to30, c.days31to60, c.days61to90, c.over90, c.credit, c.total].map((n) => n.toFixed(2).padStart(11)).join('')}`,
        ),
      ],
    },
  ),
};

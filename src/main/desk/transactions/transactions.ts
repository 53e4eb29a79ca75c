// Transactions at the desk and as owner commands (`ledgerdesk tx list|add|
// edit|delete|categorize|receipt|note`, `proposal reverse`): the register, and
// the bookkeeper's own hand (ledger/transactions/hand.ts): rows entered by
// hand, categorizing, receipts needed, notes, reversing an approval.
import { KEEPERS, PROPOSERS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Line, Prose, Uuid } from '../../api/fields';
import { TransactionsQuery } from '../../api/queries';
import * as L from '../../ledger';
import { op, Org, proposable, orgSeq, pageLine, TypedAmount } from '../operation';
import { againstWords, partOf } from '../../../shared/split-parts';

const Ids = z.array(Uuid).min(1).max(1000).describe('Transaction ids');
/** A row a filed return took changes only as a correction, deliberately (issue 43). */
const Correction = {
  correction: z.boolean().optional().describe('A row whose tax a filed return took: make the change as a correction in the next open return'),
};
const Money = TypedAmount.describe('Negative money out, positive money in (as you write it: -1,234.56)');
const row = (r: L.HandRow) =>
  `${r.id}  ${r.date}  ${r.amount_minor < 0 ? '' : ' '}${L.fromMinor(r.amount_minor, r.currency).toFixed(2)} ${r.currency}  ${r.description}  ${r.category ?? '(uncategorized)'}  [${r.status}]`;
const registerLine = (r: L.RegisterRow) =>
  `${r.id}  ${r.date}  ${r.amount.toFixed(2).padStart(13)} ${r.currency}  ${r.accountName.padEnd(18).slice(0, 18)}  ${r.description}  ${r.category ?? '(uncategorized)'}  [${r.status}]${r.balance === null ? '' : `  balance ${r.balance.toFixed(2)}`}`;

/** A line of a split row as its part (positive with the row), a line against the row said so. */
const partLine = (r: L.HandRow, l: L.EntryLine) => {
  const part = partOf(r.amount_minor, L.toMinor(l.amount, r.currency));
  const text = L.fromMinor(part, r.currency).toFixed(2).padStart(13);
  const against = part < 0 ? `  against the row: ${againstWords(r.amount_minor, L.fromMinor(-part, r.currency).toFixed(2))}` : '';
  return `${(l.kind === 'category' ? (l.categoryCode ?? '') : l.kind).padEnd(8)} ${text}${l.memo ? `  ${l.memo}` : ''}${against}`;
};

/** "5100=60.00[:memo]" (the command's --line) as a split's part. */
const SplitLineText = Line(700)
  .regex(/^[^=]+=[^:@]+(:.*)?$/, 'is <code>=<amount>[:<memo>][@<tax code>], e.g. 5100=60.00:paint@S')
  .transform((text) => {
    const [, rest, taxCode] = /^(.*?)(?:@([A-Za-z0-9][A-Za-z0-9_.-]{0,19}))?$/.exec(text)!;
    const [, code, amount, memo] = /^([^=]+)=([^:]+)(?::(.*))?$/.exec(rest)!;
    return { categoryCode: code.trim(), amount: amount.trim(), memo: memo?.trim() || undefined, taxCode };
  });
const SplitLine = z.union([
  z.strictObject({
    categoryCode: Line(50).trim().min(1),
    amount: TypedAmount.describe('Its part of the row, positive; negative goes against the row (a refund inside a payment)'),
    memo: Line(500).trim().optional(),
    taxCode: Line(20).trim().optional().describe("Its tax code; absent: the category's; empty: none"),
  }),
  SplitLineText,
]);

export const transactionOperations = {
  register: op(
    STAFF,
    TransactionsQuery.extend({ ...Org, account: Line(200).trim().min(1).optional().describe('One account, by name or id') }),
    async (ctx, { orgId, account, ...query }) => {
      const seq = await orgSeq(ctx, orgId);
      return L.registerPage(ctx.ledger, seq, { ...query, accountSeq: account ? (await L.requireAccount(ctx.ledger, seq, account)).seq : undefined });
    },
    {
      name: 'tx list',
      summary: 'find transactions (and their ids): newest first, with the filters the screens have',
      flags: { dateFrom: 'from', dateTo: 'to' },
      print: (page) => [
        ...page.data.map(registerLine),
        page.meta.totalCount === 0 ? 'No transactions match.' : pageLine({ offset: page.meta.offset, shown: page.data.length, total: page.meta.totalCount }, 'transaction'),
      ],
    },
  ),

  addTransaction: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      account: Line(200).trim().min(1).describe('The account, by name or id'),
      date: DateString,
      amount: Money,
      description: Line(500).trim().min(1),
      categoryCode: Line(50).trim().min(1).optional().describe('A code of the chart, e.g. 5300'),
      taxCode: Line(20).trim().min(1).optional().describe("Its tax code; default: the category's"),
      net: z.boolean().optional().describe('The amount is net of tax (the row is net + tax); otherwise gross, as a bank shows it'),
    }),
    async (ctx, { orgId, ...input }) => L.addTransaction(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, input),
    { name: 'tx add', summary: 'enter a transaction by hand (a cash expense, a missing row)', print: (r) => [`Added ${row(r)}`] },
  ),

  editTransaction: op(
    KEEPERS,
    z.strictObject({ ...Org, id: Uuid, date: DateString.optional(), amount: Money.optional(), description: Line(500).trim().min(1).optional(), ...Correction }),
    async (ctx, { orgId, id, correction, ...edit }) => L.editTransaction(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, edit, { correction }),
    { name: 'tx edit', summary: "change the date, amount or description of a row entered by hand (a bank's rows keep the bank's)", args: ['id'], print: (r) => [`Now ${row(r)}`] },
  ),

  deleteTransaction: op(
    KEEPERS,
    z.strictObject({ ...Org, id: Uuid, ...Correction }),
    async (ctx, { orgId, id, correction }) => L.deleteTransaction(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, { correction }),
    {
      name: 'tx delete',
      summary: "delete a row entered by hand, or a bank's row that should not be there (not once reconciled)",
      args: ['id'],
      print: (r) => [`Deleted ${r.id}.`],
    },
  ),

  categorizeTransactions: proposable(
    op(
      PROPOSERS,
      z.strictObject({
        ...Org,
        ids: Ids,
        categoryCode: Line(50).trim().nullable().describe('A code of the chart; empty (or null) leaves the rows uncategorized'),
        taxCode: Line(20).trim().nullable().optional().describe("The tax code (rows are gross: net and tax lines); default: the category's; empty: none"),
        ...Correction,
      }),
      async (ctx, { orgId, ids, categoryCode, taxCode, correction }) =>
        L.categorizeTransactions(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, ids, categoryCode || null, taxCode === '' ? null : taxCode, { correction }),
      { name: 'tx categorize', summary: 'categorize rows by hand (status matched; the agent suggestion is cleared)', args: ['ids...'], print: (rows) => rows.map(row) },
    ),
    async (ctx, { orgId, ids, categoryCode, taxCode }) => L.proposeCategories(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, ids, categoryCode, taxCode),
  ),

  splitTransaction: proposable(
    op(
      PROPOSERS,
      z.strictObject({
        ...Org,
        id: Uuid,
        lines: z
          .array(SplitLine)
          .min(2)
          .max(L.MAX_SPLIT_LINES)
          .describe(
            'A line: <code>=<part>[:<memo>], parts of the row as positive figures, e.g. 5100=60.00:paint (repeat --line; together exactly the row; a refund inside a payment: 5900=-20.00)',
          ),
        ...Correction,
      }),
      async (ctx, { orgId, id, lines, correction }) => {
        const seq = await orgSeq(ctx, orgId);
        const r = await L.splitTransaction(ctx.ledger, seq, ctx.reviewer, id, lines, { correction });
        return { ...r, lines: await L.entryLines(ctx.ledger, r.seq) };
      },
      {
        name: 'tx split',
        summary: 'split a row into categories (parts of it, adding up to it exactly)',
        args: ['id'],
        flags: { lines: 'line' },
        repeated: ['lines'],
        print: (r) => [`Split ${row(r)}`, ...r.lines.map((l) => `  ${partLine(r, l)}`)],
      },
    ),
    async (ctx, { orgId, id, lines }) => L.proposeSplit(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, lines),
  ),

  unsplitTransaction: op(
    KEEPERS,
    z
      .strictObject({
        ...Org,
        id: Uuid,
        categoryCode: Line(50).trim().min(1).optional().describe('What it becomes, when not what it was before its split: a code of the chart'),
        uncategorized: z.boolean().optional().describe('It becomes uncategorized'),
        ...Correction,
      })
      .refine((i) => !(i.categoryCode && i.uncategorized), { message: 'name a category or uncategorized, not both', path: ['uncategorized'] }),
    async (ctx, { orgId, id, categoryCode, uncategorized, correction }) =>
      L.unsplitTransaction(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, { categoryCode: uncategorized ? null : categoryCode }, { correction }),
    {
      name: 'tx unsplit',
      summary: 'one line again for a split row: what it was before its split (or --category-code, --uncategorized)',
      args: ['id'],
      print: (r) => [`Unsplit ${row(r)}`],
    },
  ),

  markReceiptMissing: op(
    KEEPERS,
    z.strictObject({ ...Org, ids: Ids, state: z.enum(['missing', 'found']).default('missing').describe('missing (status receipt_missing) or found (back)') }),
    async (ctx, { orgId, ids, state }) => L.markReceiptMissing(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, ids, state === 'missing'),
    { name: 'tx receipt', summary: 'mark rows as needing a receipt (--state found: back)', args: ['ids...'], print: (rows) => rows.map(row) },
  ),

  addNote: proposable(
    op(
      PROPOSERS,
      z.strictObject({ ...Org, transactionId: Uuid.describe('The transaction'), content: Prose(10000).trim().min(1).describe('The note') }),
      async (ctx, { orgId, transactionId, content }) => L.createNoteDirect(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, transactionId, content),
      { name: 'tx note', summary: 'add a note to a transaction', args: ['transactionId', 'content'], print: (n) => [`Added note ${n.id}.`] },
    ),
    async (ctx, { orgId, transactionId, content }) => L.proposeNote(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { transactionId, content }),
  ),
};

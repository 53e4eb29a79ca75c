// The chart of accounts and reconciliation at the desk and as owner commands
// (`ledgerdesk category list|add|rename|synonyms|retained-earnings|archive|restore`,
// `ledgerdesk reconcile`, `reconcile undo`).
import { ANYONE, KEEPERS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Line } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq, TypedAmount } from '../operation';

const Code = Line(20).trim().min(1).describe('The category code, e.g. 5400');
const kind = (c: L.DeskCategory) => (c.costOfSales ? `cost of sales${c.costOfSalesFrom ? ` with ${c.costOfSalesFrom}` : ''}` : c.type);
const line = (c: L.DeskCategory) =>
  `${c.code.padEnd(8)} ${c.name}  (${kind(c)}${c.retainedEarnings ? ', the retained earnings account' : ''}${c.parentCode ? ` under ${c.parentCode}` : ''})${c.synonyms.length ? `  synonyms: ${c.synonyms.join(', ')}` : ''}${c.inUse ? '' : '  ARCHIVED'}`;
/** A change's line, then what it does to agents' free text. */
const changed = (lead: string, c: L.ChartChange) => [`${lead}${line(c)}`, ...c.warnings.map((w) => `Note: ${w}`)];
const Ref = Line(200).trim().min(1).describe('The account: its name or id');
const figure = (n: number) => n.toFixed(2).padStart(14);

function printReconciliation(r: L.ReconciliationReport): string[] {
  const { reconciliation: c, account: a } = r;
  const rows = (list: L.Transaction[]) => list.map((t) => `  ${t.date}  ${figure(t.amount)}  ${t.description}`);
  return [
    `Reconciliation of "${a.name}" (${a.currency}) through ${c.statementDate}, by ${c.createdBy} on ${c.createdAt.slice(0, 10)}`,
    `${'Reconciled balance before'.padEnd(36)}${figure(r.previousBalance)}`,
    `${`Cleared deposits (${r.deposits.count})`.padEnd(36)}${figure(r.deposits.total)}`,
    `${`Cleared payments (${r.payments.count})`.padEnd(36)}${figure(r.payments.total)}`,
    `${'Cleared balance'.padEnd(36)}${figure(r.clearedBalance)}`,
    `${'Statement balance'.padEnd(36)}${figure(c.statementBalance)}`,
    `${'Difference'.padEnd(36)}${figure(r.difference)}`,
    'Cleared:',
    ...rows(r.cleared),
    `Outstanding on ${c.statementDate} (${r.outstanding.length}):`,
    ...rows(r.outstanding),
    `${'Books balance at the statement date'.padEnd(36)}${figure(r.bookBalance)}`,
  ];
}

export const chartOperations = {
  listChart: op(ANYONE, z.strictObject(Org), async (ctx, { orgId }) => L.deskChart(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'category list',
    summary: 'the chart of accounts',
    print: (cs) => cs.map(line),
  }),

  addCategory: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      code: Code,
      name: Line(200).trim().min(1),
      type: z.enum(L.CATEGORY_TYPES).describe('revenue, expense, asset, liability or equity'),
      parent: Line(20).trim().min(1).optional().describe('The parent category (its code), of the same type'),
      synonyms: z.array(Line(100).trim().min(1)).max(50).optional().describe('Other names: bank memos, informal names (comma-separated)'),
      costOfSales: z.boolean().optional().describe('An expense reported as cost of sales, above gross profit (stock, materials, direct labour), wherever it sits'),
    }),
    async (ctx, { orgId, parent, ...input }) => L.addCategory(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { ...input, parentCode: parent }),
    { name: 'category add', summary: 'add a category to the chart', args: ['code', 'name'], print: (c) => changed('Added ', c) },
  ),

  renameCategory: op(
    KEEPERS,
    z.strictObject({ ...Org, code: Code, name: Line(200).trim().min(1) }),
    async (ctx, { orgId, code, name }) => L.renameCategory(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code, name),
    { name: 'category rename', summary: 'rename a category, on its transactions too', args: ['code', 'name'], print: (c) => changed('Renamed: ', c) },
  ),

  setCategorySection: op(
    KEEPERS,
    z.strictObject({ ...Org, code: Code, section: z.enum(['cost_of_sales', 'expenses']).describe('cost_of_sales (above gross profit) or expenses') }),
    async (ctx, { orgId, code, section }) => L.setCostOfSales(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code, section === 'cost_of_sales'),
    { name: 'category section', summary: 'report an expense category as cost of sales or among the expenses', args: ['code', 'section'], print: (c) => [line(c)] },
  ),

  setRetainedEarnings: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      code: Code.optional().describe('The equity category that is the retained earnings account'),
      none: z.boolean().optional().describe("No category is: the earlier years' earnings stand as a line of their own"),
    }),
    async (ctx, { orgId, code, none }) => {
      if (!code === !none) throw L.invalid([{ field: 'code', message: 'name one equity category, or --none' }]);
      return L.setRetainedEarnings(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code ?? null);
    },
    {
      name: 'category retained-earnings',
      summary: "make an equity category THE retained earnings account (one balance sheet line with the earlier years' earnings)",
      args: ['code'],
      print: (c) => [c ? `The retained earnings account: ${line(c)}` : "No retained earnings account: the earlier years' earnings stand as a line of their own."],
    },
  ),

  setCategorySynonyms: op(
    KEEPERS,
    z.strictObject({ ...Org, code: Code, synonyms: z.array(Line(100).trim().min(1)).max(50) }),
    async (ctx, { orgId, code, synonyms }) => L.setSynonyms(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code, synonyms),
    { name: 'category synonyms', summary: "replace a category's synonyms", args: ['code', 'synonyms...'], print: (c) => changed('', c) },
  ),

  archiveCategory: op(
    KEEPERS,
    z.strictObject({ ...Org, code: Code }),
    async (ctx, { orgId, code }) => L.setCategoryArchived(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code, true),
    {
      name: 'category archive',
      summary: 'archive a category: kept for history, no longer offered',
      args: ['code'],
      print: (c) => [`Archived ${line(c)}`],
    },
  ),

  restoreCategory: op(
    KEEPERS,
    z.strictObject({ ...Org, code: Code }),
    async (ctx, { orgId, code }) => L.setCategoryArchived(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code, false),
    {
      name: 'category restore',
      summary: 'bring an archived category back into use',
      args: ['code'],
      print: (c) => [`Restored ${line(c)}`],
    },
  ),

  reconciliationReport: op(
    STAFF,
    z.strictObject({ ...Org, account: Ref, reconciliation: z.uuid().optional().describe('Which one (the latest when absent)') }),
    async (ctx, { orgId, account, reconciliation }) => L.reconciliationReport(ctx.ledger, await orgSeq(ctx, orgId), account, reconciliation),
    {
      name: 'reconcile report',
      summary: 'the report of a finished reconciliation (statement balance, cleared deposits and payments, outstanding rows)',
      args: ['account'],
      print: printReconciliation,
    },
  ),

  reconcileView: op(STAFF, z.strictObject({ ...Org, account: Ref, through: DateString.optional() }), async (ctx, { orgId, account, through }) =>
    L.reconcileView(ctx.ledger, await orgSeq(ctx, orgId), account, through),
  ),

  reconcileAccount: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      account: Ref,
      date: DateString.describe("The statement's end date"),
      balance: TypedAmount.describe("The statement's ending balance as printed (a card statement: what is owed, positive)"),
      clear: z.array(z.uuid('must be a transaction id')).max(100_000).optional().describe('The rows that cleared (comma-separated ids)'),
      clearThrough: DateString.optional().describe('Or: every row not yet reconciled up to this date'),
    }),
    async (ctx, { orgId, account, date, balance, clear, clearThrough }) =>
      L.reconcileAccount(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { account, statementDate: date, statementBalance: balance, clear, clearThrough }),
    {
      name: 'reconcile',
      summary: 'reconcile an account to a statement; finishes only when the difference is zero',
      args: ['account'],
      print: (r) => [`Reconciled through ${r.statementDate} at ${r.statementBalance.toFixed(2)}: ${r.rows} row(s) cleared.`],
    },
  ),

  undoReconciliation: op(
    KEEPERS,
    z.strictObject({ ...Org, account: Ref }),
    async (ctx, { orgId, account }) => L.undoReconciliation(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, account),
    {
      name: 'reconcile undo',
      summary: "undo an account's last reconciliation",
      args: ['account'],
      print: (r) => [`Undid the reconciliation through ${r.statementDate} (${r.rows} row(s)).`],
    },
  ),
};

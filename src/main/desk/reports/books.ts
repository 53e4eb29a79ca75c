// The reports an accountant signs, at the desk and as owner commands
// (`ledgerdesk report balance-sheet|trial-balance|ledger`): every figure
// names the general ledger account behind it (`ref`), which the Reports
// screen opens and `report ledger --account <ref>` prints.
import { ANYONE } from '../roles';
import * as z from 'zod';
import { DateString, Line } from '../../api/fields';
import { balanceSheetCsv, generalLedgerCsv, trialBalanceCsv } from '../../exports/books-csv';
import * as L from '../../ledger';
import { op, Org, orgSeq, Page, pageLine } from '../operation';

const figure = (n: number) => (n === 0 ? '-' : n.toFixed(2)).padStart(14);
const label = (l: { code?: string; name: string }) => `${l.code ? `${l.code} ` : ''}${l.name}`;

function printBalanceSheet(bs: L.BalanceSheet): string[] {
  const out = [`Balance sheet at ${bs.date}, ${bs.currency} (fiscal year from ${bs.fiscalYearStart})`];
  for (const [title, s] of [
    ['Assets', bs.assets],
    ['Liabilities', bs.liabilities],
    ['Equity', bs.equity],
  ] as const) {
    const lines = s.lines.flatMap((l) => [
      `  ${label(l).padEnd(40)}${figure(l.amount)}`,
      ...(l.parts ?? []).map((p) => `      of which ${label(p).padEnd(28)}${figure(p.amount)}`),
    ]);
    out.push(title, ...lines, `${`Total ${title.toLowerCase()}`.padEnd(42)}${figure(s.total)}`);
  }
  out.push(`${'Total liabilities and equity'.padEnd(42)}${figure(bs.liabilitiesAndEquity)}`);
  return out;
}

function printTrialBalance(tb: L.TrialBalance): string[] {
  return [
    `Trial balance, ${tb.from} to ${tb.to}, ${tb.currency}`,
    `${''.padEnd(42)}${'Debit'.padStart(14)}${'Credit'.padStart(14)}`,
    ...tb.lines.flatMap((l) => [
      `${label(l).padEnd(42)}${figure(l.debit)}${figure(l.credit)}`,
      ...(l.parts ?? []).map((p) => `    of which ${label(p).padEnd(30)}${figure(p.debit - p.credit)}`),
    ]),
    `${'Total'.padEnd(42)}${figure(tb.totalDebit)}${figure(tb.totalCredit)}`,
  ];
}

function printLedger(gl: L.GeneralLedger): string[] {
  const { offset, totalCount } = gl.meta;
  return [
    `${label(gl.account)}${gl.account.includes ? ` with ${gl.account.includes.map((c) => c.code).join(', ')}` : ''}, ${gl.from === '0001-01-01' ? 'from the beginning' : `from ${gl.from}`} to ${gl.to}, ${gl.currency}${gl.basis === 'cash' ? ', cash basis' : ''}`,
    `${'Starting balance'.padEnd(80)}${figure(gl.startingBalance)}`,
    ...gl.data.map(
      (p) =>
        `${p.date}  ${`${p.category ? `${p.category.code} ` : ''}${p.description}`.padEnd(34).slice(0, 34)}  ${p.other.padEnd(30).slice(0, 30)}${figure(p.amount)}${figure(p.balance)}`,
    ),
    `${'Net for the period'.padEnd(80)}${figure(gl.net)}`,
    `${'Ending balance'.padEnd(80)}${figure(gl.endingBalance)}`,
    totalCount === 0 ? 'No postings in the period.' : pageLine({ offset, shown: gl.data.length, total: totalCount }, 'posting'),
  ];
}

export const bookReportOperations = {
  balanceSheet: op(
    ANYONE,
    z.strictObject({ ...Org, date: DateString.optional().describe('At the end of this day (default: today)'), currency: z.string().length(3).optional() }),
    async (ctx, { orgId, ...options }) => L.balanceSheet(ctx.ledger, await orgSeq(ctx, orgId), options),
    { name: 'report balance-sheet', summary: 'assets, liabilities and equity at a date (assets = liabilities + equity)', print: printBalanceSheet, csv: balanceSheetCsv },
  ),

  trialBalance: op(
    ANYONE,
    z.strictObject({
      ...Org,
      from: DateString.optional().describe("First day (default: the fiscal year's start)"),
      to: DateString.optional().describe('Last day (default: today)'),
      currency: z.string().length(3).optional(),
    }),
    async (ctx, { orgId, ...options }) => L.trialBalance(ctx.ledger, await orgSeq(ctx, orgId), options),
    { name: 'report trial-balance', summary: 'every account with its debit or credit balance; the totals agree', print: printTrialBalance, csv: trialBalanceCsv },
  ),

  generalLedger: op(
    ANYONE,
    z.strictObject({
      ...Org,
      account: Line(200).trim().min(1).describe('A money account (name or id), a category (code or name), "suspense" or "in-transit"; or a report line\'s ref'),
      from: DateString.optional().describe('First day (default: the beginning)'),
      to: DateString.optional().describe('Last day (default: today)'),
      withChildren: z.boolean().optional().describe("A category with the categories the P&L reports under it (what a parent's subtotal adds up)"),
      basis: z.enum(['cash', 'accrual']).optional().describe("A category's invoices and bills by their dates (accrual, the default) or their payments' (cash)"),
      currency: z.string().length(3).optional().describe("A category's lines in one currency (default: every currency's, in the base currency)"),
      ...Page(500),
    }),
    async (ctx, { orgId, ...query }) => L.generalLedger(ctx.ledger, await orgSeq(ctx, orgId), query),
    { name: 'report ledger', summary: "an account's postings with a running balance and each entry's other side", print: printLedger, csv: generalLedgerCsv },
  ),
};

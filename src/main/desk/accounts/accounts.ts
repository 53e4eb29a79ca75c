// The organization's money accounts at the desk and as owner commands
// (`ledgerdesk account create|list|edit|close|reopen`).
import { ANYONE, KEEPERS } from '../roles';
import * as z from 'zod';
import { CurrencyCode, DateString, Line } from '../../api/fields';
import * as L from '../../ledger/accounts/accounts';
import { op, Org, orgSeq, TypedAmount } from '../operation';

const Ref = Line(200).trim().min(1).describe('The account: its name or id');
const details = {
  maskedNumber: Line(40).trim().nullable().optional().describe('As printed on statements, e.g. ****1234'),
  bankAccountId: Line(100).trim().nullable().optional().describe("The bank's id of the account in its files (account number, IBAN), so a file finds its account"),
  openingBalance: TypedAmount.optional().describe('The balance before the first transaction, as the account shows it: negative when money is owed (a card)'),
  openingDate: DateString.nullable().optional().describe('The date of the opening balance'),
};

const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;
const describe = (a: L.Account): string =>
  [
    a.name.padEnd(24),
    a.type.padEnd(17),
    money(a.balance, a.currency).padStart(18),
    `${a.transactionCount} rows`,
    `last import ${a.lastImportAt?.slice(0, 10) ?? 'never'}`,
    a.lastStatement ? `statement ${money(a.lastStatement.balance, a.currency)} on ${a.lastStatement.date}` : '',
    a.closedAt ? `CLOSED ${a.closedAt.slice(0, 10)}` : '',
  ]
    .filter(Boolean)
    .join('  ');

export const accountOperations = {
  listAccounts: op(ANYONE, z.strictObject(Org), async (ctx, { orgId }) => L.listAccounts(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'account list',
    summary: 'the accounts with their balances, last import and last statement balance',
    print: (accounts) => (accounts.length ? accounts.map(describe) : ['No accounts yet: add one with "ledgerdesk account create <name>".']),
  }),

  createAccount: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      name: Line(100).trim().min(1).describe('A name of your choice, unique in the organization'),
      type: z.enum(L.ACCOUNT_TYPES).default('checking').describe(L.ACCOUNT_TYPES.join(', ')),
      currency: CurrencyCode.optional().describe("Three letters; the organization's currency when absent"),
      ...details,
    }),
    async (ctx, { orgId, ...input }) => L.createAccount(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, input),
    {
      name: 'account create',
      summary: 'add a money account (checking, savings, card, cash, payment processor)',
      args: ['name'],
      print: (a) => [`Created account ${describe(a)} (${a.id}).`],
    },
  ),

  updateAccount: op(
    KEEPERS,
    z.strictObject({ ...Org, account: Ref, name: Line(100).trim().min(1).optional().describe('The new name'), type: z.enum(L.ACCOUNT_TYPES).optional(), ...details }),
    async (ctx, { orgId, account, ...changes }) => L.updateAccount(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, account, changes),
    {
      name: 'account edit',
      summary: 'rename an account or change its type, opening balance, masked number or bank id',
      args: ['account'],
      print: (a) => [`Account ${describe(a)}`],
    },
  ),

  closeAccount: op(
    KEEPERS,
    z.strictObject({ ...Org, account: Ref }),
    async (ctx, { orgId, account }) => L.setAccountClosed(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, account, true),
    {
      name: 'account close',
      summary: 'close an account: kept with its rows, read-only',
      args: ['account'],
      print: (a) => [`Closed ${a.name}.`],
    },
  ),

  reopenAccount: op(
    KEEPERS,
    z.strictObject({ ...Org, account: Ref }),
    async (ctx, { orgId, account }) => L.setAccountClosed(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, account, false),
    {
      name: 'account reopen',
      summary: 'reopen a closed account',
      args: ['account'],
      print: (a) => [`Reopened ${a.name}.`],
    },
  ),
};

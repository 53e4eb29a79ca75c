// The desk: the human side of the ledger (review, log, receipts, tokens,
// organizations, transactions, dashboard). Each operation is defined once with
// its zod input; IPC (desktop) and the session-protected HTTP route (browser
// mode) both run these, and nothing else.
import { ANYONE, STAFF, type RoleTable } from './roles';
import { seesTransactions } from '../ledger/access/roles';
import * as z from 'zod';
import { mcpClientConfigs } from '../api/mcp-clients';
import { DateString, Line, TransactionsQuery, Uuid } from '../api/schemas';
import * as L from '../ledger';
import type { DeskOperationName } from '../../shared/desk';
import { accountOperations } from './accounts/accounts';
import { backupOperations } from './access/backups';
import { transactionOperations } from './transactions/transactions';
import { transferOperations } from './transactions/transfers';
import { contactOperations } from './documents/contacts';
import { rateOperations } from './rates/rates';
import { documentDeskOperations } from './documents/documents';
import { documentFileOperations } from './documents/document-files';
import { creditDeskOperations } from './documents/credits';
import { documentDefaultOperations } from './documents/defaults';
import { voidOperations } from './documents/voids';
import { paymentLinkOperations } from './documents/payment-links';
import { quoteOperations } from './documents/quotes';
import { repeatOperations } from './documents/repeats';
import { taxAuditOperations, taxOperations, taxReportOperations } from './tax/tax';
import { hmrcOperations } from './tax/hmrc';
import { chartOperations } from './accounts/chart';
import { chartImportOperations } from './accounts/chart-import';
import { contactImportOperations } from './documents/contact-import';
import { organizationOperations } from './access/organizations';
import { peopleOperations } from './access/people';
import { importOperations } from './accounts/imports';
import { connectorOperations } from './connectors/connectors';
import { connectorAddOperations } from './connectors/add';
import { bankOperations } from './connectors/bank';
import { op, Org, orgSeq, Page, type DeskOperation } from './operation';
import { receiptOperations } from './transactions/receipts';
import { reportOperations } from './reports/reports';
import { bookReportOperations } from './reports/books';
import { reviewOperations } from './proposals/review';
import { ruleOperations } from './proposals/rules';
import { journalOperations } from './journals/journals';
import { openingOperations } from './journals/opening';
import { mailOperations } from './mail/mail';
import { reminderOperations } from './mail/reminders';
import { statementOperations } from './mail/statements';
import { practiceOperations } from './practice/practice';
import { signInLinkOperations } from './sign-in-links';

export type { DeskContext, Reviewer } from './operation';

export const deskOperations = {
  appInfo: op(ANYONE, z.strictObject({}), (ctx) => ({
    mode: ctx.mode,
    agentUrl: ctx.agentUrl,
    apiUrl: `${ctx.agentUrl}/api/v1`,
    mcpUrl: `${ctx.agentUrl}/api/mcp`,
    reviewer: ctx.reviewer.name,
    /** The person signed in (issue 45); null: the machine's owner. */
    person: ctx.person ? { id: ctx.person.id, name: ctx.person.name, email: ctx.person.email, totp: ctx.person.totp } : null,
    /** Who may run each operation: the screens hide what a role may not do (the server refuses it anyway). */
    roles: roleTable(),
  })),

  ...organizationOperations,
  ...peopleOperations,

  // Approvals: who may approve a proposal is read from this table (review.ts).
  ...reviewOperations(roleTable),

  listAudit: op(
    STAFF,
    z.strictObject({
      ...Org,
      actor: Line(200).min(1).optional(),
      action: Line(100).min(1).optional(),
      dateFrom: DateString.optional(),
      dateTo: DateString.optional(),
      ...Page(200),
    }),
    // Entries say what was written when they were: the log is not rewritten to show it (each entry's actor names its token).
    async (ctx, { orgId, ...query }) => {
      const seq = await orgSeq(ctx, orgId);
      return { ...(await L.listAudit(ctx.ledger, seq, query)), facets: await L.auditFacets(ctx.ledger, seq) };
    },
  ),

  /** A person's own tokens (an owner's People screen lists everyone's); the machine's owner sees them all. */
  listTokens: op(ANYONE, z.strictObject(Org), async (ctx, { orgId }) => L.listTokens(ctx.ledger, await orgSeq(ctx, orgId), ctx.person?.seq)),

  createToken: op(ANYONE, z.strictObject({ ...Org, name: Line(100).trim().min(1), scopes: z.array(z.enum(L.SCOPES)).min(1).max(2) }), async (ctx, { orgId, name, scopes }) => {
    // A token is its maker's and never exceeds their role: a client's propose-write is refused with the reason (L.createToken).
    const created = await L.createToken(ctx.ledger, await orgSeq(ctx, orgId), { name, scopes, userSeq: ctx.person?.seq ?? null }, ctx.reviewer);
    return { ...created, clientConfigs: mcpClientConfigs(`${ctx.agentUrl}/api/mcp`, created.token) };
  }),

  /** One's own token, or (an owner) anyone's. */
  revokeToken: op(ANYONE, z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) =>
    L.revokeToken(ctx.ledger, await orgSeq(ctx, orgId), id, ctx.reviewer, ctx.person && ctx.role !== 'owner' ? ctx.person.seq : undefined),
  ),

  listTransactions: op(STAFF, TransactionsQuery.extend({ ...Org, account: Uuid.optional() }), async (ctx, { orgId, account, ...query }) => {
    const seq = await orgSeq(ctx, orgId);
    return L.listTransactions(ctx.ledger, seq, { ...query, accountSeq: account ? (await L.requireAccount(ctx.ledger, seq, account)).seq : undefined });
  }),

  getTransaction: op(STAFF, z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) => L.getTransaction(ctx.ledger, await orgSeq(ctx, orgId), id)),

  /** A client's dashboard has no rows (they read no transactions: issue 50). */
  dashboard: op(ANYONE, z.strictObject(Org), async (ctx, { orgId }) =>
    L.dashboardSummary(ctx.ledger, await orgSeq(ctx, orgId), { transactions: seesTransactions(ctx.person ? ctx.role : null) }),
  ),

  ...accountOperations,
  ...importOperations,
  ...connectorOperations,
  ...connectorAddOperations,
  ...bankOperations,
  ...transactionOperations,
  ...transferOperations,
  ...contactOperations,
  ...contactImportOperations,
  ...rateOperations,
  ...documentDeskOperations,
  ...documentFileOperations,
  ...creditDeskOperations,
  ...documentDefaultOperations,
  ...voidOperations,
  ...paymentLinkOperations,
  ...quoteOperations,
  ...repeatOperations,
  ...taxOperations,
  ...taxReportOperations,
  ...taxAuditOperations,
  ...hmrcOperations,
  ...signInLinkOperations,
  ...chartOperations,
  ...chartImportOperations,
  ...reportOperations,
  ...bookReportOperations,
  ...backupOperations,
  ...receiptOperations,
  ...ruleOperations,
  ...journalOperations,
  ...openingOperations,
  ...mailOperations,
  ...reminderOperations,
  ...statementOperations,
  ...practiceOperations(roleTable),
  // Every name the screens call, each an operation (op() typed it: checking each entry against DeskOperation<ZodType>
  // again compared every zod input structurally, ~5% of the type check); each entry keeps its own types for DeskResult.
} satisfies Record<DeskOperationName, Pick<DeskOperation<z.ZodType, unknown>, 'roles'>>;

function roleTable(): RoleTable {
  return Object.fromEntries(Object.entries(deskOperations).map(([name, o]) => [name, o.roles])) as RoleTable;
}

type Operations = typeof deskOperations;
export type DeskInput<K extends DeskOperationName> = z.input<Operations[K]['input']>;
export type DeskResult<K extends DeskOperationName> = Awaited<ReturnType<Operations[K]['run']>>;

/** The object the preload exposes (and the browser client mirrors). */
export type DeskApi = { [K in DeskOperationName]: (input: DeskInput<K>) => Promise<DeskResult<K>> };

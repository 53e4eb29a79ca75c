// The spec's resources and request bodies as zod schemas: the one definition
// behind request validation, OpenAPI, MCP input/output schemas and CLI flags.
import * as z from 'zod';
import { CATEGORY_TYPES, CONNECTOR_STATUSES, DOCUMENT_KINDS, LINE_KINDS, SYNC_STATUSES } from '../../../db/values';
import { EVIDENCE_TYPES, KINDS, PROPOSAL_TYPES, type ProposalType } from '../ledger/proposals/kinds';
import { PROPOSAL_STATUSES } from '../ledger/proposals/proposals';
import { MCP_BRIEF } from './json-schema';
import { withArticle } from '../../shared/english';
import { Amount, Confidence, CurrencyCode, DateString, DateTime, Line, Prose, Reason, Uuid } from './fields';
import { paging, Source, Status } from './queries';

export { Amount, Confidence, CurrencyCode, DateString, DateTime, Line, NoInput, Prose, Reason, Uuid } from './fields';

export { paging, ProposalsQuery, Source, Status, TransactionsQuery } from './queries';

export const Transaction = z
  .object({
    id: Uuid,
    date: z.string().meta({ format: 'date' }),
    amount: z.number().describe('Negative means outflow, positive means inflow'),
    currency: z.string().length(3),
    description: z.string(),
    category: z.string().nullable().describe("Category name (a split: its largest line's)"),
    status: Status,
    source: Source,
    externalId: z.string().nullable(),
    suggestedBy: z.string().nullable().describe("mcp:<tokenId>, rule:<ruleId>, or person:<userId> (a preparer's approved proposal)"),
    confidence: z.number().min(0).max(1).nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'Transaction' });

export const Note = z.object({ id: Uuid, transactionId: Uuid, content: z.string(), authorUserId: z.string().nullable(), createdAt: DateTime }).meta({ id: 'Note' });

export const Receipt = z
  .object({
    id: Uuid,
    transactionId: Uuid.nullable(),
    fileName: z.string(),
    mimeType: z.string(),
    sizeBytes: z.int(),
    ocrText: z.string().nullable(),
    createdAt: DateTime,
  })
  .meta({ id: 'Receipt', description: 'Metadata only.' });

export const EntryLine = z
  .object({
    kind: z.enum(LINE_KINDS).describe('transfer: to accountId'),
    categoryCode: z.string().nullable(),
    accountId: Uuid.nullable(),
    counterpartId: Uuid.nullable().describe('null: in transit'),
    amount: z.number().describe('Its part of the amount'),
    memo: z.string().nullable(),
    currency: z.string().optional().describe("Its currency, when not the transaction's: it pays an invoice in that one (ext.)"),
  })
  .meta({ id: 'EntryLine' });

export const TransactionDetail = z
  .object({
    transaction: Transaction,
    notes: z.array(Note),
    receipts: z.array(Receipt),
    lines: z.array(EntryLine).describe('Its entry (ext.)'),
  })
  .meta({ id: 'TransactionDetail' });

export const Category = z
  .object({
    code: z.string().describe('Stable chart-of-accounts code; empty for ad-hoc categories'),
    name: z.string().describe('Canonical name, as on transactions'),
    type: z.enum(CATEGORY_TYPES),
    inUse: z.boolean(),
    parentCode: z.string().nullable(),
    synonyms: z.array(z.string()),
    taxCode: z.string().nullable().describe('Its default tax code'),
  })
  .meta({ id: 'Category' });

export const Connector = z
  .object({
    id: Uuid,
    name: z.string(),
    provider: z.string(),
    status: z.enum(CONNECTOR_STATUSES),
    lastSyncAt: DateTime.nullable(),
    syncStatus: z.enum(SYNC_STATUSES).nullable(),
  })
  .meta({ id: 'Connector' });

export const EvidenceItem = z
  .strictObject({
    type: z
      .enum(EVIDENCE_TYPES)
      .describe(
        'counterparty_match: a known counterparty (value: name or alias); rule: your pattern; historical: like rows got it (value: an example or count); keyword: a word; receipt: a receipt shows it (value: its id or name)',
      ),
    value: Prose(500).min(1).describe('What matched, in a few words'),
    detail: Prose(2000).optional().describe('Optional: more for the reviewer'),
  })
  .meta({ id: 'EvidenceItem' });

/**
 * In a tool's result a payload is named, not spelled out: it is what the propose tool took, resolved, and that
 * tool's input describes it (json-schema.ts, MCP_BRIEF). Added to each kind's own payload schema where it is
 * registered, so OpenAPI keeps the shapes and their ids.
 */
const briefPayload = <S extends z.ZodType>(payload: S, brief: string): S => {
  z.globalRegistry.add(payload, { ...z.globalRegistry.get(payload), [MCP_BRIEF]: brief });
  return payload;
};
for (const k of KINDS) briefPayload(k.payload, `type ${k.type}: the fields its propose tool took, resolved`);
const proposalOf = <P extends z.ZodType>(payload: P) =>
  z.object({
    id: Uuid,
    type: z.enum(PROPOSAL_TYPES),
    status: z.enum(PROPOSAL_STATUSES),
    payload,
    proposedBy: z.string().describe('mcp:<tokenId>, rule:<ruleId>, person:<userId>'),
    confidence: z.number().min(0).max(1).nullable(),
    reason: z.string().nullable(),
    createdAt: DateTime,
    // An extension (issue 45), only on a person's proposal; undescribed to keep the tools' schemas small (docs/mcp.md).
    proposedByPerson: z.object({ id: z.string(), name: z.string() }).optional(),
  });
const DRAFT = 'Never a ledger entry until a human approves it.';

export const Proposal = proposalOf(
  briefPayload(
    z.union(KINDS.map((k) => k.payload) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]).describe('Contents per type'),
    'Per type: the fields its propose tool took',
  ),
).meta({
  id: 'Proposal',
  description: DRAFT,
});

/** CategorizationProposalResult for categorization, and so on. */
const resultId = (type: string) =>
  `${type
    .split('_')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')}ProposalResult`;

/** What each propose operation answers: a Proposal of its one type (a narrower schema than Proposal, for OpenAPI and MCP). */
export const ProposalOfType = Object.fromEntries(KINDS.map((k) => [k.type, proposalOf(k.payload).meta({ id: resultId(k.type) })])) as unknown as Record<ProposalType, z.ZodType>;

export const DashboardSummary = z
  .object({
    currency: z.string().length(3),
    revenue: z.number().describe('Profit and loss revenue, 12 months to the latest month'),
    expenses: z.number().describe('Its expenses (positive), same months'),
    cashPosition: z.number().describe('Balance of the money accounts in its base currency'),
    pendingReview: z.int().describe('uncategorized + receipt_missing + agent_suggested'),
    missingReceipts: z.int().describe('Rows with status receipt_missing'),
    uncategorized: z.int().describe('Rows with status uncategorized'),
    agentSuggested: z.int().describe('Pending proposals'),
    recentTransactions: z.array(z.object({ id: z.string(), date: z.string(), amount: z.number(), description: z.string(), status: z.string() })),
    monthlyTrend: z.array(z.object({ month: z.string().describe('YYYY-MM'), revenue: z.number(), expenses: z.number() })),
    notifications: z.array(
      z.object({
        type: z.enum(['proposals_pending', 'connector_error', 'connector_stale', 'receipts_missing']),
        severity: z.enum(['info', 'warning', 'error']),
        message: z.string(),
        targetId: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'DashboardSummary' });

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().describe('Stable machine-readable code; see the error codes table in the API description'),
      message: z.string(),
      details: z.any().describe('For validation_failed: a list of { field, message }'),
    }),
  })
  .meta({ id: 'Error' });

// Request bodies: every one rejects unknown properties.
const CategoryCode = z
  .string({
    error: (issue) =>
      issue.code === 'invalid_type' && issue.input !== undefined
        ? `must be a string such as "5300" (a code from list_categories), not ${withArticle(typeof issue.input)}`
        : undefined,
  })
  .min(1)
  .max(50, 'must be at most 50 characters')
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters (NUL, tab, line breaks...)');
const categoryChoice = {
  categoryCode: CategoryCode.optional().describe('Preferred (or category): a code from list_categories, a string such as "5300"'),
  category: Line(200).min(1).optional().describe('Or a name or synonym, read with the money\'s sign (inflow "Subscriptions" is 4010)'),
};

const SplitLine = z
  .strictObject({
    categoryCode: CategoryCode.describe('From list_categories'),
    amount: Amount.describe('Part, >0 (<0: against the row)'),
    memo: Line(500).optional().describe('Note'),
    taxCode: Line(20).min(1).optional().describe('Tax code'),
  })
  .meta({ id: 'SplitLine' });

export const CategorizationProposal = z
  .strictObject({
    transactionId: Uuid.describe('The transaction to categorize'),
    ...categoryChoice,
    lines: z.array(SplitLine).min(2, 'a split has at least two lines').max(100, 'a split has at most 100 lines').optional().describe('Or a split (ext.) into parts'),
    taxCode: Line(20).min(1).optional().describe("Tax code (else the category's)"),
    confidence: Confidence.optional(),
    reason: Reason.optional(),
    evidence: z.array(EvidenceItem).max(20).optional().describe('At most 20 items'),
  })
  .refine((b) => b.categoryCode !== undefined || b.category !== undefined || b.lines !== undefined, {
    message: 'one of categoryCode, category or lines is required',
    path: ['categoryCode'],
  })
  .refine((b) => b.lines === undefined || (b.categoryCode === undefined && b.category === undefined), {
    message: 'send lines or one category, not both',
    path: ['lines'],
  })
  .meta({ id: 'CategorizationProposal' });

const JournalLine = z
  .strictObject({
    categoryCode: CategoryCode.optional().describe('From list_categories'),
    account: Line(200).min(1).optional().describe('Or a money account, or tax-control'),
    amount: Amount.describe('Debit >0, credit <0'),
    taxCode: Line(20).min(1).optional().describe('Tax code (amount net)'),
    memo: Line(500).optional().describe('Note'),
  })
  .meta({ id: 'JournalLine' });

export const JournalEntryProposal = z
  .strictObject({
    date: DateString.describe("The entry's date"),
    description: Line(500).min(1).describe('What it is, as a statement would say'),
    amount: Amount.describe('Negative outflow, positive inflow; with lines, their debits'),
    currency: CurrencyCode.optional().describe("Three-letter code; defaults to the organization's currency"),
    ...categoryChoice,
    source: Source.optional().describe('Defaults to manual_csv'),
    lines: z.array(JournalLine).min(2, 'a journal has at least two lines').max(100, 'a journal has at most 100 lines').optional().describe('Or a balanced journal (ext.)'),
    confidence: Confidence.optional(),
    reason: Reason.optional(),
  })
  .refine((b) => b.lines === undefined || (b.categoryCode === undefined && b.category === undefined), {
    message: 'send lines or one category, not both',
    path: ['lines'],
  })
  .meta({ id: 'JournalEntryProposal' });

export const ReceiptLinkProposal = z
  .strictObject({
    transactionId: Uuid.describe('The transaction the receipt belongs to'),
    receiptId: Uuid.describe('The receipt, from search_receipts'),
    confidence: Confidence.optional(),
    reason: Reason.optional(),
  })
  .meta({ id: 'ReceiptLinkProposal' });

export const NoteRequest = z
  .strictObject({ transactionId: Uuid.describe('The transaction the note is about'), content: Prose(10000).min(1).describe('Free text. Must not hold secrets') })
  .meta({ id: 'NoteRequest' });

export const IdParams = z.strictObject({ id: Uuid.describe('The id (a UUID; any case)') });
export const ReceiptSearchQuery = z.strictObject({ q: Line(200).trim().min(1, 'is required').describe('Words searched in file names and OCR text, at most 200 characters') });
export const NotesQuery = z.strictObject({ transactionId: Uuid.describe('The transaction whose notes to list') });

export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });
export const JsonLd = z.record(z.string(), z.unknown()).describe('JSON-LD document (application/ld+json)');

// Invoices, credit notes and bills (issue 29): read-only for agents, beyond the spec's seventeen operations.
const Money = z.number().describe('In the currency, a decimal number');
export const Invoice = z
  .object({
    id: Uuid,
    // Quotes (issue 53) are not among an agent's documents: they book nothing and no agent operation reads them.
    kind: z.enum(DOCUMENT_KINDS.filter((k): k is Exclude<(typeof DOCUMENT_KINDS)[number], 'quote'> => k !== 'quote') as ['invoice', 'credit_note', 'bill']),
    number: z.string(),
    status: z.enum(['draft', 'sent', 'open', 'partially_paid', 'paid', 'void']).describe('sent: an issued invoice; open: an entered bill'),
    overdue: z.boolean(),
    contact: z.object({ id: Uuid, name: z.string() }),
    issueDate: DateString,
    dueDate: DateString,
    currency: z.string(),
    taxInclusive: z.boolean(),
    lines: z.array(
      z.object({
        description: z.string(),
        quantity: z.number(),
        unitPrice: Money,
        categoryCode: z.string(),
        category: z.string(),
        taxCode: z.string().nullable(),
        net: Money,
        tax: Money,
      }),
    ),
    taxes: z.array(z.object({ taxCode: z.string(), rate: z.number(), net: Money, tax: Money })),
    net: Money,
    tax: Money,
    total: Money,
    paid: Money,
    credited: Money,
    balance: Money.describe('What is still owed'),
    creditAvailable: Money.describe("What of the contact's credit (an earlier overpayment) could pay it today (0: none)"),
    settlements: z.array(
      z.object({
        date: DateString,
        amount: Money,
        transactionId: Uuid.optional(),
        creditNote: z.string().optional(),
        creditApplied: z.literal(true).optional(),
        received: z.object({ amount: Money, currency: z.string() }).optional().describe("Paid from a row in another currency: what of the row paid it, in the row's"),
      }),
    ),
    credits: z.string().nullable().describe("A credit note's invoice number"),
    notes: z.string().nullable(),
    paymentInstructions: z.string().nullable(),
    voidDate: DateString.nullable(),
    voidReason: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });
export const InvoicesQuery = z.strictObject({
  kind: z.enum(['invoice', 'bill']).default('invoice').describe('invoice (with credit notes) or bill'),
  status: z.enum(['draft', 'sent', 'open', 'partially_paid', 'paid', 'void', 'overdue']).optional().describe('Only this status (overdue: owed past the due date)'),
  ...paging,
});
export const InvoiceParams = z.strictObject({ id: Line(60).trim().min(1).describe('Its id, or its number (INV-0001)') });

// The operation registry: each of the spec's 17 operations described ONCE.
// REST routes, MCP tools, the OpenAPI document and the CLI are derived from it.
import { z } from 'zod';
import * as L from '../ledger/domain';
import type { AgentActor, Operation, OperationContext } from './operation';
import * as S from './schemas';

export { API_VERSION, inputOf, objectShape, type AgentActor, type Operation, type OperationContext } from './operation';

const orgOf = (ctx: OperationContext): number => ctx.token!.orgSeq;
const agentOf = (ctx: OperationContext): AgentActor => ({
  type: 'token',
  tokenSeq: ctx.token!.seq,
  tokenId: ctx.token!.id,
  tokenName: ctx.token!.name,
  channel: ctx.channel,
});

const NO_ORG_ID = 'Never pass an organization id: the token is already bound to one organization.';
const PROPOSAL_NOTE =
  'This creates a pending proposal, never a posted ledger entry: the books change only when a human approves it in Approvals. ' +
  'Write a clear reason, a calibrated confidence and concrete evidence; the human reviewer reads them.';

export const operations: Operation[] = [
  {
    operationId: 'get_ontology',
    method: 'GET',
    path: '/ontology.jsonld',
    scope: null,
    exposeByDefault: true,
    title: 'Get the public ontology',
    description:
      'The public JSON-LD ontology: chart-of-accounts codes with names, types and synonyms, seed counterparties (vendors with aliases and a default category code) and the core classes. No organization data; no token needed. Use list_categories for this organization\'s actual chart.',
    output: S.JsonLd,
    successStatus: 200,
    contentType: 'application/ld+json',
    errors: [],
    run: () => L.ontologyDocument(),
  },
  {
    operationId: 'get_ontology_context',
    method: 'GET',
    path: '/ontology/context.jsonld',
    scope: null,
    exposeByDefault: false,
    title: 'Get the ontology JSON-LD context',
    description: 'Only the JSON-LD @context of the ontology, for JSON-LD processors. No token needed.',
    output: S.JsonLd,
    successStatus: 200,
    contentType: 'application/ld+json',
    errors: [],
    run: () => L.contextDocument(),
  },
  {
    operationId: 'list_transactions',
    method: 'GET',
    path: '/transactions',
    scope: 'read',
    exposeByDefault: true,
    title: 'List transactions',
    description:
      'Transactions of the organization, newest date first, filtered by status, source, date, dateFrom/dateTo (inclusive), exact category name (or __uncategorized__) and a case-insensitive description substring. ' +
      'To find categorization work use status=uncategorized. Use limit 50 or less unless exporting; page with offset; meta.totalCount counts all matches. ' +
      NO_ORG_ID,
    query: S.TransactionsQuery,
    output: z.object({ data: z.array(S.Transaction), meta: z.object({ totalCount: z.int(), limit: z.int(), offset: z.int() }) }),
    successStatus: 200,
    errors: [],
    run: (ctx, q) => L.listTransactions(ctx.ledger, orgOf(ctx), q),
  },
  {
    operationId: 'get_transaction',
    method: 'GET',
    path: '/transactions/{id}',
    scope: 'read',
    exposeByDefault: true,
    title: 'Get one transaction with its notes and receipts',
    description:
      'One transaction with its notes and linked receipts (metadata). Prefer this over list_notes: it returns the notes too. Call it when a description alone is not enough to categorize.',
    params: S.IdParams,
    output: S.envelope(S.TransactionDetail),
    successStatus: 200,
    errors: ['not_found'],
    run: (ctx, { id }) => ({ data: L.getTransaction(ctx.ledger, orgOf(ctx), id) }),
  },
  {
    operationId: 'get_dashboard_summary',
    method: 'GET',
    path: '/dashboard/summary',
    scope: 'read',
    exposeByDefault: true,
    title: 'Get the dashboard summary',
    description:
      "Revenue and expenses (cash basis, organization currency) over the twelve months ending with the latest transaction's month, all-time cash position, counts of transactions needing review, pending proposals, recent transactions, the monthly trend and notifications.",
    output: S.envelope(S.DashboardSummary),
    successStatus: 200,
    errors: [],
    run: (ctx) => ({ data: L.dashboardSummary(ctx.ledger, orgOf(ctx)) }),
  },
  {
    operationId: 'search_receipts',
    method: 'GET',
    path: '/receipts/search',
    scope: 'read',
    exposeByDefault: true,
    title: 'Search receipts',
    description:
      'Receipts whose file name or OCR text contains every word of q (case-insensitive), best matches first, at most 50. Metadata only. Use it to find the receipt for a transaction before propose_receipt_link.',
    query: S.ReceiptSearchQuery,
    output: z.object({ data: z.array(S.Receipt), meta: z.object({ count: z.int(), limit: z.int() }) }),
    successStatus: 200,
    errors: [],
    run: (ctx, { q }) => {
      const data = L.searchReceipts(ctx.ledger, orgOf(ctx), q);
      return { data, meta: { count: data.length, limit: L.RECEIPT_SEARCH_LIMIT } };
    },
  },
  {
    operationId: 'get_receipt',
    method: 'GET',
    path: '/receipts/{id}',
    scope: 'read',
    exposeByDefault: false,
    title: 'Get receipt metadata',
    description: 'One receipt\'s metadata and OCR text; file bytes are never returned.',
    params: S.IdParams,
    output: S.envelope(S.Receipt),
    successStatus: 200,
    errors: ['not_found'],
    run: (ctx, { id }) => ({ data: L.getReceipt(ctx.ledger, orgOf(ctx), id) }),
  },
  {
    operationId: 'list_categories',
    method: 'GET',
    path: '/categories',
    scope: 'read',
    exposeByDefault: true,
    title: 'List the chart of accounts',
    description:
      "The organization's chart of accounts: code, canonical name, type, parentCode, synonyms and whether it is in use. Load it first; then propose with categoryCode (preferred over free-text category names).",
    output: S.envelope(z.array(S.Category)),
    successStatus: 200,
    errors: [],
    run: (ctx) => ({ data: L.listCategories(ctx.ledger, orgOf(ctx)) }),
  },
  {
    operationId: 'list_connectors',
    method: 'GET',
    path: '/connectors',
    scope: 'read',
    exposeByDefault: true,
    title: 'List connectors and their sync status',
    description: 'Bank feeds, payment processors and imports with their status, last sync time and sync outcome (ok, error, stale).',
    output: S.envelope(z.array(S.Connector)),
    successStatus: 200,
    errors: [],
    run: (ctx) => ({ data: L.listConnectors(ctx.ledger, orgOf(ctx)) }),
  },
  {
    operationId: 'list_pending_proposals',
    method: 'GET',
    path: '/proposals',
    scope: 'read',
    exposeByDefault: true,
    title: 'List pending proposals',
    description:
      'Proposals still waiting for human review, newest first, 50 at a time (limit up to 500, offset to page); meta.count is how many are pending in all. Use it to confirm what you proposed is pending and to avoid proposing the same change twice. Pending proposals are not ledger entries.',
    query: S.ProposalsQuery,
    output: z.object({ data: z.array(S.Proposal), meta: z.object({ count: z.int().describe('Pending proposals in all, not only this page') }) }),
    successStatus: 200,
    errors: [],
    run: (ctx, page) => {
      const { proposals, count } = L.listPendingProposals(ctx.ledger, orgOf(ctx), page);
      return { data: proposals, meta: { count } };
    },
  },
  {
    operationId: 'get_proposal',
    method: 'GET',
    path: '/proposals/{id}',
    scope: 'read',
    exposeByDefault: false,
    title: 'Get one proposal',
    description: 'One proposal in any status (pending, approved or rejected), to see how a human decided.',
    params: S.IdParams,
    output: S.envelope(S.Proposal),
    successStatus: 200,
    errors: ['not_found'],
    run: (ctx, { id }) => ({ data: L.getProposal(ctx.ledger, orgOf(ctx), id) }),
  },
  {
    operationId: 'propose_categorization',
    method: 'POST',
    path: '/proposals/categorization',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose a category for a transaction',
    description:
      'Proposes a category for one transaction. Send categoryCode from list_categories (preferred); a category name or synonym is accepted for compatibility and resolved to the chart. ' +
      PROPOSAL_NOTE,
    body: S.CategorizationProposal,
    output: S.envelope(S.Proposal),
    successStatus: 201,
    errors: ['not_found'],
    run: (ctx, body) => ({ data: L.proposeCategorization(ctx.ledger, orgOf(ctx), agentOf(ctx), body) }),
  },
  {
    operationId: 'propose_journal_entry',
    method: 'POST',
    path: '/proposals/journal-entry',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose a new manual journal entry',
    description:
      'Proposes a NEW manual transaction (date, description, amount; negative is an outflow). It never edits existing transactions: use propose_categorization for those. Prefer categoryCode over category. ' +
      PROPOSAL_NOTE,
    body: S.JournalEntryProposal,
    output: S.envelope(S.Proposal),
    successStatus: 201,
    errors: [],
    run: (ctx, body) => ({ data: L.proposeJournalEntry(ctx.ledger, orgOf(ctx), agentOf(ctx), body) }),
  },
  {
    operationId: 'propose_receipt_link',
    method: 'POST',
    path: '/proposals/receipt-link',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose linking a receipt to a transaction',
    description: 'Proposes that an existing receipt (see search_receipts) belongs to a transaction. ' + PROPOSAL_NOTE,
    body: S.ReceiptLinkProposal,
    output: S.envelope(S.Proposal),
    successStatus: 201,
    errors: ['not_found'],
    run: (ctx, body) => ({ data: L.proposeReceiptLink(ctx.ledger, orgOf(ctx), agentOf(ctx), body) }),
  },
  {
    operationId: 'list_notes',
    method: 'GET',
    path: '/notes',
    scope: 'read',
    exposeByDefault: false,
    title: 'List the notes of a transaction',
    description: 'Notes of one transaction, oldest first. Prefer get_transaction, which returns the same notes with the transaction and its receipts.',
    query: S.NotesQuery,
    output: S.envelope(z.array(S.Note)),
    successStatus: 200,
    errors: ['not_found'],
    run: (ctx, { transactionId }) => ({ data: L.listNotes(ctx.ledger, orgOf(ctx), transactionId) }),
  },
  {
    operationId: 'attach_note',
    method: 'POST',
    path: '/notes',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose a note on a transaction',
    description:
      'Proposes a note on a transaction; it is added when a human approves. Prefer this over create_note. Notes are read by people: no secrets. ' + PROPOSAL_NOTE,
    body: S.NoteRequest,
    output: S.envelope(S.Proposal),
    successStatus: 201,
    errors: ['not_found'],
    run: (ctx, body) => ({ data: L.attachNote(ctx.ledger, orgOf(ctx), agentOf(ctx), body) }),
  },
  {
    operationId: 'create_note',
    method: 'PUT',
    path: '/notes',
    scope: 'propose-write',
    exposeByDefault: false,
    deprecated: true,
    title: 'Create a note directly (deprecated)',
    description:
      'DEPRECATED: use attach_note instead. Creates a note at once, without approval; meant only for trusted automation. The write is audit-logged.',
    body: S.NoteRequest,
    output: S.envelope(S.Note),
    successStatus: 201,
    errors: ['not_found'],
    run: (ctx, body) => ({ data: L.createNoteDirect(ctx.ledger, orgOf(ctx), agentOf(ctx), body.transactionId, body.content) }),
  },
];

export const operationById = new Map(operations.map((op) => [op.operationId, op]));

// The operation registry: each of the spec's 17 operations described ONCE (and
// the documented additions beyond it, issue 29's invoices).
// REST routes, MCP tools, the OpenAPI document and the CLI are derived from it.
import * as z from 'zod';
import * as L from '../ledger/domain';
import { seesTransactions } from '../ledger/access/roles';
import { Answer, type AgentActor, type Operation, type OperationContext } from './operation';
import * as S from './schemas';

export { Answer, API_VERSION, inputOf, objectShape, type AgentActor, type Operation, type OperationContext } from './operation';

const orgOf = (ctx: OperationContext): number => ctx.token!.orgSeq;
const agentOf = (ctx: OperationContext): AgentActor => ({
  type: 'token',
  tokenSeq: ctx.token!.seq,
  tokenId: ctx.token!.id,
  tokenName: ctx.token!.name,
  channel: ctx.channel,
});

/** A new proposal is created (201); the same change already pending is answered as it is (200), not stored twice. */
const proposed = (proposal: L.Proposal): unknown =>
  L.isAlreadyPending(proposal) ? new Answer(200, { data: proposal }, `The same change is already pending as proposal ${proposal.id}; nothing new was stored.`) : { data: proposal };
const ALREADY_PENDING = {
  status: 200,
  description: 'The same change (type, target and effect) is already pending: that proposal is answered and nothing new is stored.',
} as const;

const PROPOSAL_NOTE = 'Pending until a human approves it; proposing it again answers the pending one.';

export const operations: Operation[] = [
  {
    operationId: 'get_ontology',
    forClients: true,
    method: 'GET',
    path: '/ontology.jsonld',
    scope: null,
    exposeByDefault: true,
    title: 'Get the public ontology',
    description: 'The public ontology (JSON-LD): chart codes, synonyms, seed counterparties (your chart: list_categories).',
    output: S.JsonLd,
    successStatus: 200,
    contentType: 'application/ld+json',
    errors: [],
    run: () => L.ontologyDocument(),
  },
  {
    operationId: 'get_ontology_context',
    forClients: true,
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
    description: 'Transactions, newest first. Work: status=uncategorized. Use limit 50 or less; page with offset; meta.totalCount counts all matches.',
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
    description: 'One transaction with notes, receipts (metadata) and entry lines; prefer it over list_notes, when a description is not enough.',
    params: S.IdParams,
    output: S.envelope(S.TransactionDetail),
    successStatus: 200,
    errors: ['not_found'],
    run: async (ctx, { id }) => ({ data: await L.getTransaction(ctx.ledger, orgOf(ctx), id) }),
  },
  {
    operationId: 'get_dashboard_summary',
    forClients: true,
    method: 'GET',
    path: '/dashboard/summary',
    scope: 'read',
    exposeByDefault: true,
    title: 'Get the dashboard summary',
    description: 'Revenue and expenses (P&L, 12 months to the latest), cash position, review counts, recent rows, monthly trend, notifications.',
    output: S.envelope(S.DashboardSummary),
    successStatus: 200,
    errors: [],
    // A client's token: no rows (a client reads no transactions), the list answered empty as the spec's shape requires.
    run: async (ctx) => ({ data: await L.dashboardSummary(ctx.ledger, orgOf(ctx), { transactions: seesTransactions(ctx.token?.role) }) }),
  },
  {
    operationId: 'search_receipts',
    method: 'GET',
    path: '/receipts/search',
    scope: 'read',
    exposeByDefault: true,
    title: 'Search receipts',
    description: 'Receipts whose file name or OCR text has every word of q, newest first, at most 50; find one before propose_receipt_link.',
    query: S.ReceiptSearchQuery,
    output: z.object({ data: z.array(S.Receipt), meta: z.object({ count: z.int(), limit: z.int() }) }),
    successStatus: 200,
    errors: [],
    run: async (ctx, { q }) => {
      const data = await L.searchReceipts(ctx.ledger, orgOf(ctx), q);
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
    description: "One receipt's metadata and OCR text; file bytes are never returned.",
    params: S.IdParams,
    output: S.envelope(S.Receipt),
    successStatus: 200,
    errors: ['not_found'],
    run: async (ctx, { id }) => ({ data: await L.getReceipt(ctx.ledger, orgOf(ctx), id) }),
  },
  {
    operationId: 'list_categories',
    forClients: true,
    method: 'GET',
    path: '/categories',
    scope: 'read',
    exposeByDefault: true,
    title: 'List the chart of accounts',
    description: 'The chart: code, canonical name, type, parentCode, synonyms, inUse, taxCode. Load it first; propose with categoryCode.',
    output: S.envelope(z.array(S.Category)),
    successStatus: 200,
    errors: [],
    run: async (ctx) => ({ data: await L.listCategories(ctx.ledger, orgOf(ctx)) }),
  },
  {
    operationId: 'list_connectors',
    method: 'GET',
    path: '/connectors',
    scope: 'read',
    exposeByDefault: true,
    title: 'List connectors and their sync status',
    description: 'Money accounts (bank, card, processor): status, last sync and its outcome (ok, error, stale).',
    output: S.envelope(z.array(S.Connector)),
    successStatus: 200,
    errors: [],
    run: async (ctx) => ({ data: await L.listConnectors(ctx.ledger, orgOf(ctx)) }),
  },
  {
    operationId: 'list_pending_proposals',
    method: 'GET',
    path: '/proposals',
    scope: 'read',
    exposeByDefault: true,
    title: 'List pending proposals',
    description: 'Proposals waiting for a human, newest first; meta.count counts all pending (not ledger entries).',
    query: S.ProposalsQuery,
    output: z.object({ data: z.array(S.Proposal), meta: z.object({ count: z.int().describe('Pending in all, not only this page') }) }),
    successStatus: 200,
    errors: [],
    run: async (ctx, page) => {
      const { proposals, count } = await L.listPendingProposals(ctx.ledger, orgOf(ctx), page);
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
    run: async (ctx, { id }) => ({ data: await L.getAgentProposal(ctx.ledger, orgOf(ctx), id) }),
  },
  {
    operationId: 'propose_categorization',
    method: 'POST',
    path: '/proposals/categorization',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose a category for a transaction',
    description: 'Proposes a category for one transaction: categoryCode from list_categories (preferred), or a name or synonym. ' + PROPOSAL_NOTE,
    body: S.CategorizationProposal,
    output: S.envelope(S.ProposalOfType.categorization),
    successStatus: 201,
    errors: ['not_found', 'proposal_rejected', 'period_locked'],
    alsoAnswers: ALREADY_PENDING,
    run: async (ctx, body) => proposed(await L.proposeCategorization(ctx.ledger, orgOf(ctx), agentOf(ctx), body)),
  },
  {
    operationId: 'propose_journal_entry',
    method: 'POST',
    path: '/proposals/journal-entry',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose a new manual journal entry',
    description: 'Proposes a NEW transaction (negative: an outflow); it never edits one (propose_categorization does). Prefer categoryCode. ' + PROPOSAL_NOTE,
    body: S.JournalEntryProposal,
    output: S.envelope(S.ProposalOfType.journal_entry),
    successStatus: 201,
    errors: ['proposal_rejected', 'period_locked'],
    alsoAnswers: ALREADY_PENDING,
    run: async (ctx, body) => proposed(await L.proposeJournalEntry(ctx.ledger, orgOf(ctx), agentOf(ctx), body)),
  },
  {
    operationId: 'propose_receipt_link',
    method: 'POST',
    path: '/proposals/receipt-link',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose linking a receipt to a transaction',
    description: 'Proposes that a receipt (see search_receipts) belongs to a transaction. ' + PROPOSAL_NOTE,
    body: S.ReceiptLinkProposal,
    output: S.envelope(S.ProposalOfType.receipt_link),
    successStatus: 201,
    errors: ['not_found', 'proposal_rejected'],
    alsoAnswers: ALREADY_PENDING,
    run: async (ctx, body) => proposed(await L.proposeReceiptLink(ctx.ledger, orgOf(ctx), agentOf(ctx), body)),
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
    run: async (ctx, { transactionId }) => ({ data: await L.listNotes(ctx.ledger, orgOf(ctx), transactionId) }),
  },
  {
    operationId: 'attach_note',
    method: 'POST',
    path: '/notes',
    scope: 'propose-write',
    exposeByDefault: true,
    title: 'Propose a note on a transaction',
    description: 'Proposes a note (prefer it over create_note). People read notes: no secrets. ' + PROPOSAL_NOTE,
    body: S.NoteRequest,
    output: S.envelope(S.ProposalOfType.note),
    successStatus: 201,
    errors: ['not_found', 'proposal_rejected'],
    alsoAnswers: ALREADY_PENDING,
    run: async (ctx, body) => proposed(await L.proposeNote(ctx.ledger, orgOf(ctx), agentOf(ctx), body)),
  },
  {
    operationId: 'create_note',
    method: 'PUT',
    path: '/notes',
    scope: 'propose-write',
    exposeByDefault: false,
    deprecated: true,
    title: 'Create a note directly (deprecated)',
    description: 'DEPRECATED: use attach_note instead. Creates a note at once, without approval; meant only for trusted automation. The write is audit-logged.',
    body: S.NoteRequest,
    output: S.envelope(S.Note),
    successStatus: 201,
    errors: ['not_found'],
    run: async (ctx, body) => ({ data: await L.createNoteDirect(ctx.ledger, orgOf(ctx), agentOf(ctx), body.transactionId, body.content) }),
  },
  // Beyond the spec (issue 29): invoices, credit notes and bills, read-only, not in the default tool list. A payment
  // is proposed as a v1 categorization whose evidence names the invoice (or bill) number: approving it pays it.
  {
    operationId: 'list_invoices',
    forClients: true,
    method: 'GET',
    path: '/invoices',
    scope: 'read',
    exposeByDefault: false,
    title: 'List invoices or bills',
    description:
      'Invoices (kind=invoice, with credit notes) or bills (kind=bill), newest first, with status, balance and overdue. To propose that a bank row pays one, propose_categorization with evidence naming its number.',
    query: S.InvoicesQuery,
    output: z.object({ data: z.array(S.Invoice), meta: z.object({ totalCount: z.int(), limit: z.int(), offset: z.int() }) }),
    successStatus: 200,
    errors: [],
    run: async (ctx, q) => {
      const page = await L.listDocuments(ctx.ledger, orgOf(ctx), {
        kinds: q.kind === 'bill' ? ['bill'] : ['invoice', 'credit_note'],
        status: q.status,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: page.data, meta: { totalCount: page.totalCount, limit: q.limit, offset: q.offset } };
    },
  },
  {
    operationId: 'get_invoice',
    forClients: true,
    method: 'GET',
    path: '/invoices/{id}',
    scope: 'read',
    exposeByDefault: false,
    title: 'Get one invoice, credit note or bill',
    description: 'One invoice, credit note or bill by its id or number: lines, tax per rate, totals, payments and credit notes, balance.',
    params: S.InvoiceParams,
    output: S.envelope(S.Invoice),
    successStatus: 200,
    errors: ['not_found'],
    run: async (ctx, { id }) => {
      try {
        return { data: await L.toDocument(ctx.ledger, await L.requireDocument(ctx.ledger, orgOf(ctx), ['invoice', 'credit_note', 'bill'], id)) };
      } catch (e) {
        // Two vendors' bills may share a number: the id tells them apart.
        if (e instanceof L.LedgerError && e.code === 'conflict')
          throw L.invalid([{ field: 'id', message: `${e.message} (their ids: ${(e.details as { ids: string[] }).ids.join(', ')})` }]);
        throw e;
      }
    },
  },
];

// Proposals: what agents write. Creating one never touches the books; each
// creation and its audit entry commit in one transaction.
import type { Ledger } from './db';
import { appendAudit, type Actor } from './audit';
import { resolveCategory } from './categories';
import { newId, nowIso } from './clock';
import { LedgerError, notFound } from './errors';
import { fromMinor, toMinor } from './money';
import { excerpt } from './text';
import { organizationBySeq } from './organizations';
import { requireReceiptRow } from './receipts';
import { describeTransaction, requireTransactionRow, type TransactionSource } from './transactions';

export const PROPOSAL_TYPES = ['categorization', 'journal_entry', 'note', 'receipt_link'] as const;
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const EVIDENCE_TYPES = ['counterparty_match', 'rule', 'historical', 'keyword', 'receipt'] as const;
export type ProposalType = (typeof PROPOSAL_TYPES)[number];
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export interface EvidenceItem {
  type: (typeof EVIDENCE_TYPES)[number];
  value: string;
  detail?: string;
}

/** Payload per proposal type (the spec leaves it open; these shapes are documented in the OpenAPI document). */
export interface ProposalPayloads {
  categorization: { transactionId: string; categoryCode: string; category: string; evidence: EvidenceItem[] };
  journal_entry: {
    date: string;
    description: string;
    amount: number;
    currency: string;
    categoryCode: string | null;
    category: string | null;
    source: TransactionSource;
  };
  receipt_link: { transactionId: string; receiptId: string };
  note: { transactionId: string; content: string };
}

export interface Proposal {
  id: string;
  type: ProposalType;
  status: ProposalStatus;
  payload: ProposalPayloads[ProposalType];
  proposedBy: string;
  confidence: number | null;
  reason: string | null;
  createdAt: string;
}

export interface ProposalRow {
  seq: number;
  id: string;
  org_seq: number;
  type: ProposalType;
  status: ProposalStatus;
  payload: string;
  proposed_by: string;
  confidence: number | null;
  reason: string | null;
  created_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  review_comment: string | null;
  outcome: string | null;
  reversed_at: string | null;
  reversed_by: string | null;
  reversal_comment: string | null;
  token_seq: number | null;
  channel: 'rest' | 'mcp' | null;
  change_key: string | null;
  rule_seq: number | null;
}

const CHANNEL_LABEL = { rest: 'REST', mcp: 'MCP' } as const;

/** Who proposed it, as a person reads it: the token's name and how it came ("Claude" via MCP), or the person's rule; the spec's id when either is gone. */
export function proposerLabel(ledger: Ledger, row: Pick<ProposalRow, 'token_seq' | 'channel' | 'proposed_by' | 'rule_seq'>): string {
  if (row.rule_seq !== null) {
    const rule = ledger.stmt('SELECT position, match_text FROM rules WHERE seq = ?').get(row.rule_seq) as { position: number; match_text: string } | undefined;
    if (rule) return `rule ${rule.position} ("${excerpt(rule.match_text, 60)}")`;
  }
  if (row.proposed_by.startsWith('rule:')) return 'a rule since deleted';
  const token = row.token_seq === null ? undefined : (ledger.stmt('SELECT name FROM tokens WHERE seq = ?').get(row.token_seq) as { name: string } | undefined);
  if (!token) return row.proposed_by;
  return `"${token.name}"${row.channel ? ` via ${CHANNEL_LABEL[row.channel]}` : ''}`;
}

export const toProposal = (r: ProposalRow): Proposal => ({
  id: r.id,
  type: r.type,
  status: r.status,
  payload: JSON.parse(r.payload),
  proposedBy: r.proposed_by,
  confidence: r.confidence,
  reason: r.reason,
  createdAt: r.created_at,
});

export function requireProposalRow(ledger: Ledger, orgSeq: number, id: string): ProposalRow {
  const row = ledger.stmt('SELECT * FROM proposals WHERE id = ? AND org_seq = ?').get(id, orgSeq) as ProposalRow | undefined;
  if (!row) throw notFound('proposal', id);
  return row;
}

export const getProposal = (ledger: Ledger, orgSeq: number, id: string): Proposal => toProposal(requireProposalRow(ledger, orgSeq, id));

/** One page of the pending proposals, newest first, and how many are pending in all. */
export function listPendingProposals(ledger: Ledger, orgSeq: number, page: { limit: number; offset: number }): { proposals: Proposal[]; count: number } {
  const rows = ledger.rows<ProposalRow>(
    "SELECT * FROM proposals WHERE org_seq = ? AND status = 'pending' ORDER BY seq DESC LIMIT ? OFFSET ?",
    orgSeq,
    page.limit,
    page.offset,
  );
  return { proposals: rows.map(toProposal), count: pendingProposalCount(ledger, orgSeq) };
}

/** From the trigger-maintained count per status (migration 0003), not a scan of the backlog. */
export function pendingProposalCount(ledger: Ledger, orgSeq: number): number {
  const sql = "SELECT coalesce(sum(n), 0) AS n FROM proposal_status_counts WHERE org_seq = ? AND status = 'pending'";
  return (ledger.stmt(sql).get(orgSeq) as { n: number }).n;
}

type AgentActor = Extract<Actor, { type: 'token' }>;
export const proposerOf = (actor: AgentActor): string => `mcp:${actor.tokenId}`;

interface Draft<T extends ProposalType> {
  type: T;
  payload: ProposalPayloads[T];
  /** The transaction it is about (null for a journal entry, which makes one). */
  transactionSeq: number | null;
  confidence?: number;
  reason?: string;
  summary: string;
}

/**
 * The change approval would make, as text: identical proposals (same type,
 * target and effect; reason, confidence and evidence aside) share it. The
 * target is the transaction's seq, so that a rule run's thousands of keys go
 * into the index in row order (migration 0010 writes the same keys in SQL).
 */
export function changeKeyOf<T extends ProposalType>(type: T, payload: ProposalPayloads[T], transactionSeq: number | null): string {
  const p = payload as ProposalPayloads[ProposalType] & Record<string, unknown>;
  // Twelve digits: keys sort (and go into the index) in the transactions' order.
  const target = String(transactionSeq).padStart(12, '0');
  switch (type) {
    case 'categorization':
      return `${type}|${target}|${p.categoryCode}`;
    case 'receipt_link':
      return `${type}|${target}|${p.receiptId}`;
    case 'note':
      return `${type}|${target}|${p.content}`;
    default:
      return [type, p.date, p.amount, p.currency, p.categoryCode ?? '', p.source, p.description].join('|');
  }
}

/** Proposals answered as already pending rather than stored again (the API answers 200, not 201). */
const alreadyPending = new WeakSet<Proposal>();
export const isAlreadyPending = (proposal: Proposal): boolean => alreadyPending.has(proposal);

/** The proposal of this change that is pending (first) or that a person rejected (the latest), if any. */
export const decidedChange = (ledger: Ledger, orgSeq: number, changeKey: string): ProposalRow | undefined =>
  ledger
    .stmt("SELECT * FROM proposals WHERE org_seq = ? AND change_key = ? AND status IN ('pending', 'rejected') ORDER BY status = 'pending' DESC, seq DESC LIMIT 1")
    .get(orgSeq, changeKey) as ProposalRow | undefined;

/**
 * A person's "no" sticks: the same change, once rejected, is refused with the
 * rejected proposal and its comment, so that the agent can learn from it. The
 * same change already pending is answered, not stored twice.
 */
function existingChange(ledger: Ledger, orgSeq: number, changeKey: string): Proposal | null {
  const row = decidedChange(ledger, orgSeq, changeKey);
  if (!row) return null;
  if (row.status === 'pending') {
    const proposal = toProposal(row);
    alreadyPending.add(proposal);
    return proposal;
  }
  const comment = row.review_comment ? ` with the comment "${row.review_comment}"` : ' without a comment';
  throw new LedgerError(
    'proposal_rejected',
    `A person rejected this same change on ${row.reviewed_at?.slice(0, 10)} (proposal ${row.id})${comment}; propose something else or leave it.`,
    { rejectedProposalId: row.id, reviewedAt: row.reviewed_at, comment: row.review_comment },
  );
}

function insertProposal<T extends ProposalType>(ledger: Ledger, orgSeq: number, actor: AgentActor, draft: Draft<T>): Proposal {
  const changeKey = changeKeyOf(draft.type, draft.payload, draft.transactionSeq);
  const existing = existingChange(ledger, orgSeq, changeKey);
  if (existing) return existing;
  const id = newId();
  ledger
    .stmt(
      `INSERT INTO proposals (id, org_seq, type, status, payload, proposed_by, token_seq, confidence, reason, created_at, channel, change_key)
       VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(id, orgSeq, draft.type, JSON.stringify(draft.payload), proposerOf(actor), actor.tokenSeq, draft.confidence ?? null, draft.reason ?? null, nowIso(), actor.channel, changeKey);
  const via = actor.channel === 'mcp' ? 'the MCP tool bridge' : 'the REST API';
  const confidence = draft.confidence === undefined ? '' : ` (confidence ${Math.round(draft.confidence * 100)}%)`;
  appendAudit(ledger, orgSeq, actor, {
    action: 'proposal.created',
    targetType: 'proposal',
    targetId: id,
    summary: `${draft.summary}${confidence}, via ${via}`,
  });
  return getProposal(ledger, orgSeq, id);
}

export interface CategorizationInput {
  transactionId: string;
  categoryCode?: string;
  category?: string;
  confidence?: number;
  reason?: string;
  evidence?: EvidenceItem[];
}

export function proposeCategorization(ledger: Ledger, orgSeq: number, actor: AgentActor, input: CategorizationInput): Proposal {
  return ledger.write(() => {
    const tx = requireTransactionRow(ledger, orgSeq, input.transactionId);
    const resolved = resolveCategory(ledger, orgSeq, input, tx.amount_minor < 0 ? 'outflow' : 'inflow');
    return insertProposal(ledger, orgSeq, actor, {
      type: 'categorization',
      transactionSeq: tx.seq,
      payload: { transactionId: tx.id, categoryCode: resolved.code, category: resolved.name, evidence: input.evidence ?? [] },
      confidence: input.confidence,
      reason: input.reason,
      summary: `Proposed categorization of ${describeTransaction(tx)}: ${tx.category ?? '(uncategorized)'} -> ${resolved.code} ${resolved.name}`,
    });
  });
}

export interface JournalEntryInput {
  date: string;
  description: string;
  amount: number;
  currency?: string;
  categoryCode?: string;
  category?: string;
  source?: TransactionSource;
  confidence?: number;
  reason?: string;
}

export function proposeJournalEntry(ledger: Ledger, orgSeq: number, actor: AgentActor, input: JournalEntryInput): Proposal {
  return ledger.write(() => {
    const currency = (input.currency ?? organizationBySeq(ledger, orgSeq).currency).toUpperCase();
    toMinor(input.amount, currency); // refuses more decimals than the currency has
    const named = input.categoryCode !== undefined || input.category !== undefined;
    const resolved = named ? resolveCategory(ledger, orgSeq, input, input.amount < 0 ? 'outflow' : 'inflow') : null;
    const payload: ProposalPayloads['journal_entry'] = {
      date: input.date,
      description: input.description,
      amount: input.amount,
      currency,
      categoryCode: resolved?.code ?? null,
      category: resolved?.name ?? null,
      source: input.source ?? 'manual_csv',
    };
    return insertProposal(ledger, orgSeq, actor, {
      type: 'journal_entry',
      transactionSeq: null,
      payload,
      confidence: input.confidence,
      reason: input.reason,
      summary: `Proposed journal entry "${excerpt(input.description, 60)}" ${input.date} ${input.amount.toFixed(2)} ${currency}${resolved ? ` -> ${resolved.code} ${resolved.name}` : ''}`,
    });
  });
}

export interface ReceiptLinkInput {
  transactionId: string;
  receiptId: string;
  confidence?: number;
  reason?: string;
}

export function proposeReceiptLink(ledger: Ledger, orgSeq: number, actor: AgentActor, input: ReceiptLinkInput): Proposal {
  return ledger.write(() => {
    const tx = requireTransactionRow(ledger, orgSeq, input.transactionId);
    const receipt = requireReceiptRow(ledger, orgSeq, input.receiptId);
    return insertProposal(ledger, orgSeq, actor, {
      type: 'receipt_link',
      transactionSeq: tx.seq,
      payload: { transactionId: tx.id, receiptId: receipt.id },
      confidence: input.confidence,
      reason: input.reason,
      summary: `Proposed linking receipt "${excerpt(receipt.fileName, 60)}" to ${describeTransaction(tx)}`,
    });
  });
}

export function attachNote(ledger: Ledger, orgSeq: number, actor: AgentActor, input: { transactionId: string; content: string }): Proposal {
  return ledger.write(() => {
    const tx = requireTransactionRow(ledger, orgSeq, input.transactionId);
    return insertProposal(ledger, orgSeq, actor, {
      type: 'note',
      transactionSeq: tx.seq,
      payload: { transactionId: tx.id, content: input.content },
      summary: `Proposed note on ${describeTransaction(tx)}: "${excerpt(input.content)}"`,
    });
  });
}

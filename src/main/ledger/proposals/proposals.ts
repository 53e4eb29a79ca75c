// Proposals: what agents write. Creating one never touches the books; each
// creation and its audit entry commit in one transaction.
import type { Ledger } from '../core/sqlite/open';
import { appendAudit, tokenWriterId, type AgentActor, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { newId, nowIso } from '../core/clock';
import { counted } from '../core/events';
import { LedgerError, notFound } from '../core/errors';
import { excerpt } from '../core/text';
import type { ProposalKind } from './kind';
import type { ProposalRow, ProposalStatus } from './row';
import {
  categorization,
  DESK_TYPES,
  documentSend,
  journalEntry,
  kindOf,
  note,
  receiptLink,
  type CategorizationInput,
  type DocumentSendInput,
  type JournalEntryInput,
  type NoteInput,
  type ProposalPayloads,
  type ProposalType,
  type ReceiptLinkInput,
} from './kinds';

export { PROPOSAL_STATUSES, type ProposalRow, type ProposalStatus } from './row';
export { EVIDENCE_TYPES, PROPOSAL_TYPES, type EvidenceItem, type ProposalPayloads, type ProposalType } from './kinds';

export interface Proposal {
  id: string;
  type: ProposalType;
  status: ProposalStatus;
  payload: ProposalPayloads[ProposalType];
  proposedBy: string;
  confidence: number | null;
  reason: string | null;
  createdAt: string;
  /** A person's proposal (a preparer's change, issue 45; an addition to v1, absent on an agent's): who, as the card names them. */
  proposedByPerson?: { id: string; name: string };
}

/** Who files a proposal: an agent through its token, or a person whose role makes each change a proposal (a preparer). */
export type Proposer = AgentActor | Human;

/** How proposedBy names a person: person:<userId>, beside the spec's mcp:<tokenId> and a rule's rule:<ruleId>. */
export const PERSON_PREFIX = 'person:';
const proposerId = (actor: Proposer): string => (actor.type === 'token' ? tokenWriterId(actor) : `${PERSON_PREFIX}${actor.userId}`);

const CHANNEL_LABEL = { rest: 'REST', mcp: 'MCP' } as const;

/** Who proposed it, as a person reads it: the token's name and how it came ("Claude" via MCP), or the person's rule; the spec's id when either is gone. */
export async function proposerLabel(ledger: Ledger, row: Pick<ProposalRow, 'token_seq' | 'channel' | 'proposed_by' | 'rule_seq' | 'proposer_name'>): Promise<string> {
  if (row.proposer_name) return row.proposer_name;
  if (row.rule_seq !== null) {
    const rule = (await ledger.stmt('SELECT position, match_text FROM rules WHERE seq = ?').get(row.rule_seq)) as { position: number; match_text: string } | undefined;
    if (rule) return `rule ${rule.position} ("${excerpt(rule.match_text, 60)}")`;
  }
  if (row.proposed_by.startsWith('rule:')) return 'a rule since deleted';
  const token = row.token_seq === null ? undefined : ((await ledger.stmt('SELECT name FROM tokens WHERE seq = ?').get(row.token_seq)) as { name: string } | undefined);
  if (!token) return row.proposed_by;
  return `"${token.name}"${row.channel ? ` via ${CHANNEL_LABEL[row.channel]}` : ''}`;
}

/**
 * The person a proposal counts as (issue 50): the person who filed it (a preparer's change), or the maker of the
 * token that did, since a token's proposals are its maker's. Null for a token of the machine's owner and a rule's.
 */
export const proposalPersonOf = (proposedBy: string, tokenMakerId: string | null): string | null =>
  proposedBy.startsWith(PERSON_PREFIX) ? proposedBy.slice(PERSON_PREFIX.length) : tokenMakerId;

/** The same, read for a stored proposal: its token's maker from the tokens. */
export async function proposalPerson(ledger: Ledger, row: Pick<ProposalRow, 'proposed_by' | 'token_seq'>): Promise<string | null> {
  const maker =
    row.token_seq === null
      ? null
      : ((await ledger.stmt('SELECT u.id FROM tokens t JOIN users u ON u.seq = t.user_seq WHERE t.seq = ?').pluck().get(row.token_seq)) as string | undefined);
  return proposalPersonOf(row.proposed_by, maker ?? null);
}

export const toProposal = (r: ProposalRow): Proposal => ({
  id: r.id,
  type: r.type as ProposalType,
  status: r.status,
  payload: JSON.parse(r.payload),
  proposedBy: r.proposed_by,
  confidence: r.confidence,
  reason: r.reason,
  createdAt: r.created_at,
  ...(r.proposer_name && r.proposed_by.startsWith(PERSON_PREFIX) ? { proposedByPerson: { id: r.proposed_by.slice(PERSON_PREFIX.length), name: r.proposer_name } } : {}),
});

export async function requireProposalRow(ledger: Ledger, orgSeq: number, id: string): Promise<ProposalRow> {
  const row = (await ledger.stmt('SELECT * FROM proposals WHERE id = ? AND org_seq = ?').get(id, orgSeq)) as ProposalRow | undefined;
  if (!row) throw notFound('proposal', id);
  return row;
}

export const getProposal = async (ledger: Ledger, orgSeq: number, id: string): Promise<Proposal> => toProposal(await requireProposalRow(ledger, orgSeq, id));

// The agent API answers the spec's proposal types only: a desk kind's proposal (a preparer's send) is not an agent's.
const NOT_DESK = `type NOT IN (${DESK_TYPES.map(() => '?').join(', ')})`;

/** One proposal as the agent API answers it: a desk kind's is not found. */
export async function getAgentProposal(ledger: Ledger, orgSeq: number, id: string): Promise<Proposal> {
  const row = await requireProposalRow(ledger, orgSeq, id);
  if (DESK_TYPES.includes(row.type)) throw notFound('proposal', id);
  return toProposal(row);
}

/** One page of the pending proposals an agent sees (the spec's types), newest first, and how many are pending in all. */
export async function listPendingProposals(ledger: Ledger, orgSeq: number, page: { limit: number; offset: number }): Promise<{ proposals: Proposal[]; count: number }> {
  const rows = await ledger.rows<ProposalRow>(
    `SELECT * FROM proposals WHERE org_seq = ? AND status = 'pending' AND ${NOT_DESK} ORDER BY seq DESC LIMIT ? OFFSET ?`,
    orgSeq,
    ...DESK_TYPES,
    page.limit,
    page.offset,
  );
  const desk = (await ledger
    .stmt(`SELECT count(*) FROM proposals WHERE org_seq = ? AND status = 'pending' AND NOT ${NOT_DESK}`)
    .pluck()
    .get(orgSeq, ...DESK_TYPES)) as number | string;
  return { proposals: rows.map(toProposal), count: (await pendingProposalCount(ledger, orgSeq)) - Number(desk) };
}

/** From the trigger-maintained count per status (migration 0003), not a scan of the backlog. */
export async function pendingProposalCount(ledger: Ledger, orgSeq: number): Promise<number> {
  const sql = "SELECT coalesce(sum(n), 0) AS n FROM proposal_status_counts WHERE org_seq = ? AND status = 'pending'";
  return ((await ledger.stmt(sql).get(orgSeq)) as { n: number }).n;
}

/**
 * The change approval would make, as text: identical proposals (same kind,
 * target and effect; reason, confidence and evidence aside) share it. The
 * target is the transaction's seq, so that a rule run's thousands of keys go
 * into the index in row order (migration 0010 writes the same keys in SQL).
 */
export const changeKeyOf = <T extends ProposalType>(type: T, payload: ProposalPayloads[T], transactionSeq: number | null): string =>
  kindOf(type).changeKey(payload, transactionSeq);

/** Proposals answered as already pending rather than stored again (the API answers 200, not 201). */
const alreadyPending = new WeakSet<Proposal>();
export const isAlreadyPending = (proposal: Proposal): boolean => alreadyPending.has(proposal);

/** The proposal of this change that is pending (first) or that a person rejected (the latest), if any. */
export const decidedChange = async (ledger: Ledger, orgSeq: number, changeKey: string): Promise<ProposalRow | undefined> =>
  (await ledger
    .stmt("SELECT * FROM proposals WHERE org_seq = ? AND change_key = ? AND status IN ('pending', 'rejected') ORDER BY status = 'pending' DESC, seq DESC LIMIT 1")
    .get(orgSeq, changeKey)) as ProposalRow | undefined;

/**
 * A person's "no" sticks: the same change, once rejected, is refused with the
 * rejected proposal and its comment, so that the agent can learn from it. The
 * same change already pending is answered, not stored twice.
 */
async function existingChange(ledger: Ledger, orgSeq: number, changeKey: string): Promise<Proposal | null> {
  const row = await decidedChange(ledger, orgSeq, changeKey);
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

/** What every proposal may say besides its kind's fields. */
export interface ProposalNote {
  confidence?: number;
  reason?: string;
}

/**
 * Files a proposal of a kind from an agent's request (or a preparer's change): checked and resolved by
 * the kind, the same change already pending answered, one a person rejected
 * refused; stored with its audit entry in one transaction.
 */
export async function propose<I, P>(ledger: Ledger, orgSeq: number, actor: Proposer, kind: ProposalKind<string, I, P, unknown>, input: I & ProposalNote): Promise<Proposal> {
  let made = false;
  const proposal = await ledger.write(async () => {
    const draft = await kind.draft({ ledger, orgSeq }, input);
    await assertOpen(ledger, orgSeq, (await kind.datesChanged?.({ ledger, orgSeq }, draft.payload)) ?? [], 'changed by a proposal');
    const changeKey = kind.changeKey(draft.payload, draft.transactionSeq);
    const existing = await existingChange(ledger, orgSeq, changeKey);
    if (existing) return existing;
    made = true;
    const id = newId();
    // The row as stored comes back with its insert: no second read.
    const row = (await ledger
      .stmt(
        `INSERT INTO proposals (id, org_seq, type, status, payload, proposed_by, token_seq, confidence, reason, created_at, channel, change_key, proposer_name)
         VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        id,
        orgSeq,
        kind.type,
        JSON.stringify(draft.payload),
        proposerId(actor),
        actor.type === 'token' ? actor.tokenSeq : null,
        input.confidence ?? null,
        input.reason ?? null,
        nowIso(),
        actor.type === 'token' ? actor.channel : null,
        changeKey,
        actor.type === 'human' ? actor.name : null,
      )) as ProposalRow;
    const via = actor.type === 'human' ? 'the desk, for review' : actor.channel === 'mcp' ? 'the MCP tool bridge' : 'the REST API';
    const confidence = input.confidence === undefined ? '' : ` (confidence ${Math.round(input.confidence * 100)}%)`;
    await appendAudit(ledger, orgSeq, actor, { action: 'proposal.created', targetType: 'proposal', targetId: id, summary: `${draft.summary}${confidence}, via ${via}` });
    return toProposal(row);
  });
  // Counted once written (the same change answered again is not a new proposal).
  if (made) counted('proposals_created', { type: kind.type, channel: actor.channel });
  return proposal;
}

type Proposing<I> = (ledger: Ledger, orgSeq: number, actor: Proposer, input: I & ProposalNote) => Promise<Proposal>;
export const proposeCategorization: Proposing<CategorizationInput> = (ledger, orgSeq, actor, input) => propose(ledger, orgSeq, actor, categorization, input);
export const proposeJournalEntry: Proposing<JournalEntryInput> = (ledger, orgSeq, actor, input) => propose(ledger, orgSeq, actor, journalEntry, input);
export const proposeReceiptLink: Proposing<ReceiptLinkInput> = (ledger, orgSeq, actor, input) => propose(ledger, orgSeq, actor, receiptLink, input);
/** A preparer's "Send…" (issue 53): the message as it would go, waiting for a bookkeeper's approval to go. */
export const proposeDocumentSend = (ledger: Ledger, orgSeq: number, person: Human, input: DocumentSendInput): Promise<Proposal> =>
  propose(ledger, orgSeq, person, documentSend, input);
/** attach_note: a note only as a proposal (create_note writes one at once: transactions/notes.ts). */
export const proposeNote: Proposing<NoteInput> = (ledger, orgSeq, actor, input) => propose(ledger, orgSeq, actor, note, input);

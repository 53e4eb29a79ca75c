// The proposal kinds: adding one is a module beside these and a line here.
import type { ProposalKind } from '../kind';
import { categorization } from './categorization';
import { documentSend } from './document-send';
import { journalEntry } from './journal-entry';
import { note } from './note';
import { receiptLink } from './receipt-link';

/** The kinds an agent proposes: the agent API's proposal types (the spec's enum, exact). */
export const KINDS = [categorization, journalEntry, receiptLink, note] as const;
/** The kinds only a person at the desk files (a preparer's send): listed in Approvals, never answered to an agent. */
export const DESK_KINDS = [documentSend] as const;
export const DESK_TYPES: readonly string[] = DESK_KINDS.map((k) => k.type);
const ALL_KINDS = [...KINDS, ...DESK_KINDS];

export type ProposalType = (typeof KINDS)[number]['type'];
export const PROPOSAL_TYPES = KINDS.map((k) => k.type) as [ProposalType, ...ProposalType[]];

/** Payload per proposal type (the spec leaves it open; these shapes are documented in the OpenAPI document). */
export type ProposalPayloads = { [K in (typeof KINDS)[number] as K['type']]: K extends ProposalKind<string, unknown, infer P, unknown> ? P : never };

/** The kind of a stored proposal (any is its payload and outcome, as parsed from the row). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a stored row's payload is only known once its type is read
export const kindOf = (type: string): ProposalKind<string, any, any, any> => {
  const kind = ALL_KINDS.find((k) => k.type === type);
  if (!kind) throw new Error(`unknown proposal type ${type}`);
  return kind;
};

export { categorization, documentSend, journalEntry, note, receiptLink };
export { EVIDENCE_TYPES, type CategorizationInput, type EvidenceItem } from './categorization';
export type { JournalEntryInput } from './journal-entry';
export type { ReceiptLinkInput } from './receipt-link';
export type { NoteInput } from './note';
export type { DocumentSendInput } from './document-send';

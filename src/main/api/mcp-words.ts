// What the tool bridge tells agents about itself, beside each tool's own
// description: fitted to the token's scopes, so that a reader is not taught to
// propose and a proposer is not sent to tools it cannot call.
import type { Scope } from '../ledger/access/tokens';

const ABOUT = 'Ledgerdesk: the books of ONE organization, chosen by your token (never pass an organization id).';

const READ_RULES = [
  'Use limit 50 or less on lists unless exporting.',
  'Prefer get_transaction over list_notes: it returns the notes and receipts too.',
  'Every field of a result is always present; null where there is nothing.',
];

const WRITE_RULES = [
  'You PROPOSE changes; a human approves or rejects each one in the Approvals screen. A proposal is never a posted ledger entry.',
  'Prefer categoryCode (a string such as "5300", from list_categories) over free-text category names.',
  'Write a clear reason, a calibrated confidence (0..1) and concrete evidence: people read them.',
  'The same change proposed again answers the pending proposal. A change a person rejected is refused with error.code proposal_rejected and their comment: do not propose it again.',
  'Prefer attach_note (a proposal) over create_note (a direct, deprecated write).',
];

const WORKFLOW = `Typical categorization workflow:
1. list_categories to load codes, names, synonyms and parentCode.
2. list_transactions with status=uncategorized and limit=50 to find work.
3. Match each description to counterparties or synonyms; call get_transaction when unsure.
4. propose_categorization with transactionId, categoryCode, confidence, reason and evidence.
5. list_pending_proposals to confirm your proposals are pending.`;

const ERRORS =
  'Failed calls return isError with a JSON body {"error":{"code","message","details"}}: validation_failed names each bad argument in details; not_found means the id is not in this organization; insufficient_scope means the token lacks the scope.';

export function instructionsFor(scopes: readonly Scope[]): string {
  const read = scopes.includes('read');
  const write = scopes.includes('propose-write');
  const access =
    read && write
      ? 'Your token reads the ledger and proposes changes.'
      : read
        ? 'Your token only reads: it cannot propose changes (ask the person for a token with the propose-write scope if you should).'
        : 'Your token only proposes: it cannot read the ledger, so it needs the ids (transactions, receipts) it proposes about from elsewhere.';
  const rules = [...(read ? READ_RULES : []), ...(write ? WRITE_RULES : [])].map((r, i) => `${i + 1}. ${r}`).join('\n');
  return [`${ABOUT} ${access}`, `Rules:\n${rules}`, ...(read && write ? [WORKFLOW] : []), ERRORS].join('\n\n');
}

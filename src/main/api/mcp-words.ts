// What the tool bridge tells agents about itself, beside each tool's own description.
export const MCP_INSTRUCTIONS = `Ledgerdesk: the books of ONE organization, chosen by your token. You read the ledger and PROPOSE changes; a human approves or rejects every proposal in the Approvals screen.

Rules:
1. Prefer categoryCode (from list_categories) over free-text category names.
2. Use limit 50 or less on lists unless exporting.
3. A proposal is never a posted ledger entry: nothing changes until a human approves it.
4. Prefer get_transaction over list_notes: it returns the notes and receipts too.
5. Prefer attach_note (a proposal) over create_note (a direct, deprecated write).
6. Never pass an organization id: the token is already bound to one organization.
7. Write a clear reason, a calibrated confidence (0..1) and concrete evidence: humans read them.

Typical categorization workflow:
1. list_categories to load codes, names, synonyms and parentCode.
2. list_transactions with status=uncategorized and limit=50 to find work.
3. Match each description to counterparties or synonyms; call get_transaction when unsure.
4. propose_categorization with transactionId, categoryCode, confidence, reason and evidence.
5. list_pending_proposals to confirm your proposals are pending.

Failed calls return isError with a JSON body {"error":{"code","message","details"}}: validation_failed names each bad argument in details; not_found means the id is not in this organization; insufficient_scope means the token lacks the scope.`;

// What the Approvals screen shows of a proposal: the proposal itself plus what
// it would change (the transaction, the category, the receipt) and who sent it.
import type { Ledger } from '../ledger/db';
import { fromMinor } from '../ledger/money';
import { defaultAccountFor } from '../ledger/accounts';
import { toProposal, type Proposal, type ProposalPayloads, type ProposalRow, type ProposalStatus } from '../ledger/proposals';

export interface TransactionGlance {
  id: string;
  date: string;
  description: string;
  amount: number;
  currency: string;
  category: string | null;
  status: string;
  /** The account it is in, as the person named it. */
  account: string;
}

export interface ReviewItem extends Proposal {
  proposerName: string | null;
  /** How it came: rest or mcp (null for proposals older than migration 0009 without an audit entry). */
  proposerChannel: 'rest' | 'mcp' | null;
  /** The person's rule that suggested it (rule-runs.ts), if one did and still exists. */
  rule: { id: string; position: number; matchText: string } | null;
  /** A journal entry's row goes here unless the reviewer picks another account. */
  defaultAccountId: string | null;
  transaction: TransactionGlance | null;
  receipt: { id: string; fileName: string; transactionId: string | null } | null;
  reviewedAt: string | null;
  reviewedBy: string | null;
  reviewComment: string | null;
  /** An approval put right by its own event (reversal.ts). */
  reversedAt: string | null;
  reversedBy: string | null;
  reversalComment: string | null;
}

type Row = ProposalRow & { token_name: string | null; rule_id: string | null; rule_position: number | null; rule_text: string | null };

function glance(ledger: Ledger, orgSeq: number, id: string | undefined): TransactionGlance | null {
  if (!id) return null;
  const t = ledger
    .stmt('SELECT t.id, t.date, t.description, t.amount_minor, t.currency, t.category, t.status, a.name AS account FROM transactions t JOIN accounts a ON a.seq = t.account_seq WHERE t.id = ? AND t.org_seq = ?')
    .get(id, orgSeq) as { id: string; date: string; description: string; amount_minor: number; currency: string; category: string | null; status: string; account: string } | undefined;
  return t ? { id: t.id, date: t.date, description: t.description, amount: fromMinor(t.amount_minor, t.currency), currency: t.currency, category: t.category, status: t.status, account: t.account } : null;
}

/** Newest first; `pending` for the queue, or a reviewed status for history. */
export function reviewItems(ledger: Ledger, orgSeq: number, status: ProposalStatus, limit = 200): ReviewItem[] {
  const rows = ledger.rows<Row>(
    `SELECT p.*, k.name AS token_name, r.id AS rule_id, r.position AS rule_position, r.match_text AS rule_text
     FROM proposals p LEFT JOIN tokens k ON k.seq = p.token_seq LEFT JOIN rules r ON r.seq = p.rule_seq
     WHERE p.org_seq = ? AND p.status = ? ORDER BY p.seq DESC LIMIT ?`,
    orgSeq,
    status,
    limit,
  );
  return rows.map((row) => {
    const proposal = toProposal(row);
    const payload = proposal.payload as { transactionId?: string; receiptId?: string };
    const receipt = payload.receiptId
      ? ((ledger
          .stmt('SELECT r.id, r.file_name AS fileName, t.id AS transactionId FROM receipts r LEFT JOIN transactions t ON t.seq = r.transaction_seq WHERE r.id = ? AND r.org_seq = ?')
          .get(payload.receiptId, orgSeq) as ReviewItem['receipt']) ?? null)
      : null;
    const entry = proposal.type === 'journal_entry' ? (proposal.payload as ProposalPayloads['journal_entry']) : null;
    return {
      ...proposal,
      proposerName: row.token_name,
      proposerChannel: row.channel,
      rule: row.rule_id ? { id: row.rule_id, position: row.rule_position!, matchText: row.rule_text! } : null,
      defaultAccountId: entry ? (defaultAccountFor(ledger, orgSeq, entry.currency, entry.source)?.id ?? null) : null,
      transaction: glance(ledger, orgSeq, payload.transactionId),
      receipt,
      reviewedAt: row.reviewed_at,
      reviewedBy: row.reviewed_by,
      reviewComment: row.review_comment,
      reversedAt: row.reversed_at,
      reversedBy: row.reversed_by,
      reversalComment: row.reversal_comment,
    };
  });
}

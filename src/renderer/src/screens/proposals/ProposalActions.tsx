// What may be done with a proposal on its card: review a pending one (approve,
// reject, withdraw one's own), or reverse an approval. Who may do what comes
// with the card (desk/proposals/review.ts): the screen only reflects it.
import { useState } from 'react';
import type { ApprovalCard } from '../../../../main/desk/proposals/review';

/** "a bookkeeper, accountant or owner": who may approve, from the least role up. */
const whoMay = (roles: readonly string[]): string => {
  const [first, ...rest] = [...roles].reverse();
  const words = rest.length ? `${rest.length > 1 ? `${first}, ${rest.slice(0, -1).join(', ')}` : first} or ${rest.at(-1)}` : (first ?? 'nobody');
  return /^[aeiou]/.test(words) ? `an ${words}` : `a ${words}`;
};

/** A comment box for a rejection or a withdrawal, its keys kept from the queue's shortcuts. */
function CommentBox({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return <input maxLength={2000} aria-label={label} placeholder={label} value={value} onChange={(e) => onChange(e.target.value)} onKeyDown={(e) => e.stopPropagation()} />;
}

interface PendingProps {
  item: ApprovalCard;
  busy: boolean;
  remembering: boolean;
  mayReview: boolean;
  onReview: (decision: 'approve' | 'reject', comment?: string) => void;
  onRemember?: () => void;
  onWithdraw?: (comment: string) => void;
}

/**
 * What may be done with a pending proposal, and by whom (issue 50): one's own (or one's token's) is withdrawn, never
 * approved; a reviewer whose role may not make its change (a bookkeeper and a journal) may only reject it.
 */
export function Pending({ item, busy, remembering, mayReview, onReview, onRemember, onWithdraw }: PendingProps) {
  const [comment, setComment] = useState('');
  const who = whoMay(item.approvers);
  if (item.own)
    return (
      <footer>
        <span className="muted">
          Yours{item.tokenMaker ? ' (your token’s)' : ''}: it waits for {who} to approve it.{' '}
        </span>
        {onWithdraw && (
          <>
            <button className="reject" disabled={busy} onClick={() => onWithdraw(comment)}>
              Withdraw
            </button>
            <CommentBox label="Why withdraw it (optional)" value={comment} onChange={setComment} />
          </>
        )}
      </footer>
    );
  if (!mayReview) return <footer className="muted">Waits for {who} to approve or reject it.</footer>;
  return (
    <footer>
      {item.mayApprove ? (
        <button className="approve" disabled={busy} onClick={() => onReview('approve')}>
          Approve
        </button>
      ) : (
        <span className="muted">Only {who} approves it: approving makes the change. </span>
      )}
      {item.mayApprove && item.change.rememberable && !item.rule && onRemember && (
        <button disabled={busy || remembering} onClick={onRemember}>
          Approve and remember…
        </button>
      )}
      <button className="reject" disabled={busy} onClick={() => onReview('reject', comment)}>
        Reject
      </button>
      <CommentBox label="Rejection comment (optional)" value={comment} onChange={setComment} />
    </footer>
  );
}

/** Reversing an approval: its own logged event, with a comment. */
export function Reverse({ onReverse }: { onReverse: (comment: string) => void }) {
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  if (!open) return <button onClick={() => setOpen(true)}>Reverse…</button>;
  return (
    <span className="reverse">
      <input
        maxLength={2000}
        aria-label="Why reverse this approval"
        placeholder="Why (for the log)"
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        onKeyDown={(e) => e.stopPropagation()}
      />
      <button className="reject" onClick={() => onReverse(comment)}>
        Reverse approval
      </button>
      <button onClick={() => setOpen(false)}>Cancel</button>
    </span>
  );
}

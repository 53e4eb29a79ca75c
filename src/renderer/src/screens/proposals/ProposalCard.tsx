// One proposal as Approvals shows it: what would change, who proposed it and
// why, and the review buttons (with "Approve and remember" for a categorization).
import { useState, type KeyboardEvent } from 'react';
import type { ReviewItem } from '../../../../main/desk/proposals/review-queue';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import { AccountOptions, Money } from '../../components';
import { formatDateTime, formatMoney, formatPercent } from '../../format';
import { EVIDENCE_LABELS, label } from '../../../../shared/words';
import { againstWords } from '../../../../shared/split-parts';
import { Remember } from './Remember';
import type { RuleFields } from './RuleForm';

const TYPE_LABEL: Record<string, string> = { categorization: 'Categorization', journal_entry: 'Journal entry', receipt_link: 'Receipt link', note: 'Note' };

/** What the proposal would change, as its kind describes it: the same parts for every kind. */
function Change({ item }: { item: ReviewItem }) {
  const { lead, subject, result, quote, split, tax, journal } = item.change;
  return (
    <div className="change">
      <p>
        {lead && <>{lead}: </>}
        {subject && (
          <span className="tx">
            {subject.date} · {subject.description} · <Money amount={subject.amount} currency={subject.currency} />
            {subject.account && <span className="muted"> in {subject.account}</span>}
          </span>
        )}
        {result && (
          <>
            {' '}
            → <strong>{result.text}</strong> {result.code && <code>{result.code}</code>}
          </>
        )}
        {result && subject?.category && subject.category !== result.text && <span className="muted"> (now {subject.category})</span>}
      </p>
      {split && subject && (
        <ul className="split" aria-label="Split into">
          {split.map((l, i) => (
            <li key={i}>
              <code>{l.code}</code> {l.name} <Money amount={l.amount} currency={subject.currency} plain />
              {l.memo && <span className="muted"> — {l.memo}</span>}
              {l.against && <Against row={subject} amount={-l.amount} />}
            </li>
          ))}
        </ul>
      )}
      {tax && subject && (
        <p className="small" aria-label="Tax">
          Tax <code>{tax.code}</code>: net <Money amount={tax.net} currency={subject.currency} />, tax <Money amount={tax.tax} currency={subject.currency} />
        </p>
      )}
      {journal && subject && (
        <table className="grid compact" aria-label="Journal lines">
          <thead>
            <tr>
              <th>Account</th>
              <th className="num">Debit</th>
              <th className="num">Credit</th>
              <th>Tax</th>
            </tr>
          </thead>
          <tbody>
            {journal.lines.map((l, i) => (
              <tr key={i}>
                <td>
                  {l.code && <code>{l.code}</code>} {l.account}
                  {l.memo && <span className="muted"> — {l.memo}</span>}
                </td>
                <td className="num">{l.debit ? <Money amount={l.debit} currency={subject.currency} plain /> : ''}</td>
                <td className="num">{l.credit ? <Money amount={l.credit} currency={subject.currency} plain /> : ''}</td>
                <td>{l.taxCode ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {quote && <blockquote>{quote}</blockquote>}
    </div>
  );
}

/** A proposed line going against its row, said plainly: the reviewer decides whether it is meant. */
function Against({ row, amount }: { row: { amount: number; currency: string }; amount: number }) {
  return (
    <p className="small">
      <span className="badge against">against the row</span> This line goes against the row: {againstWords(row.amount, `${formatMoney(amount, row.currency)}`)}. Check that it is
      meant.
    </p>
  );
}

/** Reversing an approval: its own logged event, with a comment. */
function Reverse({ onReverse }: { onReverse: (comment: string) => void }) {
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

export function Card(props: {
  item: ReviewItem;
  accounts: Account[];
  account: string | undefined;
  onAccount: (id: string) => void;
  selected: boolean;
  busy: boolean;
  onSelect: (on: boolean) => void;
  onReview: (decision: 'approve' | 'reject', comment?: string) => void;
  onKey: (e: KeyboardEvent<HTMLElement>) => void;
  onReverse?: (comment: string) => void;
  /** Approve a categorization and keep a rule made from it. */
  onRemember?: (rule: RuleFields) => void;
  orgId: string;
  /** The person may approve and reject (a preparer's own proposals wait for someone who may). */
  mayReview?: boolean;
}) {
  const { item } = props;
  const [comment, setComment] = useState('');
  const [remembering, setRemembering] = useState(false);
  const evidence = (item.payload as { evidence?: { type: string; value: string; detail?: string }[] }).evidence ?? [];
  const pending = item.status === 'pending';
  const reviewable = pending && props.mayReview !== false;
  return (
    <article
      className="card proposal"
      tabIndex={0}
      aria-label={`${TYPE_LABEL[item.type]} proposal from ${item.proposerName ?? item.proposedBy}`}
      onKeyDown={props.onKey}
      data-id={item.id}
    >
      <header>
        {reviewable && <input type="checkbox" aria-label="Select" checked={props.selected} onChange={(e) => props.onSelect(e.target.checked)} />}
        <span className={`badge ${item.type}`}>{TYPE_LABEL[item.type]}</span>
        <span className="muted">
          by{' '}
          {item.rule ? (
            <strong>
              your rule {item.rule.position} <a href="#/rules">(Rules)</a>
            </strong>
          ) : (
            <strong>{item.proposerName ?? (item.proposedBy.startsWith('rule:') ? 'a rule since deleted' : 'a deleted token')}</strong>
          )}
          {item.proposerChannel && <> via {item.proposerChannel === 'mcp' ? 'MCP' : 'REST'}</>} · {formatDateTime(item.createdAt)} · confidence {formatPercent(item.confidence)}
        </span>
      </header>
      <Change item={item} />
      {pending && item.change.account && (
        <label className="inline">
          Into account{' '}
          <select aria-label="Account for the new row" value={props.account ?? item.change.account.defaultId ?? ''} onChange={(e) => props.onAccount(e.target.value)}>
            {!item.change.account.defaultId && <option value="">New “Manual entries” account</option>}
            <AccountOptions accounts={props.accounts.filter((a) => !a.closedAt && a.currency === item.change.account!.currency)} />
          </select>
        </label>
      )}
      {item.reason && <p className="reason">“{item.reason}”</p>}
      {evidence.length > 0 && (
        <ul className="evidence" aria-label="Evidence">
          {evidence.map((e, i) => (
            <li key={i}>
              <strong>{label(EVIDENCE_LABELS, e.type)}</strong> {e.value}
              {e.detail && <span className="muted"> — {e.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {remembering && props.onRemember && (
        <Remember orgId={props.orgId} proposalId={item.id} accounts={props.accounts} busy={props.busy} onSubmit={props.onRemember} onCancel={() => setRemembering(false)} />
      )}
      {pending && !reviewable ? (
        <footer className="muted">Waits for a bookkeeper to approve or reject it.</footer>
      ) : pending ? (
        <footer>
          <button className="approve" disabled={props.busy} onClick={() => props.onReview('approve')}>
            Approve
          </button>
          {item.change.rememberable && !item.rule && props.onRemember && (
            <button disabled={props.busy || remembering} onClick={() => setRemembering(true)}>
              Approve and remember…
            </button>
          )}
          <button className="reject" disabled={props.busy} onClick={() => props.onReview('reject', comment)}>
            Reject
          </button>
          <input
            maxLength={2000}
            aria-label="Rejection comment (optional)"
            placeholder="Rejection comment (optional)"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            onKeyDown={(e) => e.stopPropagation()}
          />
        </footer>
      ) : (
        <footer className="muted">
          {item.status} by {item.reviewedBy} {item.reviewedAt && formatDateTime(item.reviewedAt)}
          {item.reviewComment && <> · “{item.reviewComment}”</>}
          {item.reversedAt ? (
            <strong className="reversed">
              {' '}
              · Reversed by {item.reversedBy} {formatDateTime(item.reversedAt)}
              {item.reversalComment && <>: “{item.reversalComment}”</>}
            </strong>
          ) : (
            item.status === 'approved' && props.onReverse && <Reverse onReverse={props.onReverse} />
          )}
        </footer>
      )}
    </article>
  );
}

// Approvals: what agents propose, reviewed one by one or many at once.
// New proposals arrive by polling; the keyboard works (j/k or arrows, a, r, x).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ReviewItem } from '../../../main/desk/review-queue';
import type { Account } from '../../../main/ledger/accounts';
import type { ProposalPayloads } from '../../../main/ledger/proposals';
import { Empty, Money, Notice, Show, messageOf } from '../components';
import { desk } from '../desk';
import { formatDateTime, formatPercent } from '../format';
import { useLoad } from '../hooks';

const POLL_MS = 2500;
const TYPE_LABEL: Record<string, string> = { categorization: 'Categorization', journal_entry: 'Journal entry', receipt_link: 'Receipt link', note: 'Note' };

function Change({ item }: { item: ReviewItem }) {
  const payloadOf = <K extends keyof ProposalPayloads>(_type: K) => item.payload as ProposalPayloads[K];
  const tx = item.transaction && (
    <span className="tx">
      {item.transaction.date} · {item.transaction.description} · <Money amount={item.transaction.amount} currency={item.transaction.currency} />
    </span>
  );
  switch (item.type) {
    case 'categorization': {
      const p = payloadOf('categorization');
      return (
        <p>
          {tx} → <strong>{p.category}</strong> <code>{p.categoryCode}</code>
          {item.transaction?.category && <span className="muted"> (now {item.transaction.category})</span>}
        </p>
      );
    }
    case 'journal_entry': {
      const p = payloadOf('journal_entry');
      return (
        <p>
          New entry: {p.date} · {p.description} · <Money amount={p.amount} currency={p.currency} />
          {p.category && (
            <>
              {' '}→ <strong>{p.category}</strong> <code>{p.categoryCode}</code>
            </>
          )}{' '}
          <span className="muted">({p.source})</span>
        </p>
      );
    }
    case 'receipt_link':
      return (
        <p>
          Receipt <strong>{item.receipt?.fileName ?? payloadOf('receipt_link').receiptId}</strong> → {tx}
        </p>
      );
    case 'note':
      return (
        <div>
          <p>Note on {tx}:</p>
          <blockquote>{payloadOf('note').content}</blockquote>
        </div>
      );
  }
}

/** Reversing an approval: its own logged event, with a comment. */
function Reverse({ onReverse }: { onReverse: (comment: string) => void }) {
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  if (!open) return <button onClick={() => setOpen(true)}>Reverse…</button>;
  return (
    <span className="reverse">
      <input maxLength={2000} aria-label="Why reverse this approval" placeholder="Why (for the log)" value={comment} onChange={(e) => setComment(e.target.value)} onKeyDown={(e) => e.stopPropagation()} />
      <button className="reject" onClick={() => onReverse(comment)}>
        Reverse approval
      </button>
      <button onClick={() => setOpen(false)}>Cancel</button>
    </span>
  );
}

function Card(props: {
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
}) {
  const { item } = props;
  const [comment, setComment] = useState('');
  const evidence = (item.payload as { evidence?: { type: string; value: string; detail?: string }[] }).evidence ?? [];
  const pending = item.status === 'pending';
  return (
    <article className="card proposal" tabIndex={0} aria-label={`${TYPE_LABEL[item.type]} proposal from ${item.proposerName ?? item.proposedBy}`} onKeyDown={props.onKey} data-id={item.id}>
      <header>
        {pending && <input type="checkbox" aria-label="Select" checked={props.selected} onChange={(e) => props.onSelect(e.target.checked)} />}
        <span className={`badge ${item.type}`}>{TYPE_LABEL[item.type]}</span>
        <span className="muted">
          by <strong>{item.proposerName ?? 'a deleted token'}</strong>
          {item.proposerChannel && <> via {item.proposerChannel === 'mcp' ? 'MCP' : 'REST'}</>} · {formatDateTime(item.createdAt)} · confidence {formatPercent(item.confidence)}
        </span>
      </header>
      <Change item={item} />
      {pending && item.type === 'journal_entry' && (
        <label className="inline">
          Into account{' '}
          <select aria-label="Account for the new row" value={props.account ?? item.defaultAccountId ?? ''} onChange={(e) => props.onAccount(e.target.value)}>
            {!item.defaultAccountId && <option value="">New “Manual entries” account</option>}
            {props.accounts
              .filter((a) => !a.closedAt && a.currency === (item.payload as ProposalPayloads['journal_entry']).currency)
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
          </select>
        </label>
      )}
      {item.reason && <p className="reason">“{item.reason}”</p>}
      {evidence.length > 0 && (
        <ul className="evidence" aria-label="Evidence">
          {evidence.map((e, i) => (
            <li key={i}>
              <code>{e.type}</code> {e.value}
              {e.detail && <span className="muted"> — {e.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {pending ? (
        <footer>
          <button className="approve" disabled={props.busy} onClick={() => props.onReview('approve')}>
            Approve
          </button>
          <button className="reject" disabled={props.busy} onClick={() => props.onReview('reject', comment)}>
            Reject
          </button>
          <input maxLength={2000} aria-label="Rejection comment (optional)" placeholder="Rejection comment (optional)" value={comment} onChange={(e) => setComment(e.target.value)} onKeyDown={(e) => e.stopPropagation()} />
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

export function Approvals({ orgId, onReviewed }: { orgId: string; onReviewed: () => void }) {
  const [status, setStatus] = useState<'pending' | 'approved' | 'rejected'>('pending');
  const loaded = useLoad(() => desk.listProposals({ orgId, status }), [orgId, status], status === 'pending' ? POLL_MS : undefined);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [bulkComment, setBulkComment] = useState('');
  const accountList = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const [accountOf, setAccountOf] = useState<Record<string, string>>({});
  const list = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  /** After a review, the keyboard stays in the queue: the proposal that takes the reviewed one's place gets the focus. */
  const focusAt = useRef<number | null>(null);
  const items = loaded.data ?? [];
  useEffect(() => {
    if (focusAt.current === null || !loaded.data) return;
    const cards = list.current?.querySelectorAll<HTMLElement>('article.proposal');
    const next = cards?.[Math.min(focusAt.current, cards.length - 1)];
    focusAt.current = null;
    (next ?? heading.current)?.focus();
  }, [loaded.data]);
  const chosen = items.filter((i) => selected.has(i.id)).map((i) => i.id);

  async function review(ids: string[], decision: 'approve' | 'reject', comment?: string, at?: number) {
    setBusy(true);
    focusAt.current = at ?? null;
    try {
      const accounts = Object.fromEntries(ids.filter((id) => accountOf[id]).map((id) => [id, accountOf[id]]));
      const results = await desk.reviewProposals({ orgId, ids, decision, comment: comment?.trim() || undefined, accounts });
      const failed = results.filter((r) => r.error);
      const done = results.length - failed.length;
      const verb = decision === 'approve' ? 'Approved' : 'Rejected';
      setNotice(failed.length ? { kind: 'error', text: `${verb} ${done}; ${failed.length} could not be reviewed: ${failed[0].error!.message}` } : { kind: 'ok', text: `${verb} ${done} proposal${done === 1 ? '' : 's'}.` });
      setSelected(new Set());
      onReviewed();
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
      loaded.reload();
    }
  }

  async function reverse(id: string, comment: string) {
    try {
      await desk.reverseProposal({ orgId, id, comment: comment.trim() || undefined });
      setNotice({ kind: 'ok', text: 'Reversed the approval; the change it made is put back.' });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    loaded.reload();
  }

  function onKey(item: ReviewItem, index: number) {
    return (e: KeyboardEvent<HTMLElement>) => {
      const cards = list.current?.querySelectorAll<HTMLElement>('article.proposal');
      const move = (to: number) => cards?.[Math.max(0, Math.min((cards?.length ?? 1) - 1, to))]?.focus();
      if (e.key === 'ArrowDown' || e.key === 'j') move(index + 1);
      else if (e.key === 'ArrowUp' || e.key === 'k') move(index - 1);
      else if (item.status !== 'pending' || busy || e.target !== e.currentTarget) return;
      else if (e.key === 'a') void review([item.id], 'approve', undefined, index);
      else if (e.key === 'r') void review([item.id], 'reject', undefined, index);
      else if (e.key === 'x') setSelected((s) => new Set(s.has(item.id) ? [...s].filter((x) => x !== item.id) : [...s, item.id]));
      else return;
      e.preventDefault();
    };
  }

  return (
    <section aria-labelledby="approvals-title">
      <div className="screen-head">
        <h2 id="approvals-title" ref={heading} tabIndex={-1}>
          Approvals
        </h2>
        <div role="tablist" aria-label="Proposal status">
          {(['pending', 'approved', 'rejected'] as const).map((s) => (
            <button key={s} role="tab" aria-selected={status === s} onClick={() => setStatus(s)}>
              {s[0].toUpperCase() + s.slice(1)}
            </button>
          ))}
        </div>
      </div>
      <p className="hint">Nothing an agent proposes touches the books until you approve it. Keys: j/k or arrows to move, a approve, r reject, x select.</p>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {status === 'pending' && items.length > 0 && (
        <div className="toolbar">
          <label>
            <input type="checkbox" aria-label="Select all" checked={chosen.length === items.length} onChange={(e) => setSelected(new Set(e.target.checked ? items.map((i) => i.id) : []))} /> Select all
          </label>
          <button disabled={!chosen.length || busy} onClick={() => review(chosen, 'approve')}>
            Approve selected ({chosen.length})
          </button>
          <button disabled={!chosen.length || busy} onClick={() => review(chosen, 'reject', bulkComment)}>
            Reject selected ({chosen.length})
          </button>
          <input maxLength={2000} aria-label="Comment for rejecting the selection (optional)" placeholder="Comment for rejecting the selection (optional)" value={bulkComment} onChange={(e) => setBulkComment(e.target.value)} />
        </div>
      )}
      <Show
        loaded={loaded}
        what="proposals"
        empty={(d) => (d.length === 0 ? <Empty title={status === 'pending' ? 'Nothing to review.' : `No ${status} proposals yet.`}>{status === 'pending' ? 'Proposals from agents appear here within seconds.' : undefined}</Empty> : undefined)}
      >
        {(data) => (
          <div className="cards" ref={list}>
            {data.map((item, i) => (
              <Card
                key={item.id}
                item={item}
                accounts={accountList.data ?? []}
                account={accountOf[item.id]}
                onAccount={(id) => setAccountOf((m) => ({ ...m, [item.id]: id }))}
                busy={busy}
                selected={selected.has(item.id)}
                onSelect={(on) => setSelected((s) => new Set(on ? [...s, item.id] : [...s].filter((x) => x !== item.id)))}
                onReview={(decision, comment) => review([item.id], decision, comment, i)}
                onReverse={(comment) => void reverse(item.id, comment)}
                onKey={onKey(item, i)}
              />
            ))}
          </div>
        )}
      </Show>
    </section>
  );
}

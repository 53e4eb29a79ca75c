// Approvals: what agents propose, reviewed one by one or many at once.
// New proposals arrive by polling; the keyboard works (j/k or arrows, a, r, x).
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { ApprovalCard } from '../../../../main/desk/proposals/review';
import { Empty, Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { Card } from './ProposalCard';
import type { RuleFields } from './RuleForm';

const POLL_MS = 2500;

/** After a review, the keyboard stays in the queue: the proposal that takes the reviewed one's place (focusAt) gets the focus. */
function useRefocus(data: unknown) {
  const list = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusAt = useRef<number | null>(null);
  useEffect(() => {
    if (focusAt.current === null || !data) return;
    const cards = list.current?.querySelectorAll<HTMLElement>('article.proposal');
    const next = cards?.[Math.min(focusAt.current, cards.length - 1)];
    focusAt.current = null;
    (next ?? heading.current)?.focus();
  }, [data]);
  return { list, heading, focusAt };
}

export function Approvals({ orgId, onReviewed }: { orgId: string; onReviewed: () => void }) {
  const can = useCan();
  const mayReview = can('reviewProposals');
  const [status, setStatus] = useState<Status>('pending');
  const loaded = useLoad(() => desk.listProposals({ orgId, status }), [orgId, status], status === 'pending' ? POLL_MS : undefined);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const accountList = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const [accountOf, setAccountOf] = useState<Record<string, string>>({});
  const { list, heading, focusAt } = useRefocus(loaded.data);
  const items = loaded.data ?? [];
  const chosen = items.filter((i) => selected.has(i.id)).map((i) => i.id);

  /** Runs one review action with the list busy; its notice, or the error's, goes where the person is looking. */
  async function act(at: number | undefined, what: () => Promise<{ kind: 'ok' | 'error'; text: string }>) {
    setBusy(true);
    focusAt.current = at ?? null;
    try {
      setNotice(await what());
      setSelected(new Set());
      onReviewed();
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
      loaded.reload();
    }
  }

  const review = (ids: string[], decision: 'approve' | 'reject', comment?: string, at?: number) =>
    act(at, async () => {
      const accounts = Object.fromEntries(ids.filter((id) => accountOf[id]).map((id) => [id, accountOf[id]]));
      const results = await desk.reviewProposals({ orgId, ids, decision, comment: comment?.trim() || undefined, accounts });
      const failed = results.filter((r) => r.error);
      const done = results.length - failed.length;
      const verb = decision === 'approve' ? 'Approved' : 'Rejected';
      return failed.length
        ? { kind: 'error', text: `${verb} ${done}; ${failed.length} could not be reviewed: ${failed[0].error!.message}` }
        : { kind: 'ok', text: `${verb} ${done} proposal${done === 1 ? '' : 's'}.` };
    });

  const remember = (id: string, rule: RuleFields, at: number) =>
    act(at, async () => {
      const { rule: made, run } = await desk.approveAndRemember({ orgId, id, rule });
      const more = run ? ` It suggested the same for ${run.suggested} more row${run.suggested === 1 ? '' : 's'} and categorized ${run.applied}.` : '';
      return { kind: 'ok', text: `Approved, and remembered as rule ${made.position}.${more}` };
    });

  const reverse = (id: string, comment: string) =>
    act(
      undefined,
      async () => (await desk.reverseProposal({ orgId, id, comment: comment.trim() || undefined }), { kind: 'ok', text: 'Reversed the approval; the change it made is put back.' }),
    );
  /** One's own proposal (or one's token's) taken back: it stays in Rejected, as withdrawn. */
  const withdraw = (id: string, comment: string, at: number) =>
    act(at, async () => {
      const [done] = await desk.withdrawProposals({ orgId, ids: [id], comment: comment.trim() || undefined });
      return done.error ? { kind: 'error', text: done.error.message } : { kind: 'ok', text: 'Withdrawn: it waits for no one now.' };
    });

  function onKey(item: ApprovalCard, index: number) {
    return (e: KeyboardEvent<HTMLElement>) => {
      const cards = list.current?.querySelectorAll<HTMLElement>('article.proposal');
      const move = (to: number) => cards?.[Math.max(0, Math.min((cards?.length ?? 1) - 1, to))]?.focus();
      if (e.key === 'ArrowDown' || e.key === 'j') move(index + 1);
      else if (e.key === 'ArrowUp' || e.key === 'k') move(index - 1);
      else if (item.status !== 'pending' || !mayReview || busy || e.target !== e.currentTarget) return;
      else if (e.key === 'a' && item.mayApprove) void review([item.id], 'approve', undefined, index);
      else if (e.key === 'r') void review([item.id], 'reject', undefined, index);
      else if (e.key === 'x') setSelected((s) => new Set(s.has(item.id) ? [...s].filter((x) => x !== item.id) : [...s, item.id]));
      else return;
      e.preventDefault();
    };
  }

  return (
    <section aria-labelledby="approvals-title">
      <Head status={status} onStatus={setStatus} mayReview={mayReview} heading={heading} />
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {status === 'pending' && mayReview && items.length > 0 && (
        <SelectionBar
          all={items.length}
          chosen={chosen.length}
          busy={busy}
          selectAll={(on) => setSelected(new Set(on ? items.map((i) => i.id) : []))}
          approve={() => review(chosen, 'approve')}
          reject={(comment) => review(chosen, 'reject', comment)}
        />
      )}
      <Show
        loaded={loaded}
        what="proposals"
        empty={(d) =>
          d.length === 0 ? (
            <Empty title={status === 'pending' ? 'Nothing to review.' : `No ${status} proposals yet.`}>
              {status === 'pending' ? 'Proposals from agents appear here within seconds.' : undefined}
            </Empty>
          ) : undefined
        }
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
                onReverse={can('reverseProposal') ? (comment) => void reverse(item.id, comment) : undefined}
                onRemember={can('approveAndRemember') ? (rule) => void remember(item.id, rule, i) : undefined}
                onWithdraw={can('withdrawProposals') ? (comment) => void withdraw(item.id, comment, i) : undefined}
                orgId={orgId}
                mayReview={mayReview}
                onKey={onKey(item, i)}
              />
            ))}
          </div>
        )}
      </Show>
    </section>
  );
}

type Status = 'pending' | 'approved' | 'rejected';

/** The title (which takes the focus when the queue is done), the status tabs, and what the screen is for. */
function Head({ status, onStatus, mayReview, heading }: { status: Status; onStatus: (s: Status) => void; mayReview: boolean; heading: RefObject<HTMLHeadingElement | null> }) {
  return (
    <>
      <div className="screen-head">
        <h2 id="approvals-title" ref={heading} tabIndex={-1}>
          Approvals
        </h2>
        <div role="tablist" aria-label="Proposal status">
          {(['pending', 'approved', 'rejected'] as const).map((s) => (
            <button key={s} role="tab" aria-selected={status === s} onClick={() => onStatus(s)}>
              {s[0].toUpperCase() + s.slice(1)}
            </button>
          ))}
        </div>
      </div>
      <p className="hint">
        {mayReview
          ? 'Nothing an agent proposes touches the books until you approve it. Keys: j/k or arrows to move, a approve, r reject, x select.'
          : 'What agents and preparers propose waits here until a bookkeeper approves or rejects it: nothing of it touches the books before.'}
      </p>
    </>
  );
}

interface SelectionProps {
  all: number;
  chosen: number;
  busy: boolean;
  selectAll: (on: boolean) => void;
  approve: () => void;
  reject: (comment: string) => void;
}

/** Many at once: select all, approve or reject the selection (a rejection may carry one comment for all). */
function SelectionBar({ all, chosen, busy, selectAll, approve, reject }: SelectionProps) {
  const [comment, setComment] = useState('');
  return (
    <div className="toolbar">
      <label>
        <input type="checkbox" aria-label="Select all" checked={chosen === all} onChange={(e) => selectAll(e.target.checked)} /> Select all
      </label>
      <button disabled={!chosen || busy} onClick={approve}>
        Approve selected ({chosen})
      </button>
      <button disabled={!chosen || busy} onClick={() => reject(comment)}>
        Reject selected ({chosen})
      </button>
      <input
        maxLength={2000}
        aria-label="Comment for rejecting the selection (optional)"
        placeholder="Comment for rejecting the selection (optional)"
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
    </div>
  );
}

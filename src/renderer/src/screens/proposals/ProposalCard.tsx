// One proposal as Approvals shows it: what would change, who proposed it and
// why, and the review buttons (with "Approve and remember" for a categorization).
import { useState, type KeyboardEvent } from 'react';
import type { ApprovalCard } from '../../../../main/desk/proposals/review';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import { AccountOptions, Money } from '../../components';
import { formatDateTime, formatMoney, formatPercent } from '../../format';
import { EVIDENCE_LABELS, label } from '../../../../shared/words';
import { againstWords } from '../../../../shared/split-parts';
import { Pending, Reverse } from './ProposalActions';
import { Remember } from './Remember';
import type { RuleFields } from './RuleForm';

const TYPE_LABEL: Record<string, string> = {
  categorization: 'Categorization',
  journal_entry: 'Journal entry',
  receipt_link: 'Receipt link',
  note: 'Note',
  document_send: 'Send by mail',
};

/** What the proposal would change, as its kind describes it: the same parts for every kind. */
function Change({ item }: { item: ApprovalCard }) {
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
      {item.approvalFailure && (
        <p role="alert">
          Last approval failed ({item.approvalFailure.at.slice(0, 16).replace('T', ' ')}): {item.approvalFailure.reason} It is still pending.
        </p>
      )}
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

/** Who proposed it: a rule, a person, or an agent's token and the person who made it ("Claude agent, Bea Baker's token"). */
function Proposer({ item }: { item: ApprovalCard }) {
  if (item.rule)
    return (
      <strong>
        your rule {item.rule.position} <a href="#/rules">(Rules)</a>
      </strong>
    );
  const name = item.proposerName ?? (item.proposedBy.startsWith('rule:') ? 'a rule since deleted' : 'a deleted token');
  return (
    <>
      <strong>{name}</strong>
      {item.tokenMaker && <>, {item.own ? 'your' : `${item.tokenMaker.name}’s`} token</>}
    </>
  );
}

export function Card(props: {
  item: ApprovalCard;
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
  /** Take one's own proposal back. */
  onWithdraw?: (comment: string) => void;
  orgId: string;
  /** The person may approve and reject (a preparer's own proposals wait for someone who may). */
  mayReview?: boolean;
}) {
  const { item } = props;
  const [remembering, setRemembering] = useState(false);
  const evidence = (item.payload as { evidence?: { type: string; value: string; detail?: string }[] }).evidence ?? [];
  const pending = item.status === 'pending';
  const reviewable = pending && props.mayReview !== false && !item.own;
  const maker = item.tokenMaker ? `, ${item.tokenMaker.name}’s token` : '';
  return (
    <article
      className="card proposal"
      tabIndex={0}
      aria-label={`${TYPE_LABEL[item.type]} proposal from ${item.proposerName ?? item.proposedBy}${maker}`}
      onKeyDown={props.onKey}
      data-id={item.id}
    >
      <header>
        {reviewable && <input type="checkbox" aria-label="Select" checked={props.selected} onChange={(e) => props.onSelect(e.target.checked)} />}
        <span className={`badge ${item.type}`}>{TYPE_LABEL[item.type]}</span>
        <span className="muted">
          by <Proposer item={item} />
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
      {pending ? (
        <Pending
          item={item}
          busy={props.busy}
          remembering={remembering}
          mayReview={props.mayReview !== false}
          onReview={props.onReview}
          onRemember={props.onRemember && (() => setRemembering(true))}
          onWithdraw={props.onWithdraw}
        />
      ) : (
        <footer className="muted">
          {item.withdrawn ? 'withdrawn' : item.status} by {item.reviewedBy} {item.reviewedAt && formatDateTime(item.reviewedAt)}
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

// "Send…" on a customer's statement of account (issue 53): the message as it
// would go (the organization's statement wording, the closing balance owed
// filled in), every part editable, a copy to the sender on request; the PDF
// goes attached. Below it, the statements the customer was sent.
import { useState } from 'react';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

type Period = { orgId: string; customer: string; from?: string; to?: string };
type Props = { period: Period; customer: string; onDone: (text: string) => void; onCancel: () => void; fail: (e: unknown) => void };

export function SendStatement({ period, customer, onDone, onCancel, fail }: Props) {
  const [edits, setEdits] = useState<{ to?: string; subject?: string; body?: string }>({});
  const [copyMe, setCopyMe] = useState(false);
  const [sending, setSending] = useState(false);
  const [sentCount, setSentCount] = useState(0);
  const composed = useLoad(() => desk.composeStatement(period), [period.orgId, period.customer, period.from, period.to, sentCount]);
  const c = composed.data;
  const to = edits.to ?? c?.to.join(', ') ?? '';
  const subject = edits.subject ?? c?.subject ?? '';
  const body = edits.body ?? c?.body ?? '';
  async function send() {
    setSending(true);
    try {
      const sendTo = to
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const { sent } = await desk.statementOfAccount({ ...period, send: true, sendTo, subject, body, copyMe });
      setSentCount((n) => n + 1);
      onDone(`The statement of ${customer} went to ${sent!.to.join(', ')}${sent!.copyTo ? `, a copy to ${sent!.copyTo}` : ''}.`);
    } catch (err) {
      fail(err);
    } finally {
      setSending(false);
    }
  }
  return (
    <form className="inline-form" aria-label={`Send the statement of ${customer}`} onSubmit={(e) => (e.preventDefault(), void send())}>
      {composed.error && <p role="alert">{composed.error.message}</p>}
      <label>
        To
        <input value={to} onChange={(e) => setEdits({ ...edits, to: e.target.value })} disabled={!c} />
      </label>
      <label>
        Subject
        <input value={subject} maxLength={300} onChange={(e) => setEdits({ ...edits, subject: e.target.value })} disabled={!c} />
      </label>
      <label>
        Message
        <textarea rows={7} value={body} onChange={(e) => setEdits({ ...edits, body: e.target.value })} disabled={!c} />
      </label>
      <label>
        <input type="checkbox" checked={copyMe} onChange={(e) => setCopyMe(e.target.checked)} /> Send me a copy{c?.copyTo ? ` (${c.copyTo})` : ''}
      </label>
      <p className="hint">{c ? `${c.attachment} goes attached.` : 'Filling in the message…'}</p>
      <button type="submit" className="primary" disabled={!c || sending}>
        {sending ? 'Sending…' : 'Send'}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      {c && (
        <ul aria-label={`Statements sent to ${customer}`} className="plain">
          {c.messages.length === 0 && <li className="hint">No statement sent by mail yet.</li>}
          {c.messages.map((m) => (
            <li key={m.id}>
              {m.sentAt.slice(0, 16).replace('T', ' ')}: sent to {m.to.join(', ')}
              {m.copyTo ? ` (a copy to ${m.copyTo})` : ''} by {m.sentBy.name} <span className="hint">{m.messageId}</span>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

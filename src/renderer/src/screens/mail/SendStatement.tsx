// "Send…" on a customer's statement of account (issue 53): the message as it
// would go (the organization's statement wording, the closing balance owed
// filled in), every part editable, a copy to the sender on request; the PDF
// goes attached. Below it, the statements the customer was sent.
import { useState } from 'react';
import { MessageFields, useMessageDraft } from './MessageFields';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

type Period = { orgId: string; customer: string; from?: string; to?: string };
type Props = { period: Period; customer: string; onDone: (text: string) => void; onCancel: () => void; fail: (e: unknown) => void };

export function SendStatement({ period, customer, onDone, onCancel, fail }: Props) {
  const [sending, setSending] = useState(false);
  const [sentCount, setSentCount] = useState(0);
  const composed = useLoad(() => desk.composeStatement(period), [period.orgId, period.customer, period.from, period.to, sentCount]);
  const c = composed.data;
  const draft = useMessageDraft(c);
  const { subject, body, copyMe } = draft;
  async function send() {
    setSending(true);
    try {
      const sendTo = draft.recipients();
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
      <MessageFields draft={draft} rows={7} />
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

// "Send" on an invoice, a credit note or a quote (issue 53): the message as it would go
// (the organization's wording, filled from the document), every part editable
// (recipients, subject, body), a copy to the sender on request; the PDF goes
// attached. Below it, the messages the document was sent in, so a resend is
// the same form again. A failure says what the mail server did, in words. A
// preparer's Send files it for Approvals (issue 53): a bookkeeper's approval sends it.
import { useState } from 'react';
import { MessageFields, useMessageDraft } from './MessageFields';
import type { Document } from '../../../../main/ledger/documents/documents';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { Show } from '../../components';
import { isProposed, PROPOSED } from '../../can';

/** What the form needs of a document: its kind and number (a quote, from the Quotes screen, names its kind). */
type Mailed = Pick<Document, 'kind' | 'number'>;
type Props = { orgId: string; doc: Mailed; onDone: (text: string) => void; onCancel: () => void; fail: (e: unknown) => void };

const kindOf = (doc: Mailed) => (doc.kind === 'credit_note' || doc.kind === 'quote' ? doc.kind : 'invoice');

export function SentMessages({ orgId, doc, reloadKey }: { orgId: string; doc: Mailed; reloadKey: number }) {
  const kind = kindOf(doc);
  const sent = useLoad(() => desk.documentMessages({ orgId, kind, number: doc.number }), [orgId, doc.number, reloadKey]);
  return (
    <Show loaded={sent} what="the messages sent" empty={(ms) => (ms.length ? null : <p className="hint">Not sent by mail yet.</p>)}>
      {(messages) => (
        <ul aria-label={`Messages sending ${doc.number}`} className="plain">
          {messages.map((m) => (
            <li key={m.id}>
              {m.sentAt.slice(0, 16).replace('T', ' ')}: {m.kind === 'reminder' ? 'reminder' : 'sent'} to {m.to.join(', ')}
              {m.copyTo ? ` (a copy to ${m.copyTo})` : ''} by {m.sentBy.name} <span className="hint">{m.messageId}</span>
            </li>
          ))}
        </ul>
      )}
    </Show>
  );
}

export function SendDocument({ orgId, doc, onDone, onCancel, fail }: Props) {
  const kind = kindOf(doc);
  const [sending, setSending] = useState(false);
  const [sentCount, setSentCount] = useState(0);
  const composed = useLoad(() => desk.composeMessage({ orgId, kind, number: doc.number }), [orgId, doc.number]);
  const c = composed.data;
  const draft = useMessageDraft(c);
  const { subject, body, copyMe } = draft;
  async function send() {
    setSending(true);
    try {
      const recipients = draft.recipients();
      const sent = await desk.sendDocument({ orgId, kind, number: doc.number, to: recipients, subject, body, copyMe });
      // A preparer's send waits in Approvals: it goes when a bookkeeper approves it.
      if (isProposed(sent)) return onDone(`${doc.number}: ${PROPOSED}`);
      setSentCount((n) => n + 1);
      onDone(`${doc.number} sent to ${sent.to.join(', ')}${sent.copyTo ? `, a copy to ${sent.copyTo}` : ''}.`);
    } catch (err) {
      fail(err);
    } finally {
      setSending(false);
    }
  }
  return (
    <form className="inline-form" aria-label={`Send ${doc.number}`} onSubmit={(e) => (e.preventDefault(), void send())}>
      {composed.error && <p role="alert">{composed.error.message}</p>}
      <MessageFields draft={draft} rows={8} />
      <button type="submit" className="primary" disabled={!c || sending}>
        {sending ? 'Sending…' : 'Send'}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <SentMessages orgId={orgId} doc={doc} reloadKey={sentCount} />
    </form>
  );
}

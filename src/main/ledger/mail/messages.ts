// Each message sent (issue 53), recorded with its audit entry in one write once
// the mail server accepted it: to whom, the copy, when, by whom, what it said,
// its Message-ID and the server's reply. A message that failed is not recorded:
// the document is not marked sent.
import { actorId, actorName, appendAudit, type Actor } from '../access/audit';
import { newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/storage';

export interface SentMessage {
  id: string;
  kind: string;
  /** The document's number, when it carried one. */
  number: string | null;
  to: string[];
  copyTo: string | null;
  subject: string;
  body: string;
  attachment: string | null;
  messageId: string;
  serverReply: string | null;
  sentAt: string;
  sentBy: { type: string; id: string; name: string };
}

export interface MessageRecord {
  kind: string;
  document?: { seq: number; id: string; number: string } | null;
  contactSeq?: number | null;
  /** A message about a customer rather than a document (a statement of account): recorded and audited on the contact. */
  contact?: { id: string; name: string } | null;
  to: string[];
  copyTo?: string | null;
  subject: string;
  body: string;
  attachment?: string | null;
  messageId: string;
  serverReply?: string | null;
}

interface Row {
  seq: number;
  id: string;
  kind: string;
  number: string | null;
  recipients: string;
  copy_to: string | null;
  subject: string;
  body: string;
  attachment: string | null;
  message_id: string;
  server_reply: string | null;
  sent_at: string;
  actor_type: string;
  actor_id: string;
  actor_name: string;
}

const toMessage = (r: Row): SentMessage => ({
  id: r.id,
  kind: r.kind,
  number: r.number,
  to: r.recipients.split(',').filter(Boolean),
  copyTo: r.copy_to,
  subject: r.subject,
  body: r.body,
  attachment: r.attachment,
  messageId: r.message_id,
  serverReply: r.server_reply,
  sentAt: r.sent_at,
  sentBy: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
});

const KIND_WORDS: Record<string, string> = { credit_note: 'credit note', test: 'test message', statement: 'statement of account' };

/** Records a message the server accepted, with its audit entry, in one write; answers it and its row's seq. */
export async function recordMessage(ledger: Ledger, orgSeq: number, actor: Actor, m: MessageRecord): Promise<{ message: SentMessage; seq: number }> {
  return ledger.write(async () => {
    const id = newTimeOrderedId();
    const at = nowIso();
    await ledger
      .stmt(
        `INSERT INTO mail_messages (id, org_seq, kind, document_seq, contact_seq, recipients, copy_to, subject, body, attachment, message_id, server_reply, sent_at, actor_type, actor_id, actor_name)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        orgSeq,
        m.kind,
        m.document?.seq ?? null,
        m.contactSeq ?? null,
        m.to.join(','),
        m.copyTo ?? null,
        m.subject,
        m.body,
        m.attachment ?? null,
        m.messageId,
        m.serverReply ?? null,
        at,
        actor.type,
        actorId(actor),
        actorName(actor),
      );
    const what = `${KIND_WORDS[m.kind] ?? m.kind}${m.document ? ` ${m.document.number}` : m.contact ? ` of ${m.contact.name}` : ''}`;
    await appendAudit(ledger, orgSeq, actor, {
      action: 'mail.sent',
      targetType: m.document ? 'document' : m.contact ? 'contact' : 'mail',
      targetId: m.document?.id ?? m.contact?.id ?? id,
      summary: `Sent ${what} to ${m.to.join(', ')}${m.copyTo ? ` (a copy to ${m.copyTo})` : ''}: message ${m.messageId}`,
    });
    const row = (await ledger.stmt(`${SELECT} WHERE m.org_seq = ? AND m.id = ?`).get(orgSeq, id)) as Row;
    return { message: toMessage(row), seq: row.seq };
  });
}

const SELECT = 'SELECT m.*, d.number AS number FROM mail_messages m LEFT JOIN documents d ON d.seq = m.document_seq';

/** The messages a document was sent in, oldest first. */
export async function documentMessages(ledger: Ledger, orgSeq: number, documentSeq: number): Promise<SentMessage[]> {
  return (await ledger.rows<Row>(`${SELECT} WHERE m.org_seq = ? AND m.document_seq = ? ORDER BY m.seq`, orgSeq, documentSeq)).map(toMessage);
}

/** The organization's messages of a kind (reminders...), newest first. */
export async function messagesOfKind(ledger: Ledger, orgSeq: number, kind: string, limit = 100): Promise<SentMessage[]> {
  return (await ledger.rows<Row>(`${SELECT} WHERE m.org_seq = ? AND m.kind = ? ORDER BY m.seq DESC LIMIT ?`, orgSeq, kind, limit)).map(toMessage);
}

/** A customer's messages of a kind (its statements of account), oldest first. */
export async function contactMessages(ledger: Ledger, orgSeq: number, contactSeq: number, kind: string): Promise<SentMessage[]> {
  return (await ledger.rows<Row>(`${SELECT} WHERE m.org_seq = ? AND m.document_seq IS NULL AND m.contact_seq = ? AND m.kind = ? ORDER BY m.seq`, orgSeq, contactSeq, kind)).map(
    toMessage,
  );
}

// Notes on transactions. create_note writes at once (deprecated, audit-logged);
// attach_note goes through a proposal and lands here on approval.
import type { Ledger } from '../core/sqlite/open';
import { appendAudit, tokenWriterId, type Actor } from '../access/audit';
import { newId, nowIso } from '../core/clock';
import { excerpt } from '../core/text';
import { requireTransactionRow } from './transactions';

export interface Note {
  id: string;
  transactionId: string;
  content: string;
  authorUserId: string | null;
  createdAt: string;
}

const SELECT = `SELECT n.id, t.id AS "transactionId", n.content, n.author_user_id AS "authorUserId", n.created_at AS "createdAt"
  FROM notes n JOIN transactions t ON t.seq = n.transaction_seq`;

export async function listNotesOf(ledger: Ledger, transactionSeq: number): Promise<Note[]> {
  return ledger.rows<Note>(`${SELECT} WHERE n.transaction_seq = ? ORDER BY n.created_at, n.seq`, transactionSeq);
}

/** list_notes: 404 when the transaction is not in this organization. */
export async function listNotes(ledger: Ledger, orgSeq: number, transactionId: string): Promise<Note[]> {
  return listNotesOf(ledger, (await requireTransactionRow(ledger, orgSeq, transactionId)).seq);
}

/** Inserts a note; the caller holds the write transaction and writes the audit entry. */
export async function insertNote(ledger: Ledger, orgSeq: number, transactionSeq: number, content: string, authorUserId: string | null): Promise<Note> {
  const id = newId();
  await ledger
    .stmt('INSERT INTO notes (id, org_seq, transaction_seq, content, author_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(id, orgSeq, transactionSeq, content, authorUserId, nowIso());
  return (await ledger.stmt(`${SELECT} WHERE n.id = ?`).get(id)) as Note;
}

/**
 * A note written at once, with its audit entry in the same transaction: the
 * person's own note from a row's detail, or an agent's create_note (deprecated).
 */
export async function createNoteDirect(ledger: Ledger, orgSeq: number, actor: Actor, transactionId: string, content: string): Promise<Note> {
  return ledger.write(async () => {
    const tx = await requireTransactionRow(ledger, orgSeq, transactionId);
    const authorUserId = actor.type === 'token' ? tokenWriterId(actor) : actor.userId;
    const note = await insertNote(ledger, orgSeq, tx.seq, content, authorUserId);
    const how = actor.type === 'token' ? 'Note created directly (create_note, deprecated)' : 'Note added';
    await appendAudit(ledger, orgSeq, actor, {
      action: 'note.created',
      targetType: 'note',
      targetId: note.id,
      summary: `${how} on "${excerpt(tx.description, 60)}" ${tx.date}: "${excerpt(content)}"`,
    });
    return note;
  });
}

// A note: an agent's remark on a row (attach_note). Approval adds it; a
// reversal removes it.
import * as z from 'zod';
import { LedgerError } from '../../core/errors';
import { excerpt } from '../../core/text';
import { insertNote } from '../../transactions/notes';
import { describeTransaction, requireTransactionRow } from '../../transactions/transactions';
import { glanceOf, keyTarget, NO_VIEW, type ProposalKind } from '../kind';

export interface NoteInput {
  transactionId: string;
  content: string;
}

const Payload = z.object({ transactionId: z.uuid(), content: z.string() }).meta({ id: 'NotePayload', description: 'type note' });
export type NotePayload = z.infer<typeof Payload>;

interface Outcome {
  kind: 'note';
  noteId: string;
}

export const note: ProposalKind<'note', NoteInput, NotePayload, Outcome> = {
  type: 'note',
  approvedAs: 'addNote',
  payload: Payload,

  async draft({ ledger, orgSeq }, input) {
    const tx = await requireTransactionRow(ledger, orgSeq, input.transactionId);
    return {
      payload: { transactionId: tx.id, content: input.content },
      transactionSeq: tx.seq,
      summary: `Proposed note on ${describeTransaction(tx)}: "${excerpt(input.content)}"`,
    };
  },

  changeKey: (p, transactionSeq) => `note|${keyTarget(transactionSeq)}|${p.content}`,
  transactionId: (p) => p.transactionId,

  async apply({ ledger, orgSeq }, row, p) {
    const tx = await requireTransactionRow(ledger, orgSeq, p.transactionId);
    const created = await insertNote(ledger, orgSeq, tx.seq, p.content, row.proposed_by);
    return { summary: `note ${created.id} created on ${describeTransaction(tx)}`, outcome: { kind: 'note', noteId: created.id } };
  },

  async undo({ ledger, orgSeq }, row, _p, { noteId }) {
    const { changes } = await ledger.stmt('DELETE FROM notes WHERE id = ? AND org_seq = ?').run(noteId ?? '', orgSeq);
    if (changes === 0) throw new LedgerError('conflict', 'This approval cannot be reversed: the note it created is gone.', { id: row.id, reason: 'the note it created is gone' });
    return `note ${noteId} removed`;
  },

  async view(ctx, p) {
    return { ...NO_VIEW, lead: 'Note on', subject: await glanceOf(ctx, p.transactionId), quote: p.content };
  },
};

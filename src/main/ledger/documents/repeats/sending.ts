// Sending what repeating invoices made (issue 53): an occurrence made under
// "issue and send" is recorded "to send" in the write that makes its invoice
// (run.ts), or "held" when made more than a period late (the person's word
// first). The pass (src/main/mail/repeats.ts) TAKES each one to send ("to
// send" -> "sending", a conditional update: of two processes one takes it)
// before the mail goes, so it goes once; the write that records the message
// marks it sent; a refusal marks it failed with the reason, shown on the
// repeating invoice. A failed or held one waits for the person: released, the
// next pass sends it; sent by hand (Send… on the invoice), it is sent.
import type { Human } from '../../access/audit';
import type { Ledger } from '../../core/sqlite/open';
import { LedgerError } from '../../core/errors';
import type { RepeatSending } from '../../../../../db/values';
import { requireDocument } from '../documents';
import { repeatAudit, type RepeatRow } from './template';

export interface ToSend {
  invoice: string;
  documentSeq: number;
  date: string;
  repeatId: string;
}

/** Invoices a repeating invoice made to be sent and not sent yet, oldest first. */
export async function repeatInvoicesToSend(ledger: Ledger, orgSeq: number): Promise<ToSend[]> {
  return ledger.rows(
    `SELECT d.number AS invoice, d.seq AS "documentSeq", o.date, r.id AS "repeatId" FROM invoice_repeat_occurrences o JOIN documents d ON d.seq = o.document_seq JOIN invoice_repeats r ON r.seq = o.repeat_seq
     WHERE o.org_seq = ? AND o.sending = 'to_send' ORDER BY o.date, d.seq`,
    orgSeq,
  );
}

/** Takes an invoice to send: true for the one pass whose update found it still "to send". */
export async function takeRepeatInvoice(ledger: Ledger, documentSeq: number): Promise<boolean> {
  const { changes } = await ledger.write(() =>
    ledger.stmt("UPDATE invoice_repeat_occurrences SET sending = 'sending' WHERE document_seq = ? AND sending = 'to_send'").run(documentSeq),
  );
  return changes === 1;
}

/** An invoice taken to send (null: none left), and where the search for the next one starts. */
export interface Taken {
  one: ToSend | null;
  after: number;
}

/**
 * Takes the first invoice of `waiting` from `from` on that is still "to send" (another process's are passed over), in
 * the caller's write.
 */
export async function takeNextRepeatInvoice(ledger: Ledger, waiting: ToSend[], from: number): Promise<Taken> {
  for (let at = from; at < waiting.length; at++) if (await takeRepeatInvoice(ledger, waiting[at].documentSeq)) return { one: waiting[at], after: at + 1 };
  return { one: null, after: waiting.length };
}

/** Marks a made invoice sent, whatever kept it unsent (called in the write that records its message, by the pass or by hand). */
export async function markRepeatInvoiceSent(ledger: Ledger, documentSeq: number): Promise<void> {
  await ledger.stmt("UPDATE invoice_repeat_occurrences SET sending = 'sent', failure = NULL WHERE document_seq = ? AND sending <> 'sent'").run(documentSeq);
}

/**
 * The mail server refused a taken invoice: failed, with the reason in words, audited; not retried without the person's
 * word. `alsoInTheWrite`: what the caller commits with it (the pass takes its next invoice).
 */
export async function repeatInvoiceFailed(ledger: Ledger, actor: Human, documentSeq: number, reason: string, alsoInTheWrite?: () => Promise<void>): Promise<void> {
  await ledger.write(async () => {
    await alsoInTheWrite?.();
    const r = (
      await ledger.rows<RepeatRow & { number: string }>(
        'SELECT r.*, d.number FROM invoice_repeats r JOIN invoice_repeat_occurrences o ON o.repeat_seq = r.seq JOIN documents d ON d.seq = o.document_seq WHERE o.document_seq = ?',
        documentSeq,
      )
    )[0];
    await ledger.stmt("UPDATE invoice_repeat_occurrences SET sending = 'failed', failure = ? WHERE document_seq = ? AND sending = 'sending'").run(reason, documentSeq);
    await repeatAudit(ledger, r, actor, 'send_failed', `Invoice ${r.number} (made by "${r.name}") was issued but not sent: ${reason}`);
  });
}

/** The person's word: an invoice held (made more than a period late) or whose sending failed may be sent by the next pass. */
export async function releaseRepeatInvoice(ledger: Ledger, orgSeq: number, actor: Human, invoice: string): Promise<{ invoice: string; sending: RepeatSending }> {
  return ledger.write(async () => {
    const doc = await requireDocument(ledger, orgSeq, ['invoice'], invoice);
    const r = (
      await ledger.rows<RepeatRow & { sending: RepeatSending }>(
        "SELECT r.*, o.sending FROM invoice_repeats r JOIN invoice_repeat_occurrences o ON o.repeat_seq = r.seq WHERE o.document_seq = ? AND o.sending IN ('held', 'failed')",
        doc.seq,
      )
    )[0];
    if (!r)
      throw new LedgerError(
        'conflict',
        `Invoice ${doc.number} is not held: only an invoice a repeating invoice made late, or whose sending failed, waits for your word to be sent.`,
        { number: doc.number },
      );
    await ledger.stmt("UPDATE invoice_repeat_occurrences SET sending = 'to_send', failure = NULL WHERE document_seq = ?").run(doc.seq);
    const why = r.sending === 'held' ? 'made late' : 'its sending failed';
    await repeatAudit(ledger, r, actor, 'released', `Invoice ${doc.number} (${why}, by "${r.name}") released to be sent`);
    return { invoice: doc.number, sending: 'to_send' };
  });
}

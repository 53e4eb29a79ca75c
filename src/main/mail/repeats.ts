// The repeating invoices' pass with its sending (issue 53): the invoices due
// by the day are made (ledger/documents/repeats/run.ts: each occurrence once),
// then each made to be sent ("approve and send", not held) is taken, sent with
// its PDF through the organization's server as "Send…" sends it, and marked
// sent in the write that records its message. Taking it first (a conditional
// update) is what makes two processes running the pass send it once. A
// refusal leaves the invoice issued and unsent, with the reason kept on it and
// shown; it is not retried without the person's word (release, or Send…).
// The clock is a parameter, as the making's.
import type { Human } from '../ledger/access/audit';
import { LedgerError } from '../ledger/core/errors';
import type { Ledger } from '../ledger/core/sqlite/open';
import { runRepeatingInvoices, madeText, type MadeOccurrence } from '../ledger/documents/repeats/run';
import { repeatInvoiceFailed, repeatInvoicesToSend, takeNextRepeatInvoice, type Taken } from '../ledger/documents/repeats/sending';
import { sendDocument } from './send';
import { keepingConnections } from './transport';

export interface RepeatRun {
  made: MadeOccurrence[];
  /** Sent by this pass: the invoice, to whom, the server's Message-ID. */
  sent: { invoice: string; to: string[]; messageId: string }[];
  /** Issued but not sent, the reason in words (kept on the invoice's occurrence). */
  notSent: { invoice: string; reason: string }[];
}

/**
 * Sends each invoice waiting to be sent, one at a time, each taken first; another process's are left to it. Each is
 * taken in the write that closes the one before (its message recorded, or its failure): one commit an invoice, not
 * two. A pass that stops between two leaves the one taken "sending", as a pass that died after taking it would.
 */
export async function sendRepeatInvoices(ledger: Ledger, orgSeq: number, actor: Human): Promise<Omit<RepeatRun, 'made'>> {
  // One connection to the mail server for the whole pass (mail/transport.ts).
  return keepingConnections(() =>
    ledger.forOrg(orgSeq, async () => {
      const run: Omit<RepeatRun, 'made'> = { sent: [], notSent: [] };
      const waiting = await repeatInvoicesToSend(ledger, orgSeq);
      let taken = await ledger.write(() => takeNextRepeatInvoice(ledger, waiting, 0));
      while (taken.one) {
        const { one, after } = taken;
        let next: Taken = { one: null, after: waiting.length };
        // Run again if the write it was in rolled back: it searches from the same place.
        const takeNext = async () => {
          next = await takeNextRepeatInvoice(ledger, waiting, after);
        };
        try {
          const message = await sendDocument(ledger, orgSeq, actor, { kind: 'invoice', ref: one.invoice }, takeNext);
          run.sent.push({ invoice: one.invoice, to: message.to, messageId: message.messageId });
        } catch (error) {
          // Words only (a mail failure, no address, no settings); anything else is recorded as such and thrown on, the rest left "to send".
          const known = error instanceof LedgerError;
          const reason = known ? error.message : 'an unexpected error (the server log has it)';
          next = { one: null, after: waiting.length };
          await repeatInvoiceFailed(ledger, actor, one.documentSeq, reason, known ? takeNext : undefined);
          if (!known) throw error;
          run.notSent.push({ invoice: one.invoice, reason });
        }
        taken = next;
      }
      return run;
    }),
  );
}

/** The pass for one organization on a day: what fell due made, then what waits to be sent sent. */
export async function runAndSendRepeatingInvoices(ledger: Ledger, orgSeq: number, asOf: Date | string, actor: Human): Promise<RepeatRun> {
  const made = await runRepeatingInvoices(ledger, orgSeq, asOf, actor);
  return { made, ...(await sendRepeatInvoices(ledger, orgSeq, actor)) };
}

/** The pass's answer in words, a line each. */
export const repeatRunText = (r: RepeatRun): string[] => [
  ...(r.made.length ? r.made.map(madeText) : ['Nothing due.']),
  ...r.sent.map((s) => `Sent invoice ${s.invoice} to ${s.to.join(', ')}: ${s.messageId}`),
  ...r.notSent.map((s) => `Not sent: invoice ${s.invoice} (issued): ${s.reason}`),
];

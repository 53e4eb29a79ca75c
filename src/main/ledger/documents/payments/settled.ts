// What an invoice or a bill still asks for: its balance is the sum of the
// receivable (or payable) amounts that name it: its own posting when issued,
// the credit notes against it, the bank lines that pay it, the contact's
// credit applied to it, the reversal when voided. Kept on the document (settled amount, the day it was settled in
// full) whenever one of those changes, so the aging reads only what was open.
import type { Ledger } from '../../core/sqlite/open';

/** The documents a bank row's lines settle. */
export const settledBy = async (ledger: Ledger, transactionSeq: number): Promise<number[]> =>
  (await ledger.stmt('SELECT DISTINCT settles_seq FROM lines WHERE transaction_seq = ? AND settles_seq IS NOT NULL').pluck().all(transactionSeq)) as number[];

/** What moves a document's balance, per day, oldest first (receivables positive, payables negative). */
const balanceMoves = (ledger: Ledger, seq: number): Promise<{ date: string; minor: number }[]> =>
  ledger.rows(
    `SELECT date, sum(amount_minor) AS minor FROM (
       SELECT date, amount_minor FROM postings WHERE settles_seq = ? UNION ALL SELECT date, amount_minor FROM lines WHERE settles_seq = ?
       UNION ALL SELECT date, CASE kind WHEN 'payable' THEN amount_minor ELSE -amount_minor END FROM credit_applications WHERE document_seq = ?
     ) AS sub GROUP BY date ORDER BY date`,
    seq,
    seq,
    seq,
  );

/** Brings the settled amount and the settled-in-full day of documents up to date. */
export async function refreshSettled(ledger: Ledger, seqs: Iterable<number>): Promise<void> {
  const read = ledger.stmt("SELECT kind, total_minor FROM documents WHERE seq = ? AND state <> 'draft' AND kind <> 'credit_note'");
  const write = ledger.stmt('UPDATE documents SET settled_minor = ?, settled_on = ? WHERE seq = ?');
  for (const seq of new Set(seqs)) {
    const doc = (await read.get(seq)) as { kind: string; total_minor: number } | undefined;
    if (!doc) continue;
    const sign = doc.kind === 'bill' ? -1 : 1;
    let balance = 0;
    let settledOn: string | null = null;
    for (const m of await balanceMoves(ledger, seq)) {
      balance += sign * m.minor;
      settledOn = balance === 0 ? (settledOn ?? m.date) : null;
    }
    await write.run(doc.total_minor - balance, settledOn, seq);
  }
}

// A bank row that pays invoices or bills (issue 29): its other lines become
// receivable (payable) lines naming each document and the part of the row
// that settles it, instead of revenue or expense, so nothing is counted
// twice. One row may pay one document, several (their total) or part of one;
// what is left of the row is a credit on the contact (an overpayment).
// Decisions: a payment is in the document's currency, on or after its issue
// date; a part paid is at most what is still owed; paying again re-allots the
// row (what it paid before to other documents stays). Undoing a payment
// leaves the row uncategorized; the documents are open again.
import { appendAudit, type Actor, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { decimalMarkOf } from '../access/organizations';
import type { Ledger } from '../core/db';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { handRow } from '../transactions/hand';
import { asInput, linesOf, refuseTransfer, replaceLines, suspenseLine, type LineInput } from '../transactions/lines';
import { documentBySeq, requireDocument, toDocument, type Document } from './documents';
import { withRealized } from './currency';

export interface Allocation {
  /** The invoice's or bill's number (or id). */
  document: string;
  /** What of the row goes to it; default: what it still asks, or what is left of the row. */
  amount?: TypedMoney;
}

export interface PaymentResult {
  transactionId: string;
  documents: Document[];
  /** What is left of the row as a credit on the contact (positive), in its currency. */
  credit: number;
}

const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

/** A row as settling needs it. */
type PayingRow = ReturnType<typeof handRow>;

/**
 * The lines that make a row pay documents: what it paid others stays, each named document gets its part, what
 * is left is a credit on the contact. Refuses what cannot be, naming the field.
 */
export function settlementLines(ledger: Ledger, orgSeq: number, actor: Actor, row: PayingRow, kind: 'invoice' | 'bill', allocations: readonly Allocation[]) {
  const lineKind = kind === 'bill' ? 'payable' : 'receivable';
  // The row's sign: money in pays invoices, money out pays bills; s turns a part of the row into its line's amount.
  const s = kind === 'bill' ? 1 : -1;
  if (-s * row.amount_minor <= 0) {
    throw invalid([
      { field: 'transactionId', message: `transaction ${row.id} is money ${kind === 'bill' ? 'in' : 'out'}: it cannot pay ${kind === 'bill' ? 'a bill' : 'an invoice'}` },
    ]);
  }
  if (allocations.length === 0) throw invalid([{ field: 'documents', message: 'name at least one document to pay' }]);
  // Whoever pays the row now, the payment is theirs: an import's claim to it as its own work goes
  // (matchImportedPayments makes its claim after paying).
  ledger.stmt("DELETE FROM import_line_changes WHERE transaction_seq = ? AND previous_lines = '[]'").run(row.seq);
  const docs = allocations.map((a) => requireDocument(ledger, orgSeq, [kind], a.document));
  const named = new Set(docs.map((d) => d.seq));
  const current = linesOf(ledger, row.seq);
  const kept: (LineInput & { kept?: number | null })[] = current
    .filter((l) => l.kind === lineKind && l.settles_seq !== null && !named.has(l.settles_seq))
    .map((l) => ({ ...asInput(l), kept: l.base_minor }));
  let left = -s * row.amount_minor - kept.reduce((sum, l) => sum + s * l.amountMinor, 0);
  const mark = decimalMarkOf(ledger, orgSeq);
  const paid: LineInput[] = [];
  docs.forEach((doc, i) => {
    const field = `documents[${i}]`;
    const what = `${kind} ${doc.number}`;
    if (doc.state !== 'issued') throw invalid([{ field, message: `${what} is ${doc.state}: only an issued ${kind} is paid` }]);
    if (doc.currency !== row.currency) throw invalid([{ field, message: `${what} is in ${doc.currency}, the row in ${row.currency}` }]);
    if (row.date < doc.issue_date) throw invalid([{ field, message: `the row (${row.date}) is before ${what} was issued (${doc.issue_date})` }]);
    const before = current.filter((l) => l.settles_seq === doc.seq).reduce((sum, l) => sum + s * l.amount_minor, 0);
    const open = doc.total_minor - doc.settled_minor + before;
    const given = allocations[i].amount;
    const amount = given === undefined ? Math.min(open, left) : typedToMinor(given, doc.currency, mark, `${field}.amount`);
    if (amount <= 0) throw invalid([{ field, message: open <= 0 ? `${what} is paid` : 'nothing of the row is left to pay it' }]);
    if (amount > open) throw invalid([{ field: `${field}.amount`, message: `is more than ${what} still asks (${money(open, doc.currency)})` }]);
    if (amount > left) throw invalid([{ field: `${field}.amount`, message: `is more than is left of the row (${money(left, row.currency)})` }]);
    left -= amount;
    paid.push({ kind: lineKind, amountMinor: s * amount, settlesSeq: doc.seq, contactSeq: doc.contact_seq, memo: `Payment of ${kind} ${doc.number}` });
  });
  const credit: LineInput[] =
    left > 0 ? [{ kind: lineKind, amountMinor: s * left, settlesSeq: null, contactSeq: docs.at(-1)!.contact_seq, memo: 'Overpayment: a credit on the contact' }] : [];
  const contact = ledger.stmt('SELECT name FROM counterparties WHERE seq = ?').pluck().get(docs[0].contact_seq) as string;
  const said = `pays ${paid.map((p, i) => `${kind} ${docs[i].number} (${money(s * p.amountMinor, row.currency)})`).join(', ')} of ${contact}${left > 0 ? `; ${money(left, row.currency)} left as a credit` : ''}`;
  return { lines: withRealized(ledger, orgSeq, actor, row, [...kept, ...paid, ...credit], docs), docs, left, said };
}

/** Makes a bank row pay invoices (money in) or bills (money out). */
export function payDocuments(
  ledger: Ledger,
  orgSeq: number,
  actor: Actor,
  kind: 'invoice' | 'bill',
  transactionId: string,
  allocations: readonly Allocation[],
  how?: string,
): PaymentResult {
  return ledger.write(() => {
    const row = handRow(ledger, orgSeq, transactionId);
    assertOpen(ledger, orgSeq, [row.date], 'matched with a payment');
    refuseTransfer(ledger, row, 'a payment');
    const { lines, docs, left, said } = settlementLines(ledger, orgSeq, actor, row, kind, allocations);
    replaceLines(ledger, row, lines);
    appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.payment',
      targetType: 'transaction',
      targetId: row.id,
      summary: `${how ? `${how[0].toUpperCase()}${how.slice(1)}: ` : ''}${row.date} ${money(row.amount_minor, row.currency)} "${row.description}" ${said}`,
    });
    return { transactionId: row.id, documents: docs.map((d) => toDocument(ledger, documentBySeq(ledger, d.seq))), credit: fromMinor(left, row.currency) };
  });
}

/** A row no longer pays anything: uncategorized again, its documents open again. */
export function undoPayment(ledger: Ledger, orgSeq: number, actor: Human, transactionId: string): { transactionId: string; reopened: string[] } {
  return ledger.write(() => {
    const row = handRow(ledger, orgSeq, transactionId);
    const settling = linesOf(ledger, row.seq).filter((l) => l.kind === 'receivable' || l.kind === 'payable');
    if (settling.length === 0) throw new LedgerError('conflict', `Transaction ${row.id} pays no invoice or bill.`, { id: row.id });
    assertOpen(ledger, orgSeq, [row.date], 'changed');
    const numbers = ledger.rows<{ number: string }>(
      'SELECT number FROM documents WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY number',
      JSON.stringify(settling.flatMap((l) => (l.settles_seq ? [l.settles_seq] : []))),
    );
    replaceLines(ledger, row, [suspenseLine(row.amount_minor)]);
    appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.payment_undone',
      targetType: 'transaction',
      targetId: row.id,
      summary: `${row.date} ${money(row.amount_minor, row.currency)} "${row.description}" no longer pays ${numbers.map((n) => n.number).join(', ') || 'a credit'}: uncategorized`,
    });
    return { transactionId: row.id, reopened: numbers.map((n) => n.number) };
  });
}

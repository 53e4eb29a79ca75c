// A bank row that pays invoices or bills (issue 29): its other lines become
// receivable (payable) lines naming each document and the part of the row
// that settles it, instead of revenue or expense, so nothing is counted
// twice. One row may pay one document, several (their total) or part of one;
// what is left of the row is a credit on the contact (an overpayment).
// Decisions: a payment is in the document's currency or from the base
// currency (exchange.ts, issue 43), on or after its issue date; a part paid is at most what is still owed; paying again re-allots the
// row (what it paid before to other documents stays). Undoing a payment
// leaves the row uncategorized; the documents are open again.
import { anyOf } from '../../core/dialect';
import { appendAudit, type Actor, type Human } from '../../access/audit';
import { assertOpen } from '../../access/closing';
import { decimalMarkOf } from '../../access/organizations';
import type { Ledger } from '../../core/sqlite/open';
import { invalid, LedgerError } from '../../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../../core/money';
import type { DecimalMark } from '../../../../shared/amounts';
import { handRow } from '../../transactions/hand';
import { asInput, linesOf, refuseTransfer, replaceLines, suspenseLine, type LineInput, type LineRecord } from '../../transactions/lines';
import { documentBySeq, requireDocument, toDocument, type Document, type DocumentRow } from '../documents';
import { realizedLine, withRealized } from '../currency';
import { assertExchangeable, exchangeLines, exchangeSaid, exchangesOf, type Exchange, type ExchangePart } from './exchange';
import { mapInOrder } from '../../core/in-order';

export type { Exchange } from './exchange';

export interface Allocation {
  /** The invoice's or bill's number (or id). */
  document: string;
  /** What of the row goes to it, in the row's currency; default: what it still asks, or what is left of the row. */
  amount?: TypedMoney;
  /** A document in another currency than the row's (issue 43): what of it the row settles, in its currency; default: its balance. */
  settles?: TypedMoney;
}

export interface PaymentResult {
  transactionId: string;
  documents: Document[];
  /** What is left of the row as a credit on the contact (positive), in its currency. */
  credit: number;
  /** The documents paid in another currency than the row's: what each settled, for how much, and the realized difference. */
  exchanges: Exchange[];
}

const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

/** A row as settling needs it. */
type PayingRow = Awaited<ReturnType<typeof handRow>>;

/** What a row would pay, nothing written: its lines (their base amounts where they are in another currency). */
interface SettlementPlan {
  docs: DocumentRow[];
  lines: (LineInput & { kept?: number | null })[];
  left: number;
  said: string;
  parts: ExchangePart[];
}

/** What each document still asks (with what this row paid it before), refusing one the row cannot pay. */
function openBalances(row: PayingRow, kind: 'invoice' | 'bill', docs: readonly DocumentRow[], current: readonly LineRecord[]): number[] {
  const s = kind === 'bill' ? 1 : -1;
  return docs.map((doc, i) => {
    const what = `${kind} ${doc.number}`;
    const field = `documents[${i}]`;
    if (doc.state !== 'issued') throw invalid([{ field, message: `${what} is ${doc.state}: only an issued ${kind} is paid` }]);
    if (row.date < doc.issue_date) throw invalid([{ field, message: `the row (${row.date}) is before ${what} was issued (${doc.issue_date})` }]);
    const before = current.filter((l) => l.settles_seq === doc.seq).reduce((sum, l) => sum + s * l.amount_minor, 0);
    const open = doc.total_minor - doc.settled_minor + before;
    if (open <= 0) throw invalid([{ field, message: `${what} is paid` }]);
    return open;
  });
}

/** The lines paying documents in the row's own currency, out of `left`: each what was given, or its balance while the row lasts. */
function ownCurrencyLines(
  mark: DecimalMark,
  row: PayingRow,
  kind: 'invoice' | 'bill',
  docs: readonly DocumentRow[],
  allocations: readonly Allocation[],
  opens: number[],
  left: number,
) {
  const s = kind === 'bill' ? 1 : -1;
  const lines = docs.map((doc, i): LineInput => {
    const field = `documents[${i}]`;
    const given = allocations[i].amount;
    const amount = given === undefined ? Math.min(opens[i], left) : typedToMinor(given, doc.currency, mark, `${field}.amount`);
    if (amount <= 0) throw invalid([{ field, message: 'nothing of the row is left to pay it' }]);
    if (amount > opens[i]) throw invalid([{ field: `${field}.amount`, message: `is more than ${kind} ${doc.number} still asks (${money(opens[i], doc.currency)})` }]);
    if (amount > left) throw invalid([{ field: `${field}.amount`, message: `is more than is left of the row (${money(left, row.currency)})` }]);
    left -= amount;
    return {
      kind: kind === 'bill' ? 'payable' : 'receivable',
      amountMinor: s * amount,
      settlesSeq: doc.seq,
      contactSeq: doc.contact_seq,
      memo: `Payment of ${kind} ${doc.number}`,
    };
  });
  return { lines, left, said: lines.map((l, i) => `${kind} ${docs[i].number} (${money(s * l.amountMinor, row.currency)})`) };
}

/** Refuses what cannot be paid, naming the field; the rest plans the lines. */
async function planSettlement(ledger: Ledger, orgSeq: number, row: PayingRow, kind: 'invoice' | 'bill', allocations: readonly Allocation[]): Promise<SettlementPlan> {
  const lineKind = kind === 'bill' ? 'payable' : 'receivable';
  // The row's sign: money in pays invoices, money out pays bills; s turns a part of the row into its line's amount.
  const s = kind === 'bill' ? 1 : -1;
  if (-s * row.amount_minor <= 0) {
    throw invalid([
      { field: 'transactionId', message: `transaction ${row.id} is money ${kind === 'bill' ? 'in' : 'out'}: it cannot pay ${kind === 'bill' ? 'a bill' : 'an invoice'}` },
    ]);
  }
  if (allocations.length === 0) throw invalid([{ field: 'documents', message: 'name at least one document to pay' }]);
  const docs = await mapInOrder(allocations, (a) => requireDocument(ledger, orgSeq, [kind], a.document));
  const named = new Set(docs.map((d) => d.seq));
  const current = await linesOf(ledger, row.seq);
  const keptLines = current.filter((l) => l.kind === lineKind && l.settles_seq !== null && !named.has(l.settles_seq));
  const exchanged = docs.some((d) => d.currency !== row.currency) || keptLines.some((l) => l.currency !== row.currency);
  if (exchanged) await assertExchangeable(ledger, orgSeq, row, docs, keptLines);
  const kept = keptLines.map((l) => ({ ...asInput(l), kept: l.base_minor }));
  const opens = openBalances(row, kind, docs, current);
  const rest = -s * row.amount_minor - kept.reduce((sum, l) => sum + s * l.amountMinor, 0);
  const contact = (await ledger.stmt('SELECT name FROM counterparties WHERE seq = ?').pluck().get(docs[0].contact_seq)) as string;
  let paid: { lines: LineInput[]; left: number; said: string[]; parts: ExchangePart[] };
  if (exchanged) {
    const { lines, parts, left } = await exchangeLines(ledger, orgSeq, row, kind, docs, allocations, opens, rest);
    paid = { lines, left, parts, said: parts.map((p) => exchangeSaid(kind, p, row.currency)) };
  } else paid = { ...ownCurrencyLines(await decimalMarkOf(ledger, orgSeq), row, kind, docs, allocations, opens, rest), parts: [] };
  const { left } = paid;
  // A row in the base currency (every row that pays in another one) is worth its own amount.
  const credit: LineInput = { kind: lineKind, amountMinor: s * left, ...(exchanged ? { baseMinor: s * left } : {}), settlesSeq: null, contactSeq: docs.at(-1)!.contact_seq };
  return {
    docs,
    lines: [...kept, ...paid.lines, ...(left > 0 ? [{ ...credit, memo: 'Overpayment: a credit on the contact' }] : [])],
    left,
    parts: paid.parts,
    said: `pays ${paid.said.join(', ')} of ${contact}${left > 0 ? `; ${money(left, row.currency)} left as a credit` : ''}`,
  };
}

/**
 * The lines that make a row pay documents: what it paid others stays, each named document gets its part, what
 * is left is a credit on the contact; in another currency than the document's, the realized difference too.
 * Refuses what cannot be, naming the field.
 */
export async function settlementLines(ledger: Ledger, orgSeq: number, actor: Actor, row: PayingRow, kind: 'invoice' | 'bill', allocations: readonly Allocation[]) {
  const plan = await planSettlement(ledger, orgSeq, row, kind, allocations);
  // Whoever pays the row now, the payment is theirs: an import's claim to it as its own work goes
  // (matchImportedPayments makes its claim after paying).
  await ledger.stmt("DELETE FROM import_line_changes WHERE transaction_seq = ? AND previous_lines = '[]'").run(row.seq);
  const { docs, left, said, parts } = plan;
  if (!parts.length) return { lines: await withRealized(ledger, orgSeq, actor, row, plan.lines, docs), docs, left, said, parts };
  const lines = plan.lines.map(({ kept: _kept, ...l }) => l);
  // The row is in the base currency: the difference is its own amount there.
  const gain = -row.amount_minor - lines.reduce((sum, l) => sum + l.baseMinor!, 0);
  return { lines: gain === 0 ? lines : [...lines, await realizedLine(ledger, orgSeq, actor, gain, gain)], docs, left, said, parts };
}

/** What paying would do (the documents settled in another currency, the credit left), nothing written: the payment form's preview. */
export async function previewPayment(ledger: Ledger, orgSeq: number, kind: 'invoice' | 'bill', transactionId: string, allocations: readonly Allocation[]) {
  const row = await handRow(ledger, orgSeq, transactionId);
  const plan = await planSettlement(ledger, orgSeq, row, kind, allocations);
  return { transactionId: row.id, currency: row.currency, credit: fromMinor(plan.left, row.currency), exchanges: await exchangesOf(ledger, orgSeq, row, kind, plan.parts) };
}

/** Makes a bank row pay invoices (money in) or bills (money out). */
export async function payDocuments(
  ledger: Ledger,
  orgSeq: number,
  actor: Actor,
  kind: 'invoice' | 'bill',
  transactionId: string,
  allocations: readonly Allocation[],
  how?: string,
): Promise<PaymentResult> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, transactionId);
    await assertOpen(ledger, orgSeq, [row.date], 'matched with a payment');
    await refuseTransfer(ledger, row, 'a payment');
    const { lines, docs, left, said, parts } = await settlementLines(ledger, orgSeq, actor, row, kind, allocations);
    await replaceLines(ledger, row, lines);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.payment',
      targetType: 'transaction',
      targetId: row.id,
      summary: `${how ? `${how[0].toUpperCase()}${how.slice(1)}: ` : ''}${row.date} ${money(row.amount_minor, row.currency)} "${row.description}" ${said}`,
    });
    return {
      transactionId: row.id,
      documents: await mapInOrder(docs, async (d) => toDocument(ledger, await documentBySeq(ledger, d.seq))),
      credit: fromMinor(left, row.currency),
      exchanges: await exchangesOf(ledger, orgSeq, row, kind, parts),
    };
  });
}

/** A row no longer pays anything: uncategorized again, its documents open again. */
export async function undoPayment(ledger: Ledger, orgSeq: number, actor: Human, transactionId: string): Promise<{ transactionId: string; reopened: string[] }> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, transactionId);
    const settling = (await linesOf(ledger, row.seq)).filter((l) => l.kind === 'receivable' || l.kind === 'payable');
    if (settling.length === 0) throw new LedgerError('conflict', `Transaction ${row.id} pays no invoice or bill.`, { id: row.id });
    await assertOpen(ledger, orgSeq, [row.date], 'changed');
    const numbers = await ledger.rows<{ number: string }>(
      `SELECT number FROM documents WHERE seq ${anyOf(ledger)} ORDER BY number`,
      settling.flatMap((l) => (l.settles_seq ? [l.settles_seq] : [])),
    );
    await replaceLines(ledger, row, [suspenseLine(row.amount_minor)]);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.payment_undone',
      targetType: 'transaction',
      targetId: row.id,
      summary: `${row.date} ${money(row.amount_minor, row.currency)} "${row.description}" no longer pays ${numbers.map((n) => n.number).join(', ') || 'a credit'}: uncategorized`,
    });
    return { transactionId: row.id, reopened: numbers.map((n) => n.number) };
  });
}

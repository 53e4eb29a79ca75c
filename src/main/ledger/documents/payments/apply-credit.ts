// A contact's credit applied to a later invoice or bill (issue 29): a
// customer who paid too much pays the next invoice with it, as Xero's
// "allocate credit" and QuickBooks' applied credits do. The application is
// dated the day it is applied (default today, never before the document was
// issued, never in a closed period), takes at most what the document still
// asks and what the contact's credit has left by that day, and moves nothing
// in the books' accounts (applied.ts). Decision: only in the organization's
// currency: a credit in another one, applied at another rate than it was
// received, would realize a difference of rates no entry records.
import { appendAudit, type Human } from '../../access/audit';
import { assertOpen } from '../../access/closing';
import { decimalMarkOf, organizationBySeq } from '../../access/organizations';
import { nowIso, today } from '../../core/clock';
import type { Ledger } from '../../core/sqlite/open';
import { invalid, LedgerError } from '../../core/errors';
import { typedToMinor, type TypedMoney } from '../../core/money';
import { availableCredit, type CreditRef } from './applied';
import { documentBySeq, KIND_NAMES, requireDocument, toDocument, type Document, type DocumentKind, type DocumentRow } from '../documents';
import { money } from '../entry';
import { refreshSettled } from './settled';

const creditOf = (doc: DocumentRow): CreditRef => ({ contact_seq: doc.contact_seq, kind: doc.kind === 'bill' ? 'payable' : 'receivable', currency: doc.currency });
/** A sentence's subject: "Invoice INV-0002". */
const named = (doc: DocumentRow) => `${KIND_NAMES[doc.kind][0].toUpperCase()}${KIND_NAMES[doc.kind].slice(1)} ${doc.number}`;
const contactName = async (ledger: Ledger, seq: number) => (await ledger.stmt('SELECT name FROM counterparties WHERE seq = ?').pluck().get(seq)) as string;

async function record(ledger: Ledger, actor: Human, doc: DocumentRow, verb: string, summary: string): Promise<Document> {
  await appendAudit(ledger, doc.org_seq, actor, { action: `${doc.kind}.${verb}`, targetType: doc.kind, targetId: doc.id, summary });
  return toDocument(ledger, await documentBySeq(ledger, doc.seq));
}

/** An issued invoice or bill the contact's credit may pay: refuses any other, naming why. */
async function payableByCredit(ledger: Ledger, orgSeq: number, kinds: readonly DocumentKind[], ref: string): Promise<DocumentRow> {
  const doc = await requireDocument(ledger, orgSeq, kinds, ref);
  const what = named(doc);
  if (doc.kind === 'credit_note') throw new LedgerError('conflict', `${what} is a credit note: a credit is applied to an invoice.`, { number: doc.number });
  if (doc.state !== 'issued') throw new LedgerError('conflict', `${what} is ${doc.state}: a credit is applied to an issued ${doc.kind}.`, { number: doc.number });
  const base = (await organizationBySeq(ledger, orgSeq)).currency;
  if (doc.currency !== base)
    throw new LedgerError('conflict', `${what} is in ${doc.currency}: a credit is applied in ${base} only; pay it from the bank row instead.`, {
      number: doc.number,
      currency: doc.currency,
    });
  return doc;
}

/** Applies the contact's credit to an invoice or bill: `amount` of it (default: what the document asks, or all the credit there is), on `date` (default today). */
export async function applyCredit(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  kinds: readonly DocumentKind[],
  ref: string,
  input: { amount?: TypedMoney; date?: string } = {},
): Promise<Document> {
  return ledger.write(async () => {
    const doc = await payableByCredit(ledger, orgSeq, kinds, ref);
    const what = `${KIND_NAMES[doc.kind]} ${doc.number}`;
    const date = input.date ?? (today() < doc.issue_date ? doc.issue_date : today());
    if (date < doc.issue_date) throw invalid([{ field: 'date', message: `is before ${what} was issued (${doc.issue_date})` }]);
    await assertOpen(ledger, orgSeq, [date], 'applied a credit');
    const open = doc.total_minor - doc.settled_minor;
    if (open <= 0) throw new LedgerError('conflict', `${named(doc)} is paid.`, { number: doc.number });
    const credit = creditOf(doc);
    const available = await availableCredit(ledger, credit, date);
    const contact = await contactName(ledger, doc.contact_seq);
    if (available <= 0) throw new LedgerError('conflict', `${contact} has no credit left to apply on ${date}.`, { number: doc.number, date });
    const amount = input.amount === undefined ? Math.min(open, available) : typedToMinor(input.amount, doc.currency, await decimalMarkOf(ledger, orgSeq), 'amount');
    if (amount <= 0) throw invalid([{ field: 'amount', message: 'must be more than zero' }]);
    if (amount > open) throw invalid([{ field: 'amount', message: `is more than ${what} still asks (${money(open, doc.currency)})` }]);
    if (amount > available) throw invalid([{ field: 'amount', message: `is more than ${contact}'s credit left on ${date} (${money(available, doc.currency)})` }]);
    await ledger
      .stmt('INSERT INTO credit_applications (org_seq, document_seq, contact_seq, kind, date, currency, amount_minor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(orgSeq, doc.seq, doc.contact_seq, credit.kind, date, doc.currency, amount, nowIso());
    await refreshSettled(ledger, [doc.seq]);
    return record(ledger, actor, doc, 'credit_applied', `${money(amount, doc.currency)} of ${contact}'s credit applied to ${what} on ${date}`);
  });
}

/** Takes the credit applied to an invoice or bill off it: the contact has it back, the document asks it again. */
export async function unapplyCredit(ledger: Ledger, orgSeq: number, actor: Human, kinds: readonly DocumentKind[], ref: string): Promise<Document> {
  return ledger.write(async () => {
    const doc = await requireDocument(ledger, orgSeq, kinds, ref);
    const what = `${KIND_NAMES[doc.kind]} ${doc.number}`;
    const applied = await ledger.rows<{ date: string; amount_minor: number }>('SELECT date, amount_minor FROM credit_applications WHERE document_seq = ?', doc.seq);
    if (applied.length === 0) throw new LedgerError('conflict', `No credit is applied to ${what}.`, { number: doc.number });
    await assertOpen(
      ledger,
      orgSeq,
      applied.map((a) => a.date),
      'changed',
    );
    await ledger.stmt('DELETE FROM credit_applications WHERE document_seq = ?').run(doc.seq);
    await refreshSettled(ledger, [doc.seq]);
    const total = applied.reduce((s, a) => s + a.amount_minor, 0);
    return record(ledger, actor, doc, 'credit_unapplied', `${money(total, doc.currency)} of credit taken off ${what}: ${await contactName(ledger, doc.contact_seq)} has it back`);
  });
}

// An invoice's, a credit note's or a bill's life in the books (issue 29).
// A draft is only the document. Issuing books its entry as postings dated
// the issue date: an invoice debits receivables (its total) and credits its
// revenue categories (net) and the tax control account (tax); a bill the
// other way round through payables; a credit note reverses part of an
// invoice and settles that much of it. Voiding posts the reversal, dated the
// void date (by default the document's own while its period is open, else the
// first open day: a closed period stays as filed), with a reason; only a document
// nothing has settled can be voided. Every change is audited with it.
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { newTimeOrderedId, nowIso, today } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import type { DocumentKind } from '../../../../db/values';
import type { ContactRow } from '../contacts/contacts';
import { documentBySeq, KIND_NAMES, requireDocument, toDocument, type Document, type DocumentRow } from './documents';
import { contactFor, DEFAULT_TERMS_DAYS, dueDateOf, takeNumber, workLines, type DocumentInput, type DocumentLineInput, type WorkedDocument } from './draft';
import { lookups, type Lookups } from './lookups';
import { refreshSettled } from './payments/settled';
import type { Track } from '../totals/declared';
import { bookEntry, reverseEntry } from './book';
import { requireCurrency } from '../rates/currencies';
import { voidDateOf } from './void-date';

const INSERT_LINE = `INSERT INTO document_lines (org_seq, document_seq, position, description, quantity_milli, unit_price_minor, category_seq, tax_code_seq, net_minor, tax_minor)
  SELECT org_seq, seq, ?, ?, ?, ?, ?, ?, ?, ? FROM documents WHERE seq = ?`;

/** A document's lines as worked out (a new document: `fresh`, nothing to replace). */
export async function writeLines(ledger: Ledger, seq: number, worked: WorkedDocument, fresh = false): Promise<void> {
  if (!fresh) await ledger.stmt('DELETE FROM document_lines WHERE document_seq = ?').run(seq);
  const insert = ledger.stmt(INSERT_LINE);
  for (const [i, l] of worked.lines.entries()) await insert.run(i, l.description, l.quantityMilli, l.unitPriceMinor, l.categorySeq, l.taxCodeSeq, l.netMinor, l.taxMinor, seq);
}

export const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

export async function audit(ledger: Ledger, actor: Human, doc: DocumentRow, verb: string, summary: string): Promise<void> {
  await appendAudit(ledger, doc.org_seq, actor, { action: `${doc.kind === 'credit_note' ? 'credit_note' : doc.kind}.${verb}`, targetType: doc.kind, targetId: doc.id, summary });
}

/** Issues a draft: its amounts worked out again at the issue date (unless just worked out), its entry booked. */
export async function issueRow(ledger: Ledger, doc: DocumentRow, fresh?: WorkedDocument): Promise<DocumentRow> {
  await assertOpen(ledger, doc.org_seq, [doc.issue_date], 'issued');
  const worked = fresh ?? (await reworked(ledger, doc));
  if (!fresh) await writeLines(ledger, doc.seq, worked);
  await ledger
    .stmt("UPDATE documents SET state = 'issued', issued_at = ?, net_minor = ?, tax_minor = ?, total_minor = ? WHERE seq = ?")
    .run(nowIso(), worked.netMinor, worked.taxMinor, worked.totalMinor, doc.seq);
  await bookEntry(ledger, await documentBySeq(ledger, doc.seq), worked);
  return documentBySeq(ledger, doc.seq);
}

/** A draft's lines worked out again at its date (a rate may have changed since it was written). */
async function reworked(ledger: Ledger, doc: DocumentRow): Promise<WorkedDocument> {
  const contact = (await ledger.stmt('SELECT default_tax_code FROM counterparties WHERE seq = ?').get(doc.contact_seq)) as { default_tax_code: string | null };
  return workLines(await lookups(ledger, doc.org_seq), doc.kind, doc.issue_date, doc.tax_inclusive === 1, await currentLines(ledger, doc), contact, doc.currency);
}

export interface CreateOptions {
  /** A quote (issue 53) is never issued: it books nothing. */
  kind: 'invoice' | 'bill' | 'quote';
  /** Issue (a bill: enter as open) at once rather than keep a draft. */
  issue?: boolean;
}

/** Stores a new document's row (issued now when it is not a draft); its seq. */
async function insertDocument(ledger: Ledger, doc: DocumentRow, at: string): Promise<number> {
  const lastInsertRowid = await ledger
    .stmt(
      `INSERT INTO documents (id, org_seq, kind, state, issued_at, contact_seq, number, issue_date, due_date, currency, tax_inclusive, net_minor, tax_minor, total_minor, notes, payment_instructions, created_at, quote_status, quote_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .insert(
      doc.id,
      doc.org_seq,
      doc.kind,
      doc.state,
      doc.state === 'draft' ? null : at,
      doc.contact_seq,
      doc.number,
      doc.issue_date,
      doc.due_date,
      doc.currency,
      doc.tax_inclusive,
      doc.net_minor,
      doc.tax_minor,
      doc.total_minor,
      doc.notes,
      doc.payment_instructions,
      at,
      doc.quote_status ?? null,
      doc.quote_seq ?? null,
    );
  return Number(lastInsertRowid);
}

/** What a run of many documents (many.ts) keeps for all of them: their totals, their numbers. */
export interface Run {
  track?: Track;
  number?: () => string;
  /** An invoice made from an accepted quote (quotes.ts): the quote. */
  quoteSeq?: number;
}

/**
 * Writes a new invoice (a draft unless issued at once) or bill (open unless
 * kept a draft) inside the caller's write; a `run` of many keeps their
 * postings' totals and numbers itself (many.ts).
 */
export async function createRow(look: Lookups, actor: Human, input: DocumentInput, options: CreateOptions, run: Run = {}): Promise<DocumentRow> {
  const { ledger, orgSeq, org } = look;
  const { kind } = options;
  const issue = kind !== 'quote' && (options.issue ?? false);
  const contact = await contactFor(look, kind, input.contact);
  const date = input.date ?? today();
  const inclusive = input.taxInclusive ?? false;
  const currency = input.currency === undefined ? org.currency : requireCurrency(input.currency);
  const worked = await workLines(look, kind, date, inclusive, input.lines, contact, currency);
  if (kind === 'bill' && !input.number?.trim()) throw invalid([{ field: 'number', message: "is required: the vendor's number of the bill" }]);
  if (
    kind === 'bill' &&
    (await ledger.stmt("SELECT 1 FROM documents WHERE contact_seq = ? AND kind = 'bill' AND lower(number) = lower(?)").get(contact.seq, input.number!.trim()))
  ) {
    throw new LedgerError('conflict', `${contact.name} already has a bill numbered ${input.number!.trim()}.`, { field: 'number' });
  }
  if (issue) await assertOpen(ledger, orgSeq, [date], 'issued');
  const doc: DocumentRow = {
    seq: 0,
    id: newTimeOrderedId(),
    org_seq: orgSeq,
    kind,
    state: issue ? 'issued' : 'draft',
    contact_seq: contact.seq,
    number: kind === 'bill' ? input.number!.trim() : (run.number?.() ?? (await takeNumber(ledger, orgSeq, kind === 'quote' ? 'quote' : 'invoice'))),
    issue_date: date,
    // A quote's due date is its expiry date: given, else its date plus the terms given, else 30 days (not the contact's payment terms).
    due_date: dueDateOf(kind === 'quote' ? { dueDate: input.dueDate, termsDays: input.termsDays ?? DEFAULT_TERMS_DAYS } : input, date, contact),
    currency,
    tax_inclusive: inclusive ? 1 : 0,
    credits_seq: null,
    net_minor: worked.netMinor,
    tax_minor: worked.taxMinor,
    total_minor: worked.totalMinor,
    settled_minor: 0,
    settled_on: null,
    notes: input.notes?.trim() || null,
    // Its own, when given; else the PDF prints the organization's as they are when it is made (issue 43).
    payment_instructions: (kind === 'invoice' && input.paymentInstructions?.trim()) || null,
    void_date: null,
    void_reason: null,
    quote_status: kind === 'quote' ? 'draft' : null,
    quote_seq: run.quoteSeq ?? null,
  };
  doc.seq = await insertDocument(ledger, doc, nowIso());
  await writeLines(ledger, doc.seq, worked, true);
  if (issue) await bookEntry(ledger, doc, worked, run.track, look.valuer);
  const state = issue ? `${kind === 'bill' ? 'entered' : 'issued'}, due ${doc.due_date}` : 'draft';
  await audit(ledger, actor, doc, issue ? 'issued' : 'created', `${KIND_NAMES[kind]} ${doc.number} for ${contact.name}: ${money(worked.totalMinor, doc.currency)} (${state})`);
  return doc;
}

/** A new invoice or bill (createRow), committed with its audit entry. */
export async function createDocument(ledger: Ledger, orgSeq: number, actor: Human, input: DocumentInput, options: CreateOptions): Promise<Document> {
  return ledger.write(async () => toDocument(ledger, await createRow(await lookups(ledger, orgSeq), actor, input, options)));
}

/** Changes a draft: any field, the lines as a whole. */
export async function updateDraft(ledger: Ledger, orgSeq: number, actor: Human, kinds: readonly DocumentKind[], ref: string, input: Partial<DocumentInput>): Promise<Document> {
  return ledger.write(async () => {
    const was = await requireDocument(ledger, orgSeq, kinds, ref);
    if (was.state !== 'draft')
      throw new LedgerError('conflict', `${KIND_NAMES[was.kind]} ${was.number} is ${was.state}: only a draft changes (void it, or issue a credit note).`, { number: was.number });
    const look = await lookups(ledger, orgSeq);
    const contact = input.contact
      ? await contactFor(look, was.kind, input.contact)
      : ((await ledger.stmt('SELECT * FROM counterparties WHERE seq = ?').get(was.contact_seq)) as ContactRow);
    const date = input.date ?? was.issue_date;
    const inclusive = input.taxInclusive ?? was.tax_inclusive === 1;
    const lines: DocumentLineInput[] = input.lines ?? (await currentLines(ledger, was));
    const currency = input.currency === undefined ? was.currency : requireCurrency(input.currency);
    const worked = await workLines(look, was.kind, date, inclusive, lines, contact, currency);
    const due = input.dueDate || input.termsDays !== undefined ? dueDateOf(input, date, contact) : input.date ? dueDateOf({}, date, contact) : was.due_date;
    await ledger
      .stmt(
        'UPDATE documents SET contact_seq = ?, issue_date = ?, due_date = ?, currency = ?, tax_inclusive = ?, net_minor = ?, tax_minor = ?, total_minor = ?, notes = ?, payment_instructions = ? WHERE seq = ?',
      )
      .run(
        contact.seq,
        date,
        due,
        currency,
        inclusive ? 1 : 0,
        worked.netMinor,
        worked.taxMinor,
        worked.totalMinor,
        input.notes === undefined ? was.notes : input.notes?.trim() || null,
        input.paymentInstructions === undefined ? was.payment_instructions : input.paymentInstructions?.trim() || null,
        was.seq,
      );
    await writeLines(ledger, was.seq, worked);
    const doc = await documentBySeq(ledger, was.seq);
    await audit(ledger, actor, doc, 'edited', `${KIND_NAMES[doc.kind]} ${doc.number} (draft) changed: ${money(doc.total_minor, doc.currency)}`);
    return toDocument(ledger, doc);
  });
}

export async function currentLines(ledger: Ledger, doc: DocumentRow): Promise<DocumentLineInput[]> {
  return (
    await ledger.rows<{ description: string; quantity_milli: number; unit_price_minor: number; code: string; tax_code: string | null }>(
      `SELECT l.description, l.quantity_milli, l.unit_price_minor, c.code, t.code AS tax_code FROM document_lines l JOIN categories c ON c.seq = l.category_seq
       LEFT JOIN tax_codes t ON t.seq = l.tax_code_seq WHERE l.document_seq = ? ORDER BY l.position`,
      doc.seq,
    )
  ).map((l) => ({
    description: l.description,
    quantity: l.quantity_milli / 1000,
    unitPrice: fromMinor(l.unit_price_minor, doc.currency),
    categoryCode: l.code,
    taxCode: l.tax_code,
  }));
}

/** Issues a draft invoice (enters a draft bill): its entry goes into the books. */
export async function issueDocument(ledger: Ledger, orgSeq: number, actor: Human, kinds: readonly DocumentKind[], ref: string): Promise<Document> {
  return ledger.write(async () => {
    const was = await requireDocument(ledger, orgSeq, kinds, ref);
    if (was.state !== 'draft')
      throw new LedgerError('conflict', `${KIND_NAMES[was.kind]} ${was.number} is already ${was.state === 'void' ? 'void' : 'issued'}.`, { number: was.number });
    const doc = await issueRow(ledger, was);
    await audit(
      ledger,
      actor,
      doc,
      'issued',
      `${KIND_NAMES[doc.kind]} ${doc.number} ${doc.kind === 'bill' ? 'entered' : 'issued'}: ${money(doc.total_minor, doc.currency)}, due ${doc.due_date}`,
    );
    return toDocument(ledger, doc);
  });
}

/** Voids a document: a draft simply; an issued one by reversing its entry on `date` (default: its own date while its period is open, void-date.ts), once nothing settles it. */
export async function voidDocument(ledger: Ledger, orgSeq: number, actor: Human, kinds: readonly DocumentKind[], ref: string, reason?: string, date?: string): Promise<Document> {
  return ledger.write(async () => {
    const doc = await requireDocument(ledger, orgSeq, kinds, ref);
    const what = `${KIND_NAMES[doc.kind]} ${doc.number}`;
    if (doc.state === 'void') throw new LedgerError('conflict', `${what} is already void.`, { number: doc.number });
    const on = date ?? (await voidDateOf(ledger, doc)).date;
    if (doc.state === 'issued') {
      if (on < doc.issue_date) throw invalid([{ field: 'date', message: `is before the issue date ${doc.issue_date}` }]);
      const paid = (await ledger.stmt('SELECT t.id FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE l.settles_seq = ? LIMIT 1').pluck().get(doc.seq)) as
        string | undefined;
      if (paid)
        throw new LedgerError('conflict', `${what} has a payment (transaction ${paid}): undo the payment first (ledgerdesk payment undo ${paid}).`, {
          number: doc.number,
          transactionId: paid,
        });
      if (await ledger.stmt('SELECT 1 FROM credit_applications WHERE document_seq = ?').get(doc.seq))
        throw new LedgerError(
          'conflict',
          `${what} is paid in part with the ${doc.kind === 'bill' ? 'vendor' : 'customer'}'s credit: take it off first (ledgerdesk ${doc.kind} unapply-credit ${doc.number}).`,
          {
            number: doc.number,
          },
        );
      const credit = (await ledger.stmt("SELECT number FROM documents WHERE credits_seq = ? AND state = 'issued' LIMIT 1").pluck().get(doc.seq)) as string | undefined;
      if (credit) throw new LedgerError('conflict', `${what} has credit note ${credit} against it: void the credit note first.`, { number: doc.number, creditNote: credit });
      await assertOpen(ledger, orgSeq, [on], 'voided');
      await reverseEntry(ledger, doc, on);
    }
    await ledger.stmt("UPDATE documents SET state = 'void', void_date = ?, void_reason = ? WHERE seq = ?").run(on, reason?.trim() || null, doc.seq);
    if (doc.kind === 'credit_note' && doc.credits_seq !== null) await refreshSettled(ledger, [doc.credits_seq]);
    else await refreshSettled(ledger, [doc.seq]);
    const voided = await documentBySeq(ledger, doc.seq);
    await audit(ledger, actor, voided, 'voided', `${what} voided${doc.state === 'issued' ? ` (its entry reversed on ${on})` : ''}${reason?.trim() ? `: ${reason.trim()}` : ''}`);
    return toDocument(ledger, voided);
  });
}

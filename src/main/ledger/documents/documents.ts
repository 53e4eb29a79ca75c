// Invoices, credit notes and bills as they are read (issue 29): the stored
// state (draft, issued, void) and what settles them give the status a person
// sees: an invoice is draft, sent, partially paid, paid or void; a bill
// draft, open, partially paid, paid or void; overdue when past its due date
// with a balance. Amounts are decimal numbers in the document's currency.
import { anyOf } from '../core/dialect';
import { today } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import { foldName } from '../core/text';
import { availableCredit } from './payments/applied';
import { paidByRow } from './payments/paid';
import type { DocumentKind, DocumentState, QuoteStatus } from '../../../../db/values';
import { mapInOrder } from '../core/in-order';

export type { DocumentKind } from '../../../../db/values';
export type DocumentStatus = 'draft' | 'sent' | 'open' | 'partially_paid' | 'paid' | 'void';

export interface DocumentLine {
  description: string;
  quantity: number;
  unitPrice: number;
  categoryCode: string;
  category: string;
  taxCode: string | null;
  net: number;
  tax: number;
}

/** A payment or a credit note that settled part of it. */
export interface Settlement {
  date: string;
  amount: number;
  transactionId?: string;
  creditNote?: string;
  /** The contact's credit (an earlier overpayment) applied to it. */
  creditApplied?: true;
  /** Paid from a row in another currency (issue 43): what of the row paid it, in the row's currency. */
  received?: { amount: number; currency: string };
}

export interface Document {
  id: string;
  kind: DocumentKind;
  number: string;
  status: DocumentStatus;
  overdue: boolean;
  contact: { id: string; name: string };
  issueDate: string;
  dueDate: string;
  currency: string;
  taxInclusive: boolean;
  lines: DocumentLine[];
  /** Tax per code and rate: what the PDF prints. */
  taxes: { taxCode: string; rate: number; net: number; tax: number }[];
  net: number;
  tax: number;
  total: number;
  paid: number;
  credited: number;
  balance: number;
  /** What of the contact's credit (an earlier overpayment) could pay it today: 0 when none, or when it is in another currency than the organization's. */
  creditAvailable: number;
  settlements: Settlement[];
  /** A credit note's invoice. */
  credits: string | null;
  notes: string | null;
  paymentInstructions: string | null;
  voidDate: string | null;
  voidReason: string | null;
  /** An invoice made from an accepted quote (issue 53): the quote's number. */
  quote: string | null;
}

export interface DocumentRow {
  seq: number;
  id: string;
  org_seq: number;
  kind: DocumentKind;
  state: DocumentState;
  contact_seq: number;
  number: string;
  issue_date: string;
  due_date: string;
  currency: string;
  tax_inclusive: number;
  credits_seq: number | null;
  net_minor: number;
  tax_minor: number;
  total_minor: number;
  settled_minor: number;
  settled_on: string | null;
  notes: string | null;
  payment_instructions: string | null;
  void_date: string | null;
  void_reason: string | null;
  /** Read from the table (SELECT *); absent on a row being written. */
  created_at?: string;
  issued_at?: string | null;
  no_reminders?: number;
  /** A quote's life (issue 53): null for other kinds. */
  quote_status?: QuoteStatus | null;
  decided_on?: string | null;
  /** An invoice made from a quote: the quote. */
  quote_seq?: number | null;
}

export const KIND_NAMES: Record<DocumentKind, string> = { invoice: 'invoice', credit_note: 'credit note', bill: 'bill', quote: 'quote' };

/** A document by its number (or id); a bill's number is its vendor's, so a vendor narrows it when two share one. */
export async function requireDocument(ledger: Ledger, orgSeq: number, kinds: readonly DocumentKind[], ref: string, vendorSeq?: number): Promise<DocumentRow> {
  const key = foldName(ref);
  const rows = (
    await ledger.rows<DocumentRow>(
      `SELECT * FROM documents WHERE id = ? AND org_seq = ? UNION SELECT * FROM documents INDEXED BY documents_number WHERE org_seq = ? AND lower(number) = lower(?)`,
      ref,
      orgSeq,
      orgSeq,
      ref.trim(),
    )
  )
    .filter((r) => kinds.includes(r.kind))
    .filter((r) => r.id === ref || foldName(r.number) === key)
    .filter((r) => vendorSeq === undefined || r.contact_seq === vendorSeq);
  const what = KIND_NAMES[kinds[0]];
  if (rows.length === 0) throw new LedgerError('not_found', `No ${what} ${ref} in this organization.`, { resource: what, id: ref });
  if (rows.length > 1)
    throw new LedgerError('conflict', `More than one ${what} is numbered ${ref} (from different vendors): name the vendor or the id.`, { ids: rows.map((r) => r.id) });
  return rows[0];
}

/** What a person sees of its state: from the stored one and what is left to pay. */
export function statusOf(row: Pick<DocumentRow, 'kind' | 'state' | 'total_minor' | 'settled_minor'>): DocumentStatus {
  if (row.state !== 'issued') return row.state;
  if (row.kind === 'credit_note') return 'sent';
  if (row.settled_minor === 0) return row.kind === 'bill' ? 'open' : 'sent';
  return row.settled_minor >= row.total_minor ? 'paid' : 'partially_paid';
}

interface LineRow {
  description: string;
  quantity_milli: number;
  unit_price_minor: number;
  code: string;
  name: string;
  tax_code: string | null;
  rate_e4: number | null;
  net_minor: number;
  tax_minor: number;
}

async function linesOfDocument(ledger: Ledger, row: DocumentRow): Promise<LineRow[]> {
  return ledger.rows<LineRow>(
    `SELECT l.description, l.quantity_milli, l.unit_price_minor, c.code, c.name, t.code AS tax_code, l.net_minor, l.tax_minor,
       (SELECT rate_e4 FROM tax_rates r WHERE r.tax_code_seq = l.tax_code_seq AND r.valid_from <= ? ORDER BY valid_from DESC LIMIT 1) AS rate_e4
     FROM document_lines l JOIN categories c ON c.seq = l.category_seq LEFT JOIN tax_codes t ON t.seq = l.tax_code_seq
     WHERE l.document_seq = ? ORDER BY l.position`,
    row.issue_date,
    row.seq,
  );
}

async function settlementsOf(ledger: Ledger, row: DocumentRow): Promise<Settlement[]> {
  const sign = row.kind === 'bill' ? 1 : -1;
  const paid = await ledger.rows<{ date: string; minor: number; id: string; seq: number; currency: string }>(
    'SELECT l.date, l.amount_minor AS minor, t.id, t.seq, t.currency FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE l.settles_seq = ? ORDER BY l.date, t.seq',
    row.seq,
  );
  const received = async (p: (typeof paid)[number]) =>
    p.currency === row.currency ? {} : { received: { amount: fromMinor((await paidByRow(ledger, p.seq)).get(row.seq) ?? 0, p.currency), currency: p.currency } };
  const credited = await ledger.rows<{ date: string; minor: number; number: string }>(
    "SELECT p.date, p.amount_minor AS minor, d.number FROM postings p JOIN documents d ON d.seq = p.document_seq WHERE p.settles_seq = ? AND d.kind = 'credit_note' ORDER BY p.date, p.seq",
    row.seq,
  );
  const applied = await ledger.rows<{ date: string; minor: number }>(
    'SELECT date, amount_minor AS minor FROM credit_applications WHERE document_seq = ? ORDER BY date, seq',
    row.seq,
  );
  return [
    ...(await mapInOrder(paid, async (p) => ({ date: p.date, amount: fromMinor(sign * p.minor, row.currency), transactionId: p.id, ...(await received(p)) }))),
    ...applied.map((a) => ({ date: a.date, amount: fromMinor(a.minor, row.currency), creditApplied: true as const })),
    ...credited.map((c) => ({ date: c.date, amount: fromMinor(sign * c.minor, row.currency), creditNote: c.number })),
  ].sort((a, b) => a.date.localeCompare(b.date));
}

/** What of the contact's credit could pay an open document today (apply-credit.ts: in the organization's currency only). */
async function creditFor(ledger: Ledger, row: DocumentRow, balanceMinor: number): Promise<number> {
  if (balanceMinor <= 0 || row.currency !== ((await ledger.stmt('SELECT currency FROM organizations WHERE seq = ?').pluck().get(row.org_seq)) as string)) return 0;
  const credit = await availableCredit(ledger, { contact_seq: row.contact_seq, kind: row.kind === 'bill' ? 'payable' : 'receivable', currency: row.currency }, today());
  return Math.max(0, Math.min(balanceMinor, credit));
}

export async function toDocument(ledger: Ledger, row: DocumentRow): Promise<Document> {
  const money = (minor: number) => fromMinor(minor, row.currency);
  const contact = (await ledger.stmt('SELECT id, name FROM counterparties WHERE seq = ?').get(row.contact_seq)) as { id: string; name: string };
  const lines = await linesOfDocument(ledger, row);
  const taxes = new Map<string, { taxCode: string; rate: number; net: number; tax: number }>();
  for (const l of lines.filter((x) => x.tax_code !== null)) {
    const key = `${l.tax_code}@${l.rate_e4}`;
    const t = taxes.get(key) ?? taxes.set(key, { taxCode: l.tax_code!, rate: (l.rate_e4 ?? 0) / 10_000, net: 0, tax: 0 }).get(key)!;
    t.net += l.net_minor;
    t.tax += l.tax_minor;
  }
  const settlements = row.state === 'draft' ? [] : await settlementsOf(ledger, row);
  const credited = settlements.filter((s) => s.creditNote).reduce((s, x) => s + x.amount, 0);
  const balanceMinor = row.state === 'issued' && row.kind !== 'credit_note' ? row.total_minor - row.settled_minor : 0;
  const status = statusOf(row);
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    status,
    overdue: overdueRow(row, today()),
    contact,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    taxInclusive: row.tax_inclusive === 1,
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity_milli / 1000,
      unitPrice: money(l.unit_price_minor),
      categoryCode: l.code,
      category: l.name,
      taxCode: l.tax_code,
      net: money(l.net_minor),
      tax: money(l.tax_minor),
    })),
    taxes: [...taxes.values()].map((t) => ({ ...t, net: money(t.net), tax: money(t.tax) })),
    net: money(row.net_minor),
    tax: money(row.tax_minor),
    total: money(row.total_minor),
    paid: Number(
      settlements
        .filter((s) => s.transactionId || s.creditApplied)
        .reduce((s, x) => s + x.amount, 0)
        .toFixed(6),
    ),
    credited: Number(credited.toFixed(6)),
    balance: money(balanceMinor),
    creditAvailable: money(await creditFor(ledger, row, balanceMinor)),
    settlements,
    credits: row.credits_seq === null ? null : ((await ledger.stmt('SELECT number FROM documents WHERE seq = ?').pluck().get(row.credits_seq)) as string),
    notes: row.notes,
    paymentInstructions: row.payment_instructions,
    voidDate: row.void_date,
    voidReason: row.void_reason,
    quote: row.quote_seq ? ((await ledger.stmt('SELECT number FROM documents WHERE seq = ?').pluck().get(row.quote_seq)) as string) : null,
  };
}

export interface DocumentQuery {
  kinds: readonly DocumentKind[];
  status?: DocumentStatus | 'overdue';
  contactSeq?: number;
  limit?: number;
  offset?: number;
}

/** A document's stored row by its seq. */
export const documentBySeq = async (ledger: Ledger, seq: number): Promise<DocumentRow> => (await ledger.stmt('SELECT * FROM documents WHERE seq = ?').get(seq)) as DocumentRow;

/** Owed past its due date (from the stored row, as toDocument says it). */
const overdueRow = (r: DocumentRow, on: string) => r.state === 'issued' && r.kind !== 'credit_note' && r.total_minor > r.settled_minor && r.due_date < on;

/**
 * Documents newest first, with their status; `overdue`: open ones past their due date. Filtered and paged on the
 * stored rows, so only the page's documents are read in full.
 */
export async function listDocuments(ledger: Ledger, orgSeq: number, q: DocumentQuery): Promise<{ data: Document[]; totalCount: number }> {
  const on = today();
  const rows = (
    await ledger.rows<DocumentRow>(
      `SELECT * FROM documents WHERE org_seq = ? AND kind ${anyOf(ledger)}${q.contactSeq ? ' AND contact_seq = ?' : ''} ORDER BY issue_date DESC, seq DESC`,
      orgSeq,
      q.kinds,
      ...(q.contactSeq ? [q.contactSeq] : []),
    )
  ).filter((r) => q.status === undefined || (q.status === 'overdue' ? overdueRow(r, on) : statusOf(r) === q.status));
  const offset = q.offset ?? 0;
  return { data: await mapInOrder(rows.slice(offset, offset + (q.limit ?? rows.length)), (r) => toDocument(ledger, r)), totalCount: rows.length };
}

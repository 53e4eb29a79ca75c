// The open invoices and bills of the opening entry (issue 43): documents as
// any other (their number, customer or vendor, issue and due dates, what is
// still owed), so that the aging, payment matching, statements and payments
// work on them from the first day. They carry no lines of revenue or cost
// (those were in the books before): each posts what is owed against the
// opening balances' equity, dated as the whole entry is, the day before the
// conversion date (issue 50). One that was paid or credited since stays as it
// is when the opening balances are set again; the others are replaced by what
// is given.
//
// The VAT inside one (issue 50): its tax code and VAT, given together (an
// invoice of several rates, or one part paid before the conversion, has no
// one rate to work it back from: the bookkeeper reads it off the invoice).
// On the cash basis the VAT of a document is due when it is paid, so an open
// document's VAT was declared in no return before these books: it is credited
// (a bill's debited) to the tax control account, as any invoice's VAT is in
// these books, and the payment declares it (documents/basis.ts). On the
// accrual basis it was declared when the document was issued, in the returns
// before these books: it stays in the opening balances and no return takes it.
// Which of the two is the organization's tax basis when the document is
// written; the opening posting carries the code and the VAT either way.
import { appendAudit, type Human } from '../access/audit';
import { newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { contactFor, dueDateOf } from '../documents/draft';
import { lookups, type Lookups } from '../documents/lookups';
import { requireCurrency } from '../rates/currencies';
import type { Track } from '../totals/declared';
import { addDays, dayBefore, isCalendarDate } from '../../../shared/dates';

/**
 * The opening entry's date (issue 50): the day before the conversion date, as Xero dates conversion balances. The
 * balances are those at the close of that day, so the year-to-date revenue and expenses they carry fall before the
 * first period of these books, and the balance sheet of that day holds them.
 */
export const balancesDate = (conversion: string): string => dayBefore(conversion);
/** The conversion date of an opening entry dated `dated`: the day these books start. */
export const conversionOf = (dated: string): string => addDays(dated, 1);

export interface OpeningDocumentInput {
  /** Its number: the invoice's own (from the system the books come from), or the vendor's for a bill. */
  number: string;
  /** The customer (an invoice) or vendor (a bill), by name or id. */
  contact: string;
  date: string;
  /** Default: the date plus the contact's terms (else 30 days). */
  dueDate?: string;
  /** What is still owed at the conversion, in its currency. */
  outstanding: TypedMoney;
  /** Default: the organization's. */
  currency?: string;
  /** The VAT inside what is outstanding (issue 50): its tax code and amount, given together. */
  taxCode?: string;
  tax?: TypedMoney;
}

export type OpeningKind = 'invoice' | 'bill';

/** An open document checked and ready to write. */
export interface OpeningDocument {
  kind: OpeningKind;
  number: string;
  contactSeq: number;
  contact: string;
  date: string;
  dueDate: string;
  currency: string;
  minor: number;
  /** Its tax code and the VAT inside `minor` (0 and null: none given). */
  taxCodeSeq: number | null;
  taxCode: string | null;
  taxMinor: number;
  /** A document already written: whether its VAT is in the tax control account, due when paid (written: the basis then). */
  vatWhenPaid?: boolean;
}

/** Whether nothing has settled a document but its own opening posting (no payment, credit note, applied credit or void). */
export const UNTOUCHED_SQL = `d.state = 'issued' AND d.settled_minor = 0
  AND NOT EXISTS (SELECT 1 FROM lines l WHERE l.settles_seq = d.seq) AND NOT EXISTS (SELECT 1 FROM postings q WHERE q.settles_seq = d.seq AND q.document_seq <> d.seq)
  AND NOT EXISTS (SELECT 1 FROM credit_applications a WHERE a.document_seq = d.seq)`;

export { OPENING_DOCUMENTS_SQL } from './opening-vat';

/** One open document as given, checked (its fields named `invoices[3].customer`...). */
async function checkOne(look: Lookups, kind: OpeningKind, d: OpeningDocumentInput, at: string, conversion: string): Promise<OpeningDocument> {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  const number = d.number.trim();
  if (!number) throw invalid([{ field: `${at}.number`, message: 'is empty' }]);
  // In the balances at the close of the day before the conversion: one of the conversion day is entered as any document.
  if (!isCalendarDate(d.date) || d.date >= conversion)
    throw invalid([{ field: `${at}.date`, message: `must be a date before the conversion date ${conversion} (one of that day or later is entered as any ${kind})` }]);
  let contact;
  try {
    contact = await contactFor(look, kind, d.contact);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    const message = error.code === 'not_found' ? `"${d.contact}" is not a contact of this organization (ledgerdesk contact add "${d.contact}" --kind ${party})` : error.message;
    throw invalid([{ field: `${at}.${party}`, message }]);
  }
  const currency = d.currency ? requireCurrency(d.currency, `${at}.currency`) : look.org.currency;
  if (d.dueDate !== undefined && !isCalendarDate(d.dueDate)) throw invalid([{ field: `${at}.dueDate`, message: 'must be a date, YYYY-MM-DD' }]);
  let dueDate: string;
  try {
    dueDate = dueDateOf({ dueDate: d.dueDate }, d.date, contact);
  } catch {
    throw invalid([{ field: `${at}.dueDate`, message: `is before its date ${d.date}` }]);
  }
  const minor = typedToMinor(d.outstanding, currency, look.org.decimalMark, `${at}.outstanding`);
  if (minor <= 0) throw invalid([{ field: `${at}.outstanding`, message: 'is what is still owed: more than zero' }]);
  return { kind, number, contactSeq: contact.seq, contact: contact.name, date: d.date, dueDate, currency, minor, ...(await checkTax(look, kind, d, at, currency, minor)) };
}

/** Kinds of code whose supplies carry no VAT: their VAT is zero. */
const NO_VAT = ['zero_rated', 'exempt', 'outside_scope'];

/** An open document's tax code and VAT (issue 50), checked: both or neither; a code of its side; the VAT within what is owed. */
async function checkTax(
  look: Lookups,
  kind: OpeningKind,
  d: OpeningDocumentInput,
  at: string,
  currency: string,
  minor: number,
): Promise<Pick<OpeningDocument, 'taxCodeSeq' | 'taxCode' | 'taxMinor'>> {
  const code = d.taxCode?.trim();
  const given = d.tax !== undefined && String(d.tax).trim() !== '';
  if (!code && !given) return { taxCodeSeq: null, taxCode: null, taxMinor: 0 };
  if (!code) throw invalid([{ field: `${at}.taxCode`, message: 'is missing: the VAT is given with its tax code (S, R, Z...)' }]);
  if (!given) throw invalid([{ field: `${at}.tax`, message: `is missing: give the VAT inside what is outstanding with its tax code ${code} (0 for none)` }]);
  const seq = await look.taxCode(code, `${at}.taxCode`);
  const facts = await look.taxFacts(seq);
  const side = kind === 'bill' ? 'purchases' : 'sales';
  if (facts.applies !== 'both' && facts.applies !== side) throw invalid([{ field: `${at}.taxCode`, message: `${facts.code} is for ${facts.applies}, not ${side}` }]);
  if (facts.kind === 'reverse_charge')
    throw invalid([{ field: `${at}.taxCode`, message: `${facts.code} is a reverse charge: its VAT is accounted when the supply is made, not when it is paid` }]);
  const taxMinor = typedToMinor(d.tax!, currency, look.org.decimalMark, `${at}.tax`);
  if (taxMinor < 0 || taxMinor >= minor) throw invalid([{ field: `${at}.tax`, message: 'is the VAT inside what is outstanding: zero or more, and less than it' }]);
  if (taxMinor !== 0 && NO_VAT.includes(facts.kind)) throw invalid([{ field: `${at}.tax`, message: `${facts.code} (${facts.kind.replace('_', ' ')}) carries no VAT: 0` }]);
  return { taxCodeSeq: seq, taxCode: facts.code, taxMinor };
}

/** The open documents as given, checked; numbers once each (an invoice's per organization, a bill's per vendor). */
export async function checkOpeningDocuments(
  ledger: Ledger,
  orgSeq: number,
  given: { invoices?: readonly OpeningDocumentInput[]; bills?: readonly OpeningDocumentInput[] },
  conversion: string,
): Promise<OpeningDocument[]> {
  const look = await lookups(ledger, orgSeq);
  const out: OpeningDocument[] = [];
  const seen = new Set<string>();
  for (const kind of ['invoice', 'bill'] as const) {
    for (const [i, d] of ((kind === 'bill' ? given.bills : given.invoices) ?? []).entries()) {
      const at = `${kind}s[${i}]`;
      const doc = await checkOne(look, kind, d, at, conversion);
      const key = `${kind}:${kind === 'bill' ? doc.contactSeq : ''}:${doc.number.toLowerCase()}`;
      if (seen.has(key)) throw invalid([{ field: `${at}.number`, message: `${doc.number} is given twice` }]);
      seen.add(key);
      out.push(doc);
    }
  }
  return out;
}

/** Refuses a number another document of the organization already has (an invoice's) or its vendor already used (a bill's). */
export async function assertNumbersFree(ledger: Ledger, orgSeq: number, docs: readonly OpeningDocument[]): Promise<void> {
  const invoice = ledger.stmt("SELECT 1 FROM documents WHERE org_seq = ? AND kind <> 'bill' AND kind = 'invoice' AND lower(number) = lower(?)");
  const bill = ledger.stmt("SELECT 1 FROM documents WHERE contact_seq = ? AND kind = 'bill' AND lower(number) = lower(?)");
  for (const d of docs) {
    const taken = d.kind === 'bill' ? await bill.get(d.contactSeq, d.number) : await invoice.get(orgSeq, d.number);
    if (taken)
      throw new LedgerError('conflict', `${d.kind === 'bill' ? `${d.contact} already has a bill` : 'An invoice is already'} numbered ${d.number}.`, {
        field: 'number',
        number: d.number,
      });
  }
}

const INSERT_DOCUMENT = `INSERT INTO documents (id, org_seq, kind, state, issued_at, contact_seq, number, issue_date, due_date, currency, tax_inclusive, net_minor, tax_minor, total_minor, notes, created_at)
  VALUES (?, ?, ?, 'issued', ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 'Open at the conversion (opening balances)', ?)`;
const INSERT_POSTING = `INSERT INTO postings (document_seq, org_seq, kind, settles_seq, contact_seq, date, currency, amount_minor, base_minor, memo, tax_code_seq, tax_minor)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** One posting of an open document, as written. */
interface OpeningPosting {
  kind: 'receivable' | 'payable' | 'opening' | 'tax';
  minor: number;
  base: number;
  memo: string;
  taxCodeSeq?: number | null;
  taxMinor?: number | null;
}

/** What an open document posts (debits positive): what is owed, its VAT (above), and the rest against the opening balances. */
export async function openingPostings(d: OpeningDocument, value: (minor: number, currency: string) => number | Promise<number>, vatWhenPaid: boolean): Promise<OpeningPosting[]> {
  // An invoice is owed to us (a debit); a bill we owe (a credit); the opening balances take the other side.
  const s = d.kind === 'bill' ? -1 : 1;
  const title = `${d.kind === 'bill' ? 'Bill' : 'Invoice'} ${d.number}`;
  const owedBase = s * (await value(d.minor, d.currency));
  const out: OpeningPosting[] = [{ kind: d.kind === 'bill' ? 'payable' : 'receivable', minor: s * d.minor, base: owedBase, memo: 'Open at the conversion' }];
  const vatBase = d.taxMinor ? -s * (await value(d.taxMinor, d.currency)) : 0;
  if (d.taxCodeSeq !== null && d.taxMinor !== 0)
    out.push(
      vatWhenPaid
        ? { kind: 'tax', minor: -s * d.taxMinor, base: vatBase, memo: `VAT on ${title}, due when it is paid (cash basis)`, taxCodeSeq: d.taxCodeSeq }
        : { kind: 'opening', minor: -s * d.taxMinor, base: vatBase, memo: `VAT on ${title}, declared before the conversion (accrual basis)` },
    );
  out.push({
    kind: 'opening',
    minor: -s * (d.minor - d.taxMinor),
    base: -owedBase - vatBase,
    memo: `${title} open at the conversion`,
    taxCodeSeq: d.taxCodeSeq,
    taxMinor: d.taxCodeSeq === null ? null : -s * d.taxMinor,
  });
  return out;
}

/** Writes an open document's postings, dated the opening entry's date. */
export async function postOpeningDocument(ledger: Ledger, orgSeq: number, seq: number, d: OpeningDocument, postings: readonly OpeningPosting[], dated: string, track?: Track) {
  const post = ledger.stmt(INSERT_POSTING);
  for (const p of postings) {
    const settles = p.kind === 'receivable' || p.kind === 'payable' ? seq : null;
    await post.run(seq, orgSeq, p.kind, settles, d.contactSeq, dated, d.currency, p.minor, p.base, p.memo, p.taxCodeSeq ?? null, p.taxMinor ?? null);
    track?.line({ orgSeq, currency: d.currency, date: dated, kind: p.kind, categorySeq: null, amountMinor: p.minor, baseMinor: p.base });
  }
}

/** What is said of an open document's VAT in its audit entry. */
export const vatWords = (d: OpeningDocument): string => (d.taxCode === null ? 'no VAT given' : `VAT ${fromMinor(d.taxMinor, d.currency).toFixed(2)} at ${d.taxCode}`);

/** Writes the open documents, each owing its amount against the opening balances on the entry's date, with its audit entry. */
export async function writeOpeningDocuments(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  docs: readonly OpeningDocument[],
  dated: string,
  value: (minor: number, currency: string) => number | Promise<number>,
  vatWhenPaid: boolean,
  track?: Track,
): Promise<void> {
  const doc = ledger.stmt(INSERT_DOCUMENT);
  const at = nowIso();
  for (const d of docs) {
    const id = newTimeOrderedId();
    const seq = Number(await doc.insert(id, orgSeq, d.kind, at, d.contactSeq, d.number, d.date, d.dueDate, d.currency, d.minor - d.taxMinor, d.taxMinor, d.minor, at));
    await postOpeningDocument(ledger, orgSeq, seq, d, await openingPostings(d, value, vatWhenPaid), dated, track);
    await appendAudit(ledger, orgSeq, actor, {
      action: `${d.kind}.opened`,
      targetType: d.kind,
      targetId: id,
      summary: `${d.kind === 'bill' ? 'Bill' : 'Invoice'} ${d.number} ${d.kind === 'bill' ? 'from' : 'for'} ${d.contact}: ${fromMinor(d.minor, d.currency).toFixed(2)} ${d.currency} open at the conversion, in the balances of ${dated} (dated ${d.date}, due ${d.dueDate}; ${vatWords(d)})`,
    });
  }
}

// Writing invoices, credit notes and bills as documents (issue 29): their
// lines (quantity, unit price, category, tax code) and the amounts worked out
// from them, tax-exclusive or tax-inclusive. Decisions:
// - A line's amount is quantity x unit price rounded half away from zero;
//   its tax is worked out per line at the rate of the issue date (the same
//   rounding as a bank row's tax, issue 28): on the net (tax-exclusive) or
//   inside the gross (tax-inclusive).
// - A line's tax code: the one named; else the contact's default; else the
//   category's (defaultLineTax, also what the screens show). None named as
//   null: no tax.
// - Invoices and credit notes take revenue categories; bills expense or asset
//   ones (a purchase of equipment). The reverse charge on a sale charges no
//   tax; on a bill its tax is notional (on the category line, for the return).
// - Numbers: invoices and credit notes from the organization's prefix and
//   next number, given at creation (a draft has its number) and never reused
//   (a voided one keeps it); a bill carries its vendor's number, unique per vendor.
import type { Ledger } from '../core/sqlite/open';
import { invalid, type FieldIssue } from '../core/errors';
import { typedToMinor, type TypedMoney } from '../core/money';
import type { ContactRow } from '../contacts/contacts';
import { mulDivRounded, recoverablePart, taxInGross, taxOnNet } from '../tax/lines';
import { lookups, type Lookups } from './lookups';
import { mapInOrder } from '../core/in-order';
import type { DocumentKind } from '../../../../db/values';
import { addDays } from '../../../shared/dates';

export interface DocumentLineInput {
  description: string;
  /** A number or its text ("1.5"), up to three decimals. */
  quantity: number | string;
  unitPrice: TypedMoney;
  categoryCode: string;
  /** Undefined: the contact's default, else the category's; null: no tax. */
  taxCode?: string | null;
}

export interface DocumentInput {
  contact: string;
  /** A bill's number (the vendor's); invoices are numbered by the organization. */
  number?: string;
  date?: string;
  dueDate?: string;
  termsDays?: number;
  taxInclusive?: boolean;
  /** ISO 4217; default: the organization's (issue 30: an invoice or bill in another currency books at its issue date's rate). */
  currency?: string;
  lines: DocumentLineInput[];
  notes?: string | null;
  paymentInstructions?: string | null;
}

/** A line as stored, with what the entry needs of it. */
export interface WorkedLine {
  description: string;
  quantityMilli: number;
  unitPriceMinor: number;
  categorySeq: number;
  taxCodeSeq: number | null;
  netMinor: number;
  /** The tax charged on it (what the document prints). */
  taxMinor: number;
  /** What the entry posts to the tax control account (a bill's recoverable share; all of a sale's). */
  postedTaxMinor: number;
  /** The reverse charge's notional tax on a bill (posted nowhere, reported on the return). */
  notionalMinor: number;
}

export interface WorkedDocument {
  lines: WorkedLine[];
  netMinor: number;
  taxMinor: number;
  totalMinor: number;
}

/** Terms when neither the document nor its contact names any (days). */
export const DEFAULT_TERMS_DAYS = 30;

const CATEGORY_TYPES_OF: Record<DocumentKind, readonly string[]> = { invoice: ['revenue'], credit_note: ['revenue'], bill: ['expense', 'asset'], quote: ['revenue'] };

function quantityMilli(value: number | string, field: string, issues: FieldIssue[]): number {
  const text = String(value).trim();
  if (!/^\d{1,9}(\.\d{1,3})?$/.test(text) || Number(text) <= 0) {
    issues.push({ field, message: `"${text}" is not a quantity: a positive number with at most three decimals` });
    return 0;
  }
  return Math.round(Number(text) * 1000);
}

type LineFacts = Omit<WorkedLine, 'netMinor' | 'taxMinor' | 'postedTaxMinor' | 'notionalMinor'>;

/** A line with its amounts, built whole rather than spread: a file of 100,000 invoices works out 300,000 lines. */
const worked = (line: LineFacts, netMinor: number, taxMinor: number, postedTaxMinor: number, notionalMinor: number): WorkedLine => ({
  description: line.description,
  quantityMilli: line.quantityMilli,
  unitPriceMinor: line.unitPriceMinor,
  categorySeq: line.categorySeq,
  taxCodeSeq: line.taxCodeSeq,
  netMinor,
  taxMinor,
  postedTaxMinor,
  notionalMinor,
});

/** One line's amounts: its amount from quantity and price, its tax at the date's rate. */
async function workLine(look: Lookups, kind: DocumentKind, date: string, inclusive: boolean, line: LineFacts): Promise<WorkedLine> {
  const amount = mulDivRounded(line.quantityMilli, line.unitPriceMinor, 1000);
  if (line.taxCodeSeq === null) return worked(line, amount, 0, 0, 0);
  const code = await look.taxFacts(line.taxCodeSeq);
  const rate = await look.rate(line.taxCodeSeq, date);
  if (code.kind === 'reverse_charge') return worked(line, amount, 0, 0, kind === 'bill' ? taxOnNet(amount, rate) : 0);
  const tax = inclusive ? taxInGross(amount, rate) : taxOnNet(amount, rate);
  return worked(line, inclusive ? amount - tax : amount, tax, kind === 'bill' ? recoverablePart(tax, code.recoverable_percent) : tax, 0);
}

/**
 * The tax code of a line that names none: the contact's default, else the category's; null: no tax. The one rule
 * (issue 50): writing a document applies it, and the screens show what it gives (lineTaxDefaults) before saving.
 */
async function defaultLineTax(look: Lookups, contact: Pick<ContactRow, 'default_tax_code'>, categorySeq: number | undefined, field: string): Promise<number | null> {
  if (contact.default_tax_code) return look.taxCode(contact.default_tax_code, field);
  return categorySeq === undefined ? null : look.defaultTax(categorySeq);
}

/**
 * What each category's line would be taxed at, for this contact (none: the categories' own codes), when the line
 * names no code: the invoice and bill form picks it when the category is picked. An unknown category: null.
 */
export async function lineTaxDefaults(ledger: Ledger, orgSeq: number, contactRef: string | undefined, categoryCodes: readonly string[]) {
  const look = await lookups(ledger, orgSeq);
  const contact = contactRef ? await look.contact(contactRef) : { default_tax_code: null };
  const codeOf = ledger.stmt('SELECT code FROM tax_codes WHERE seq = ?').pluck();
  return mapInOrder([...new Set(categoryCodes.map((c) => c.trim()))], async (categoryCode) => {
    const category = await look.category(categoryCode);
    const seq = category && !category.archived_at ? await defaultLineTax(look, contact, category.seq, 'taxCode') : null;
    return { categoryCode, taxCode: seq === null ? null : ((await codeOf.get(seq)) as string) };
  });
}

/** The lines checked and worked out, each bad field named (lines[2].categoryCode). */
export async function workLines(
  look: Lookups,
  kind: DocumentKind,
  date: string,
  inclusive: boolean,
  inputs: readonly DocumentLineInput[],
  contact: Pick<ContactRow, 'default_tax_code'>,
  currency = look.org.currency,
): Promise<WorkedDocument> {
  const issues: FieldIssue[] = [];
  if (inputs.length === 0) issues.push({ field: 'lines', message: 'at least one line is required' });
  const mark = look.org.decimalMark;
  const lines: WorkedLine[] = [];
  for (const [i, input] of inputs.entries()) {
    const at = (f: string) => `lines[${i}].${f}`;
    const category = await look.category(input.categoryCode.trim());
    if (!category || category.archived_at) issues.push({ field: at('categoryCode'), message: `"${input.categoryCode}" is not a category of this organization's chart in use` });
    else if (!CATEGORY_TYPES_OF[kind].includes(category.type)) {
      issues.push({
        field: at('categoryCode'),
        message: `${category.code} ${category.name} is ${category.type}: a ${kind === 'bill' ? 'bill takes expense or asset' : 'sale takes revenue'} categories`,
      });
    }
    let unitPriceMinor = 0;
    try {
      unitPriceMinor = typedToMinor(input.unitPrice, currency, mark, at('unitPrice'));
    } catch (e) {
      issues.push(...((e as { details?: FieldIssue[] }).details ?? [{ field: at('unitPrice'), message: 'is not an amount' }]));
    }
    const qty = quantityMilli(input.quantity, at('quantity'), issues);
    if (!input.description.trim()) issues.push({ field: at('description'), message: 'is required' });
    let taxCodeSeq: number | null = null;
    try {
      if (input.taxCode === undefined) taxCodeSeq = await defaultLineTax(look, contact, category?.seq, at('taxCode'));
      else if (input.taxCode) taxCodeSeq = await look.taxCode(input.taxCode, at('taxCode'));
    } catch (e) {
      issues.push(...((e as { details?: FieldIssue[] }).details ?? []));
    }
    if (category)
      lines.push(await workLine(look, kind, date, inclusive, { description: input.description.trim(), quantityMilli: qty, unitPriceMinor, categorySeq: category.seq, taxCodeSeq }));
  }
  if (issues.length) throw invalid(issues);
  const netMinor = lines.reduce((s, l) => s + l.netMinor, 0);
  const taxMinor = lines.reduce((s, l) => s + l.taxMinor, 0);
  if (netMinor + taxMinor < 0)
    throw invalid([
      {
        field: 'lines',
        message: `the total is negative: ${kind === 'bill' ? "a vendor's credit" : 'a credit note'} is issued against ${kind === 'bill' ? 'a bill' : 'an invoice'} instead`,
      },
    ]);
  return { lines, netMinor, taxMinor, totalMinor: netMinor + taxMinor };
}

/** The due date: given, or the issue date plus the terms (the document's, the contact's, else 30 days). */
export function dueDateOf(input: Pick<DocumentInput, 'dueDate' | 'termsDays'>, date: string, contact: Pick<ContactRow, 'terms_days'>): string {
  const due = input.dueDate ?? addDays(date, input.termsDays ?? contact.terms_days ?? DEFAULT_TERMS_DAYS);
  if (due < date) throw invalid([{ field: 'dueDate', message: `is before the issue date ${date}` }]);
  return due;
}

/** The contact a document is for, in the role it needs: a customer for invoices, a vendor for bills. */
export async function contactFor(look: Lookups, kind: DocumentKind, ref: string): Promise<ContactRow> {
  const field = kind === 'bill' ? 'vendor' : 'customer';
  const contact = await look.contact(ref);
  if (contact.archived_at) throw invalid([{ field, message: `${contact.name} is archived: restore the contact first` }]);
  if (kind === 'bill' ? !contact.is_vendor : !contact.is_customer) {
    throw invalid([{ field, message: `${contact.name} is not a ${field}: make it one (ledgerdesk contact edit "${contact.name}" --${field})` }]);
  }
  return contact;
}

type Numbered = 'invoice' | 'credit_note' | 'quote';

/** Each numbered kind's prefix and next-number columns (quotes: their own series, issue 53). */
const SEQUENCE_COLUMNS: Record<Numbered, [string, string]> = {
  invoice: ['invoice_prefix', 'invoice_next'],
  credit_note: ['credit_note_prefix', 'credit_note_next'],
  quote: ['quote_prefix', 'quote_next'],
};

/** The organization's sequence of a kind's numbers: its prefix, its next number and how a number is written. */
async function sequenceOf(ledger: Ledger, orgSeq: number, kind: Numbered) {
  const [prefixCol, nextCol] = SEQUENCE_COLUMNS[kind];
  const org = (await ledger.stmt(`SELECT ${prefixCol} AS prefix, ${nextCol} AS next FROM organizations WHERE seq = ?`).get(orgSeq)) as { prefix: string; next: number };
  return {
    next: org.next,
    numbered: (k: number) => `${org.prefix}${String(k).padStart(4, '0')}`,
    moveTo: (n: number) => ledger.stmt(`UPDATE organizations SET ${nextCol} = ? WHERE seq = ?`).run(n, orgSeq),
  };
}

/** The number the next invoice, credit note or quote takes (the first of the sequence not already used), and where the sequence moves then. */
async function firstFree(ledger: Ledger, orgSeq: number, kind: Numbered) {
  const sequence = await sequenceOf(ledger, orgSeq, kind);
  // The literal kind test lets SQLite use the partial unique index of the numbers.
  const used = ledger.stmt("SELECT 1 FROM documents WHERE org_seq = ? AND kind <> 'bill' AND kind = ? AND lower(number) = lower(?)");
  let n = sequence.next;
  while (await used.get(orgSeq, kind, sequence.numbered(n))) n++;
  return { number: sequence.numbered(n), take: () => sequence.moveTo(n + 1) };
}

/** The number the next invoice or credit note will take, nothing taken (the Organizations screen shows it). */
export const nextNumber = async (ledger: Ledger, orgSeq: number, kind: Numbered): Promise<string> => (await firstFree(ledger, orgSeq, kind)).number;

/** The next number of an invoice or a credit note, taken (the sequence moves past any number already used). */
export async function takeNumber(ledger: Ledger, orgSeq: number, kind: Numbered): Promise<string> {
  const free = await firstFree(ledger, orgSeq, kind);
  await free.take();
  return free.number;
}

/**
 * Numbers for many documents written in one go (many.ts): the numbers in use read once, the sequence moved once
 * when `done` (inside the same write), as takeNumber would have left it.
 */
export async function numberRun(ledger: Ledger, orgSeq: number, kind: Numbered): Promise<{ take: () => string; done: () => Promise<void> }> {
  const { next, numbered, moveTo } = await sequenceOf(ledger, orgSeq, kind);
  const used = new Set((await ledger.stmt('SELECT lower(number) FROM documents WHERE org_seq = ? AND kind = ?').pluck().all(orgSeq, kind)) as string[]);
  let n = next;
  return {
    take: () => {
      while (used.has(numbered(n).toLowerCase())) n++;
      return numbered(n++);
    },
    done: async () => void (await moveTo(n)),
  };
}

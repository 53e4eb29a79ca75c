// What an invoice's PDF says, worked out before anything is drawn (issue 43):
// the supplier (read from the organization now, not copied when the invoice
// was made, so bank details entered later print on an older invoice), the
// customer, the dates in the organization's style, the lines, the tax per
// rate, the totals, the reverse charge, the payment box and the company's
// registration. Every amount with its thousands separators, as the
// organization writes them. pdf-layout.ts draws it.
import { countryName } from '../../../../shared/countries';
import { writeDate } from '../../../../shared/date-styles';
import { writeAmount } from '../../../../shared/amounts';
import { countryOf, effectiveDateStyle, ibanText } from '../../access/details';
import { logoBytes, logoOf, type Logo } from '../../access/logo';
import { organizationBySeq, type Organization } from '../../access/organizations';
import type { Ledger } from '../../core/sqlite/open';
import { toMinor } from '../../core/money';
import { toDocument, type Document, type DocumentRow } from '../documents';
import { baseTax, rateCell, rateLabel, rateRows, reverseChargeStatement, taxKinds, taxWordsOf, type BaseTax, type RateRow, type TaxWords } from './vat';

export interface PartyBlock {
  label: string;
  name: string;
  lines: string[];
  /** "VAT reg. no. GB123456789" */
  registration: string | null;
}

export interface TaxRow {
  label: string;
  net: string;
  tax: string;
}

export interface PdfFacts {
  kind: Document['kind'];
  title: string;
  number: string;
  supplier: PartyBlock;
  customer: PartyBlock;
  /** Label and value, in order: the number, date of issue, time of supply, due date... */
  facts: [string, string][];
  columns: { amount: string; tax: string };
  lines: { description: string; quantity: string; unitPrice: string; rate: string; amount: string }[];
  words: TaxWords;
  /** The tax per rate: label, net and tax, as printed. */
  rates: TaxRow[];
  totals: { label: string; value: string; strong?: boolean }[];
  /** The tax in the organization's currency (an invoice in another): per rate and in total. */
  base: { currency: string; rate: string; rows: TaxRow[]; total: TaxRow | null } | null;
  reverseCharge: string | null;
  /** An open document of the opening entry (no lines, its outstanding total): said in place of the lines table. */
  broughtForward: string | null;
  notes: string | null;
  payment: { rows: [string, string][]; text: string[] } | null;
  /** An open invoice's Stripe payment link (issue 53): its address, printed as a link, and its QR code (PNG). */
  payLink: { url: string; qr: Buffer } | null;
  footer: string | null;
  logo: (Logo & { bytes: Buffer }) | null;
  author: string;
}

interface Customer {
  name: string;
  address: string | null;
  taxNumber: string | null;
  country: string | null;
}

const NAMES: Record<Document['kind'], string> = { invoice: 'Invoice', credit_note: 'Credit note', bill: 'Bill', quote: 'Quote' };

/** An address as lines: new lines or commas separate them. */
export const addressLines = (address: string | null) =>
  (address ?? '')
    .split(/\r?\n|,\s*/)
    .map((l) => l.trim())
    .filter(Boolean);

/** The customer's address, with its country's name when it is abroad and the address does not already say it. */
export function customerLines(address: string | null, country: string | null, home: string | null): string[] {
  const lines = addressLines(address);
  if (!country || country === home) return lines;
  const name = countryName(country);
  return lines.some((l) => l.toLowerCase().includes(name.toLowerCase())) ? lines : [...lines, name];
}

/** The registration a company prints (Company, LLP and Business (Names and Trading Disclosures) Regulations 2015, reg. 25). */
export function footerOf(org: Organization): string | null {
  const legal = org.legalName ?? org.name;
  if (org.companyNumber) {
    const where = org.registeredIn ? `Registered in ${org.registeredIn}` : 'Registered';
    const office = org.registeredOffice ?? org.address;
    return `${legal}. ${where}, no. ${org.companyNumber}.${office ? ` Registered office: ${addressLines(office).join(', ')}.` : ''}`;
  }
  return org.legalName && org.legalName !== org.name ? `${org.name} is a trading name of ${org.legalName}.` : null;
}

/** The payment box: bank details, amount and date due, the reference to quote, other instructions, terms. */
function paymentOf(org: Organization, doc: Document, row: DocumentRow, money: (n: number) => string, date: (d: string) => string): PdfFacts['payment'] {
  if (doc.kind !== 'invoice' || doc.status === 'void') return null;
  const rows = bankRows(org);
  rows.push(['Amount due', `${money(toMinor(doc.balance, doc.currency))} ${doc.currency}`], ['Due date', date(doc.dueDate)], ['Reference', doc.number]);
  // A document's own instructions (given when it was made) stand in for the organization's.
  const text = [row.payment_instructions ?? org.paymentInstructions, org.paymentTerms].filter((t): t is string => !!t);
  return { rows, text };
}

/** The organization's bank details as the payment box prints them (those it gave). */
export function bankRows(org: Organization): [string, string][] {
  return (
    [
      ['Bank', org.bankName],
      ['Account name', org.bankAccountName],
      ['Sort code', org.sortCode],
      ['Account number', org.accountNumber],
      ['IBAN', org.iban && ibanText(org.iban)],
      ['BIC', org.bic],
    ] as [string, string | null][]
  ).filter((r): r is [string, string] => !!r[1]);
}

function baseBlock(base: BaseTax, words: TaxWords, money: (n: number) => string, date: (d: string) => string): PdfFacts['base'] {
  const { currency } = base;
  if (!base.rate) return { currency, rate: `no ${currency} rate for the date yet (set one before issuing)`, rows: [], total: null };
  const sum = (key: 'net' | 'tax') => money(base.rows.reduce((s, r) => s + r[key], 0));
  return {
    currency,
    rate: `at ${base.rate.text}, the rate of ${date(base.rate.date)}`,
    rows: base.rows.map((r) => ({ label: rateLabel(r, words), net: money(r.net), tax: money(r.tax) })),
    total: { label: `Total ${base.currency}`, net: sum('net'), tax: sum('tax') },
  };
}

/** The facts at the top right: the number, the date of issue, the time of supply (the issue date: docs/invoices.md; not for an untaxed balance brought forward), the due date or the invoice credited. */
function headerFacts(doc: Document, date: (d: string) => string, invoiceDate: string | null, supply: boolean): [string, string][] {
  // A quote (issue 53) supplies nothing yet: its date and how long it stands, no time of supply, nothing due.
  if (doc.kind === 'quote')
    return [
      ['Quote number', doc.number],
      ['Date', date(doc.issueDate)],
      ['Valid until', date(doc.dueDate)],
    ];
  return [
    [`${NAMES[doc.kind]} number`, doc.number],
    ['Date of issue', date(doc.issueDate)],
    ...(supply ? [['Time of supply', date(doc.issueDate)] as [string, string]] : []),
    ...((doc.kind === 'credit_note'
      ? [
          ['Credit for invoice', doc.credits ?? ''],
          ['Invoice dated', invoiceDate ? date(invoiceDate) : ''],
        ]
      : [['Due date', date(doc.dueDate)]]) as [string, string][]),
    ...(doc.status === 'void' ? [['Status', `VOID${doc.voidDate ? ` since ${date(doc.voidDate)}` : ''}`] as [string, string]] : []),
  ];
}

/** Whether a document carries tax: tax lines, or a tax amount. */
const taxed = (doc: Document) => doc.taxes.length > 0 || doc.tax !== 0;

function totalsOf(doc: Document, words: TaxWords, money: (minor: number) => string, broughtForward: boolean): PdfFacts['totals'] {
  const minor = (n: number) => toMinor(n, doc.currency);
  const owed = doc.kind !== 'credit_note' && doc.kind !== 'quote' && doc.status !== 'void';
  // Brought forward without tax: its one figure is what was outstanding, not a net with zero tax.
  const untaxed = broughtForward && !taxed(doc);
  return [
    ...(untaxed
      ? [{ label: 'Brought forward', value: money(minor(doc.total)), strong: true }]
      : [
          { label: 'Total net', value: money(minor(doc.net)) },
          { label: `Total ${words.tax}`, value: money(minor(doc.tax)) },
          { label: `Total ${doc.currency}`, value: money(minor(doc.total)), strong: true },
        ]),
    ...(owed && (doc.paid || doc.credited) ? [{ label: 'Paid and credited', value: money(minor(doc.paid) + minor(doc.credited)) }] : []),
    ...(owed ? [{ label: `Amount due ${doc.currency}`, value: money(minor(doc.balance)), strong: true }] : []),
  ];
}

/**
 * What an open document of the opening entry says in place of its lines: it is
 * a balance brought forward from the books kept before these, which hold its
 * outstanding total (and its tax, when it was given), not its lines. Null for any other document.
 */
async function broughtForwardOf(ledger: Ledger, row: DocumentRow, doc: Document, date: (d: string) => string): Promise<string | null> {
  const on = (await ledger.stmt("SELECT min(date) FROM postings WHERE document_seq = ? AND kind = 'opening'").pluck().get(row.seq)) as string | null;
  if (!on) return null;
  const noun = NAMES[doc.kind].toLowerCase();
  return `Balance brought forward: ${noun} ${doc.number} was issued in the books kept before these, which took over what remained outstanding on it on ${date(on)}. Its lines are on the original ${noun}; this copy states its ${taxed(doc) ? 'totals' : 'outstanding total'} and what remains due.`;
}

/** The payment link while it takes money and the invoice asks for some; its QR code made only then (loaded only then too). */
async function payLinkOf(ledger: Ledger, doc: Document): Promise<PdfFacts['payLink']> {
  if (doc.kind !== 'invoice' || doc.status === 'void' || doc.balance <= 0) return null;
  const link = (await ledger.stmt('SELECT payment_link_url FROM documents WHERE id = ? AND payment_link_closed_at IS NULL').pluck().get(doc.id)) as string | null | undefined;
  if (!link) return null;
  const { default: QRCode } = await import('qrcode');
  return { url: link, qr: await QRCode.toBuffer(link, { type: 'png', margin: 1, width: 240, errorCorrectionLevel: 'M' }) };
}

export async function pdfFacts(ledger: Ledger, orgSeq: number, row: DocumentRow): Promise<PdfFacts> {
  const doc = await toDocument(ledger, row);
  const org = await organizationBySeq(ledger, orgSeq);
  const customer = (await ledger.stmt('SELECT name, address, tax_number AS "taxNumber", country FROM counterparties WHERE seq = ?').get(row.contact_seq)) as Customer;
  const style = effectiveDateStyle(org);
  const date = (d: string) => writeDate(d, style);
  const mark = org.decimalMark;
  const money = (minor: number) => writeAmount(minor, doc.currency, mark);
  const baseMoney = (minor: number) => writeAmount(minor, org.currency, mark);
  const minor = (n: number) => toMinor(n, doc.currency);
  const words = taxWordsOf(org.taxSet);
  const kinds = await taxKinds(ledger, orgSeq);
  const home = countryOf(org);
  const rows: RateRow[] = rateRows(doc, kinds);
  const invoiceDate = row.credits_seq === null ? null : ((await ledger.stmt('SELECT issue_date FROM documents WHERE seq = ?').pluck().get(row.credits_seq)) as string);
  const broughtForward = await broughtForwardOf(ledger, row, doc, date);
  // A balance brought forward shows a tax breakdown only from tax lines it has.
  const base = broughtForward && rows.length === 0 ? null : await baseTax(ledger, row, org.currency, rows, invoiceDate);
  const logo = await logoOf(ledger, orgSeq);
  const registration = (label: string, n: string | null) => (n ? `${label} ${n}` : null);
  return {
    kind: doc.kind,
    title: NAMES[doc.kind].toUpperCase(),
    number: doc.number,
    supplier: { label: 'From', name: org.name, lines: addressLines(org.address), registration: registration(words.registration, org.taxNumber) },
    customer: {
      label: doc.kind === 'bill' ? 'Vendor' : doc.kind === 'quote' ? 'For' : 'Bill to',
      name: customer.name,
      lines: customerLines(customer.address, customer.country, home),
      registration: registration(words.customerNumber, customer.taxNumber),
    },
    facts: headerFacts(doc, date, invoiceDate, !broughtForward || taxed(doc)),
    columns: { amount: doc.taxInclusive ? 'Gross' : 'Net', tax: words.tax },
    lines: doc.lines.map((l) => ({
      description: l.description,
      quantity: mark === ',' ? String(l.quantity).replace('.', ',') : String(l.quantity),
      unitPrice: money(minor(l.unitPrice)),
      rate: l.taxCode === null ? '' : rateCell(kinds.get(l.taxCode) ?? 'standard', doc.taxes.find((t) => t.taxCode === l.taxCode)?.rate ?? 0),
      // Each part converted on its own: their sum as a float (19.99 + 0.0000...2) is no amount.
      amount: money(minor(l.net) + (doc.taxInclusive ? minor(l.tax) : 0)),
    })),
    words,
    rates: rows.map((r) => ({ label: rateLabel(r, words), net: money(r.net), tax: money(r.tax) })),
    totals: totalsOf(doc, words, money, broughtForward !== null),
    base: base && baseBlock(base, words, baseMoney, date),
    reverseCharge: reverseChargeStatement(rows, { supplierCountry: home, customerCountry: customer.country, customerTaxNumber: customer.taxNumber }, words, money, doc.currency),
    broughtForward,
    notes: doc.notes,
    payment: paymentOf(org, doc, row, money, date),
    payLink: await payLinkOf(ledger, doc),
    footer: footerOf(org),
    logo: logo && { ...logo, bytes: (await logoBytes(ledger, orgSeq))! },
    author: org.legalName ?? org.name,
  };
}

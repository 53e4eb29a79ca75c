// What an organization's invoices print and how they are numbered (issues 29
// and 43): its address and VAT number, a company's registration (what the
// Company, LLP and Business (Names and Trading Disclosures) Regulations 2015
// require on its business documents), its bank details and terms, how dates
// are written, and the numbering. Read when an invoice's PDF is made, never
// copied into the invoice. Checked here: a sort code is six digits, an IBAN
// passes its check digits, a next number never goes back to one used.
import type { Ledger } from '../core/sqlite/open';
import { invalid, type FieldIssue } from '../core/errors';
import { isCountry } from '../../../shared/countries';
import { DATE_STYLES, defaultDateStyle, type DateStyle } from '../../../shared/date-styles';
import type { DecimalMark } from '../../../shared/amounts';

export { DATE_STYLES, type DateStyle } from '../../../shared/date-styles';

export interface InvoiceSettings {
  /** Postal address and tax (VAT) number, as invoices print them. */
  address: string | null;
  taxNumber: string | null;
  /** Other ways to pay, printed in the payment box after the bank details. */
  paymentInstructions: string | null;
  /** Invoice and credit-note numbering: prefix and next number. */
  invoicePrefix: string;
  invoiceNext: number;
  creditNotePrefix: string;
  creditNoteNext: number;
  /** Quotes' numbering (issue 53), a series of their own. */
  quotePrefix: string;
  quoteNext: number;
  /** The profit and loss's default basis: accrual or cash (issue 29). */
  reportBasis: 'cash' | 'accrual';
  /** The registered (legal) name, when not the name it trades under. */
  legalName: string | null;
  /** ISO 3166 alpha-2; null: not said (countryOf guesses from the tax set). */
  country: string | null;
  /** A company's registration: its number, where it is registered ("England and Wales"), its registered office when not the address. */
  companyNumber: string | null;
  registeredIn: string | null;
  registeredOffice: string | null;
  bankName: string | null;
  bankAccountName: string | null;
  /** UK sort code as 12-34-56. */
  sortCode: string | null;
  accountNumber: string | null;
  /** Stored without spaces; printed in groups of four. */
  iban: string | null;
  bic: string | null;
  /** The terms printed in the payment box ("Payment within 14 days. Interest on late payment..."). */
  paymentTerms: string | null;
  /** How its documents write dates; null: from its currency and decimal mark (effectiveDateStyle). */
  dateStyle: DateStyle | null;
}

export type InvoiceSettingChanges = Partial<InvoiceSettings>;

/** Each setting by its column. */
const COLUMNS: Record<keyof InvoiceSettings, string> = {
  address: 'address',
  taxNumber: 'tax_number',
  paymentInstructions: 'payment_instructions',
  invoicePrefix: 'invoice_prefix',
  invoiceNext: 'invoice_next',
  creditNotePrefix: 'credit_note_prefix',
  creditNoteNext: 'credit_note_next',
  quotePrefix: 'quote_prefix',
  quoteNext: 'quote_next',
  reportBasis: 'report_basis',
  legalName: 'legal_name',
  country: 'country',
  companyNumber: 'company_number',
  registeredIn: 'registered_in',
  registeredOffice: 'registered_office',
  bankName: 'bank_name',
  bankAccountName: 'bank_account_name',
  sortCode: 'sort_code',
  accountNumber: 'account_number',
  iban: 'iban',
  bic: 'bic',
  paymentTerms: 'payment_terms',
  dateStyle: 'date_style',
};

/** The settings as a SELECT list of the organizations table (tax_number AS "taxNumber", ...). */
export const SETTING_COLUMNS = Object.entries(COLUMNS)
  .map(([key, column]) => (key === column ? column : `${column} AS "${key}"`))
  .join(', ');

/** The parts of the United Kingdom a company is registered in, as the 2015 Regulations have it printed. */
export const UK_REGISTRATIONS = ['England and Wales', 'Wales', 'Scotland', 'Northern Ireland'] as const;

/** ISO 7064 mod 97-10, the IBAN's check. */
function ibanChecks(iban: string): boolean {
  const moved = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of moved) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

/** An IBAN in groups of four, as it is printed ("GB33 BUKB 2020 1555 5555 55"). */
export const ibanText = (iban: string): string => iban.replace(/(.{4})(?=.)/g, '$1 ');

type Normal = string | number | null;

/** Each text setting's own form and check: the value stored, or an issue. */
const NORMALIZE: Partial<Record<keyof InvoiceSettings, (text: string) => Normal | FieldIssue>> = {
  country: (t) => (isCountry(t.toUpperCase()) ? t.toUpperCase() : { field: 'country', message: `"${t}" is not an ISO 3166 country code (GB, IE, DE, US...)` }),
  sortCode: (t) => {
    const digits = t.replace(/[\s-]/g, '');
    return /^\d{6}$/.test(digits) ? digits.replace(/(\d\d)(\d\d)(\d\d)/, '$1-$2-$3') : { field: 'sortCode', message: `"${t}" is not a sort code: six digits, such as 12-34-56` };
  },
  accountNumber: (t) => {
    const text = t.replace(/\s/g, '');
    return /^[0-9A-Za-z-]{4,34}$/.test(text) ? text : { field: 'accountNumber', message: `"${t}" is not an account number: 4 to 34 digits or letters` };
  },
  iban: (t) => {
    const text = t.replace(/\s/g, '').toUpperCase();
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(text))
      return { field: 'iban', message: `"${t}" is not an IBAN: a country code, two check digits and the account (GB33 BUKB 2020 1555 5555 55)` };
    return ibanChecks(text) ? text : { field: 'iban', message: `"${t}" fails the IBAN's check digits: a character is mistyped` };
  },
  bic: (t) => {
    const text = t.replace(/\s/g, '').toUpperCase();
    return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(text)
      ? text
      : { field: 'bic', message: `"${t}" is not a BIC (SWIFT code): 8 or 11 letters and digits, such as BUKBGB22` };
  },
  registeredIn: (t) => UK_REGISTRATIONS.find((p) => p.toLowerCase() === t.toLowerCase()) ?? t,
  dateStyle: (t) => ((DATE_STYLES as readonly string[]).includes(t) ? t : { field: 'dateStyle', message: `is one of ${DATE_STYLES.join(', ')}` }),
};

/** A UK company's number: eight characters, digits or two letters (SC, NI, OC...) and six digits; short numbers take their leading zeros. */
function companyNumber(text: string, registeredIn: string | null): Normal | FieldIssue {
  const t = text.replace(/\s/g, '').toUpperCase();
  if (!UK_REGISTRATIONS.includes(registeredIn as (typeof UK_REGISTRATIONS)[number])) return t;
  if (/^\d{1,8}$/.test(t)) return t.padStart(8, '0');
  if (/^[A-Z]{2}\d{6}$/.test(t)) return t;
  return { field: 'companyNumber', message: `"${text}" is not a Companies House number: eight digits, or two letters and six digits (SC123456)` };
}

type Org = InvoiceSettings & { seq: number };

/** The highest number a kind's documents took with a prefix (0: none), whatever the sequence says now. */
async function highestUsed(ledger: Ledger, orgSeq: number, kind: 'invoice' | 'credit_note' | 'quote', prefix: string): Promise<number> {
  const numbers = (await ledger
    .stmt("SELECT substr(number, ?) FROM documents WHERE org_seq = ? AND kind <> 'bill' AND kind = ? AND lower(substr(number, 1, ?)) = lower(?)")
    .pluck()
    .all(prefix.length + 1, orgSeq, kind, prefix.length, prefix)) as string[];
  return numbers.reduce((most, rest) => (/^\d+$/.test(rest) ? Math.max(most, Number(rest)) : most), 0);
}

/**
 * A next number checked: under the same prefix it only moves forward; under any prefix it stays above every
 * number already used with it, so no number is given twice and the series has no number out of order.
 */
async function nextIssue(ledger: Ledger, org: Org, kind: Series, prefix: string, next: number): Promise<FieldIssue | null> {
  const [prefixKey, field] = SERIES[kind];
  const [oldPrefix, oldNext] = [org[prefixKey], org[field]];
  if (prefix === oldPrefix && next < oldNext) return { field, message: `may only move forward from ${oldNext}: a number is never reused` };
  const used = await highestUsed(ledger, org.seq, kind, prefix);
  if (next <= used) return { field, message: `${prefix}${String(used).padStart(4, '0')} is already used: the next number is ${used + 1} or more` };
  return null;
}

/** Each numbered series: its prefix and next number's settings. */
const SERIES = {
  invoice: ['invoicePrefix', 'invoiceNext'],
  credit_note: ['creditNotePrefix', 'creditNoteNext'],
  quote: ['quotePrefix', 'quoteNext'],
} as const;
type Series = keyof typeof SERIES;

export interface SettingChange {
  column: string;
  value: Normal;
  said: string;
}

/** The settings changed, each checked and in its stored form; every bad field named at once. */
export async function settingChanges(ledger: Ledger, org: Org, changes: InvoiceSettingChanges): Promise<SettingChange[]> {
  const out: SettingChange[] = [];
  const issues: FieldIssue[] = [];
  const named = changes.registeredIn?.trim();
  const registeredIn = changes.registeredIn === undefined ? org.registeredIn : named ? (NORMALIZE.registeredIn!(named) as string) : null;
  for (const key of Object.keys(COLUMNS) as (keyof InvoiceSettings)[]) {
    const given = changes[key];
    if (given === undefined) continue;
    let value: Normal | FieldIssue = typeof given === 'string' ? given.trim() || (key.endsWith('Prefix') ? '' : null) : given;
    if (typeof value === 'string' && key === 'companyNumber') value = companyNumber(value, registeredIn);
    else if (typeof value === 'string' && NORMALIZE[key]) value = NORMALIZE[key](value);
    if (value !== null && typeof value === 'object') {
      issues.push(value);
      continue;
    }
    if (value === org[key]) continue;
    out.push({ column: COLUMNS[key], value, said: `${key} ${JSON.stringify(org[key])} -> ${JSON.stringify(value)}` });
  }
  for (const kind of Object.keys(SERIES) as Series[]) {
    const [prefixKey, nextKey] = SERIES[kind];
    const [prefix, next] = [(changes[prefixKey] ?? org[prefixKey]).trim(), changes[nextKey] ?? org[nextKey]];
    if (prefix === org[prefixKey] && next === org[nextKey]) continue;
    const issue = await nextIssue(ledger, org, kind, prefix, next);
    if (issue) issues.push(issue);
  }
  if (issues.length) throw invalid(issues);
  return out;
}

/** How an organization's documents write dates: its choice, else from its currency and decimal mark. */
export const effectiveDateStyle = (org: { dateStyle: DateStyle | null; currency: string; decimalMark: DecimalMark }): DateStyle =>
  org.dateStyle ?? defaultDateStyle(org.currency, org.decimalMark);

/** Its country: said, else the one its ready-made tax set is for (a UK VAT organization is in GB), else unknown. */
export const countryOf = (org: { country: string | null; taxSet: string | null }): string | null =>
  org.country ?? (org.taxSet === 'uk-vat' ? 'GB' : org.taxSet === 'au-gst' ? 'AU' : null);

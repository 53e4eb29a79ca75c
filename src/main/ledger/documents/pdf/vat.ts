// The tax an invoice's PDF states (issue 43), as HMRC's VAT Notice 700
// section 16 lists it: the net and the VAT per rate; in the organization's
// currency too when the invoice is in another (VAT Regulations 1995 reg. 14:
// the VAT total in sterling), from what the books booked; and the reverse
// charge's wording, with the customer's VAT number, where the customer
// accounts for the VAT (a supply to a business abroad, or the domestic
// reverse charge).
import { countryName } from '../../../../shared/countries';
import type { Ledger } from '../../core/sqlite/open';
import { LedgerError } from '../../core/errors';
import { toMinor } from '../../core/money';
import { rateText } from '../../rates/decimal';
import { exchangeRateOn } from '../../rates/valuer';
import { taxOnNet } from '../../tax/lines';
import { documentValue } from '../currency';
import type { Document, DocumentRow } from '../documents';
import type { TaxKind } from '../../../../../db/values';
import { mapInOrder } from '../../core/in-order';

/** The word for the tax and for a registration number, by the organization's tax set. */
export interface TaxWords {
  tax: string;
  /** The supplier's registration ("VAT reg. no."), the customer's ("VAT no."). */
  registration: string;
  customerNumber: string;
}

export const taxWordsOf = (taxSet: string | null): TaxWords =>
  taxSet === 'au-gst'
    ? { tax: 'GST', registration: 'ABN', customerNumber: 'ABN' }
    : taxSet === 'plain'
      ? { tax: 'Tax', registration: 'Tax no.', customerNumber: 'Tax no.' }
      : { tax: 'VAT', registration: 'VAT reg. no.', customerNumber: 'VAT no.' };

/** One rate's net and tax (minor units), with what names it. */
export interface RateRow {
  code: string | null;
  kind: TaxKind | null;
  rate: number;
  net: number;
  tax: number;
}

const percent = (rate: number) => `${String(rate)}%`;

/** A rate as the lines' column shows it: 20%, 0%, Exempt, Outside scope, RC 20%, or nothing. */
export function rateCell(kind: TaxKind | null, rate: number): string {
  if (kind === null) return '';
  if (kind === 'exempt') return 'Exempt';
  if (kind === 'outside_scope') return 'Outside scope';
  if (kind === 'reverse_charge') return `RC ${percent(rate)}`;
  return percent(rate);
}

/** A rate as the tax summary names it. */
export function rateLabel(r: Pick<RateRow, 'kind' | 'rate'>, words: TaxWords): string {
  switch (r.kind) {
    case null:
      return `No ${words.tax}`;
    case 'standard':
      return `Standard ${percent(r.rate)}`;
    case 'reduced':
      return `Reduced ${percent(r.rate)}`;
    case 'zero_rated':
      return 'Zero rated 0%';
    case 'exempt':
      return 'Exempt';
    case 'outside_scope':
      return 'Outside the scope';
    case 'reverse_charge':
      return `Reverse charge ${percent(r.rate)}`;
  }
}

/** The kinds of the organization's tax codes, by code (archived ones too: an old invoice names them). */
export const taxKinds = async (ledger: Ledger, orgSeq: number): Promise<Map<string, TaxKind>> =>
  new Map(((await ledger.stmt('SELECT code, kind FROM tax_codes WHERE org_seq = ?').all(orgSeq)) as { code: string; kind: TaxKind }[]).map((c) => [c.code, c.kind]));

/** The document's net and tax per rate (lines without a tax code as one row), in its currency. */
export function rateRows(doc: Document, kinds: Map<string, TaxKind>): RateRow[] {
  const minor = (n: number) => toMinor(n, doc.currency);
  const rows: RateRow[] = doc.taxes.map((t) => ({ code: t.taxCode, kind: kinds.get(t.taxCode) ?? 'standard', rate: t.rate, net: minor(t.net), tax: minor(t.tax) }));
  const untaxed = doc.lines.filter((l) => l.taxCode === null);
  if (untaxed.length) rows.push({ code: null, kind: null, rate: 0, net: untaxed.reduce((s, l) => s + minor(l.net), 0), tax: 0 });
  return rows;
}

/** The tax in the organization's currency: per rate, at the rate the entry was (or will be) booked. */
export interface BaseTax {
  currency: string;
  /** "1 EUR = 0.8512 GBP" and the rate's date; null when there is no rate for it yet (a draft). */
  rate: { text: string; date: string } | null;
  rows: RateRow[];
}

/**
 * An issued document's net and tax per tax code as its entry booked them (its first postings, before any
 * reversal); a draft's as issuing would book them (each line, and each code's tax, at the document's rate).
 */
async function bookedBase(ledger: Ledger, row: DocumentRow, rows: RateRow[]): Promise<RateRow[] | null> {
  const sign = row.kind === 'invoice' ? -1 : 1;
  if (row.state !== 'draft') {
    const booked = (await ledger
      .stmt(
        `SELECT p.kind, t.code, sum(p.base_minor) AS base FROM postings p LEFT JOIN tax_codes t ON t.seq = p.tax_code_seq
         WHERE p.document_seq = ? AND p.kind IN ('category', 'tax')
           AND p.seq < (SELECT min(seq) FROM postings WHERE document_seq = ? AND kind IN ('receivable', 'payable'))
         GROUP BY p.kind, p.tax_code_seq, t.code`,
      )
      .all(row.seq, row.seq)) as { kind: string; code: string | null; base: number | null }[];
    if (booked.some((b) => b.base === null)) return null;
    const of = (kind: string, code: string | null) => sign * (booked.find((b) => b.kind === kind && b.code === code)?.base ?? 0);
    return rows.map((r) => ({ ...r, net: of('category', r.code), tax: of('tax', r.code) }));
  }
  try {
    const value = await documentValue(ledger, row);
    const lines = (await ledger
      .stmt('SELECT t.code, l.net_minor AS net FROM document_lines l LEFT JOIN tax_codes t ON t.seq = l.tax_code_seq WHERE l.document_seq = ?')
      .all(row.seq)) as {
      code: string | null;
      net: number;
    }[];
    return await mapInOrder(rows, async (r) => {
      let net = 0;
      for (const l of lines) if (l.code === r.code) net += await value(l.net);
      return { ...r, net, tax: await value(r.tax) };
    });
  } catch (e) {
    if (e instanceof LedgerError) return null;
    throw e;
  }
}

/** The tax in the organization's currency, for a document in another one that charges tax; else null. */
export async function baseTax(ledger: Ledger, row: DocumentRow, base: string, rows: RateRow[], invoiceDate: string | null): Promise<BaseTax | null> {
  if (row.currency === base || rows.every((r) => r.tax === 0)) return null;
  const booked = await bookedBase(ledger, row, rows);
  // A credit note is booked at its invoice's rate (currency.ts): the rate of that invoice's date.
  const date = invoiceDate ?? row.issue_date;
  let rate: BaseTax['rate'] = null;
  try {
    rate = { text: `1 ${row.currency} = ${rateText((await exchangeRateOn(ledger, row.org_seq, row.currency, date)).rate)} ${base}`, date };
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
  }
  return { currency: base, rate: booked ? rate : null, rows: booked ?? [] };
}

export interface Parties {
  /** ISO codes; null: not known. */
  supplierCountry: string | null;
  customerCountry: string | null;
  customerTaxNumber: string | null;
}

/**
 * The reverse charge's statement, or null. A customer abroad (its country is not the organization's) paying no
 * tax on the invoice: the supply is outside the scope of the supplier's VAT, the customer accounts for any VAT
 * in its own country (EU invoicing rules ask for the words "Reverse charge"), and its VAT number is stated.
 * A reverse-charge line for a customer at home is the domestic reverse charge: "customer to account for VAT to
 * HMRC", with the VAT it accounts for, as HMRC's guidance words it.
 */
export function reverseChargeStatement(rows: RateRow[], parties: Parties, words: TaxWords, money: (minor: number) => string, currency: string): string | null {
  const { supplierCountry, customerCountry, customerTaxNumber } = parties;
  const abroad = customerCountry !== null && supplierCountry !== null && customerCountry !== supplierCountry;
  const charged = rows.some((r) => r.tax !== 0);
  const reverse = rows.filter((r) => r.kind === 'reverse_charge');
  const number = customerTaxNumber ? ` Customer's ${words.tax} number: ${customerTaxNumber}.` : '';
  if (abroad && !charged && rows.some((r) => r.kind === 'reverse_charge' || r.kind === 'outside_scope' || r.kind === null)) {
    const scope = supplierCountry === 'GB' ? 'UK VAT' : `${countryName(supplierCountry)} ${words.tax}`;
    return `Reverse charge: outside the scope of ${scope}. The place of supply is the customer's country (${countryName(customerCountry)}), where the customer accounts for any ${words.tax} due.${number}`;
  }
  if (!reverse.length) return null;
  const due = reverse.map((r) => `${words.tax} at ${percent(r.rate)} on ${money(r.net)}: ${money(taxOnNet(r.net, Math.round(r.rate * 10_000)))} ${currency}`).join('; ');
  const authority = supplierCountry === 'GB' ? ' to HMRC' : '';
  return `Reverse charge: customer to account for ${words.tax}${authority}. ${due}.${number}`;
}

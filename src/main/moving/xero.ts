// Xero's own exports: the chart of accounts (Accounting > Chart of accounts >
// Export: `*Code, *Name, *Type, *Tax Code, Description, Dashboard, Expense
// Claims, Enable Payments, Balance`) and contacts (Contacts > Export:
// `*ContactName, AccountNumber, EmailAddress, FirstName, LastName, POAttentionTo,
// POAddressLine1-4, POCity, PORegion, POPostalCode, POCountry, SA..., TaxNumber,
// DueDateBillDay, DueDateBillTerm, DueDateSalesDay, DueDateSalesTerm,
// SalesAccount, PurchasesAccount, ...`). Xero writes a type by its name
// ("Direct Costs") in the export and by its API code (DIRECTCOSTS) elsewhere:
// both are read. Xero has no parent accounts.
import { cell, hasColumns, joined } from './table';
import { readTaxType, systemAccount } from './system';
import type { MovingSource, SourceAccount, SourceContact, SourceKind, Table } from './types';

const category = (type: 'revenue' | 'expense' | 'asset' | 'liability' | 'equity', costOfSales = false): SourceKind => ({ kind: 'category', type, costOfSales });

/** Xero's account types, by name and by API code (spaces and case aside). */
const TYPES: Record<string, SourceKind> = {
  revenue: category('revenue'),
  sales: category('revenue'),
  otherincome: category('revenue'),
  directcosts: category('expense', true),
  expense: category('expense'),
  overhead: category('expense'),
  overheads: category('expense'),
  depreciation: category('expense'),
  depreciatn: category('expense'),
  currentasset: category('asset'),
  current: category('asset'),
  fixedasset: category('asset'),
  fixed: category('asset'),
  inventory: category('asset'),
  noncurrentasset: category('asset'),
  noncurrent: category('asset'),
  prepayment: category('asset'),
  currentliability: category('liability'),
  currliab: category('liability'),
  liability: category('liability'),
  noncurrentliability: category('liability'),
  termliab: category('liability'),
  paygliability: category('liability'),
  wagespayableliability: category('liability'),
  equity: category('equity'),
  bank: { kind: 'money', accountType: 'checking' },
  creditcard: { kind: 'money', accountType: 'credit_card' },
  paypal: { kind: 'money', accountType: 'payment_processor' },
};

const key = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

function readChart(table: Table) {
  const rows: SourceAccount[] = [];
  const unread: { line: number; reason: string }[] = [];
  for (const { line, cells } of table.rows) {
    const name = cell(cells, 'Name');
    const sourceType = cell(cells, 'Type');
    if (!name) {
      unread.push({ line, reason: 'no name' });
      continue;
    }
    const as = systemAccount(name) ?? TYPES[key(sourceType)] ?? { kind: 'unknown', reason: `Xero's type "${sourceType}" is not one Ledgerdesk knows` };
    rows.push({
      line,
      code: cell(cells, 'Code') || null,
      name,
      sourceType,
      as,
      tax: readTaxType(cell(cells, 'Tax Code', 'Tax Type', 'TaxType')),
      parentName: null,
      description: cell(cells, 'Description') || null,
    });
  }
  return { source: 'xero' as const, described: "Xero's chart of accounts export", rows, unread };
}

const yes = (v: string) => /^(true|yes|y|1)$/i.test(v.trim());

/** Days after the document's date ("DAYSAFTERBILLDATE", "day(s) after the bill date"), else the terms in words. */
function terms(day: string, term: string): { days: number | null; other: string | null } {
  if (!day && !term) return { days: null, other: null };
  if (/daysafter(bill|invoice)date|after the (bill|invoice) date/i.test(term.replace(/\s+/g, ' ')) && /^\d+$/.test(day)) return { days: Number(day), other: null };
  return { days: null, other: `${day} ${term}`.trim() };
}

function contactOf(line: number, cells: Record<string, string>): SourceContact {
  const isCustomer = cell(cells, 'IsCustomer');
  const isSupplier = cell(cells, 'IsSupplier');
  // Xero's export has no role column: a contact with sales defaults is a customer, with purchase defaults a vendor, with neither both.
  const sells = Boolean(cell(cells, 'SalesAccount') || cell(cells, 'DueDateSalesTerm') || cell(cells, 'DueDateSalesDay'));
  const buys = Boolean(cell(cells, 'PurchasesAccount') || cell(cells, 'DueDateBillTerm') || cell(cells, 'DueDateBillDay'));
  const known = isCustomer !== '' || isSupplier !== '';
  const customer = known ? yes(isCustomer) : sells || !buys;
  const vendor = known ? yes(isSupplier) : buys || !sells;
  const sales = terms(cell(cells, 'DueDateSalesDay'), cell(cells, 'DueDateSalesTerm'));
  const bills = terms(cell(cells, 'DueDateBillDay'), cell(cells, 'DueDateBillTerm'));
  const chosen = customer ? sales : bills;
  const po = (n: string) => cell(cells, `PO${n}`);
  return {
    line,
    name: cell(cells, 'ContactName', 'Name'),
    customer: customer || !vendor,
    vendor,
    email: cell(cells, 'EmailAddress', 'Email') || null,
    address: joined(
      po('AttentionTo'),
      po('AddressLine1'),
      po('AddressLine2'),
      po('AddressLine3'),
      po('AddressLine4'),
      po('City'),
      po('Region'),
      po('PostalCode') || po('PostCode'),
    ),
    country: po('Country') || null,
    taxNumber: cell(cells, 'TaxNumber') || null,
    termsDays: chosen.days,
    otherTerms: chosen.other,
  };
}

function readContacts(table: Table) {
  const rows: SourceContact[] = [];
  const unread: { line: number; reason: string }[] = [];
  for (const { line, cells } of table.rows) {
    const contact = contactOf(line, cells);
    if (contact.name) rows.push(contact);
    else unread.push({ line, reason: 'no contact name' });
  }
  return { source: 'xero' as const, described: "Xero's contacts export", rows, unread };
}

export const xero: MovingSource = {
  id: 'xero',
  label: 'Xero',
  // `*Code` and `*Tax Code` are Xero's own (QuickBooks writes neither).
  isChart: (header) => hasColumns(header, 'Code', 'Name', 'Type') && (hasColumns(header, 'Tax Code') || header.some((h) => h.startsWith('*'))),
  readChart,
  isContacts: (header) => hasColumns(header, 'ContactName'),
  readContacts,
};

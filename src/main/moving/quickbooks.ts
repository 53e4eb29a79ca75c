// QuickBooks Online's exports: the Account List report (Reports > Account List
// > Export to CSV: the company's name and "Account List" above the header
// `Account, Type, Detail type, Description, Balance`; `Account #` when account
// numbers are switched on) and the customer and vendor lists (Sales >
// Customers > Export: `Customer, Company, Email, Phone, Billing address...,
// Open balance`; Expenses > Vendors > Export: `Vendor, ...`). A sub-account's
// full name is "Parent:Child".
import { cell, hasColumns, joined } from './table';
import { readTaxType, systemAccount, WHY } from './system';
import type { MovingSource, SourceAccount, SourceContact, SourceKind, Table } from './types';

const category = (type: 'revenue' | 'expense' | 'asset' | 'liability' | 'equity', costOfSales = false): SourceKind => ({ kind: 'category', type, costOfSales });

const TYPES: Record<string, SourceKind> = {
  bank: { kind: 'money', accountType: 'checking' },
  creditcard: { kind: 'money', accountType: 'credit_card' },
  accountsreceivablear: { kind: 'system', reason: WHY.receivable },
  accountsreceivable: { kind: 'system', reason: WHY.receivable },
  accountspayableap: { kind: 'system', reason: WHY.payable },
  accountspayable: { kind: 'system', reason: WHY.payable },
  othercurrentassets: category('asset'),
  othercurrentasset: category('asset'),
  currentassets: category('asset'),
  fixedassets: category('asset'),
  fixedasset: category('asset'),
  propertyplantandequipment: category('asset'),
  otherassets: category('asset'),
  otherasset: category('asset'),
  noncurrentassets: category('asset'),
  othercurrentliabilities: category('liability'),
  othercurrentliability: category('liability'),
  currentliabilities: category('liability'),
  longtermliabilities: category('liability'),
  longtermliability: category('liability'),
  noncurrentliabilities: category('liability'),
  equity: category('equity'),
  income: category('revenue'),
  otherincome: category('revenue'),
  costofgoodssold: category('expense', true),
  costofsales: category('expense', true),
  expenses: category('expense'),
  expense: category('expense'),
  otherexpense: category('expense'),
  otherexpenses: category('expense'),
};

const key = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

/** A bank account's kind from its detail type ("Savings", "Cash on hand"). */
function moneyKind(as: SourceKind, detail: string): SourceKind {
  if (as.kind !== 'money' || as.accountType !== 'checking') return as;
  return /savings|money market/i.test(detail) ? { kind: 'money', accountType: 'savings' } : /cash on hand/i.test(detail) ? { kind: 'money', accountType: 'cash' } : as;
}

function readChart(table: Table) {
  const rows: SourceAccount[] = [];
  const unread: { line: number; reason: string }[] = [];
  for (const { line, cells } of table.rows) {
    const full = cell(cells, 'Full name', 'Account', 'Name');
    const sourceType = cell(cells, 'Type', 'Account type');
    // The report's own lines below the table ("TOTAL", a date stamp) have no type.
    if (!full || !sourceType) {
      if ((full || sourceType) && !/^total\b/i.test(full)) unread.push({ line, reason: full ? 'no type' : 'no name' });
      continue;
    }
    const path = full.split(':').map((p) => p.trim());
    const name = path.at(-1)!;
    const detail = cell(cells, 'Detail type', 'Detail');
    const undeposited = /undeposited funds/i.test(detail) || /^undeposited funds$/i.test(name);
    const typed = TYPES[key(sourceType)] ?? { kind: 'unknown', reason: `QuickBooks' type "${sourceType}" is not one Ledgerdesk knows` };
    rows.push({
      line,
      code: cell(cells, 'Account #', 'Number', 'Account number', 'Acct #', 'Code') || null,
      name,
      sourceType: detail ? `${sourceType} (${detail})` : sourceType,
      as: undeposited
        ? { kind: 'system', reason: 'Ledgerdesk has no undeposited funds: a payment goes to the bank account it reached, matched there' }
        : (systemAccount(name) ?? moneyKind(typed, detail)),
      tax: readTaxType(cell(cells, 'Default VAT code', 'Default tax code', 'VAT code', 'Tax code')),
      parentName: path.length > 1 ? path.slice(0, -1).join(':') : null,
      description: cell(cells, 'Description') || null,
    });
  }
  return { source: 'quickbooks' as const, described: "QuickBooks Online's Account List", rows, unread };
}

/** "Net 30" is 30 days, "Due on receipt" 0; other terms are said, not kept. */
function terms(text: string): { days: number | null; other: string | null } {
  if (!text) return { days: null, other: null };
  const net = /^net\s*(\d{1,3})$/i.exec(text.trim());
  if (net) return { days: Number(net[1]), other: null };
  return /due on receipt/i.test(text) ? { days: 0, other: null } : { days: null, other: text };
}

function readContacts(table: Table) {
  const vendors = hasColumns(table.header, 'Vendor');
  const rows: SourceContact[] = [];
  const unread: { line: number; reason: string }[] = [];
  for (const { line, cells } of table.rows) {
    const name = cell(cells, vendors ? 'Vendor' : 'Customer') || cell(cells, 'Company', 'Company name');
    if (!name) {
      unread.push({ line, reason: 'no name' });
      continue;
    }
    const street = cell(cells, 'Billing address', 'Street Address', 'Address');
    const owed = terms(cell(cells, 'Terms'));
    rows.push({
      line,
      name,
      customer: !vendors,
      vendor: vendors,
      email: cell(cells, 'Email').split(/[;,]/)[0].trim() || null,
      address: joined(street, cell(cells, 'City'), cell(cells, 'State', 'County', 'Region'), cell(cells, 'Zip', 'Postcode', 'Postal code')),
      country: cell(cells, 'Country') || null,
      taxNumber: cell(cells, 'Tax ID', 'VAT registration number', 'VAT number', 'Business ID No.', 'Tax registration number') || null,
      termsDays: owed.days,
      otherTerms: owed.other,
    });
  }
  return { source: 'quickbooks' as const, described: `QuickBooks Online's ${vendors ? 'vendor' : 'customer'} list`, rows, unread };
}

export const quickbooks: MovingSource = {
  id: 'quickbooks',
  label: 'QuickBooks Online',
  isChart: (header) => hasColumns(header, 'Type', 'Detail type') && (hasColumns(header, 'Account') || hasColumns(header, 'Full name')),
  readChart,
  isContacts: (header) => (hasColumns(header, 'Customer') || hasColumns(header, 'Vendor')) && !hasColumns(header, 'Type'),
  readContacts,
};

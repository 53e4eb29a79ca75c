// A customer's statement of account (issue 53): what is sent to a customer,
// by PDF and mail. It is the customer's statement (statement.ts: the opening
// balance owed, each invoice, credit note, void and payment in date order with
// the running balance, the closing balance owed and its line of the aging)
// once per currency the customer is invoiced or pays in, the organization's
// first. Nothing is converted: each part is in the currency its documents ask
// to be paid in, so a customer invoiced in euros reads what it owes in euros
// (a sum converted at a rate of the day would be a figure nobody owes). Read
// from the books (the receivable postings and lines naming the customer), not
// a store of its own: the same books give the same statement.
import { requireContactRow } from '../../contacts/contacts';
import { today } from '../../core/clock';
import { invalid } from '../../core/errors';
import type { Ledger } from '../../core/storage';
import { orgCurrency } from '../../reports/positions';
import { contactStatement, type ContactStatement } from './statement';

export interface StatementOfAccount {
  customer: { id: string; name: string; email: string | null };
  from: string;
  to: string;
  /** One statement per currency, the organization's first; always one (the organization's) for a customer with nothing. */
  currencies: ContactStatement[];
}

export interface StatementPeriod {
  /** The period's first day (default: the first of the month `to` is in). */
  from?: string;
  /** Its last day, the statement's date (default today). */
  to?: string;
  /** Only this currency's part. */
  currency?: string;
}

/** The currencies a customer's issued invoices and credit notes, and the receivable lines naming it, are in: the organization's first. */
async function customerCurrencies(ledger: Ledger, orgSeq: number, contactSeq: number): Promise<string[]> {
  const used = (await ledger
    .stmt(
      `SELECT currency FROM documents WHERE contact_seq = ? AND kind IN ('invoice', 'credit_note') AND state <> 'draft'
       UNION SELECT currency FROM lines WHERE contact_seq = ? AND kind = 'receivable'`,
    )
    .pluck()
    .all(contactSeq, contactSeq)) as string[];
  const home = await orgCurrency(ledger, orgSeq);
  return [home, ...used.filter((c) => c !== home).sort()].filter((c, i) => i > 0 || used.includes(c) || used.length === 0);
}

/** A customer's statement of account for a period, per currency (see above). */
export async function statementOfAccount(ledger: Ledger, orgSeq: number, ref: string, q: StatementPeriod = {}): Promise<StatementOfAccount> {
  const contact = await requireContactRow(ledger, orgSeq, ref);
  if (!contact.is_customer) throw invalid([{ field: 'customer', message: `${contact.name} is not a customer: a statement of account is what a customer owes` }]);
  const to = q.to ?? today();
  const from = q.from ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw invalid([{ field: 'from', message: `is after the statement's date (${to})` }]);
  const currencies = q.currency ? [q.currency.toUpperCase()] : await customerCurrencies(ledger, orgSeq, contact.seq);
  const parts: ContactStatement[] = [];
  // One after another: each reads the aging once, and the books' reads take turns anyway.
  for (const currency of currencies) parts.push(await contactStatement(ledger, orgSeq, contact.id, { from, to, currency, payables: false }));
  return { customer: { id: contact.id, name: contact.name, email: contact.email }, from, to, currencies: parts };
}

/** What the customer owes at the statement's date, per currency ("1,020.00 GBP and 300.00 EUR"), by a writer of amounts. */
export const closingText = (s: StatementOfAccount, write: (amount: number, currency: string) => string): string =>
  s.currencies.map((c) => `${write(c.closing, c.currency)} ${c.currency}`).join(' and ');

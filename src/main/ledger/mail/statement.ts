// A statement of account's message before anyone edits it (issue 53): to the
// customer's address, the organization's `statement` wording filled (the
// closing balance owed as {amountDue}, the statement's date as {dueDate}, the
// names), and the statement's PDF. A statement is no document: its messages
// are recorded on the customer (the contact) instead.
import { writeAmount } from '../../../shared/amounts';
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/storage';
import { toMinor } from '../core/money';
import { closingText, statementOfAccount, type StatementOfAccount, type StatementPeriod } from '../documents/owed/account';
import { fillTemplate, mailTemplate, type Filling, type MailTemplate } from './templates';

export interface ComposedStatement extends MailTemplate {
  kind: 'statement';
  to: string[];
  attachment: string;
  customer: string;
  statement: StatementOfAccount;
}

/** The statement's placeholders: what is owed at its date (each currency's), that date, the names; no number, no link. */
export async function statementFilling(ledger: Ledger, orgSeq: number, s: StatementOfAccount): Promise<Filling> {
  const org = await organizationBySeq(ledger, orgSeq);
  return {
    amountDue: closingText(s, (n, currency) => writeAmount(toMinor(n, currency), currency, org.decimalMark)),
    dueDate: s.to,
    organization: org.legalName ?? org.name,
    customer: s.customer.name,
  };
}

/** The message a customer's statement would be sent in, filled, with the statement it carries (nothing written). */
export async function composeStatement(ledger: Ledger, orgSeq: number, ref: string, period: StatementPeriod = {}): Promise<ComposedStatement> {
  const statement = await statementOfAccount(ledger, orgSeq, ref, period);
  const values = await statementFilling(ledger, orgSeq, statement);
  return {
    kind: 'statement',
    to: statement.customer.email ? [statement.customer.email] : [],
    ...fillTemplate(await mailTemplate(ledger, orgSeq, 'statement'), values),
    attachment: `Statement ${statement.to}.pdf`,
    customer: statement.customer.name,
    statement,
  };
}

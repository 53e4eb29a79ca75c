// Which account each section of a statement goes to: the one the person names,
// else the one whose bank account id the file states, else (a QIF names its
// accounts but gives no id) the open one of the name the file gives, else (for
// OFX, QFX, QIF, CAMT and MT940, which describe their account) a new one made
// from the file. A CSV says nothing about its account: it goes to the account
// named, or to the one whose saved mapping has the same header; otherwise the
// person is asked, never a new account made up for it.
import type { ParsedStatement, StatedBalance, StatementOrigin, StatementSection } from '../../statements/types';
import { maskOf, requireAccount, type AccountInput, type AccountRow, type AccountType } from '../accounts/accounts';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { decimalToMinor } from '../core/money';
import { freeNameAsync } from '../core/text';
import { organizationBySeq } from '../access/organizations';
import { accountForHeaders } from './mappings';
import { ACCOUNT_TYPE_LABELS } from '../../../shared/accounts';
import { mapInOrder } from '../core/in-order';

export interface SectionPlan {
  section: number;
  currency: string;
  /** The existing account, or null when it is made on import. */
  row: AccountRow | null;
  /** The account the import makes, when there is none: from the file (newAccountInput says its opening). */
  newAccount: { name: string; type: AccountType; currency: string; bankAccountId: string | null; from: string | null } | null;
  /** The file's bank account id, recorded on an account that had none (so the next file finds it). */
  adoptBankId: string | null;
  account: { id: string | null; name: string; type: AccountType; currency: string; created: boolean };
  opening: { date: string; minor: number } | null;
  closing: { date: string; minor: number } | null;
}

function balance(b: StatedBalance | null, currency: string): { date: string; minor: number } | null {
  const minor = b ? decimalToMinor(b.amount, currency) : null;
  return b && typeof minor === 'number' ? { date: b.date, minor } : null;
}

export async function resolveSections(
  ledger: Ledger,
  orgSeq: number,
  statement: ParsedStatement<StatementOrigin>,
  input: { account?: string; accounts?: Record<string, string> },
): Promise<SectionPlan[]> {
  const several = statement.sections.length > 1;
  if (several && input.account) {
    throw invalid([
      { field: 'account', message: `this file holds ${statement.sections.length} accounts; each is matched by its bank account id or created (or choose one per section)` },
    ]);
  }
  return await mapInOrder(statement.sections, async (section) => {
    const ref = several ? input.accounts?.[String(section.index)] : (input.account ?? input.accounts?.['0']);
    const row = ref ? await checked(ledger, orgSeq, await requireAccount(ledger, orgSeq, ref), section) : await findFor(ledger, orgSeq, statement, section);
    if (row) {
      const adoptBankId = section.bankAccountId && !row.bank_account_id ? section.bankAccountId : null;
      return plan(section, row.currency, row, null, adoptBankId, { id: row.id, name: row.name, type: row.type, currency: row.currency, created: false });
    }
    if (statement.format === 'csv') {
      throw invalid([{ field: 'account', message: 'a CSV file does not say which account it belongs to: choose the account (or create it first)' }]);
    }
    const type = section.type ?? 'checking';
    const currency = section.currency ?? (await organizationBySeq(ledger, orgSeq)).currency;
    const mask = maskOf(section.bankAccountId);
    const name = await freeNameAsync(section.name ?? `${ACCOUNT_TYPE_LABELS[type]}${mask ? ` ${mask}` : ''}`, async (n) =>
      Boolean(await ledger.stmt('SELECT 1 FROM accounts WHERE org_seq = ? AND lower(name) = lower(?)').get(orgSeq, n)),
    );
    return plan(section, currency, null, { name, type, currency, bankAccountId: section.bankAccountId, from: section.from }, null, {
      id: null,
      name,
      type,
      currency,
      created: true,
    });
  });
}

function plan(
  section: StatementSection,
  currency: string,
  row: AccountRow | null,
  newAccount: SectionPlan['newAccount'],
  adoptBankId: string | null,
  account: SectionPlan['account'],
): SectionPlan {
  return { section: section.index, currency, row, newAccount, adoptBankId, account, opening: balance(section.opening, currency), closing: balance(section.closing, currency) };
}

/**
 * The account an import makes, starting where the bank says it did: the
 * stated opening balance, or the closing balance less the file's rows (their
 * sum in minor units), so that its balance matches the bank's from the first import.
 */
export function newAccountInput(plan: SectionPlan, rowsMinor: number): AccountInput {
  const a = plan.newAccount!;
  const opening = plan.opening ?? (plan.closing ? { date: a.from ?? plan.closing.date, minor: plan.closing.minor - rowsMinor } : null);
  return { name: a.name, type: a.type, currency: a.currency, bankAccountId: a.bankAccountId, openingMinor: opening?.minor ?? 0, openingDate: opening?.date ?? a.from };
}

/** The named account must fit the file: same currency, and not another bank account's. */
async function checked(ledger: Ledger, orgSeq: number, row: AccountRow, section: StatementSection): Promise<AccountRow> {
  if (section.currency && section.currency !== row.currency) {
    throw invalid([{ field: 'account', message: `the file is in ${section.currency}, account "${row.name}" is in ${row.currency}` }]);
  }
  if (section.bankAccountId && row.bank_account_id && section.bankAccountId !== row.bank_account_id) {
    throw invalid([
      { field: 'account', message: `this file is for bank account ${maskOf(section.bankAccountId)}, not "${row.name}" (${row.masked_number ?? maskOf(row.bank_account_id)})` },
    ]);
  }
  if (section.bankAccountId && !row.bank_account_id) {
    const other = (await ledger.stmt('SELECT name FROM accounts WHERE org_seq = ? AND bank_account_id = ?').get(orgSeq, section.bankAccountId)) as { name: string } | undefined;
    if (other)
      throw new LedgerError('conflict', `This file's bank account ${maskOf(section.bankAccountId)} belongs to "${other.name}", not "${row.name}".`, [
        { field: 'account', message: `belongs to "${other.name}"` },
      ]);
  }
  return row;
}

async function findFor(ledger: Ledger, orgSeq: number, statement: ParsedStatement<StatementOrigin>, section: StatementSection): Promise<AccountRow | null> {
  if (section.bankAccountId) {
    const byBank = (await ledger.stmt('SELECT * FROM accounts WHERE org_seq = ? AND bank_account_id = ?').get(orgSeq, section.bankAccountId)) as AccountRow | undefined;
    if (byBank) return byBank;
    const byMask = await byMaskedNumber(ledger, orgSeq, section);
    if (byMask) return byMask;
  } else if (section.name) {
    const named = await accountNamed(ledger, orgSeq, section.name);
    if (named && (!section.currency || section.currency === named.currency)) return named;
  }
  if (statement.csv) return accountForHeaders(ledger, orgSeq, statement.csv.headers);
  return null;
}

/** The open account of this name (any case): the next QIF of "Business Checking" goes where the first one went. */
export async function accountNamed(ledger: Ledger, orgSeq: number, name: string): Promise<AccountRow | null> {
  return (
    ((await ledger.stmt('SELECT * FROM accounts WHERE org_seq = ? AND lower(name) = lower(?) AND closed_at IS NULL').get(orgSeq, name.trim())) as AccountRow | undefined) ?? null
  );
}

const lastFour = (text: string | null): string | null => {
  const digits = text?.replace(/\D/g, '') ?? '';
  return digits.length >= 4 ? digits.slice(-4) : null;
};

/**
 * An account the person made by hand, with the number as statements print it
 * (****4417) and no bank id yet: the file whose account id ends in the same
 * four digits is its statement, when exactly one such account fits (same
 * currency, not another bank account's). It then takes the file's id.
 */
async function byMaskedNumber(ledger: Ledger, orgSeq: number, section: StatementSection): Promise<AccountRow | null> {
  const four = lastFour(section.bankAccountId);
  if (!four) return null;
  const fitting = (await ledger.rows<AccountRow>('SELECT * FROM accounts WHERE org_seq = ? AND bank_account_id IS NULL AND masked_number IS NOT NULL', orgSeq)).filter(
    (a) => lastFour(a.masked_number) === four && (!section.currency || section.currency === a.currency),
  );
  return fitting.length === 1 ? fitting[0] : null;
}

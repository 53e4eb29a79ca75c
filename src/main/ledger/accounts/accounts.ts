// The organization's own money accounts. Every transaction belongs to one; an
// account's balance is its opening balance plus its movements, read from the
// per-day totals the triggers keep (migration 0006), never by summing rows.
import { ACCOUNT_TYPES, isLiability, LIABILITY_TYPES, normalizeAccountId, type AccountType } from '../../../shared/accounts';
import { appendAudit, type Actor } from '../access/audit';
import { newId, nowIso } from '../core/clock';
import type { AccountRecord } from '../../../../db/rows';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { freeNameAsync } from '../core/text';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { decimalMarkOf, organizationBySeq } from '../access/organizations';
import type { TransactionSource } from '../transactions/transactions';

export { ACCOUNT_TYPES, isLiability, LIABILITY_TYPES, type AccountType };

export interface Account {
  id: string;
  name: string;
  type: AccountType;
  currency: string;
  openingBalance: number;
  openingDate: string | null;
  maskedNumber: string | null;
  bankAccountId: string | null;
  createdAt: string;
  closedAt: string | null;
  /** Opening balance plus every movement. */
  balance: number;
  transactionCount: number;
  lastImportAt: string | null;
  /** The closing balance the latest imported statement states (OFX LEDGERBAL, CAMT CLBD, MT940 :62F:). */
  lastStatement: { date: string; balance: number } | null;
  /** The statement date and balance of the last reconciliation. */
  lastReconciliation: { date: string; balance: number } | null;
}

export type AccountRow = AccountRecord;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function accountRows(ledger: Ledger, orgSeq: number): Promise<AccountRow[]> {
  return ledger.rows<AccountRow>('SELECT * FROM accounts WHERE org_seq = ? ORDER BY closed_at IS NOT NULL, lower(name), seq', orgSeq);
}

export const accountBySeq = async (ledger: Ledger, seq: number): Promise<AccountRow> => (await ledger.stmt('SELECT * FROM accounts WHERE seq = ?').get(seq)) as AccountRow;

/** By id, name (any case) or the bank's account id; a 404 that lists the accounts otherwise. */
export async function requireAccount(ledger: Ledger, orgSeq: number, ref: string): Promise<AccountRow> {
  const wanted = ref.trim();
  const row =
    (UUID.test(wanted) ? await ledger.stmt('SELECT * FROM accounts WHERE id = ? AND org_seq = ?').get(wanted.toLowerCase(), orgSeq) : undefined) ??
    (await ledger.stmt('SELECT * FROM accounts WHERE lower(name) = lower(?) AND org_seq = ?').get(wanted, orgSeq)) ??
    (await ledger.stmt('SELECT * FROM accounts WHERE bank_account_id = ? AND org_seq = ?').get(normalizeAccountId(wanted), orgSeq));
  if (!row) {
    const known = (await accountRows(ledger, orgSeq)).map((a) => `"${a.name}"`).join(', ') || 'none yet';
    throw new LedgerError('not_found', `No account "${ref}" in this organization (accounts: ${known}).`, { resource: 'account', id: ref });
  }
  return row as AccountRow;
}

export async function requireOpenAccount(ledger: Ledger, orgSeq: number, ref: string): Promise<AccountRow> {
  const row = await requireAccount(ledger, orgSeq, ref);
  if (row.closed_at) throw new LedgerError('conflict', `Account "${row.name}" is closed (read-only); reopen it first.`, { account: row.id, closedAt: row.closed_at });
  return row;
}

/** What the books know of an account besides its row: its movements, its last import, what its latest statement states, its last reconciliation. */
export interface AccountFacts {
  n: number;
  minor: number;
  lastImportAt: string | null;
  stated: { date: string; minor: number } | null;
  reconciled: { date: string; minor: number } | null;
}

/**
 * The facts of every account of an organization (or of one), a query each
 * for all of them at once: a list of accounts costs the same four queries
 * however many accounts it shows.
 */
export async function accountFacts(ledger: Ledger, orgSeq: number, accountSeq?: number): Promise<Map<number, AccountFacts>> {
  const one = accountSeq === undefined ? '' : ' AND a.seq = ?';
  const params = accountSeq === undefined ? [orgSeq] : [orgSeq, accountSeq];
  const facts = new Map<number, AccountFacts>();
  const of = (seq: number) => facts.get(seq) ?? facts.set(seq, { n: 0, minor: 0, lastImportAt: null, stated: null, reconciled: null }).get(seq)!;
  const latest = (select: string, from: string, order: string) =>
    `SELECT account_seq, date, minor FROM (SELECT ${select}, row_number() OVER (PARTITION BY a.seq ORDER BY ${order}) AS r ${from}) AS sub WHERE r = 1`;
  for (const r of await ledger.rows<{ account_seq: number; n: number; minor: number }>(
    `SELECT a.seq AS account_seq, sum(m.n) AS n, sum(m.sum_minor) AS minor FROM account_month_totals m JOIN accounts a ON a.seq = m.account_seq WHERE a.org_seq = ?${one} GROUP BY a.seq`,
    ...params,
  )) {
    Object.assign(of(r.account_seq), { n: r.n, minor: r.minor });
  }
  const imports = 'FROM statements s JOIN import_batches b ON b.seq = s.batch_seq JOIN accounts a ON a.seq = s.account_seq WHERE a.org_seq = ? AND b.undone_at IS NULL';
  for (const r of await ledger.rows<{ account_seq: number; at: string }>(`SELECT a.seq AS account_seq, max(b.created_at) AS at ${imports}${one} GROUP BY a.seq`, ...params))
    of(r.account_seq).lastImportAt = r.at;
  const stated = latest(
    'a.seq AS account_seq, s.closing_date AS date, s.closing_minor AS minor',
    `${imports} AND s.closing_date IS NOT NULL${one}`,
    's.closing_date DESC, s.seq DESC',
  );
  for (const r of await ledger.rows<{ account_seq: number; date: string; minor: number }>(stated, ...params)) of(r.account_seq).stated = { date: r.date, minor: r.minor };
  const reconciled = latest(
    'a.seq AS account_seq, c.statement_date AS date, c.statement_balance_minor AS minor',
    `FROM reconciliations c JOIN accounts a ON a.seq = c.account_seq WHERE a.org_seq = ? AND c.undone_at IS NULL${one}`,
    'c.seq DESC',
  );
  for (const r of await ledger.rows<{ account_seq: number; date: string; minor: number }>(reconciled, ...params)) of(r.account_seq).reconciled = { date: r.date, minor: r.minor };
  return facts;
}

export function toAccount(row: AccountRow, facts: AccountFacts | undefined): Account {
  const f = facts ?? { n: 0, minor: 0, lastImportAt: null, stated: null, reconciled: null };
  const money = (minor: number) => fromMinor(minor, row.currency);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    currency: row.currency,
    openingBalance: money(row.opening_balance_minor),
    openingDate: row.opening_date,
    maskedNumber: row.masked_number,
    bankAccountId: row.bank_account_id,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    balance: money(row.opening_balance_minor + f.minor),
    transactionCount: f.n,
    lastImportAt: f.lastImportAt,
    lastStatement: f.stated ? { date: f.stated.date, balance: money(f.stated.minor) } : null,
    lastReconciliation: f.reconciled ? { date: f.reconciled.date, balance: money(f.reconciled.minor) } : null,
  };
}

/** One account as the screens and commands show it. */
export const accountOf = async (ledger: Ledger, row: AccountRow): Promise<Account> => toAccount(row, (await accountFacts(ledger, row.org_seq, row.seq)).get(row.seq));

export async function listAccounts(ledger: Ledger, orgSeq: number): Promise<Account[]> {
  const facts = await accountFacts(ledger, orgSeq);
  return (await accountRows(ledger, orgSeq)).map((row) => toAccount(row, facts.get(row.seq)));
}

export interface AccountInput {
  name: string;
  type: AccountType;
  currency?: string;
  /** As the account's balance shows it: negative when money is owed (a card's debt). */
  openingBalance?: TypedMoney;
  /** The opening balance in minor units already (an import's account, from what the file states). */
  openingMinor?: number;
  openingDate?: string | null;
  maskedNumber?: string | null;
  bankAccountId?: string | null;
}

/** "****1234" from the last four characters of the bank's id. */
export const maskOf = (bankAccountId: string | null): string | null => (bankAccountId ? `****${bankAccountId.slice(-4)}` : null);

async function checkUnique(ledger: Ledger, orgSeq: number, name: string, bankAccountId: string | null, except = -1): Promise<void> {
  const byName = await ledger.stmt('SELECT seq FROM accounts WHERE org_seq = ? AND lower(name) = lower(?) AND seq <> ?').get(orgSeq, name, except);
  if (byName) throw new LedgerError('conflict', `An account named "${name}" already exists.`, [{ field: 'name', message: 'already taken' }]);
  const byBank = bankAccountId && (await ledger.stmt('SELECT name FROM accounts WHERE org_seq = ? AND bank_account_id = ? AND seq <> ?').get(orgSeq, bankAccountId, except));
  if (byBank)
    throw new LedgerError('conflict', `The bank account id ${bankAccountId} already belongs to "${(byBank as { name: string }).name}".`, [
      { field: 'bankAccountId', message: 'already used' },
    ]);
}

/** Inserts an account with its audit entry; the caller holds the write transaction. */
export async function insertAccount(ledger: Ledger, orgSeq: number, actor: Actor, input: AccountInput): Promise<AccountRow> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw invalid([{ field: 'name', message: 'must be 1 to 100 characters' }]);
  const currency = (input.currency ?? (await organizationBySeq(ledger, orgSeq)).currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw invalid([{ field: 'currency', message: 'must be a 3-letter currency code' }]);
  if (!ACCOUNT_TYPES.includes(input.type)) throw invalid([{ field: 'type', message: `must be one of ${ACCOUNT_TYPES.join(', ')}` }]);
  const bankAccountId = normalizeAccountId(input.bankAccountId);
  await checkUnique(ledger, orgSeq, name, bankAccountId);
  const opening = input.openingMinor ?? typedToMinor(input.openingBalance ?? 0, currency, await decimalMarkOf(ledger, orgSeq), 'openingBalance');
  const id = newId();
  await ledger
    .stmt(
      `INSERT INTO accounts (id, org_seq, name, type, currency, opening_balance_minor, opening_date, masked_number, bank_account_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(id, orgSeq, name, input.type, currency, opening, input.openingDate ?? null, input.maskedNumber?.trim() || maskOf(bankAccountId), bankAccountId, nowIso());
  const row = (await ledger.stmt('SELECT * FROM accounts WHERE id = ?').get(id)) as AccountRow;
  await appendAudit(ledger, orgSeq, actor, {
    action: 'account.created',
    targetType: 'account',
    targetId: id,
    summary: `Account "${name}" (${input.type.replace('_', ' ')}, ${currency}) created, opening balance ${fromMinor(opening, currency).toFixed(2)}${input.openingDate ? ` on ${input.openingDate}` : ''}`,
  });
  return row;
}

export async function createAccount(ledger: Ledger, orgSeq: number, actor: Actor, input: AccountInput): Promise<Account> {
  return ledger.write(async () => accountOf(ledger, await insertAccount(ledger, orgSeq, actor, input)));
}

export interface AccountChanges {
  name?: string;
  type?: AccountType;
  openingBalance?: TypedMoney;
  openingDate?: string | null;
  maskedNumber?: string | null;
  bankAccountId?: string | null;
}

/**
 * A finished reconciliation added up from the opening balance: changing the
 * opening balance (or its date, which moves rows before or after it) would
 * leave it no longer adding up, so it is refused, naming it and the way back.
 */
async function refuseUnderReconciliation(ledger: Ledger, row: AccountRow, what: string): Promise<void> {
  const done = (await ledger
    .stmt(
      'SELECT statement_date AS date, statement_balance_minor AS minor, count(*) OVER () AS n FROM reconciliations WHERE account_seq = ? AND undone_at IS NULL ORDER BY seq DESC LIMIT 1',
    )
    .get(row.seq)) as { date: string; minor: number; n: number } | undefined;
  if (!done) return;
  const balance = `${fromMinor(done.minor, row.currency).toFixed(2)} ${row.currency}`;
  const undo = done.n === 1 ? 'undo that reconciliation' : `undo its ${done.n} reconciliations, newest first`;
  throw new LedgerError(
    'conflict',
    `"${row.name}" is reconciled through ${done.date} at ${balance}, counted from its ${what}: changing it would leave that reconciliation no longer adding up. To change it, ${undo} (Reconcile, Undo; or ledgerdesk reconcile undo "${row.name}"), change it, and reconcile again.`,
    { account: row.id, reconciledThrough: done.date, statementBalance: fromMinor(done.minor, row.currency), reconciliations: done.n },
  );
}

/** Rename, retype, opening balance, masked number, bank id: each change named before and after in the audit entry. */
export async function updateAccount(ledger: Ledger, orgSeq: number, actor: Actor, ref: string, changes: AccountChanges): Promise<Account> {
  return ledger.write(async () => {
    const row = await requireOpenAccount(ledger, orgSeq, ref);
    const next = {
      name: changes.name?.trim() ?? row.name,
      type: changes.type ?? row.type,
      opening_balance_minor:
        changes.openingBalance === undefined
          ? row.opening_balance_minor
          : typedToMinor(changes.openingBalance, row.currency, await decimalMarkOf(ledger, orgSeq), 'openingBalance'),
      opening_date: changes.openingDate === undefined ? row.opening_date : changes.openingDate,
      masked_number: changes.maskedNumber === undefined ? row.masked_number : changes.maskedNumber?.trim() || null,
      bank_account_id: changes.bankAccountId === undefined ? row.bank_account_id : normalizeAccountId(changes.bankAccountId),
    };
    if (!next.name || next.name.length > 100) throw invalid([{ field: 'name', message: 'must be 1 to 100 characters' }]);
    await checkUnique(ledger, orgSeq, next.name, next.bank_account_id, row.seq);
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== row[k]);
    if (changed.length === 0) return accountOf(ledger, row);
    if (changed.includes('opening_balance_minor')) await refuseUnderReconciliation(ledger, row, 'opening balance');
    else if (changed.includes('opening_date')) await refuseUnderReconciliation(ledger, row, 'opening date');
    await ledger
      .stmt('UPDATE accounts SET name = ?, type = ?, opening_balance_minor = ?, opening_date = ?, masked_number = ?, bank_account_id = ? WHERE seq = ?')
      .run(next.name, next.type, next.opening_balance_minor, next.opening_date, next.masked_number, next.bank_account_id, row.seq);
    const show = (k: keyof typeof next, v: unknown) => (k === 'opening_balance_minor' ? fromMinor(v as number, row.currency).toFixed(2) : v === null ? '(none)' : `"${v}"`);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'account.updated',
      targetType: 'account',
      targetId: row.id,
      summary: `Account "${row.name}" changed: ${changed.map((k) => `${k.replace(/_minor$/, '').replace(/_/g, ' ')} ${show(k, row[k])} -> ${show(k, next[k])}`).join('; ')}`,
    });
    return accountOf(ledger, await accountBySeq(ledger, row.seq));
  });
}

/** A closed account is kept with its rows, read-only: no imports, no new or edited rows. */
export async function setAccountClosed(ledger: Ledger, orgSeq: number, actor: Actor, ref: string, closed: boolean): Promise<Account> {
  return ledger.write(async () => {
    const row = await requireAccount(ledger, orgSeq, ref);
    if (Boolean(row.closed_at) === closed) throw new LedgerError('conflict', `Account "${row.name}" is already ${closed ? 'closed' : 'open'}.`, { account: row.id });
    await ledger.stmt('UPDATE accounts SET closed_at = ? WHERE seq = ?').run(closed ? nowIso() : null, row.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: closed ? 'account.closed' : 'account.reopened',
      targetType: 'account',
      targetId: row.id,
      summary: `Account "${row.name}" ${closed ? 'closed (kept, read-only)' : 'reopened'}`,
    });
    return accountOf(ledger, await accountBySeq(ledger, row.seq));
  });
}

const TYPE_FOR_SOURCE: Record<TransactionSource, AccountType> = { bankfeed: 'checking', paymentproc: 'payment_processor', manual_csv: 'cash' };

/**
 * Where a new row goes when nobody named an account (an approved journal entry):
 * an open account of its currency, preferring the type that fits its source
 * (cash for manual entries, checking for bank-feed rows, the payment
 * processor's balance for payouts), then the oldest; null when there is none.
 */
export async function defaultAccountFor(ledger: Ledger, orgSeq: number, currency: string, source: TransactionSource): Promise<AccountRow | null> {
  return (
    ((await ledger
      .stmt('SELECT * FROM accounts WHERE org_seq = ? AND currency = ? AND closed_at IS NULL ORDER BY type = ? DESC, seq LIMIT 1')
      .get(orgSeq, currency, TYPE_FOR_SOURCE[source])) as AccountRow | undefined) ?? null
  );
}

/** The default account, or a new "Manual entries" cash account of that currency (audited) when there is none. */
export async function entryAccount(ledger: Ledger, orgSeq: number, actor: Actor, currency: string, source: TransactionSource): Promise<AccountRow> {
  const found = await defaultAccountFor(ledger, orgSeq, currency, source);
  if (found) return found;
  const org = await organizationBySeq(ledger, orgSeq);
  const name = await freeNameAsync(currency === org.currency ? 'Manual entries' : `Manual entries (${currency})`, async (n) =>
    Boolean(await ledger.stmt('SELECT 1 FROM accounts WHERE org_seq = ? AND lower(name) = lower(?)').get(orgSeq, n)),
  );
  return insertAccount(ledger, orgSeq, actor, { name, type: 'cash', currency });
}

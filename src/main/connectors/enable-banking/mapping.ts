// Enable Banking's records as the feed's shapes: accounts, rows and balances.
// Amounts come unsigned with a credit/debit indicator and become signed from
// the account's side (CRDT in, DBIT out); BOOK is booked, PDNG (and HOLD,
// OTHR) pending; CNCL, RJCT and SCHD never moved money and are left out.
import { createHash } from 'node:crypto';
import { OutsideError } from '../../edge/http';
import { joinDescription } from '../../statements/describe';
import type { FeedAccount, FeedBalance, FeedRow } from '../provider';
import type { AccountResource, BalanceResource, Transaction } from './contract';
import { SERVICE } from './jwt';

/** The ledger's name for an account: what the person called it at the bank, else its product, holder or number. */
export function feedAccount(a: AccountResource & { uid: string }): FeedAccount {
  const iban = a.account_id?.iban?.replace(/\s+/g, '') || null;
  const number = iban ?? a.account_id?.other?.identification ?? null;
  const digits = number?.replace(/\D/g, '') ?? '';
  const last4 = digits.length >= 4 ? digits.slice(-4) : null;
  const name = [a.details, a.product, a.name].map((s) => s?.trim()).find(Boolean) ?? (last4 ? `Account ending ${last4}` : 'Bank account');
  return { id: a.uid, name, currency: a.currency.toUpperCase(), iban, last4 };
}

const NEVER_MONEY = new Set(['CNCL', 'RJCT', 'SCHD']);

/** Signed decimal text: the magnitude the bank gives, out when DBIT. */
function signed(t: Transaction): string {
  const magnitude = t.transaction_amount.amount.replace(/^[-+]/, '').replace(/^0+(?=\d)/, '');
  return t.credit_debit_indicator === 'DBIT' && /[1-9]/.test(magnitude) ? `-${magnitude}` : magnitude;
}

/** The other party: who was paid on a debit, who paid on a credit. */
const counterparty = (t: Transaction) => (t.credit_debit_indicator === 'DBIT' ? t.creditor?.name : t.debtor?.name) ?? null;

/**
 * The row's id when the bank gives no entry_reference (transaction_id is no id: the contract says it may change
 * between fetches): "eb-" and a hash of what the bank says of the row (date, signed amount, counterparty,
 * remittance text, reference, status), with ":2", ":3"... for identical rows within one page.
 */
function fallbackId(t: Transaction, date: string, amount: string, pending: boolean): string {
  const said = [date, amount, t.transaction_amount.currency, counterparty(t) ?? '', (t.remittance_information ?? []).join('\n'), t.reference_number ?? '', pending ? 'P' : 'B'];
  return `eb-${createHash('sha256').update(said.join('\u0000')).digest('base64url').slice(0, 22)}`;
}

/** A page's transactions as rows: money that moved, or is about to, in the bank's order. */
export function feedRows(transactions: Transaction[]): FeedRow[] {
  const seen = new Map<string, number>();
  const rows: FeedRow[] = [];
  for (const t of transactions) {
    if (NEVER_MONEY.has(t.status)) continue;
    // Any status but BOOK that moved no money yet (PDNG, HOLD, OTHR, one the contract adds later) is pending: counted nowhere.
    const pending = t.status !== 'BOOK';
    const date = (t.booking_date ?? t.value_date ?? t.transaction_date)?.slice(0, 10);
    if (!date) throw new OutsideError(SERVICE, 'malformed', `${SERVICE} sent a transaction with no date (booking, value or transaction date): nothing of this page was written.`);
    const amount = signed(t);
    let externalId = t.entry_reference?.trim() || fallbackId(t, date, amount, pending);
    if (!t.entry_reference?.trim()) {
      const n = (seen.get(externalId) ?? 0) + 1;
      seen.set(externalId, n);
      if (n > 1) externalId = `${externalId}:${n}`;
    }
    const description =
      joinDescription([counterparty(t), ...(t.remittance_information ?? [])]) || joinDescription([t.bank_transaction_code?.description ?? t.note ?? 'Bank transaction']);
    rows.push({ externalId, date, amount, description, pending, pendingId: null });
  }
  return rows;
}

/** Balance types (ISO 20022 codes) in the words the feed uses. */
const BALANCE_KINDS: Record<string, string> = {
  CLBD: 'closingBooked',
  CLAV: 'closingAvailable',
  ITBD: 'interimBooked',
  ITAV: 'interimAvailable',
  OPBD: 'openingBooked',
  OPAV: 'openingAvailable',
  FWAV: 'forwardAvailable',
  XPCD: 'expected',
  PRCD: 'previouslyClosedBooked',
  VALU: 'valueDate',
  INFO: 'information',
  OTHR: 'other',
};

export function feedBalances(balances: BalanceResource[], today: string): FeedBalance[] {
  return balances.map((b) => ({
    date: (b.reference_date ?? b.last_change_date_time ?? today).slice(0, 10),
    amount: b.balance_amount.amount.replace(/^\+/, ''),
    kind: BALANCE_KINDS[b.balance_type] ?? b.balance_type,
  }));
}

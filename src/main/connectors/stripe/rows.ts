// What each Stripe balance transaction is in the books (issue 52): a charge's
// gross, its fee, a refund, a dispute, a payout, each its own row in the
// Stripe balance account, so the account moves exactly as Stripe's balance
// does. Stripe states amounts in integer minor units of ITS exponent for the
// currency (0 for JPY, 3 for KWD, 2 for the rest, ISK and HUF included),
// which is not always the ledger's: amounts are converted exactly through
// decimal text, never through a float.
import { minorDigits } from '../../ledger/core/money';
import type { FeedRow } from '../provider';

/** The balance transaction as listed with `expand[]=data.source`: what the rows need of it. */
export interface BalanceTxn {
  id: string;
  amount: number;
  currency: string;
  created: number;
  description: string | null;
  fee: number;
  type: string;
  reporting_category?: string | null;
  source?: string | { id: string; object?: string; metadata?: Record<string, string> | null } | null;
}

// Stripe's own lists (docs "Supported currencies": zero-decimal and three-decimal currencies).
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** How many decimals Stripe's integer amounts carry in a currency. */
export const stripeExponent = (currency: string): number => (ZERO_DECIMAL.has(currency.toLowerCase()) ? 0 : THREE_DECIMAL.has(currency.toLowerCase()) ? 3 : 2);

/** Stripe's integer amount as the ledger's decimal text ("-12.50", "1200" for JPY); refused when the ledger's currency cannot hold it exactly. */
export function decimalOf(stripeMinor: number, currency: string): string {
  if (!Number.isSafeInteger(stripeMinor)) throw new RangeError(`Stripe's amount ${stripeMinor} ${currency} is not a whole number of its units`);
  const exp = stripeExponent(currency);
  const digits = String(Math.abs(stripeMinor)).padStart(exp + 1, '0');
  const whole = exp ? digits.slice(0, -exp) : digits;
  let fraction = exp ? digits.slice(-exp) : '';
  const ours = minorDigits(currency.toUpperCase());
  if (fraction.length > ours) {
    if (/[^0]/.test(fraction.slice(ours))) throw new RangeError(`Stripe's amount ${stripeMinor} ${currency} has more decimals than ${currency.toUpperCase()} has (${ours})`);
    fraction = fraction.slice(0, ours);
  }
  return `${stripeMinor < 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The integer amount Stripe wants for a ledger amount in minor units (the ledger's exponent to Stripe's). */
export function stripeMinorOf(ledgerMinor: number, currency: string): number {
  const shift = stripeExponent(currency) - minorDigits(currency.toUpperCase());
  return shift >= 0 ? ledgerMinor * 10 ** shift : ledgerMinor / 10 ** -shift;
}

const dayOf = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

type Kind = NonNullable<FeedRow['kind']>;

/** What a balance transaction's gross is: by its type, a dispute by its reporting category. */
function kindOf(t: BalanceTxn): Kind {
  if (t.type === 'charge' || t.type === 'payment') return 'charge';
  if (t.type === 'refund' || t.type === 'payment_refund' || t.type === 'payment_failure_refund') return 'refund';
  if (t.reporting_category === 'dispute' || t.reporting_category === 'dispute_reversal' || t.type.startsWith('dispute')) return 'dispute';
  if (t.type === 'payout' || t.type === 'payout_cancel' || t.type === 'payout_failure') return 'payout';
  if (t.type === 'stripe_fee' || t.type === 'application_fee' || t.type === 'tax_fee') return 'fee';
  return 'adjustment';
}

const WORDS: Record<Kind, string> = {
  charge: 'Stripe charge',
  fee: 'Stripe fee',
  refund: 'Stripe refund',
  dispute: 'Stripe dispute',
  payout: 'Stripe payout',
  adjustment: 'Stripe adjustment',
};

/** The invoice number a charge's metadata names (set by a payment link, or by whoever made the charge). */
function invoiceNumberOf(t: BalanceTxn): string | null {
  const source = typeof t.source === 'object' && t.source ? t.source : null;
  const named = source?.metadata?.invoice_number?.trim();
  return named ? named : null;
}

/**
 * A balance transaction as rows: its gross (the charge, refund, dispute or payout, signed as Stripe's balance
 * moves) and, when Stripe took a fee on it, the fee as its own row (`<txn id>:fee`, money out). Never pending:
 * Stripe's balance moved when the transaction was made; `available_on` only says when it may be paid out.
 */
export function rowsOf(t: BalanceTxn): FeedRow[] {
  const kind = kindOf(t);
  const sourceId = typeof t.source === 'string' ? t.source : (t.source?.id ?? null);
  const invoiceNumber = kind === 'charge' ? invoiceNumberOf(t) : null;
  const said = [WORDS[kind], t.description?.trim() || sourceId, invoiceNumber ? `invoice ${invoiceNumber}` : null].filter(Boolean).join(': ');
  const date = dayOf(t.created);
  const rows: FeedRow[] = [{ externalId: t.id, date, amount: decimalOf(t.amount, t.currency), description: said, pending: false, kind, invoiceNumber }];
  if (t.fee !== 0 && kind !== 'fee') {
    rows.push({
      externalId: `${t.id}:fee`,
      date,
      amount: decimalOf(-t.fee, t.currency),
      description: `Stripe fee on ${WORDS[kind].replace('Stripe ', '')} ${sourceId ?? t.id}`,
      pending: false,
      kind: 'fee',
      invoiceNumber: null,
    });
  }
  return rows;
}

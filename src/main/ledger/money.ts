// Money is exact: integer minor units inside, decimal numbers at the API edge.
import { invalid } from './errors';

const digitsCache = new Map<string, number>();

/**
 * The ledger holds amounts below one trillion (10^12) in absolute value: with
 * up to three decimals that is at most 15 significant digits, which a JSON
 * number (a double) carries exactly.
 */
export const AMOUNT_LIMIT = 1e12;
const LIMIT_TEXT = 'less than 1,000,000,000,000 in absolute value';

/** ISO 4217 minor-unit digits (USD 2, JPY 0, BHD 3). */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsCache.set(currency, digits);
  }
  return digits;
}

export function fromMinor(minor: number, currency: string): number {
  return minor / 10 ** minorDigits(currency);
}

/** Converts an API amount; refuses more decimals than the currency has, and amounts beyond the limit. */
export function toMinor(amount: number, currency: string, field = 'amount'): number {
  if (!Number.isFinite(amount) || Math.abs(amount) >= AMOUNT_LIMIT) throw invalid([{ field, message: `must be ${LIMIT_TEXT}` }]);
  const scale = 10 ** minorDigits(currency);
  const minor = Math.round(amount * scale);
  if (minor / scale !== amount) {
    throw invalid([{ field, message: `must be a ${currency} amount with at most ${minorDigits(currency)} decimals` }]);
  }
  return minor;
}

/**
 * A signed decimal text ("-1234.5", as statements give them) in minor units,
 * exactly; a message instead when it has more decimals than the currency or
 * is beyond the ledger's limit.
 */
export function decimalToMinor(text: string, currency: string): number | string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return `"${text}" is not an amount`;
  const digits = minorDigits(currency);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return `${text} has more decimals than ${currency} has (${digits})`;
  if (m[2].replace(/^0+/, '').length > 12) return `${text} is beyond the ledger's limit (amounts are ${LIMIT_TEXT})`;
  const minor = Number(m[2] + fraction.padEnd(digits, '0'));
  return m[1] && minor !== 0 ? -minor : minor;
}

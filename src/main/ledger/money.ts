// Money is exact: integer minor units inside, decimal numbers at the API edge.
import { invalid } from './errors';

const digitsCache = new Map<string, number>();

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

/** Converts an API amount; refuses more decimals than the currency has. */
export function toMinor(amount: number, currency: string, field = 'amount'): number {
  const scale = 10 ** minorDigits(currency);
  const minor = Math.round(amount * scale);
  if (!Number.isSafeInteger(minor) || minor / scale !== amount) {
    throw invalid([{ field, message: `must be a ${currency} amount with at most ${minorDigits(currency)} decimals` }]);
  }
  return minor;
}

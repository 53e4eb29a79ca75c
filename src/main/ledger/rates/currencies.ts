// ISO 4217 currencies as the runtime's ICU knows them (Intl), with their
// minor digits (JPY 0, KWD 3): no table of our own to fall out of date.
import { invalid } from '../core/errors';

let known: Set<string> | null = null;

/** A currency in use today (ISO 4217), by its upper-case code. */
export function isCurrency(code: string): boolean {
  known ??= new Set(Intl.supportedValuesOf('currency'));
  return known.has(code);
}

/** The code upper-cased, or a validation error naming the field. */
export function requireCurrency(code: string, field = 'currency'): string {
  const upper = code.trim().toUpperCase();
  if (!isCurrency(upper)) throw invalid([{ field, message: `${code.trim() || '(empty)'} is not an ISO 4217 currency code (such as USD, EUR, GBP, JPY)` }]);
  return upper;
}

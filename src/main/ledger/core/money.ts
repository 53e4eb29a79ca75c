// Money is exact: integer minor units inside, decimal numbers at the API edge,
// and text as a person types it read by the one reader of shared/amounts.ts.
import { AMOUNT_LIMIT, decimalToMinor, LIMIT_TEXT, minorDigits, readTypedAmount, type DecimalMark } from '../../../shared/amounts';
import { invalid } from './errors';

export { AMOUNT_LIMIT, decimalToMinor, minorDigits } from '../../../shared/amounts';

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

/** An amount from a screen or a command: a number as it is, text as the person typed it (read with the organization's decimal mark). */
export type TypedMoney = number | string;

/** A plain decimal as files write it ("85", "19.99"): read as the full reader would, without its work. */
const PLAIN = /^\d{1,12}(?:\.(\d+))?$/;

export function typedToMinor(value: TypedMoney, currency: string, mark: DecimalMark, field = 'amount'): number {
  if (typeof value === 'number') return toMinor(value, currency, field);
  const plain = mark === '.' ? PLAIN.exec(value) : null;
  if (plain && (plain[1]?.length ?? 0) <= minorDigits(currency)) return decimalToMinor(value, currency) as number;
  const read = readTypedAmount(value, currency, mark);
  if (!read.ok) throw invalid([{ field, message: read.message }]);
  return read.minor;
}

// Exchange rates are exact decimals (issue 30): read from text, kept as text,
// multiplied and divided in integers (BigInt), never in floating point, so a
// base amount is the same on every machine and in every report.
import { minorDigits } from '../core/money';

/** digits / 10^scale, positive. */
export interface Rate {
  digits: bigint;
  scale: number;
}

/** A rate keeps this many significant digits (the ECB publishes 4 to 6; a cross rate is rounded to this). */
export const RATE_DIGITS = 12;

const TEN = 10n;
const pow10 = (n: number): bigint => TEN ** BigInt(n);

/** n / d rounded half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  if (d < 0n) return divRound(-n, -d);
  const q = n / d;
  const r = n % d;
  if (2n * (r < 0n ? -r : r) >= d) return q + (n < 0n ? -1n : 1n);
  return q;
}

/** Rounds to RATE_DIGITS significant digits and drops trailing zeros. */
function normal(digits: bigint, scale: number): Rate {
  const excess = digits.toString().length - RATE_DIGITS;
  if (excess > 0 && scale > 0) {
    const cut = Math.min(excess, scale);
    digits = divRound(digits, pow10(cut));
    scale -= cut;
  }
  while (scale > 0 && digits % TEN === 0n) {
    digits /= TEN;
    scale--;
  }
  return { digits, scale };
}

const RATE_TEXT = /^(\d{1,15})(?:[.,](\d{1,30}))?$/;

/** A rate as typed or as a file writes it ("1.0856", "0,8571", "157"); a message when it is not a positive decimal. */
export function readRate(text: string): Rate | string {
  const m = RATE_TEXT.exec(text.trim());
  if (!m) return `"${text.trim()}" is not a rate: write a positive decimal number such as 1.0856`;
  const rate = normal(BigInt(m[1] + (m[2] ?? '')), (m[2] ?? '').length);
  if (rate.digits === 0n) return `${text.trim()} is not a rate: a rate is more than zero`;
  return rate;
}

export function rateText({ digits, scale }: Rate): string {
  const s = digits.toString().padStart(scale + 1, '0');
  return scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s;
}

/** a / b to RATE_DIGITS significant digits: a cross rate from two rates against the same currency. */
export function divideRates(a: Rate, b: Rate): Rate {
  // Shift so the truncated quotient has exactly RATE_DIGITS digits, then round once.
  let extra = RATE_DIGITS + b.digits.toString().length;
  extra -= Math.max(0, ((a.digits * pow10(extra)) / b.digits).toString().length - RATE_DIGITS);
  const scale = a.scale - b.scale + extra;
  const digits = extra >= 0 ? divRound(a.digits * pow10(extra), b.digits) : divRound(a.digits, b.digits * pow10(-extra));
  return scale >= 0 ? normal(digits, scale) : normal(digits * pow10(-scale), 0);
}

/** 1 / rate: the rate the other way round. */
export const invertRate = (r: Rate): Rate => divideRates({ digits: 1n, scale: 0 }, r);

/** An amount in a currency (minor units) in the base currency at a rate, rounded half away from zero. */
export function toBase(minor: number, currency: string, rate: Rate, base: string): number {
  const n = BigInt(minor) * rate.digits * pow10(minorDigits(base));
  return Number(divRound(n, pow10(rate.scale + minorDigits(currency))));
}

/** The rate two amounts imply (base per unit of the currency): a transfer between two currencies. */
export function impliedRate(minor: number, currency: string, baseMinor: number, base: string): Rate {
  const a = { digits: BigInt(Math.abs(baseMinor)), scale: minorDigits(base) };
  const b = { digits: BigInt(Math.abs(minor)), scale: minorDigits(currency) };
  return divideRates(a, b);
}

/** part / whole of an amount, in integers rounded half away from zero: a line's share of its row's base amount. */
export const shareOf = (part: number, amount: number, whole: number): number => Number(divRound(BigInt(part) * BigInt(amount), BigInt(whole)));

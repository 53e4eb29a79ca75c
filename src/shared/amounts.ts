// Amounts as text, never through a float. Two readers share the signs and the
// grouping rules: bank files ("1,234.56", "1.234,56", "(12.50)", "12.50-",
// "12,50 CR"), whose decimal mark a whole column decides, and amounts a person
// types in a screen or a command, read with the organization's decimal mark
// and refused, saying what was read, where they could mean two numbers. Both
// give a signed decimal text with '.' as the point ("-1234.56"). Plain code:
// the screens bundle it too.

export type DecimalMark = '.' | ',';

const digitsCache = new Map<string, number>();

/**
 * The runtime's ICU (CLDR) minor digits where they are not 2, for the currencies it knows. Asking ICU itself
 * (a currency NumberFormat) costs its first caller 10-40 ms, which was a tenth of an owner command's start-up
 * (docs/benchmarks.md); test/amounts.test.ts holds this table equal to ICU's answer for every currency it knows, so it
 * cannot drift unseen. A code ICU does not list (a historical one) is still asked of ICU.
 */
const NOT_TWO_DIGITS: Record<string, number> = {
  ...Object.fromEntries(
    'AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PKR PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER'.split(' ').map((c) => [c, 0]),
  ),
  ...Object.fromEntries('BHD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
};
let listed: Set<string> | undefined;

/** ISO 4217 minor-unit digits as the runtime's ICU has them (USD 2, JPY 0, BHD 3). */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    listed ??= new Set(Intl.supportedValuesOf('currency'));
    digits = listed.has(currency) ? (NOT_TWO_DIGITS[currency] ?? 2) : icuDigits(currency);
    digitsCache.set(currency, digits);
  }
  return digits;
}

/** ICU's own answer (what NOT_TWO_DIGITS is checked against). */
export function icuDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * The ledger holds amounts below one trillion (10^12) in absolute value: with
 * up to three decimals that is at most 15 significant digits, which a JSON
 * number (a double) carries exactly.
 */
export const AMOUNT_LIMIT = 1e12;
export const LIMIT_TEXT = 'less than 1,000,000,000,000 in absolute value';

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

const CURRENCY_NOISE = /[A-Za-z$€£¥₹₩₽₺₪₫฿₴₦₱₲₵₡₭₮₸₼₾\u00a0\u202f']/g;

/**
 * Which mark is the decimal point, judged from one value: the last of '.' and
 * ',' when both occur; a lone mark followed by exactly three digits is a
 * thousands separator only if it occurs more than once, otherwise unknown.
 */
export function decimalMarkOf(text: string): DecimalMark | null {
  if (/^-?\d{1,3}\.\d\d$/.test(text)) return '.'; // the common case, "-123.45", without the general reading
  const core = text.replace(/[^0-9.,]/g, '');
  const dot = core.lastIndexOf('.');
  const comma = core.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ',';
  const mark = dot >= 0 ? '.' : comma >= 0 ? ',' : null;
  if (!mark) return null;
  const parts = core.split(mark);
  if (parts.length > 2) return mark === '.' ? ',' : '.'; // "1.234.567" groups thousands
  return parts[1].length === 3 ? null : mark; // "1,234" could be either
}

/** The decimal mark of a column: what its unambiguous values say, else the fallback. */
export function decideDecimalMark(values: Iterable<string>, fallback: DecimalMark): DecimalMark {
  let dot = 0;
  let comma = 0;
  for (const v of values) {
    if (v === '') continue;
    const mark = decimalMarkOf(v);
    if (mark === '.') dot++;
    else if (mark === ',') comma++;
    if (dot + comma >= 5_000) break; // a column writes its amounts one way: a few thousand say which
  }
  if (dot === comma) return fallback;
  return dot > comma ? '.' : ',';
}

/**
 * Parses one amount cell. Returns null for an empty cell and undefined for
 * text that is not an amount. Negatives: a leading or trailing minus,
 * parentheses, or a DR / D / debit suffix; CR marks a positive amount.
 */
const PLAIN = { '.': /^(-?)(\d+)(?:\.(\d+))?$/, ',': /^(-?)(\d+)(?:,(\d+))?$/ };

export function parseAmount(raw: string, mark: DecimalMark): string | null | undefined {
  let text = raw.trim();
  if (text === '') return null;
  const simple = PLAIN[mark].exec(text); // most cells: "-12.50"
  if (simple) {
    const whole = simple[2].replace(/^0+(?=\d)/, '');
    const fraction = (simple[3] ?? '').replace(/0+$/, '');
    const value = fraction ? `${whole}.${fraction}` : whole;
    return simple[1] && value !== '0' ? `-${value}` : value;
  }
  let negative = false;
  const suffix = /(?<=[\d\s)])\s*(CR|DR|Cr|Dr|cr|dr|C|D|credit|debit)\.?$/.exec(text);
  if (suffix) {
    negative = /^d/i.test(suffix[1]);
    text = text.slice(0, suffix.index).trim();
  }
  if (/^\(.*\)$/.test(text)) {
    negative = !negative;
    text = text.slice(1, -1).trim();
  }
  text = text.replace(CURRENCY_NOISE, '').replace(/\s+/g, '');
  if (text.startsWith('-') || text.startsWith('−')) {
    negative = !negative;
    text = text.slice(1);
  } else if (text.startsWith('+')) {
    text = text.slice(1);
  } else if (text.endsWith('-')) {
    negative = !negative;
    text = text.slice(0, -1);
  }
  const group = mark === '.' ? ',' : '.';
  // Thousands separators only between digit groups of three.
  const grouped = new RegExp(`^\\d{1,3}(\\${group}\\d{3})+(\\${mark}\\d*)?$`);
  if (grouped.test(text)) text = text.split(group).join('');
  const plain = new RegExp(`^(\\d*)(?:\\${mark}(\\d*))?$`).exec(text);
  if (!plain || (plain[1] === '' && (plain[2] ?? '') === '')) return undefined;
  const whole = plain[1].replace(/^0+(?=\d)/, '') || '0';
  const fraction = (plain[2] ?? '').replace(/0+$/, '');
  const value = fraction ? `${whole}.${fraction}` : whole;
  return negative && value !== '0' ? `-${value}` : value;
}

/** A signed decimal text ("-12.5") negated. */
export const negateDecimal = (value: string): string => (value === '0' ? value : value.startsWith('-') ? value.slice(1) : `-${value}`);

/** Sum of signed decimal texts, exact (via BigInt on a common scale). */
export function sumDecimals(values: string[]): string {
  const scale = Math.max(0, ...values.map((v) => (v.split('.')[1] ?? '').length));
  const total = values.reduce((acc, v) => acc + scaled(v, scale), 0n);
  return fromScaled(total, scale);
}

function scaled(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const n = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -n : n;
}

function fromScaled(n: bigint, scale: number): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  const value = fraction ? `${whole}.${fraction}` : whole;
  return negative && value !== '0' ? `-${value}` : value;
}

/** What a typed amount was read as: minor units and the canonical decimal text, or why it was refused. */
export type TypedAmount = { ok: true; minor: number; value: string } | { ok: false; message: string };

const SYMBOLS = /[$€£¥₹₩₽₺₪₫฿₴₦₱₲₵₡₭₮₸₼₾]/g;
const GROUP_SPACE = /[\s'\u00a0\u202f\u2009]/;

/** An amount in an organization's way of writing: 1234.56 as "1,234.56" (decimal point) or "1.234,56" (decimal comma). */
export function writeAmount(minor: number, currency: string, mark: DecimalMark): string {
  const digits = minorDigits(currency);
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = (digits ? text.slice(0, -digits) : text).replace(/\B(?=(\d{3})+$)/g, mark === '.' ? ',' : '.');
  return `${minor < 0 ? '-' : ''}${whole}${digits ? `${mark}${text.slice(-digits)}` : ''}`;
}

/** A number from the ledger (an API amount) as the organization writes it, for a field to edit. */
export const amountText = (amount: number, currency: string, mark: DecimalMark): string => writeAmount(Math.round(amount * 10 ** minorDigits(currency)), currency, mark);

/**
 * An amount a person typed, read with the organization's decimal mark: the
 * other mark, spaces and apostrophes group thousands ("-1,234.56", "1.234,56",
 * "1 234,56"); parentheses, a leading or trailing minus and currency symbols
 * or the currency's own code are understood. Where the structure decides, it decides ("1.234,56"
 * is 1234.56 anywhere; "1,25" is 1.25). One mark before exactly three digits
 * ("1,250") is read by the organization's convention: thousands where that
 * mark groups them, refused as ambiguous where it is the decimal mark and the
 * currency has fewer decimals. Never a silent different number.
 */
export function readTypedAmount(raw: string, currency: string, mark: DecimalMark): TypedAmount {
  const refuse = (why: string): TypedAmount => ({ ok: false, message: `"${raw}" ${why}` });
  let text = raw.trim();
  if (text === '') return { ok: false, message: 'is empty: type an amount such as ' + writeAmount(-123456, currency, mark) };
  let negative = false;
  const paren = /^\((.*)\)$/.exec(text);
  if (paren) [negative, text] = [true, paren[1].trim()];
  // A currency symbol, or the amount's own currency code ("USD 12.50", "12,50 EUR").
  const code = currency.toUpperCase();
  text = text.replace(SYMBOLS, ' ').trim();
  if (text.toUpperCase().startsWith(code)) text = text.slice(3);
  else if (text.toUpperCase().endsWith(code)) text = text.slice(0, -3);
  text = text.trim();
  const sign = /^[-−+]/.exec(text);
  if (sign) [negative, text] = [sign[0] === '+' ? negative : !negative, text.slice(1).trim()];
  else if (text.endsWith('-')) [negative, text] = [!negative, text.slice(0, -1).trim()];
  if (!/^[\d.,\s'\u00a0\u202f\u2009]+$/.test(text) || !/\d/.test(text)) return refuse('is not an amount');
  const decimal = decimalOf(text, currency, mark);
  if (decimal !== null && typeof decimal === 'object') return refuse(decimal.why);
  const at = decimal ? text.lastIndexOf(decimal) : -1;
  const whole = at < 0 ? text : text.slice(0, at);
  const fraction = at < 0 ? '' : text.slice(at + 1);
  const groups = whole.split(decimal === '.' ? /[\s,'\u00a0\u202f\u2009]/ : decimal === ',' ? /[\s.'\u00a0\u202f\u2009]/ : /[\s.,'\u00a0\u202f\u2009]/);
  const grouped = groups.length === 1 || (/^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
  if (!grouped || (decimal && whole.includes(decimal)) || !/^\d*$/.test(fraction) || GROUP_SPACE.test(fraction)) {
    return refuse(`is not an amount as written: thousands are grouped in threes (${writeAmount(123456789, currency, mark)})`);
  }
  const digits = groups.join('');
  if (digits === '' && fraction === '') return refuse('is not an amount');
  const value = `${negative ? '-' : ''}${digits || '0'}${fraction ? `.${fraction}` : ''}`;
  const minor = decimalToMinor(value, currency);
  if (typeof minor === 'string') return refuse(`reads as ${value}, which ${minor.slice(value.length + 1)}`);
  return { ok: true, minor, value: writeAmount(minor, currency, '.').replaceAll(',', '') };
}

/** The typed text's decimal mark (null: a whole number), or why it cannot be told. */
function decimalOf(text: string, currency: string, mark: DecimalMark): DecimalMark | null | { why: string } {
  const dot = text.lastIndexOf('.');
  const comma = text.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ',';
  const only: DecimalMark | null = dot >= 0 ? '.' : comma >= 0 ? ',' : null;
  if (!only) return null;
  const parts = text.split(only);
  if (parts.length > 2) return null; // "1,234,567": grouping
  const [before, after] = parts;
  // "1,250": a thousands group or three decimals?
  if (after.length !== 3 || !/^[1-9]\d{0,2}$/.test(before)) return only;
  if (only !== mark) return null; // this organization groups thousands with it
  const digits = minorDigits(currency);
  if (digits >= 3) return only;
  const thousands = Number(before + after);
  const name = mark === ',' ? 'comma' : 'point';
  const small = after.slice(digits).replace(/0/g, '') ? '' : ` or ${before}${mark}${after.slice(0, digits)}`;
  return {
    why: `could mean ${writeAmount(thousands * 10 ** digits, currency, mark)} (a thousands ${name}), but this organization writes a decimal ${name} (${writeAmount(123456, currency, mark)}); type ${thousands}${small}`,
  };
}

// Amounts as banks write them: "1,234.56", "1.234,56", "1 234,56", "(12.50)",
// "12.50-", "-€12.50", "12,50 CR". Parsed to a signed decimal text with '.'
// as the point ("-1234.56"), never through a float.

export type DecimalMark = '.' | ',';

const CURRENCY_NOISE = /[A-Za-z$€£¥₹₩₽₺₪₫฿₴₦₱₲₵₡₭₮₸₼₾\u00a0\u202f']/g;

/**
 * Which mark is the decimal point, judged from one value: the last of '.' and
 * ',' when both occur; a lone mark followed by exactly three digits is a
 * thousands separator only if it occurs more than once, otherwise unknown.
 */
export function decimalMarkOf(text: string): DecimalMark | null {
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

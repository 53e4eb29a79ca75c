// Dates as statements write them. Formats use dayjs's tokens: YYYY, YY, MM, M,
// DD, D (and MMM for English month names); any other character is a literal.
// A time after the date is ignored. Compiled to one regular expression each:
// a million rows are parsed in well under a second, which a general date
// library's strict parsing (several µs per call) would not allow.

export interface DateFormat {
  /** As the user writes it, e.g. DD/MM/YYYY. */
  text: string;
  parse(value: string): string | null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const TOKEN = /YYYY|YY|MMM|MM|M|DD|D/g;
const PATTERNS: Record<string, string> = { YYYY: '(\\d{4})', YY: '(\\d{2})', MMM: '([A-Za-z]{3,9}\\.?)', MM: '(\\d{2})', M: '(\\d{1,2})', DD: '(\\d{2})', D: '(\\d{1,2})' };

/** Two-digit years: 00-69 are 20xx, 70-99 are 19xx (the POSIX strptime rule). */
export const fullYear = (yy: number): number => (yy < 70 ? 2000 + yy : 1900 + yy);

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** YYYY-MM-DD when it names a real day (2024-02-30 does not), else null. */
export function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2099 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day > last ? null : `${year}-${pad(month)}-${pad(day)}`;
}

export function compileDateFormat(text: string): DateFormat {
  const tokens: string[] = [];
  let source = '';
  let at = 0;
  for (const m of text.matchAll(TOKEN)) {
    source += escape(text.slice(at, m.index)) + PATTERNS[m[0]];
    tokens.push(m[0]);
    at = m.index! + m[0].length;
  }
  source += escape(text.slice(at));
  const kinds = tokens.map((t) => t[0]);
  if (!kinds.includes('Y') || !kinds.includes('M') || !kinds.includes('D') || new Set(kinds).size !== tokens.length) {
    throw new Error(`"${text}" is not a date format: use each of YYYY (or YY), MM (or M, MMM) and DD (or D) once, e.g. DD/MM/YYYY`);
  }
  // Optional time (or anything after a space or T) is ignored.
  const re = new RegExp(`^${source}(?:[T\\s].*)?$`);
  return {
    text,
    parse(value) {
      const m = re.exec(value.trim());
      if (!m) return null;
      let year = 0;
      let month = 0;
      let day = 0;
      tokens.forEach((token, i) => {
        const part = m[i + 1];
        if (token === 'YYYY') year = Number(part);
        else if (token === 'YY') year = fullYear(Number(part));
        else if (token === 'MMM') month = MONTHS.indexOf(part.slice(0, 3).toLowerCase()) + 1;
        else if (token[0] === 'M') month = Number(part);
        else day = Number(part);
      });
      return isoDate(year, month, day);
    },
  };
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The formats tried when a file does not say: each order with each separator, 4- and 2-digit years. */
export const CANDIDATE_FORMATS: string[] = (() => {
  const out = ['YYYY-MM-DD', 'YYYYMMDD', 'YYYY/M/D', 'YYYY.M.D', 'D MMM YYYY', 'D-MMM-YYYY', 'D-MMM-YY', 'MMM D, YYYY', 'D MMM YY'];
  for (const sep of ['/', '.', '-']) {
    for (const year of ['YYYY', 'YY']) {
      out.push(`D${sep}M${sep}${year}`, `M${sep}D${sep}${year}`);
    }
  }
  return out;
})();

/** Which of day and month a format puts first: what a file whose every date reads both ways leaves open. */
export type DateOrder = 'DMY' | 'MDY';

/** A date order to settle an open file with, and where it comes from (the account whose statements were read so). */
export interface DateOrderHint {
  order: DateOrder;
  from: string;
}

/** The order of a numeric day-and-month format; null for one that is never left open (YYYY-MM-DD, month names). */
export function dateOrderOf(format: string | null | undefined): DateOrder | null {
  if (!format || format.includes('MMM')) return null;
  const [y, m, d] = ['Y', 'M', 'D'].map((t) => format.indexOf(t));
  if (m < 0 || d < 0 || (y >= 0 && y < m && y < d)) return null;
  return d < m ? 'DMY' : 'MDY';
}

/** Of the formats a file leaves open, the one in this order (they differ in the order alone), if exactly one is. */
export function formatInOrder(formats: readonly string[], order: DateOrder): string | null {
  const fits = formats.filter((f) => dateOrderOf(f) === order);
  return fits.length === 1 ? fits[0] : null;
}

export interface DateDetection {
  /** The one format that reads every value, or null. */
  format: DateFormat | null;
  /** Formats that read every value but disagree on some date: the user must choose. */
  ambiguous: string[];
}

/**
 * Finds the format of a column from its distinct values: the formats that read
 * the most of them (at least half of them: a bad date such as 2024-02-30 is the row's
 * error, not the column's). Several that read every value the same way
 * (D/M/YYYY and DD/MM/YYYY) are one answer; two that read some value
 * differently (01/02/2024) are ambiguous, never guessed.
 */
export function detectDateFormat(values: Iterable<string>, candidates = CANDIDATE_FORMATS): DateDetection {
  const seen = new Set<string>();
  for (const v of values) seen.add(v.trim());
  seen.delete('');
  const distinct = [...seen];
  if (distinct.length === 0) return { format: null, ambiguous: [] };
  const scored = candidates.map(compileDateFormat).map((f) => {
    const dates = distinct.map((v) => f.parse(v));
    return { f, dates, read: dates.filter((d) => d !== null).length };
  });
  const best = Math.max(...scored.map((s) => s.read));
  if (best === 0 || best < distinct.length / 2) return { format: null, ambiguous: [] };
  const readings = new Map<string, DateFormat[]>();
  for (const { f, dates, read } of scored) {
    if (read < best) continue;
    const key = dates.join(',');
    readings.set(key, [...(readings.get(key) ?? []), f]);
  }
  if (readings.size === 1) return { format: [...readings.values()][0][0], ambiguous: [] };
  return { format: null, ambiguous: [...readings.values()].map((fs) => fs[0].text) };
}

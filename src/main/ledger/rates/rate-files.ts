// Rates files (issue 30). Two formats:
// - ecb: the European Central Bank's reference rates as published, a row per
//   day: `Date,USD,JPY,...` (the history file, eurofxref-hist.csv) or the
//   day's file (`Date, USD, ...` with "22 November 2024"); each value is
//   units of that currency per euro, "N/A" where the ECB has none that day.
//   Rates in the organization's base currency are cross rates through the
//   euro: 1 C = (base per euro) / (C per euro). Columns of currencies no
//   longer in use (CYP, ROL, ...) are skipped and named in the answer.
// - plain: `date,currency,rate` (any order and case), one unit of the
//   currency in the base currency.
// A bad cell is an error naming its row and column; so is a plain file in
// which a currency's dates leave a gap longer than a rate serves (the days
// between would have none). Nothing is written unless the whole file reads.
import { parse } from 'csv-parse/sync';
import { invalid, type FieldIssue } from '../core/errors';
import { isCalendarDate, addDays } from '../../../shared/dates';
import { isCurrency } from './currencies';
import { divideRates, invertRate, readRate, type Rate } from './decimal';
import type { Actor } from '../access/audit';
import type { Ledger } from '../core/sqlite/open';
import { baseCurrency, RATE_LOOKBACK_DAYS, writeRates, type RateInput, type RatesWritten } from './rates';

export const RATE_FORMATS = ['ecb', 'plain'] as const;
export type RateFormat = (typeof RATE_FORMATS)[number];

export interface RatesFile {
  format: RateFormat;
  rates: RateInput[];
  /** ECB columns of currencies no longer in use, left out. */
  skipped: string[];
}

const MAX_ISSUES = 20;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** YYYY-MM-DD, or the ECB day file's "22 November 2024"; null when neither. */
function dateOf(text: string): string | null {
  if (isCalendarDate(text)) return text;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  const month = m ? MONTHS.indexOf(m[2].toLowerCase()) + 1 : 0;
  if (!m || !month) return null;
  const iso = `${m[3]}-${String(month).padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return isCalendarDate(iso) ? iso : null;
}

function records(text: string): string[][] {
  try {
    return parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][];
  } catch (e) {
    throw invalid([{ field: 'file', message: `is not CSV: ${(e as Error).message}` }]);
  }
}

/** Refuses with every issue found (the first MAX_ISSUES), or passes. */
function check(issues: FieldIssue[]): void {
  if (issues.length)
    throw invalid(
      issues.slice(0, MAX_ISSUES),
      `The rates file was not imported (nothing was written): ${issues.length} problem(s), the first: ${issues[0].field}: ${issues[0].message}`,
    );
}

/** The format a file's header says (ECB: `Date` then currency codes; plain: date, currency, rate). */
export function formatOf(header: string[]): RateFormat | null {
  const names = header.map((h) => h.trim().toLowerCase());
  if (names[0] === 'date' && names.length > 1 && names.slice(1).every((h) => h === '' || /^[a-z]{3}$/.test(h)) && !names.includes('currency')) return 'ecb';
  if (['date', 'currency', 'rate'].every((c) => names.includes(c))) return 'plain';
  return null;
}

function fromEcb(rows: string[][], header: string[], base: string): RatesFile {
  const codes = header.map((h) => h.trim().toUpperCase());
  const used = codes.map((c, i) => i > 0 && c !== '' && isCurrency(c));
  const skipped = codes.filter((c, i) => i > 0 && c !== '' && !used[i]);
  const baseAt = codes.indexOf(base);
  if (base !== 'EUR' && baseAt < 0)
    throw invalid([{ field: 'file', message: `has no ${base} column: its rates are per euro, and without ${base} per euro no rate in ${base} can be made (use a plain file)` }]);
  const issues: FieldIssue[] = [];
  const rates: RateInput[] = [];
  rows.forEach((cells, i) => {
    const row = i + 2;
    const date = dateOf(cells[0] ?? '');
    if (!date) return void issues.push({ field: `rows[${row}].Date`, message: `"${cells[0] ?? ''}" is not a date` });
    const perEuro = (at: number): Rate | null | string => {
      const cell = (cells[at] ?? '').trim();
      if (cell.toUpperCase() === 'N/A') return null;
      if (cell === '') return `no rate (an empty cell: the ECB writes N/A for a day without one)`;
      return readRate(cell);
    };
    const basePerEuro = base === 'EUR' ? { digits: 1n, scale: 0 } : perEuro(baseAt);
    if (typeof basePerEuro === 'string') return void issues.push({ field: `rows[${row}].${base}`, message: basePerEuro });
    if (basePerEuro === null) return; // no base rate that day: no cross rates either
    if (base !== 'EUR') rates.push({ currency: 'EUR', date, rate: basePerEuro });
    codes.forEach((code, at) => {
      if (!used[at] || code === base) return;
      const value = perEuro(at);
      if (typeof value === 'string') issues.push({ field: `rows[${row}].${code}`, message: value });
      else if (value) rates.push({ currency: code, date, rate: base === 'EUR' ? invertRate(value) : divideRates(basePerEuro, value) });
    });
  });
  check(issues);
  return { format: 'ecb', rates, skipped };
}

function fromPlain(rows: string[][], header: string[], base: string): RatesFile {
  const at = (name: string) => header.findIndex((h) => h.trim().toLowerCase() === name);
  const [dateAt, currencyAt, rateAt] = [at('date'), at('currency'), at('rate')];
  const issues: FieldIssue[] = [];
  const rates: (RateInput & { row: number })[] = [];
  rows.forEach((cells, i) => {
    const row = i + 2;
    const [dateCell, code, rateCell] = [cells[dateAt] ?? '', (cells[currencyAt] ?? '').toUpperCase(), cells[rateAt] ?? ''];
    const date = dateOf(dateCell);
    if (!date) issues.push({ field: `rows[${row}].date`, message: `"${dateCell}" is not a date (YYYY-MM-DD)` });
    if (!isCurrency(code)) issues.push({ field: `rows[${row}].currency`, message: `${code || '(empty)'} is not an ISO 4217 currency code` });
    else if (code === base) issues.push({ field: `rows[${row}].currency`, message: `${code} is the base currency: its rate is 1` });
    const rate = rateCell.trim() === '' ? 'no rate (an empty cell)' : readRate(rateCell);
    if (typeof rate === 'string') issues.push({ field: `rows[${row}].rate`, message: rate });
    else if (date && isCurrency(code)) rates.push({ currency: code, date, rate, row });
  });
  check(issues);
  // A currency's dates in order: a step longer than a rate serves leaves days without one.
  const sorted = [...rates].sort((a, b) => (a.currency === b.currency ? (a.date < b.date ? -1 : 1) : a.currency < b.currency ? -1 : 1));
  sorted.forEach((r, i) => {
    const next = sorted[i + 1];
    if (next?.currency === r.currency && next.date > addDays(r.date, RATE_LOOKBACK_DAYS + 1))
      issues.push({
        field: `rows[${next.row}].date`,
        message: `${r.currency} skips from ${r.date} (row ${r.row}) to ${next.date}: a rate serves ${RATE_LOOKBACK_DAYS} days after its date, so the days between would have none; add rates for them`,
      });
  });
  check(issues);
  return { format: 'plain', rates: rates.map(({ row: _row, ...r }) => r), skipped: [] };
}

/** A rates file read whole (format by its header unless given), in the base currency. */
export function ratesFromCsv(text: string, base: string, format?: RateFormat): RatesFile {
  const [header = [], ...rows] = records(text);
  const found = formatOf(header);
  if (!found) throw invalid([{ field: 'file', message: `is not a rates file: its header is "${header.join(',')}", expected the ECB's (Date,USD,JPY,...) or date,currency,rate` }]);
  if (format && format !== found) throw invalid([{ field: 'format', message: `is ${format}, but the file's header is the ${found} layout` }]);
  if (rows.length === 0) throw invalid([{ field: 'file', message: 'has no rates under its header' }]);
  return found === 'ecb' ? fromEcb(rows, header, base) : fromPlain(rows, header, base);
}

/** Imports a rates file: all of it or nothing, one audit entry. */
export async function importRates(
  ledger: Ledger,
  orgSeq: number,
  actor: Actor,
  text: string,
  options: { format?: RateFormat; name?: string } = {},
): Promise<RatesWritten & { format: RateFormat; read: number; skipped: string[] }> {
  const file = ratesFromCsv(text, await baseCurrency(ledger, orgSeq), options.format);
  const what = `${file.format === 'ecb' ? 'ECB reference rates' : 'Rates'} imported${options.name ? ` from ${options.name}` : ''}`;
  const written = await writeRates(ledger, orgSeq, actor, file.rates, file.format === 'ecb' ? 'ecb' : 'file', what);
  return { ...written, format: file.format, read: file.rates.length, skipped: file.skipped };
}

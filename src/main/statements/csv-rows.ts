// A CSV's data records to statement rows, once the whole file is read: the
// date format and the decimal mark are decided from every value of their
// columns (csv-read.ts reads the records), then each row is read with them.
import { decideDecimalMark, negateDecimal, parseAmount, type DecimalMark } from '../../shared/amounts';
import { directionOf, type CsvColumns, type CsvMapping, type CsvReport } from './csv-mapping';
import { compileDateFormat, detectDateFormat, type DateFormat } from './dates';
import { joinDescription } from './describe';
import { StatementRows } from './rows';
import { statedBalances, type BalanceRow } from './csv-balance';
import type { ParsedStatement } from './types';

/** Distinct cells shared (amounts) or read once (amounts' values) up to this many: a file of a million distinct ones is not held twice. */
const SHARED_CELLS = 65_536;

/**
 * The data records until the date format and decimal mark are known, as the
 * statement's rows (rows.ts) with their date and amount cells as the file
 * has them, read in place by toRows: equal date cells share one string (a
 * file has a few thousand distinct dates however many rows), and so do equal
 * amount cells (the first SHARED_CELLS distinct ones), so that a million
 * records weigh about their descriptions' bytes.
 */
export class Pending {
  readonly rows = new StatementRows();
  readonly debit: string[] = [];
  readonly credit: string[] = [];
  readonly direction: string[] = [];
  readonly balance: string[] = [];
  readonly dates = new Map<string, string>();
  readonly #amounts = new Map<string, string>();

  constructor(
    private readonly c: ColumnIndexes,
    private readonly columns: CsvColumns,
  ) {}

  get length(): number {
    return this.rows.length;
  }

  add(line: number, record: string[]): void {
    const { c, columns } = this;
    const date = cellOf(record, c.date);
    let amount = '';
    if (columns.amount !== undefined) amount = this.#shared(cellOf(record, c.amount));
    else {
      this.debit.push(cellOf(record, c.debit));
      this.credit.push(cellOf(record, c.credit));
    }
    if (columns.direction !== undefined) this.direction.push(cellOf(record, c.direction));
    if (columns.balance !== undefined) this.balance.push(cellOf(record, c.balance));
    const description = c.description.length === 1 ? joinDescription([record[c.description[0]]]) : joinDescription(c.description.map((i) => record[i]));
    this.rows.add(0, line, this.dates.get(date) ?? (this.dates.set(date, date), date), amount, description, c.id >= 0 ? cellOf(record, c.id) || null : null);
  }

  #shared(cell: string): string {
    const known = this.#amounts.get(cell);
    if (known !== undefined) return known;
    if (this.#amounts.size < SHARED_CELLS) this.#amounts.set(cell, cell);
    return cell;
  }
}

export interface ColumnIndexes {
  date: number;
  amount: number;
  debit: number;
  credit: number;
  direction: number;
  id: number;
  balance: number;
  description: number[];
}

export const cellOf = (record: string[], i: number): string => (i >= 0 ? (record[i] ?? '').trim() : '');

/**
 * The rows, once the date format is known: the mapping's (given, or saved for
 * this header), else the one every date of the column reads in. A file whose
 * every date reads both ways is asked, never guessed (a whole-file issue).
 * The pending rows become the statement's, read in place, the bad ones left
 * out (named in out.errors).
 */
export function toRows(pending: Pending, columns: CsvColumns, mapping: CsvMapping | undefined, report: CsvReport, out: ParsedStatement): void {
  const { rows } = pending;
  let format: DateFormat | null;
  if (mapping?.dateFormat) format = compileDateFormat(mapping.dateFormat);
  else {
    const found = detectDateFormat(pending.dates.keys());
    report.dateFormats = found.ambiguous;
    format = found.format;
    if (!format) {
      const line = rows.length ? rows.line[0] : (report.headerLine ?? 1);
      out.dates = { format: null, formats: found.ambiguous, from: null };
      out.errors.push({
        line,
        field: columns.date,
        message: found.ambiguous.length
          ? `the dates fit more than one format (${found.ambiguous.join(', ')}); choose the date format`
          : 'no date format reads every value of this column; give the date format',
        file: true,
      });
      return;
    }
  }
  report.dateFormat = format.text;
  out.dates = { format: format.text, formats: report.dateFormats, from: null };
  const mark: DecimalMark = mapping?.decimal ?? decideDecimalMark(cellsOf(rows.amount, pending.debit, pending.credit), report.decimal);
  report.decimal = mark;
  // Each distinct date cell read once; each amount cell too, up to SHARED_CELLS of them (an amount column alone).
  const iso = new Map<string, string | null>();
  for (const raw of pending.dates.keys()) iso.set(raw, format.parse(raw));
  const negate = mapping?.negate === true;
  report.negated = negate;
  const amounts = columns.amount !== undefined && columns.direction === undefined ? new Map<string, string>() : null;
  const kept = new Uint8Array(rows.length);
  let bad = 0;
  for (let i = 0; i < rows.length; i++) {
    const line = rows.line[i];
    const issue = (field: string | undefined, message: string) => void out.errors.push({ line, field: field ?? 'amount', message });
    const raw = rows.date[i];
    const date = iso.get(raw)!;
    if (!date) issue(columns.date, raw ? `"${raw}" is not a date in the format ${format.text}` : 'is empty');
    const cell = rows.amount[i];
    let amount = amounts?.get(cell);
    if (amount === undefined) {
      const read = amountOf(pending, i, columns, mark, issue);
      amount = typeof read === 'string' && negate ? negateDecimal(read) : read;
      if (amounts && typeof amount === 'string' && amounts.size < SHARED_CELLS) amounts.set(cell, amount);
    }
    if (!date || typeof amount !== 'string') {
      bad++;
      continue;
    }
    rows.date[i] = date;
    rows.amount[i] = amount;
    kept[i] = 1;
  }
  if (columns.balance !== undefined) statementBalances(pending, kept, { mark, negate }, out);
  if (bad) rows.keep(kept);
  out.rows = rows;
}

/** The balance column as the section's opening and closing balances, or a warning where it disagrees with the amounts. */
function statementBalances(p: Pending, kept: Uint8Array, how: { mark: DecimalMark; negate: boolean }, out: ParsedStatement): void {
  const rows: BalanceRow[] = [];
  for (let i = 0; i < p.rows.length; i++) {
    if (!kept[i]) continue;
    const read = parseAmount(p.balance[i], how.mark);
    // A card export showing spending as positive shows what is owed as positive too.
    const balance = typeof read === 'string' ? (how.negate ? negateDecimal(read) : read) : null;
    rows.push({ line: p.rows.line[i], date: p.rows.date[i], amount: p.rows.amount[i], balance });
  }
  const stated = statedBalances(rows);
  if (!stated) return;
  if ('disagree' in stated) {
    const { line, message } = stated.disagree;
    out.warnings = [...(out.warnings ?? []), { code: 'balance_disagrees', section: 0, line, message: `Line ${line} ${message}: no statement balance is taken from the file.` }];
    return;
  }
  out.sections[0] = { ...out.sections[0], opening: stated.opening, closing: stated.closing };
}

function* cellsOf(...columns: string[][]): Generator<string> {
  for (const column of columns) yield* column;
}

/** Row i's signed amount as decimal text; undefined, with its issues recorded, when it cannot be read. */
function amountOf(p: Pending, i: number, columns: CsvColumns, mark: DecimalMark, issue: (field: string | undefined, message: string) => void): string | undefined {
  let amount: string | null | undefined;
  if (columns.amount !== undefined) {
    const cell = p.rows.amount[i];
    amount = parseAmount(cell, mark);
    if (typeof amount !== 'string') issue(columns.amount, amount === null ? 'is empty' : `"${cell}" is not an amount`);
  } else {
    const debit = parseAmount(p.debit[i], mark);
    const credit = parseAmount(p.credit[i], mark);
    if (debit === undefined) issue(columns.debit, `"${p.debit[i]}" is not an amount`);
    if (credit === undefined) issue(columns.credit, `"${p.credit[i]}" is not an amount`);
    const moneyOut = debit && debit !== '0' ? negateDecimal(debit.replace(/^-/, '')) : null;
    const moneyIn = credit && credit !== '0' ? credit.replace(/^-/, '') : null;
    if (moneyOut && moneyIn) issue(columns.debit, 'debit and credit are both filled in');
    else if (debit !== undefined && credit !== undefined) {
      amount = moneyOut ?? moneyIn ?? (debit === '0' || credit === '0' ? '0' : null);
      if (amount === null) issue(columns.debit, 'debit and credit are both empty');
    }
  }
  if (typeof amount === 'string' && columns.direction !== undefined) {
    const sign = directionOf(p.direction[i]);
    if (sign === null) {
      issue(columns.direction, `"${p.direction[i]}" says neither debit nor credit`);
      return undefined;
    }
    amount = sign < 0 ? negateDecimal(amount.replace(/^-/, '')) : amount.replace(/^-/, '');
  }
  return typeof amount === 'string' ? amount : undefined;
}

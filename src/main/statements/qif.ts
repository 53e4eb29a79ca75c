// QIF (Quicken Interchange Format): `!Type:Bank|CCard|Cash|Oth A|Oth L`
// sections of records ended by `^`; fields D (date), T/U (amount), P (payee),
// M (memo), N (number), L (category, not imported: it is Quicken's chart, not
// ours), and splits S/E/$ summed into one row when T is missing. `!Account`
// blocks name the account of the sections after them. Dates in Quicken's
// forms (plainQifDate); their order (US or day first) from the file when it
// decides, else from the account's earlier statements, else asked.
// Lines starting with # are comments (Quicken and quiffen write a few first).
// A whole-file export holds investment accounts (!Type:Invst) and securities
// beside the bank ones: those are left out, and listed as left out.
import { decideDecimalMark, parseAmount, sumDecimals, type DecimalMark } from '../../shared/amounts';
import { CANDIDATE_FORMATS, compileDateFormat, dateOrderOf, detectDateFormat, formatInOrder, fullYear, type DateFormat } from './dates';
import { joinDescription } from './describe';
import { decode } from './text';
import { emptySection, StatementError, type AccountType, type ParsedStatement, type StatementSection } from './types';
import { StatementRows } from './rows';
import type { ReadOptions, StatementReader } from './reader';

const TYPES: Record<string, AccountType> = { bank: 'checking', ccard: 'credit_card', cash: 'cash', 'oth a': 'other_asset', 'oth l': 'other_liability' };
const NOT_TRANSACTIONS = /^(cat|class|memorized|prices|security|invitem|template|option|clear)/i;

interface Record_ {
  line: number;
  section: number;
  fields: Map<string, string[]>;
}

/**
 * Quicken's date forms made plain: a space pads a digit (`1/ 5'24`), an
 * apostrophe stands before the year where Quicken writes one from 2000 on
 * (`2/10'2020`, `1/ 5'24`; some versions `1/5'98` too), and two-digit years
 * take the century by the POSIX rule (00-69 are 20xx, 70-99 19xx: `12/31/99`
 * and `1/5'00` in one file are 1999 and 2000). Day-and-month dates come out
 * with four-digit years (`2/10/2020`), so that one format reads them all.
 */
export function plainQifDate(raw: string): string {
  const text = raw.trim().replace(/\s*([/'.-])\s*/g, '$1');
  const m = /^(\d{1,2})([/.-])(\d{1,2})[/.'-](\d{1,4})$/.exec(text);
  if (!m) return text;
  const year = m[4].length <= 2 ? fullYear(Number(m[4])) : Number(m[4]);
  return `${m[1]}${m[2]}${m[3]}${m[2]}${year}`;
}

export interface QifOptions {
  dateFormat?: string;
  dateOrder?: ReadOptions['dateOrder'];
}

export async function readQif(bytes: Uint8Array, encoding: string, options: QifOptions): Promise<ParsedStatement> {
  const out: ParsedStatement = { format: 'qif', encoding, sections: [], rows: new StatementRows(), errors: [], ignored: [] };
  const scan = new QifScan(out);
  decode(bytes, encoding)
    .split(/\r\n|\n|\r/)
    .forEach((text, i) => scan.line(text, i + 1));
  const records = scan.finish();
  if (out.sections.length === 0) {
    const only = out.ignored.length ? ' (only investment accounts, which Ledgerdesk does not keep)' : '';
    throw new StatementError(`This QIF file holds no bank, card or cash section${only}: !Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or !Type:Oth L.`);
  }
  await toRows(records, out, options);
  out.ignored.sort((a, b) => a.line - b.line);
  return out;
}

/** One pass over the lines: headers open sections (or blocks to skip), `^` ends a record. */
class QifScan {
  private readonly records: Record_[] = [];
  private section: StatementSection | null = null;
  private pendingAccount: { name: string | null; type: AccountType | null } | null = null;
  private inAccountBlock = false;
  private skipping = false;
  /** An investment section being left out: where it starts, its account, its records. */
  private investment: { line: number; name: string | null; records: number } | null = null;
  private current: Record_ | null = null;

  constructor(private readonly out: ParsedStatement) {}

  line(text: string, line: number): void {
    if (text.length > 100_000) throw new StatementError(`Line ${line} is longer than 100,000 characters: this is not a QIF file.`);
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    if (trimmed.startsWith('!')) return this.header(trimmed, line);
    if (this.inAccountBlock) {
      if (trimmed[0] === 'N') this.pendingAccount!.name = trimmed.slice(1).trim();
      if (trimmed[0] === 'T') this.pendingAccount!.type = TYPES[trimmed.slice(1).trim().toLowerCase()] ?? null;
      return;
    }
    if (this.skipping) {
      if (this.investment && trimmed === '^') this.investment.records++;
      return;
    }
    if (!this.section) throw new StatementError(`Line ${line}: a QIF file starts with a !Type: header (such as !Type:Bank).`);
    if (trimmed === '^') {
      if (this.current) this.records.push(this.current);
      this.current = null;
      return;
    }
    this.current ??= { line, section: this.section.index, fields: new Map() };
    const key = trimmed[0];
    this.current.fields.set(key, [...(this.current.fields.get(key) ?? []), trimmed.slice(1).trim()]);
  }

  finish(): Record_[] {
    if (this.current) this.records.push(this.current);
    this.leaveOut();
    return this.records;
  }

  private header(trimmed: string, line: number): void {
    const header = trimmed.slice(1).trim();
    this.leaveOut();
    if (/^account$/i.test(header)) {
      this.inAccountBlock = true;
      this.pendingAccount = { name: null, type: null };
      return;
    }
    const type = /^type:\s*(.+)$/i.exec(header)?.[1].trim().toLowerCase();
    if (type && TYPES[type]) {
      this.section = { ...emptySection(this.out.sections.length), name: this.pendingAccount?.name ?? null, type: this.pendingAccount?.type ?? TYPES[type] };
      this.out.sections.push(this.section);
      this.pendingAccount = null;
      this.skipping = false;
    } else if (type === 'invst') {
      this.investment = { line, name: this.pendingAccount?.name ?? null, records: 0 };
      this.pendingAccount = null;
      this.skipping = true;
    } else if (!type && !NOT_TRANSACTIONS.test(header)) {
      throw new StatementError(`Line ${line}: "${trimmed}" is not a QIF header this reader knows.`);
    } else {
      this.skipping = true; // categories, classes, memorized payees: not transactions
    }
    this.inAccountBlock = false;
  }

  private leaveOut(): void {
    if (!this.investment) return;
    const named = this.investment.name ? ` "${this.investment.name}"` : '';
    this.out.ignored.push({
      line: this.investment.line,
      reason: `investment account${named} (!Type:Invst, ${this.investment.records} transaction(s)): left out, as Ledgerdesk keeps bank, card and cash accounts`,
    });
    this.investment = null;
  }
}

/**
 * The format a file's (plain) dates are read with. A format given counts for
 * its order (the file's separators may differ: `DD.MM.YYYY` reads `10/02'2020`
 * day first); a file whose dates read both ways takes the order of its
 * account's earlier statements, else it is asked (a whole-file issue).
 */
async function dateFormatOf(dates: string[], records: Record_[], out: ParsedStatement, options: QifOptions): Promise<DateFormat | null> {
  const given = options.dateFormat;
  const order = dateOrderOf(given);
  if (given && !order) return compileDateFormat(given);
  const found = detectDateFormat(dates, order ? CANDIDATE_FORMATS.filter((f) => (dateOrderOf(f) ?? order) === order) : undefined);
  const hint = found.ambiguous.length ? await options.dateOrder?.({ names: out.sections.map((s) => s.name) }) : undefined;
  const settled = hint ? formatInOrder(found.ambiguous, hint.order) : null;
  const format = found.format ?? (settled ? compileDateFormat(settled) : null) ?? (given ? compileDateFormat(given) : null);
  out.dates = { format: format?.text ?? null, formats: found.ambiguous, from: settled && hint ? hint.from : null };
  if (!format && found.ambiguous.length) {
    out.errors.push({
      line: records[0].line,
      field: 'D',
      message: `the dates fit more than one format (${found.ambiguous.join(', ')}); choose the date format`,
      file: true,
    });
  }
  return format;
}

async function toRows(records: Record_[], out: ParsedStatement, options: QifOptions): Promise<void> {
  const first = (r: Record_, k: string) => r.fields.get(k)?.[0] ?? null;
  const dates = records.map((r) => plainQifDate(first(r, 'D') ?? ''));
  const format = await dateFormatOf(dates.filter(Boolean), records, out, options);
  if (!format && out.dates?.formats.length) return;
  const amounts = records.flatMap((r) => [...(r.fields.get('T') ?? []), ...(r.fields.get('U') ?? []), ...(r.fields.get('$') ?? [])]);
  const mark: DecimalMark = decideDecimalMark(amounts, '.');
  records.forEach((r, i) => {
    const date = format?.parse(dates[i]) ?? null;
    if (!date)
      out.errors.push({ line: r.line, field: 'D', message: first(r, 'D') ? `"${first(r, 'D')}" is not a date${format ? ` in the format ${format.text}` : ''}` : 'is missing' });
    const amount = amountOf(r, mark);
    if (typeof amount !== 'string') out.errors.push({ line: r.line, field: 'T', message: amount === null ? 'is missing' : `"${first(r, 'T') ?? first(r, 'U')}" is not an amount` });
    if (!date || typeof amount !== 'string') return;
    if (openingBalance(r, out, date, amount)) return;
    const number = first(r, 'N');
    const description = joinDescription([first(r, 'P'), first(r, 'M')]) || (number ? `Number ${number}` : '');
    out.rows.push({ section: r.section, line: r.line, date, amount, description, externalId: null });
  });
}

/**
 * Quicken writes an account's opening balance as its first transaction, payee
 * "Opening Balance", category the account itself (`L[Checking]`): it is where
 * the account starts (an account made from the file opens with it), not a
 * movement, so it is listed as left out rather than imported.
 */
function openingBalance(r: Record_, out: ParsedStatement, date: string, amount: string): boolean {
  const payee = r.fields.get('P')?.[0]?.trim().toLowerCase();
  const category = r.fields.get('L')?.[0]?.trim() ?? '';
  if (payee !== 'opening balance' || !/^\[.*\]$/.test(category)) return false;
  const section = out.sections[r.section];
  section.opening ??= { date, amount };
  out.ignored.push({ line: r.line, reason: `Quicken's opening balance (${amount} on ${date}): where the account starts, not a transaction` });
  return true;
}

/** T (or U); without either, the split amounts ($) summed. */
function amountOf(r: Record_, mark: DecimalMark): string | null | undefined {
  const total = r.fields.get('T')?.[0] ?? r.fields.get('U')?.[0];
  if (total !== undefined) return parseAmount(total, mark) ?? undefined;
  const splits = (r.fields.get('$') ?? []).map((s) => parseAmount(s, mark));
  if (splits.length === 0) return null;
  return splits.every((s): s is string => typeof s === 'string') ? sumDecimals(splits) : undefined;
}

export const qifReader: StatementReader = {
  formats: ['qif'],
  label: 'QIF',
  // After any comment lines (# ...) that Quicken and quiffen write first.
  sniff: (text) => (/^(?:#[^\n]*\n\s*)*!(Type|Account|Option|Clear)/i.test(text) ? 'qif' : null),
  read: async (ctx) =>
    readQif(await ctx.whole(), ctx.encoding, {
      dateFormat: ctx.options.dateFormat ?? (typeof ctx.options.mapping === 'object' ? ctx.options.mapping.dateFormat : undefined),
      dateOrder: ctx.options.dateOrder,
    }),
};

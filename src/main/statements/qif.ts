// QIF (Quicken Interchange Format): `!Type:Bank|CCard|Cash|Oth A|Oth L`
// sections of records ended by `^`; fields D (date), T/U (amount), P (payee),
// M (memo), N (number), L (category, not imported: it is Quicken's chart, not
// ours), and splits S/E/$ summed into one row when T is missing. `!Account`
// blocks name the account of the sections after them. Dates in Quicken's
// forms: 1/ 5'24 (an apostrophe marks a year 2000+), 01/05/2024, 1/5/24.
// Lines starting with # are comments (Quicken and quiffen write a few first).
// A whole-file export holds investment accounts (!Type:Invst) and securities
// beside the bank ones: those are left out, and listed as left out.
import { decideDecimalMark, parseAmount, sumDecimals, type DecimalMark } from '../../shared/amounts';
import { compileDateFormat, detectDateFormat, type DateFormat } from './dates';
import { joinDescription } from './describe';
import { decode } from './text';
import { emptySection, StatementError, type AccountType, type ParsedStatement, type StatementSection } from './types';
import { StatementRows } from './rows';
import type { StatementReader } from './reader';

const TYPES: Record<string, AccountType> = { bank: 'checking', ccard: 'credit_card', cash: 'cash', 'oth a': 'other_asset', 'oth l': 'other_liability' };
const NOT_TRANSACTIONS = /^(cat|class|memorized|prices|security|invitem|template|option|clear)/i;

interface Record_ {
  line: number;
  section: number;
  fields: Map<string, string[]>;
}

/** Quicken's date forms made plain: spaces out, "'24" -> "/2024". */
export function plainQifDate(raw: string): string {
  return raw
    .trim()
    .replace(/\s+/g, '')
    .replace(/'\s*(\d{1,2})$/, (_, yy: string) => `/${2000 + Number(yy)}`);
}

export function readQif(bytes: Uint8Array, encoding: string, options: { dateFormat?: string }): ParsedStatement {
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
  toRows(records, out, options);
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

function toRows(records: Record_[], out: ParsedStatement, options: { dateFormat?: string }): void {
  const first = (r: Record_, k: string) => r.fields.get(k)?.[0] ?? null;
  const dates = records.map((r) => plainQifDate(first(r, 'D') ?? ''));
  let format: DateFormat | null;
  if (options.dateFormat) format = compileDateFormat(options.dateFormat);
  else {
    const found = detectDateFormat(dates.filter(Boolean));
    if (found.ambiguous.length) {
      out.errors.push({ line: records[0].line, field: 'D', message: `the dates fit more than one format (${found.ambiguous.join(', ')}); choose the date format` });
      return;
    }
    format = found.format;
  }
  const amounts = records.flatMap((r) => [...(r.fields.get('T') ?? []), ...(r.fields.get('U') ?? []), ...(r.fields.get('$') ?? [])]);
  const mark: DecimalMark = decideDecimalMark(amounts, '.');
  records.forEach((r, i) => {
    const date = format?.parse(dates[i]) ?? null;
    if (!date)
      out.errors.push({ line: r.line, field: 'D', message: first(r, 'D') ? `"${first(r, 'D')}" is not a date${format ? ` in the format ${format.text}` : ''}` : 'is missing' });
    const amount = amountOf(r, mark);
    if (typeof amount !== 'string') out.errors.push({ line: r.line, field: 'T', message: amount === null ? 'is missing' : `"${first(r, 'T') ?? first(r, 'U')}" is not an amount` });
    if (!date || typeof amount !== 'string') return;
    const number = first(r, 'N');
    const description = joinDescription([first(r, 'P'), first(r, 'M')]) || (number ? `Number ${number}` : '');
    out.rows.push({ section: r.section, line: r.line, date, amount, description, externalId: null });
  });
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
    readQif(await ctx.whole(), ctx.encoding, { dateFormat: ctx.options.dateFormat ?? (typeof ctx.options.mapping === 'object' ? ctx.options.mapping.dateFormat : undefined) }),
};

// Many invoices or bills at once (issue 29): a file of them (a month's
// invoicing run, or the open invoices of the system the books come from).
// The file is CSV with a header, one row per line of a document:
//   customer (bills: vendor), reference (bills: number), date, due, terms,
//   currency (empty: the organization's; issue 30),
//   description, quantity, unit price, category, tax code, notes
// Rows with the same customer and reference are one document (any order);
// with no reference column every row is its own. Invoices are numbered by the
// organization as always (the file's reference only groups); a bill keeps the
// vendor's number. A tax code cell left empty takes the default (the
// contact's, else the category's); "none" means no tax. Dates are
// YYYY-MM-DD; amounts are written with the organization's decimal mark.
// All the documents are written in one transaction, or none: a bad cell is
// named by its row and column. From BULK_DOCUMENTS on, the entries' totals are
// kept once for the batch (totals/bulk.ts) rather than by a trigger per posting.
import { parse } from 'csv-parse/sync';
import type { Human } from '../access/audit';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError, type FieldIssue } from '../core/errors';
import { postInBulk } from '../totals/bulk';
import type { Track } from '../totals/declared';
import type { DocumentRow } from './documents';
import type { DocumentInput, DocumentLineInput } from './draft';
import { createRow, type CreateOptions } from './entry';
import { numberRun } from './draft';
import { withCache } from '../core/cache';
import { lookups } from './lookups';
import { isCalendarDate } from '../../../shared/dates';
import { today } from '../core/clock';

/** From this many documents on (each books some six postings), a batch keeps the totals itself. */
export const BULK_DOCUMENTS = 400;
/** SQLite's page cache for such a batch: its indexes outgrow the 2 MB default (64 MB: 12% faster at 100,000 invoices). */
const BULK_CACHE_KIB = 64 * 1024;

/** Where a document came from in a file: its first row, and each line's row (for errors). */
export interface Sourced {
  input: DocumentInput;
  rows?: { first: number; lines: number[]; columns: Record<string, string> };
}

/** A document's error told of its rows: `lines[1].categoryCode` becomes `rows[14].category`. */
function relabel(error: unknown, at: number, source: Sourced['rows']): unknown {
  if (!(error instanceof LedgerError)) return error;
  const where = source ? `row ${source.first}` : `document ${at + 1}`;
  const issues = Array.isArray(error.details) ? (error.details as FieldIssue[]).filter((d) => typeof d?.field === 'string') : null;
  if (!issues?.length) return new LedgerError(error.code, `${where}: ${error.message}`, error.details);
  const field = (f: string) => {
    const line = /^lines\[(\d+)\]\.(\w+)$/.exec(f);
    if (!source) return `documents[${at}].${f}`;
    return line ? `rows[${source.lines[Number(line[1])]}].${source.columns[line[2]] ?? line[2]}` : `rows[${source.first}].${source.columns[f] ?? f}`;
  };
  const relabelled = issues.map((d) => ({ field: field(d.field), message: d.message }));
  return invalid(relabelled);
}

/**
 * Creates (and, with options.issue, issues) every document, in one write: all of them or none, written and
 * numbered in the order of their dates (ties: the file's), as laws on invoice numbers expect numbers to follow
 * dates; this order also puts a large batch into the date indexes at a few places rather than all over them.
 * The rows come back in that order.
 */
export async function createDocuments(ledger: Ledger, orgSeq: number, actor: Human, documents: readonly Sourced[], options: CreateOptions): Promise<DocumentRow[]> {
  const bulk = options.issue && documents.length >= BULK_DOCUMENTS;
  const dates = documents.map((d) => d.input.date ?? today());
  const order = documents.map((_, i) => i).sort((a, b) => (dates[a] < dates[b] ? -1 : dates[a] > dates[b] ? 1 : a - b));
  return withCache(ledger, bulk ? BULK_CACHE_KIB : 0, () =>
    ledger.write(async () => {
      const look = await lookups(ledger, orgSeq);
      const numbers = options.kind === 'invoice' ? await numberRun(ledger, orgSeq, 'invoice') : undefined;
      const each = async (track?: Track) => {
        const rows: DocumentRow[] = [];
        for (const i of order) {
          try {
            rows.push(await createRow(look, actor, documents[i].input, options, { track, number: numbers?.take }));
          } catch (error) {
            throw relabel(error, i, documents[i].rows);
          }
        }
        return rows;
      };
      const rows = bulk ? await postInBulk(ledger, each) : await each();
      await numbers?.done();
      return rows;
    }),
  );
}

const COLUMNS = ['contact', 'reference', 'date', 'due', 'terms', 'currency', 'description', 'quantity', 'unit price', 'category', 'tax code', 'notes'] as const;
type Column = (typeof COLUMNS)[number];
/** The input's field each column feeds (for error names). */
const FIELD_OF: Record<string, Column> = {
  contact: 'contact',
  number: 'reference',
  date: 'date',
  dueDate: 'due',
  termsDays: 'terms',
  currency: 'currency',
  description: 'description',
  quantity: 'quantity',
  unitPrice: 'unit price',
  categoryCode: 'category',
  taxCode: 'tax code',
  notes: 'notes',
};

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/** The documents of a CSV file (see the top of this file), checked for shape; the ledger checks the rest. */
export function documentsFromCsv(text: string, kind: CreateOptions['kind']): Sourced[] {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][];
  } catch (e) {
    // The parser's words quote the file; the line alone says where (issue 51: an error names the place, not the content).
    const line = (e as { lines?: number }).lines;
    throw invalid([{ field: 'file', message: `is not CSV${line ? ` (line ${line})` : ''}` }]);
  }
  const [header = [], ...rows] = records;
  const at = new Map<Column, number>();
  header.forEach((h, i) => {
    const name = norm(h) === party ? 'contact' : kind === 'bill' && norm(h) === 'number' ? 'reference' : norm(h);
    if ((COLUMNS as readonly string[]).includes(name)) at.set(name as Column, i);
  });
  const missing = [party, 'description', 'unit price', 'category'].filter((c) => !at.has(c === party ? 'contact' : (c as Column)));
  if (kind === 'bill' && !at.has('reference')) missing.push('number');
  // The columns it lacks, by the names this reader knows, never the file's own header (issue 51): an error names what is wrong, not what the file holds.
  if (missing.length) throw invalid([{ field: 'file', message: `lacks the column(s) ${missing.join(', ')} in its first line` }]);
  if (rows.length === 0) throw invalid([{ field: 'file', message: 'has no rows under its header' }]);
  const columns = Object.fromEntries(Object.entries(FIELD_OF).map(([f, c]) => [f, c === 'contact' ? party : kind === 'bill' && c === 'reference' ? 'number' : c]));
  const byKey = new Map<string, Sourced>();
  rows.forEach((cells, i) => {
    const row = i + 2;
    const cell = (c: Column) => (at.has(c) ? (cells[at.get(c)!] ?? '') : '');
    const key = at.has('reference') ? `${cell('contact').toLowerCase()}\u0000${cell('reference')}` : `#${row}`;
    const taxCode = cell('tax code');
    // Built whole, with undefined for what a row leaves out (spreading optional parts is slow at 300,000 rows).
    const line: DocumentLineInput = {
      description: cell('description'),
      quantity: cell('quantity') || '1',
      unitPrice: cell('unit price'),
      categoryCode: cell('category'),
      taxCode: taxCode ? (taxCode.toLowerCase() === 'none' ? null : taxCode) : undefined,
    };
    const known = byKey.get(key);
    if (known) {
      known.input.lines.push(line);
      known.rows!.lines.push(row);
      return;
    }
    const terms = cell('terms');
    if (terms && !/^\d{1,3}$/.test(terms)) throw invalid([{ field: `rows[${row}].terms`, message: `"${terms}" is not a number of days` }]);
    for (const c of ['date', 'due'] as const)
      if (cell(c) && !isCalendarDate(cell(c))) throw invalid([{ field: `rows[${row}].${c}`, message: `"${cell(c)}" is not a date YYYY-MM-DD` }]);
    const input: DocumentInput = {
      contact: cell('contact'),
      number: kind === 'bill' ? cell('reference') : undefined,
      date: cell('date') || undefined,
      dueDate: cell('due') || undefined,
      termsDays: terms ? Number(terms) : undefined,
      currency: cell('currency') || undefined,
      notes: cell('notes') || undefined,
      lines: [line],
    };
    byKey.set(key, { input, rows: { first: row, lines: [row], columns } });
  });
  return [...byKey.values()];
}

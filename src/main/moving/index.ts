// Chart and contacts exports of other bookkeeping programs, read into our
// terms (types.ts). One line per source program in SOURCES; the source is told
// from the file's header, or named (`--from xero|quickbooks`) and then checked.
import { decodeText, tableOf } from './table';
import { quickbooks } from './quickbooks';
import { xero } from './xero';
import { MOVING_SOURCES, type MovingSource, type MovingSourceId, type SourceAccount, type SourceContact, type SourceFile } from './types';

export * from './types';

const SOURCES: MovingSource[] = [xero, quickbooks];

/** A file that is not what was asked for: said in words, naming the input field. */
export class MovingFileError extends Error {
  constructor(
    message: string,
    readonly field = 'file',
  ) {
    super(message);
  }
}

/** The largest export read: far above a chart's or a firm's contacts (a few thousand rows). */
const MAX_BYTES = 20 * 1024 * 1024;

function read<T>(bytes: Uint8Array, what: 'chart' | 'contacts', from: MovingSourceId | 'auto', fileName: string): SourceFile<T> {
  if (bytes.length > MAX_BYTES) throw new MovingFileError(`${fileName} is over ${MAX_BYTES / 1024 / 1024} MB: not a ${what} export.`);
  if (bytes.includes(0)) throw new MovingFileError(`${fileName} is not a CSV file (export the ${what} as CSV).`);
  const text = decodeText(bytes);
  const tries = from === 'auto' ? SOURCES : SOURCES.filter((s) => s.id === from);
  for (const source of tries) {
    const table = tableOf(text, what === 'chart' ? source.isChart : source.isContacts);
    if (table) return (what === 'chart' ? source.readChart(table) : source.readContacts(table)) as SourceFile<T>;
  }
  const expected =
    what === 'chart' ? "Xero's chart of accounts export or QuickBooks Online's Account List" : "Xero's contacts export or QuickBooks Online's customer or vendor list";
  const named = from === 'auto' ? '' : ` from ${SOURCES.find((s) => s.id === from)!.label}`;
  throw new MovingFileError(`${fileName} is not a ${what} export${named}: its header is none of ${expected}.`);
}

export const readChartFile = (bytes: Uint8Array, from: MovingSourceId | 'auto', fileName: string): SourceFile<SourceAccount> => read(bytes, 'chart', from, fileName);
export const readContactsFile = (bytes: Uint8Array, from: MovingSourceId | 'auto', fileName: string): SourceFile<SourceContact> => read(bytes, 'contacts', from, fileName);
export const MOVING_FROM = ['auto', ...MOVING_SOURCES] as const;

// File bytes -> a normalized statement. Pure: no database. The format is told
// from the file's first bytes (never from its name alone), and a format the
// user names must agree with what the file is.
// The CSV and CAMT readers (and their parsers) load when such a file is read.
import { compileDateFormat } from './dates';
import type { ReadOptions } from './reader';
import { READERS } from './readers';
import { checkEncoding, checkText, detectEncoding } from './text';
import { StatementError, type ParsedStatement, type StatementFormat, type StatementSource } from './types';

export * from './types';
export { StatementRows } from './rows';
export type { CsvColumns, CsvMapping, CsvReport } from './csv-mapping';
export { parseColumnsFlag } from './csv-mapping';
export { compileDateFormat } from './dates';
export type { ReadOptions } from './reader';

/** Files read whole (the tree formats) may be this large; CSV is streamed at any size. */
export const MAX_WHOLE_FILE_BYTES = 256 * 1024 * 1024;
const HEAD_BYTES = 256 * 1024;

async function readHead(source: StatementSource): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source.open()) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= HEAD_BYTES) break;
  }
  return Buffer.concat(parts);
}

async function readWhole(source: StatementSource): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source.open()) {
    size += chunk.length;
    if (size > MAX_WHOLE_FILE_BYTES) throw new StatementError(`This file is over ${MAX_WHOLE_FILE_BYTES / 1024 / 1024} MB; split it into several statements.`);
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** The first bytes as Latin-1 text, without a byte order mark or leading blanks: what readers sniff. */
const sniffText = (head: Uint8Array): string => new TextDecoder('latin1').decode(head.subarray(0, 64 * 1024)).replace(/^[\ufeff\u00ef\u00bb\u00bf\s]+/, '');

/** Which format a file is, from its first bytes (never its name alone), by the first reader that recognises it. */
export function sniffFormat(head: Uint8Array, name = ''): { reader: (typeof READERS)[number]; format: StatementFormat } {
  const text = sniffText(head);
  for (const reader of READERS) {
    const format = reader.sniff(text, name);
    if (format) return { reader, format };
  }
  throw new StatementError('This file is not a bank statement Ledgerdesk reads.');
}

export async function readStatement(source: StatementSource, options: ReadOptions = {}): Promise<ParsedStatement> {
  const head = await readHead(source);
  checkText(head);
  const { reader, format } = sniffFormat(head, source.name);
  const wanted = options.format && options.format !== 'auto' ? options.format : format;
  if (!reader.formats.includes(wanted)) {
    const named = READERS.find((r) => r.formats.includes(wanted))!;
    throw new StatementError(`This file is ${reader.label}, not ${named.label}: import it with format ${format} (or auto).`, 'format');
  }
  const dateFormat = options.dateFormat ?? (typeof options.mapping === 'object' ? options.mapping.dateFormat : undefined);
  if (dateFormat) {
    try {
      compileDateFormat(dateFormat);
    } catch (error) {
      throw new StatementError((error as Error).message, 'dateFormat');
    }
  }
  const given = options.encoding ? checkEncoding(options.encoding) : null;
  const encoding = given ?? reader.encodingOf?.(new TextDecoder('latin1').decode(head.subarray(0, 4096))) ?? detectEncoding(head);
  return reader.read({ source, head, format: wanted, encoding, encodingGiven: given !== null, options, whole: () => readWhole(source) });
}
export { bytesSource, fileSource } from './source';

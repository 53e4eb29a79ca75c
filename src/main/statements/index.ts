// File bytes -> a normalized statement. Pure: no database. The format is told
// from the file's first bytes (never from its name alone), and a format the
// user names must agree with what the file is.
// The CSV and CAMT readers (and their parsers) load when such a file is read.
import type { CsvMapping } from './csv-mapping';
import { compileDateFormat } from './dates';
import { readMt940 } from './mt940';
import { ofxEncoding, readOfx } from './ofx';
import { readQif } from './qif';
import { LABEL, sniffFormat } from './sniff';
import { checkEncoding, checkText, detectEncoding } from './text';
import { StatementError, type ParsedStatement, type StatementFormat, type StatementSource } from './types';

export * from './types';
export { StatementRows } from './rows';
export type { CsvColumns, CsvMapping, CsvReport } from './csv-mapping';
export { parseColumnsFlag } from './csv-mapping';
export { compileDateFormat } from './dates';
export { sniffFormat } from './sniff';

/** Files read whole (the tree formats) may be this large; CSV is streamed at any size. */
export const MAX_WHOLE_FILE_BYTES = 256 * 1024 * 1024;
const HEAD_BYTES = 256 * 1024;

export interface ReadOptions {
  format?: StatementFormat | 'auto';
  encoding?: string;
  /** CSV columns and number format, or a choice of them by the file's header; QIF and CSV date format. */
  mapping?: CsvMapping | ((headers: string[]) => CsvMapping | undefined);
  dateFormat?: string;
  onProgress?: (rowsRead: number) => void;
}

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

export async function readStatement(source: StatementSource, options: ReadOptions = {}): Promise<ParsedStatement> {
  const head = await readHead(source);
  checkText(head);
  const sniffed = sniffFormat(head, source.name);
  const wanted = options.format && options.format !== 'auto' ? options.format : sniffed;
  const sameFamily = wanted === sniffed || (['ofx', 'qfx'].includes(wanted) && ['ofx', 'qfx'].includes(sniffed));
  if (!sameFamily) throw new StatementError(`This file is ${LABEL[sniffed]}, not ${LABEL[wanted]}: import it with format ${sniffed} (or auto).`, 'format');
  const dateFormat = options.dateFormat ?? (typeof options.mapping === 'object' ? options.mapping.dateFormat : undefined);
  if (dateFormat) {
    try {
      compileDateFormat(dateFormat);
    } catch (error) {
      throw new StatementError((error as Error).message, 'dateFormat');
    }
  }
  const given = options.encoding ? checkEncoding(options.encoding) : null;
  const headText = new TextDecoder('latin1').decode(head.subarray(0, 4096));
  const encoding = given ?? (sniffed === 'ofx' || sniffed === 'qfx' ? ofxEncoding(headText) : null) ?? detectEncoding(head);
  switch (sniffed) {
    case 'ofx':
    case 'qfx':
      return readOfx(await readWhole(source), encoding, wanted as 'ofx' | 'qfx');
    case 'qif':
      return readQif(await readWhole(source), encoding, { dateFormat });
    case 'camt053':
      return (await import('./camt053')).readCamt053(await readWhole(source), encoding);
    case 'mt940':
      return readMt940(await readWhole(source), encoding);
    case 'csv': {
      const { InvalidUtf8, readCsv } = await import('./csv');
      const given = options.mapping;
      const mapping = (headers: string[]): CsvMapping => {
        const chosen = typeof given === 'function' ? given(headers) : given;
        return { ...chosen, dateFormat: options.dateFormat ?? chosen?.dateFormat };
      };
      const csv = (enc: string) => readCsv({ encoding: enc, head, chunks: () => source.open(), mapping, onProgress: options.onProgress });
      try {
        return await csv(encoding);
      } catch (error) {
        // Taken for UTF-8 from its first bytes, the file is not: read it again as Windows-1252.
        if (error instanceof InvalidUtf8 && !given) return csv('windows-1252');
        if (error instanceof InvalidUtf8) throw new StatementError(`The file is not valid ${encoding} throughout; give its encoding (for example windows-1252).`, 'encoding');
        throw error;
      }
    }
  }
}
export { bytesSource, fileSource } from './source';

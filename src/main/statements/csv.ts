// The CSV reader's entry: any text file the other readers do not recognise is
// read as CSV. The parser (csv-read.ts, with csv-parse) loads when a CSV is read.
import type { CsvMapping } from './csv-mapping';
import type { StatementReader } from './reader';
import { StatementError } from './types';

export const csvReader: StatementReader = {
  formats: ['csv'],
  label: 'CSV',
  sniff: () => 'csv',
  async read(ctx) {
    const { InvalidUtf8, readCsv } = await import('./csv-read');
    const given = ctx.options.mapping;
    const mapping = async (headers: string[]): Promise<CsvMapping> => {
      const chosen = typeof given === 'function' ? await given(headers) : given;
      return { ...chosen, dateFormat: ctx.options.dateFormat ?? chosen?.dateFormat };
    };
    const csv = (encoding: string) => readCsv({ encoding, head: ctx.head, chunks: () => ctx.source.open(), mapping, onProgress: ctx.options.onProgress });
    try {
      return await csv(ctx.encoding);
    } catch (error) {
      if (!(error instanceof InvalidUtf8)) throw error;
      // Taken for UTF-8 from its first bytes, the file is not: read it again as Windows-1252.
      if (!ctx.encodingGiven) return await csv('windows-1252');
      throw new StatementError(`The file is not valid ${ctx.encoding} throughout; give its encoding (for example windows-1252).`, 'encoding');
    }
  },
};

// Issue 42 on files alone (no database): every date form Quicken writes, the
// order of a QIF's dates (the file's, else its account's, else asked), a
// Starling-style CSV's description, and the rows read back as the bank wrote
// them for the CSV of skipped rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, fileSource, readStatement, type ReadOptions } from '../src/main/statements';
import { dateOrderOf, formatInOrder } from '../src/main/statements/dates';
import { descriptionOrder, suggestColumns } from '../src/main/statements/csv-mapping';
import { plainQifDate } from '../src/main/statements/qif';
import { recordTexts } from '../src/main/statements/records';
import { skippedFileName, skippedRowsCsv } from '../src/main/statements/skipped-csv';

const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
const read = async (name: string, options: ReadOptions = {}) => {
  const s = await readStatement(fileSource(fixture(name)), options);
  return { ...s, rows: s.rows.toArray() };
};

describe('QIF dates', () => {
  it('reads the forms Quicken writes: an apostrophe before a year from 2000, padded digits, two-digit years either side of 2000', () => {
    expect(plainQifDate("2/10'2020")).toBe('2/10/2020');
    expect(plainQifDate("1/ 5'24")).toBe('1/5/2024');
    expect(plainQifDate("1/5' 4")).toBe('1/5/2004');
    expect(plainQifDate("1/5'98")).toBe('1/5/1998');
    expect(plainQifDate('12/31/99')).toBe('12/31/1999');
    expect(plainQifDate("10.02'2020")).toBe('10.02.2020');
    expect(plainQifDate('2020-02-10')).toBe('2020-02-10');
    expect(plainQifDate('10 Feb 2020')).toBe('10 Feb 2020');
  });

  it("imports a register shaped like quiffen's test files: its dates, splits summed, the opening balance the account's start", async () => {
    const s = await read('quicken-2020.qif');
    expect(s.errors).toEqual([]);
    expect(s.dates).toEqual({ format: 'M/D/YYYY', formats: [], from: null });
    expect(s.rows.map((r) => [r.date, r.amount, r.description])).toEqual([
      ['2020-02-14', '1250', 'Hartley Studio Ltd - Invoice 2020-07'],
      ['2020-02-12', '-48.6', 'Staples'],
      ['2020-02-11', '-6', 'City Parking'], // its memo "parking" says nothing the payee does not
      ['2020-02-03', '-100', 'Amazon.com'],
    ]);
    expect(s.sections[0].opening).toEqual({ date: '2020-02-10', amount: '0' });
    expect(s.ignored.map((i) => i.reason)).toEqual([
      "Quicken's opening balance (0 on 2020-02-10): where the account starts, not a transaction",
      'investment account (!Type:Invst, 1 transaction(s)): left out, as Ledgerdesk keeps bank, card and cash accounts',
    ]);
  });

  it('reads 1998, 1999 and 2000s dates of one file with one format', async () => {
    const s = await read('quicken-y2k.qif');
    expect(s.errors).toEqual([]);
    expect(s.rows.map((r) => r.date)).toEqual(['1999-12-30', '1999-12-31', '2000-01-03', '1998-01-05', '2001-02-01']);
  });

  it("asks when every date reads both ways, takes the account's order when it has one, and a given format for its order", async () => {
    const asked = await read('quicken-uk.qif');
    expect(asked.rows).toEqual([]);
    expect(asked.errors).toEqual([{ line: 6, field: 'D', message: 'the dates fit more than one format (D/M/YYYY, M/D/YYYY); choose the date format', file: true }]);
    expect(asked.dates).toEqual({ format: null, formats: ['D/M/YYYY', 'M/D/YYYY'], from: null });
    const names: (string | null)[][] = [];
    const settled = await read('quicken-uk.qif', { dateOrder: (file) => (names.push(file.names ?? []), { order: 'DMY', from: 'High Street Current' }) });
    expect(names).toEqual([['High Street Current']]);
    expect(settled.dates).toEqual({ format: 'D/M/YYYY', formats: ['D/M/YYYY', 'M/D/YYYY'], from: 'High Street Current' });
    expect(settled.rows.map((r) => r.date)).toEqual(['2021-02-03', '2021-01-05', '2021-02-10']);
    // A given format counts for its order, whatever separators it writes.
    expect((await read('quicken-uk.qif', { dateFormat: 'MM.DD.YYYY' })).rows.map((r) => r.date)).toEqual(['2021-03-02', '2021-05-01', '2021-10-02']);
    // A file that decides for itself is never overridden by the account's order.
    expect((await read('quicken-2020.qif', { dateOrder: () => ({ order: 'DMY', from: 'X' }) })).rows[0].date).toBe('2020-02-14');
  });

  it('tells the order of a format', () => {
    expect(['DD/MM/YYYY', 'M/D/YY', 'YYYY-MM-DD', 'D MMM YYYY', 'DD.MM.YY'].map(dateOrderOf)).toEqual(['DMY', 'MDY', null, null, 'DMY']);
    expect(formatInOrder(['D/M/YYYY', 'M/D/YYYY'], 'MDY')).toBe('M/D/YYYY');
  });

  it("leaves a CSV's open dates to its saved mapping (kept per header), not to another file's order", async () => {
    const s = await read('ambiguous.csv', { dateOrder: () => ({ order: 'MDY', from: 'Operating' }) });
    expect(s.errors).toMatchObject([{ field: 'Date', file: true }]);
    expect(s.dates).toEqual({ format: null, formats: ['D/M/YYYY', 'M/D/YYYY'], from: null });
  });
});

describe('a Starling-style CSV', () => {
  it('describes each row by its counterparty, then its reference', async () => {
    const s = await read('starling.csv');
    expect(s.csv!.columns).toMatchObject({ date: 'Date', amount: 'Amount (GBP)', description: ['Counter Party', 'Reference'] });
    expect(s.rows.map((r) => r.description)).toEqual([
      'WEWORK - LONDON EC2',
      'PRET A MANGER - LONDON EC2',
      'HARTLEY STUDIO LTD - INV-0041',
      'PRET A MANGER - LONDON W1',
      'HMRC VAT - 123456789',
    ]);
  });

  it('puts a payee or counterparty column first whatever order the columns were ticked in', () => {
    const headers = ['Date', 'Counter Party', 'Reference', 'Type', 'Amount (GBP)', 'Notes'];
    expect(descriptionOrder(headers, ['Reference', 'Counter Party'])).toEqual(['Counter Party', 'Reference']);
    expect(descriptionOrder(headers, ['Notes', 'Type', 'Reference'])).toEqual(['Reference', 'Type', 'Notes']);
    expect(suggestColumns(['Date', 'Payee Name', 'Description', 'Amount'])?.description).toEqual(['Payee Name', 'Description']);
  });
});

describe('rows read back as the bank wrote them', () => {
  it('finds each record by its first line: a CSV line (quoted line breaks too), a QIF record, an OFX transaction', () => {
    const csv = 'Date,Description,Amount\r\n2026-03-02,"Two\r\nlines",-1.00\r\n2026-03-03,Plain,x\r\n2026-03-04,He said "hi,y\r\n2026-03-05,"A ""quote""",z\r\n';
    expect(recordTexts(bytesSource(Buffer.from(`\ufeff${csv}`), 'x.csv'), 'utf-8', 'csv', [1, 2, 4, 5, 6, 9])).toEqual(
      new Map([
        [1, 'Date,Description,Amount'],
        [2, '2026-03-02,"Two\nlines",-1.00'],
        [4, '2026-03-03,Plain,x'],
        // A stray quote inside a field is text (as csv-parse reads it), not a record running over the next lines.
        [5, '2026-03-04,He said "hi,y'],
        [6, '2026-03-05,"A ""quote""",z'],
      ]),
    );
    const qif = readFileSync(fixture('quicken-uk.qif'));
    expect(recordTexts(bytesSource(qif, 'x.qif'), 'utf-8', 'qif', [10]).get(10)).toBe("D5/1'2021\nT2,000.00\nPClient payment\n^");
    const ofx = readFileSync(fixture('ofx1-sgml.ofx'), 'latin1');
    const line = ofx.split(/\r?\n/).findIndex((l) => l.includes('<STMTTRN>')) + 1;
    const text = recordTexts(fileSource(fixture('ofx1-sgml.ofx')), 'windows-1252', 'ofx', [line]).get(line)!;
    expect(text.startsWith('<STMTTRN>') || text.trim().startsWith('<STMTTRN>')).toBe(true);
    expect(text).toMatch(/<\/STMTTRN>$|<TRNAMT>/);
  });

  it('writes skipped CSV rows under the header with a reason column (the file imports again), other formats a line each', () => {
    const rows = [{ line: 3, field: 'Amount', message: '"1.250,00" is not an amount', text: '2026-03-03,Client,"1.250,00"' }];
    expect(skippedRowsCsv({ fileName: 'march.csv', format: 'csv', header: { text: 'Date,Description,Amount', delimiter: ',' }, rows })).toBe(
      'Date,Description,Amount,reason\r\n2026-03-03,Client,"1.250,00","line 3, Amount: ""1.250,00"" is not an amount"\r\n',
    );
    expect(skippedRowsCsv({ fileName: 'x.csv', format: 'csv', header: { text: 'Datum;Betrag', delimiter: ';' }, rows: [{ ...rows[0], text: '03.03.2026;x' }] })).toBe(
      'Datum;Betrag;reason\r\n03.03.2026;x;"line 3, Amount: ""1.250,00"" is not an amount"\r\n',
    );
    expect(skippedRowsCsv({ fileName: 'q.qif', format: 'qif', header: null, rows: [{ line: 7, field: 'T', message: 'is missing', text: "D1/5'24\n^" }] })).toBe(
      'line,field,reason,record\r\n7,T,is missing,"D1/5\'24\n^"\r\n',
    );
    expect(skippedFileName('march.2026.csv')).toBe('march.2026-skipped.csv');
  });
});

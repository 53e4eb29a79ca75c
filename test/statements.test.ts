// The statement readers on files alone (no database): fixtures written from
// each format's specification and the quirks banks are known for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, fileSource, readStatement, type ParsedStatement, type ReadOptions } from '../src/main/statements';
import { decimalMarkOf, parseAmount, sumDecimals } from '../src/shared/amounts';
import { compileDateFormat, detectDateFormat } from '../src/main/statements/dates';
import { joinDescription } from '../src/main/statements/describe';
import { information } from '../src/main/statements/mt940';
import { parseColumnsFlag } from '../src/main/statements/csv-mapping';

const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
/** A statement with its rows as objects (the reader keeps them as columns). */
const asObjects = async (s: Promise<ParsedStatement>) => {
  const statement = await s;
  return { ...statement, rows: statement.rows.toArray() };
};
const read = async (name: string, options: ReadOptions = {}) => asObjects(readStatement(fileSource(fixture(name)), options));
const text = async (body: string, name = 'x.csv', options: ReadOptions = {}) => asObjects(readStatement(bytesSource(Buffer.from(body), name), options));
const brief = (rows: { date: string; amount: string; description: string; externalId: string | null }[]) => rows.map((r) => [r.date, r.amount, r.description, r.externalId]);

describe('amounts', () => {
  it('reads the ways banks write amounts, exactly', () => {
    const cases: [string, '.' | ',', string | null | undefined][] = [
      ['-1,234.56', '.', '-1234.56'],
      ['1.234,56', ',', '1234.56'],
      ['1 234,50', ',', '1234.5'],
      ['(12.50)', '.', '-12.5'],
      ['12.50-', '.', '-12.5'],
      ['12,50 CR', ',', '12.5'],
      ['12.50 DR', '.', '-12.5'],
      ['-€12.50', '.', '-12.5'],
      ['$1,000', '.', '1000'],
      ['+0.00', '.', '0'],
      ['3,25', ',', '3.25'],
      ['', '.', null],
      ['abc', '.', undefined],
      ['1.2.3', '.', undefined],
      ['12.50 USD', '.', '12.5'],
    ];
    for (const [raw, mark, expected] of cases) expect([raw, parseAmount(raw, mark)]).toEqual([raw, expected]);
    expect(sumDecimals(['-30', '-19.99', '0.1'])).toBe('-49.89');
  });

  it('tells the decimal mark from a value only when it can', () => {
    expect(decimalMarkOf('1,234.56')).toBe('.');
    expect(decimalMarkOf('1.234,56')).toBe(',');
    expect(decimalMarkOf('12,5')).toBe(',');
    expect(decimalMarkOf('1,234')).toBeNull();
    expect(decimalMarkOf('1.234.567')).toBe(',');
  });
});

describe('dates', () => {
  it('compiles formats from dayjs tokens and refuses days that do not exist', () => {
    expect(compileDateFormat('DD/MM/YYYY').parse('05/01/2024')).toBe('2024-01-05');
    expect(compileDateFormat('MM/DD/YY').parse('01/05/24')).toBe('2024-01-05');
    expect(compileDateFormat('YY.M.D').parse('99.1.5')).toBe('1999-01-05');
    expect(compileDateFormat('YYYY-MM-DD').parse('2024-02-30')).toBeNull();
    expect(compileDateFormat('YYYY-MM-DD').parse('2024-02-29 13:45:00')).toBe('2024-02-29');
    expect(compileDateFormat('D MMM YYYY').parse('5 Jan 2024')).toBe('2024-01-05');
    expect(() => compileDateFormat('DD/MM')).toThrow(/not a date format/);
  });

  it('detects the one format that reads every value, and calls two readings ambiguous', () => {
    expect(detectDateFormat(['13/01/2024', '02/01/2024']).format?.text).toBe('D/M/YYYY');
    expect(detectDateFormat(['01/13/2024', '01/02/2024']).format?.text).toBe('M/D/YYYY');
    expect(detectDateFormat(['01/02/2024', '03/04/2024']).ambiguous).toEqual(['D/M/YYYY', 'M/D/YYYY']);
    expect(detectDateFormat(['2024-01-05']).format?.text).toBe('YYYY-MM-DD');
  });
});

describe('descriptions', () => {
  it('joins payee and memo without repeating what one already says', () => {
    expect(joinDescription(['SHELL OIL 5744', 'SHELL OIL 57444 AUSTIN TX'])).toBe('SHELL OIL 57444 AUSTIN TX');
    expect(joinDescription(['ACME', '  invoice   7 '])).toBe('ACME - invoice 7');
    expect(joinDescription(['Same', 'same'])).toBe('Same');
    expect(joinDescription([null, '', undefined])).toBe('');
  });
});

describe('CSV', () => {
  it('reads a US bank export: BOM, quoted commas, parentheses, thousands, MM/DD/YYYY', async () => {
    const s = await read('us-bank.csv');
    expect(s).toMatchObject({ format: 'csv', encoding: 'utf-8', errors: [] });
    expect(s.csv).toMatchObject({
      delimiter: ',',
      headerLine: 1,
      dateFormat: 'M/D/YYYY',
      decimal: '.',
      suggested: true,
      columns: { date: 'Date', amount: 'Amount', description: ['Description'] },
    });
    expect(brief(s.rows)).toEqual([
      ['2024-01-02', '-1234.56', 'AMAZON MKTPLACE PMTS, AMZN.COM/BILL WA', null],
      ['2024-01-05', '2500', 'PAYROLL ACME CORP', null],
      ['2024-01-13', '-4.75', 'STARBUCKS #1234', null],
      ['2024-01-13', '-4.75', 'STARBUCKS #1234', null],
      ['2024-01-31', '-1', '=HYPERLINK("http://evil")', null],
    ]);
    expect(s.rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
  });

  it('reads a German export: Windows-1252, semicolons, decimal comma, DD.MM.YY, booking date over value date', async () => {
    const s = await read('de-sparkasse.csv');
    expect(s).toMatchObject({ encoding: 'windows-1252', errors: [] });
    expect(s.csv).toMatchObject({ delimiter: ';', dateFormat: 'D.M.YY', decimal: ',' });
    expect(s.csv!.columns).toMatchObject({ date: 'Buchungstag', amount: 'Betrag', description: ['Beguenstigter/Zahlungspflichtiger', 'Verwendungszweck'] });
    expect(brief(s.rows)).toEqual([
      ['2024-01-02', '-1250', 'Müller Immobilien GmbH - Miete Januar Büro', null],
      ['2024-01-15', '4500.5', 'Kunde Öztürk KG - Rechnung 2024-001', null],
      ['2024-01-31', '-9.9', 'Kontoführung', null],
    ]);
  });

  it('skips preamble lines before the header, reads paid-out/paid-in columns and lists the footer as ignored', async () => {
    const s = await read('uk-paid-in-out.csv');
    expect(s.errors).toEqual([]);
    expect(s.csv).toMatchObject({ headerLine: 4, dateFormat: 'D/M/YYYY', columns: { date: 'Date', debit: 'Paid out', credit: 'Paid in' } });
    expect(brief(s.rows)).toEqual([
      ['2024-01-03', '-120', 'BRITISH GAS', null],
      ['2024-01-14', '1500', 'CLIENT PAYMENT REF INV-7', null],
      ['2024-01-20', '-6.45', 'PRET A MANGER', null],
    ]);
    expect(s.ignored).toEqual([{ line: 9, reason: 'not a transaction (no date and no amount)' }]);
  });

  it('refuses to guess an ambiguous date format and names both readings; a given format settles it', async () => {
    const s = await read('ambiguous.csv');
    expect(s.rows).toEqual([]);
    expect(s.errors).toEqual([{ line: 2, field: 'Date', message: expect.stringContaining('D/M/YYYY, M/D/YYYY'), file: true }]);
    expect(s.csv!.dateFormats).toEqual(['D/M/YYYY', 'M/D/YYYY']);
    const given = await read('ambiguous.csv', { dateFormat: 'DD/MM/YYYY' });
    expect(brief(given.rows).map((r) => r[0])).toEqual(['2024-02-01', '2024-03-02', '2024-04-03']);
  });

  it('names the line and field of every bad row', async () => {
    const s = await read('bad-date.csv');
    expect(s.errors).toEqual([
      { line: 3, field: 'Date', message: '"2024-02-30" is not a date in the format YYYY-MM-DD' },
      { line: 5, field: 'Amount', message: '"abc" is not an amount' },
    ]);
    expect(s.rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it('refuses a row with a field too many (a decimal comma in an unquoted amount), unless the mapping says amounts hold one', async () => {
    const body = 'Date,Description,Amount\n2026-03-01,Coffee beans,-120.00\n2026-03-02,Bank fee,-15,50\n2026-03-03,Refund\n';
    const s = await text(body);
    expect(s.errors).toEqual([
      { line: 3, field: 'columns', message: 'has 4 fields where the header has 3 (an amount with a decimal comma, not in quotes?): fix the line, or quote the amount' },
      { line: 4, field: 'columns', message: 'has 2 fields where the header has 3: fix the line, or quote the amount' },
    ]);
    expect(s.rows.map((r) => r.amount)).toEqual(['-120']);
    expect(s.rowCount).toBe(3);
    const comma = await text('Date,Description,Amount\n2026-03-01,Coffee beans,-120\n2026-03-02,Bank fee,-15,50\n', 'x.csv', { mapping: { decimal: ',' } });
    expect([comma.errors, comma.rows.map((r) => r.amount)]).toEqual([[], ['-120', '-15.5']]);
    // Not a fraction after the amount: still a bad row.
    const words = await text('Date,Amount,Description\n2026-03-01,-120,Beans\n2026-03-02,-15,Fee, monthly\n', 'x.csv', { mapping: { decimal: ',' } });
    expect(words.errors.map((e) => e.line)).toEqual([3]);
  });

  it('takes a mapping by header or column number, a direction column and tab-separated UTF-8', async () => {
    const s = await read('fr-sens.tsv', { mapping: { columns: { date: '1', amount: 'Montant', direction: 'Sens', description: ['Libellé'] } } });
    expect(s.errors).toEqual([]);
    expect(s.csv).toMatchObject({ delimiter: '\t', decimal: ',' });
    expect(brief(s.rows)).toEqual([
      ['2024-01-05', '-84.2', 'PRLV SEPA EDF', null],
      ['2024-01-18', '1250', 'VIR RECU CLIENT DUPONT', null],
    ]);
    await expect(read('fr-sens.tsv', { mapping: { columns: { date: 'Datum', amount: 'Montant', description: [] } } })).rejects.toThrow(/No column "Datum"/);
  });

  it('negates card exports that show spending as positive', async () => {
    const s = await text('Date,Merchant,Amount\n2024-05-01,Bookshop,25.00\n2024-05-03,Refund,-5.00\n', 'card.csv', { mapping: { negate: true } });
    expect(brief(s.rows).map((r) => r[1])).toEqual(['-25', '5']);
  });

  it('reads files without a header when the columns are given by number', async () => {
    const s = await text('2024-05-01;Bookshop;-25,00\n2024-05-03;Refund;5,00\n', 'nohead.csv', { mapping: { columns: { date: '1', amount: '3', description: ['2'] } } });
    expect(s.csv).toMatchObject({ headerLine: null, headers: ['Column 1', 'Column 2', 'Column 3'] });
    expect(brief(s.rows).map((r) => r[1])).toEqual(['-25', '5']);
  });

  it('takes a running Balance column as the statement balances: oldest-first, and paid-out/paid-in with a footer', async () => {
    const s = await read('starling.csv');
    expect(s.csv!.columns).toMatchObject({ balance: 'Balance (GBP)' });
    expect(s.sections[0]).toMatchObject({ opening: { date: '2026-03-01', amount: '5000' }, closing: { date: '2026-03-16', amount: '5076.2' } });
    expect(s.warnings).toBeUndefined();
    const uk = await read('uk-paid-in-out.csv');
    expect(uk.sections[0]).toMatchObject({ opening: { date: '2024-01-03', amount: '2000' }, closing: { date: '2024-01-20', amount: '3373.55' } });
  });

  it('orders a newest-first file by date and, within a day, by how the balances chain', async () => {
    // Newest day first, but the rows of 15 March listed in the order they happened: the last of them is the first line.
    const body = 'Date,Description,Amount,Balance\n15/03/2026,Coffee,-100.00,1400.00\n15/03/2026,Bank fee,-20.00,1380.00\n12/03/2026,Client,500.00,1500.00\n';
    const s = await text(body);
    expect(s.sections[0]).toMatchObject({ opening: { date: '2026-03-12', amount: '1000' }, closing: { date: '2026-03-15', amount: '1380' } });
    // The same rows oldest-first with the day's rows the other way round.
    const up = await text('Date,Description,Amount,Balance\n12/03/2026,Client,500.00,1500.00\n15/03/2026,Bank fee,-20.00,1380.00\n15/03/2026,Coffee,-100.00,1400.00\n');
    expect(up.sections[0]).toMatchObject({ opening: { date: '2026-03-12', amount: '1000' }, closing: { date: '2026-03-15', amount: '1380' } });
  });

  it('says a Balance column that disagrees with the amounts, and takes no balance from it; balance=<header> maps one', async () => {
    const body = 'Date,Description,Amount,Running\n2026-03-01,Client,500.00,1500.00\n2026-03-02,Coffee,-4.50,1490.00\n';
    const s = await text(body, 'x.csv', { mapping: { columns: parseColumnsFlag('date=Date,amount=Amount,description=Description,balance=Running') } });
    expect(s.sections[0]).toMatchObject({ opening: null, closing: null });
    expect(s.warnings).toEqual([
      {
        code: 'balance_disagrees',
        section: 0,
        line: 3,
        message: 'Line 3 has a balance that does not follow from the amounts (1500 then -4.5 makes 1495.5; the file says 1490): no statement balance is taken from the file.',
      },
    ]);
    expect(s.rows).toHaveLength(2);
    expect(() => parseColumnsFlag('date=Date,amount=Amount,saldo=Running')).toThrow(/balance/);
  });

  it('falls back to Windows-1252 when a byte late in a file is not UTF-8', async () => {
    const head = 'Date,Description,Amount\n' + '2024-01-01,plain ascii row,-1.00\n'.repeat(20_000);
    const s = await asObjects(readStatement(bytesSource(Buffer.concat([Buffer.from(head), Buffer.from('2024-01-02,Caf\xe9,-2.00\n', 'latin1')]), 'late.csv')));
    expect(s.encoding).toBe('windows-1252');
    expect(s.rows.at(-1)?.description).toBe('Café');
  });
});

describe('OFX and QFX', () => {
  it('reads OFX 1.x SGML: unclosed tags, CHARSET 1252, time zones, several accounts, LEDGERBAL', async () => {
    const s = await read('ofx1-sgml.ofx');
    expect(s).toMatchObject({ format: 'ofx', encoding: 'windows-1252', errors: [] });
    expect(s.sections).toEqual([
      expect.objectContaining({
        index: 0,
        bankAccountId: '000123456789',
        type: 'checking',
        currency: 'USD',
        closing: { date: '2024-01-31', amount: '4142.3' },
        from: '2024-01-01',
        to: '2024-01-31',
      }),
      expect.objectContaining({ index: 1, bankAccountId: '4111111111111111', type: 'credit_card', currency: 'USD', closing: { date: '2024-01-31', amount: '0' } }),
    ]);
    expect(s.rows.map((r) => [r.section, r.date, r.amount, r.description, r.externalId])).toEqual([
      [0, '2024-01-05', '-45.2', 'SHELL OIL 57444 AUSTIN TX', '2024010501'],
      [0, '2024-01-15', '2500', 'ACME CORP PAYROLL', '2024011501'],
      [0, '2024-01-20', '-300', 'Check 1042', '2024012001'],
      [0, '2024-01-31', '-12.5', 'Café & Bistro', '2024013101'],
      [1, '2024-01-10', '-99.99', 'GITHUB.COM', 'CC-1'],
      [1, '2024-01-25', '99.99', 'PAYMENT THANK YOU', 'CC-2'],
    ]);
  });

  it('reads OFX 2.x XML with a decimal comma, PAYEE aggregates, and names a bad date by line', async () => {
    const s = await read('ofx2-xml.ofx');
    expect(s.sections[0]).toMatchObject({ bankAccountId: '00012345678', type: 'savings', currency: 'EUR', closing: { date: '2024-02-29', amount: '10503.25' } });
    expect(brief(s.rows)).toEqual([
      ['2024-02-29', '3.25', 'Interets crediteurs fevrier', 'X-1'],
      ['2024-02-10', '-500', 'Compte courant - Virement interne', 'X-2'],
    ]);
    expect(s.errors).toEqual([{ line: 16, field: 'DTPOSTED', message: '"20240230" is not a date (YYYYMMDD...)' }]);
  });

  it('refuses a file cut off mid-statement, naming where it stops; a missing </OFX> alone is forgiven', async () => {
    const whole = readFileSync(fixture('ofx1-sgml.ofx'), 'latin1');
    const cut = whole.slice(0, whole.indexOf('<TRNAMT>', whole.indexOf('<STMTTRN>', whole.indexOf('</STMTTRN>'))) + 12);
    await expect(text(cut, 'cut.ofx')).rejects.toThrow(
      /^This OFX file ends before its statement does: <STMTTRN> opened at line 47 is never closed \(a transaction cut off at line 47\), so the file was cut off\. Nothing was imported/,
    );
    const envelope = await text(whole.replace(/<\/OFX>\s*$/, ''), 'no-end.ofx');
    expect(envelope.rows.length).toBe((await read('ofx1-sgml.ofx')).rows.length);
  });

  it('reads an OFX whose body is one line (as some banks write it), naming that line', async () => {
    const whole = readFileSync(fixture('ofx1-sgml.ofx'), 'latin1');
    const at = whole.indexOf('<OFX>');
    const oneLine = whole.slice(0, at) + whole.slice(at).replace(/\r?\n/g, ' ');
    const rows = (s: { rows: { date: string; amount: string; externalId: string | null }[] }) => s.rows.map((r) => [r.date, r.amount, r.externalId]);
    expect(rows(await text(oneLine, 'one-line.ofx'))).toEqual(rows(await read('ofx1-sgml.ofx')));
    const bad = await text(oneLine.replace('<DTPOSTED>20240115', '<DTPOSTED>20240230'), 'one-line.ofx');
    expect(bad.errors).toEqual([{ line: 11, field: 'DTPOSTED', message: '"20240230" is not a date (YYYYMMDD...)' }]);
  });

  it('calls a file with Intuit tags QFX', async () => {
    const s = await read('bank.qfx');
    expect(s.format).toBe('qfx');
    expect(s.rows).toHaveLength(4);
  });
});

describe('QIF', () => {
  it('reads !Account sections, Quicken dates, thousands and splits summed into one row', async () => {
    const s = await read('quicken.qif');
    expect(s.errors).toEqual([]);
    expect(s.sections.map((x) => [x.index, x.name, x.type])).toEqual([
      [0, 'Business Checking', 'checking'],
      [1, 'Company Visa', 'credit_card'],
    ]);
    expect(s.rows.map((r) => [r.section, r.date, r.amount, r.description])).toEqual([
      [0, '2024-01-05', '-1234.56', 'Landlord Properties LLC - January rent'],
      [0, '2024-01-15', '2500', 'ACME Corp - Invoice 7'],
      [0, '2024-01-20', '-49.99', 'Staples'],
      [1, '2024-01-13', '-99.99', 'GITHUB.COM'],
      [1, '2024-01-25', '99.99', 'PAYMENT THANK YOU'],
    ]);
  });

  it('reads a whole-file export: comment lines first, the bank section kept, investments and securities left out and said why', async () => {
    const s = await read('quicken-whole-file.qif');
    expect(s.format).toBe('qif');
    expect(s.sections.map((x) => [x.name, x.type])).toEqual([['Business Checking', 'checking']]);
    expect(s.rows.map((r) => [r.date, r.amount, r.description])).toEqual([
      ['2026-03-14', '-15', 'Bank fee'],
      ['2026-03-20', '2500', 'ACME Corp - Invoice 1041'],
    ]);
    expect(s.ignored).toEqual([{ line: 21, reason: 'investment account "Brokerage" (!Type:Invst, 2 transaction(s)): left out, as Ledgerdesk keeps bank, card and cash accounts' }]);
    // Named as QIF, it is read as QIF (its comment lines do not make it CSV).
    expect((await read('quicken-whole-file.qif', { format: 'qif' })).rows).toHaveLength(2);
  });

  it('refuses a file of investment accounts only, saying so', async () => {
    await expect(text('!Type:Invst\nD1/5/24\nNBuy\n^\n', 'x.qif')).rejects.toThrow(/only investment accounts/);
  });
});

describe('CAMT.053', () => {
  it('reads version 02: booked entries, a batch split by transaction, remittance text, balances; pending ignored', async () => {
    const s = await read('camt053-v02.xml');
    expect(s.sections[0]).toMatchObject({
      bankAccountId: 'DE89370400440532013000',
      name: 'Geschaeftskonto',
      currency: 'EUR',
      opening: { date: '2024-01-01', amount: '1000' },
      closing: { date: '2024-01-31', amount: '1835.5' },
      from: '2024-01-01',
      to: '2024-01-31',
    });
    expect(brief(s.rows)).toEqual([
      ['2024-01-08', '1200', 'Kunde Beispiel AG - Rechnung 2024-001 Danke', '2024010800012'],
      ['2024-01-15', '-200', 'Lieferant Eins GmbH - RE 4711', '2024011500077-1'],
      ['2024-01-15', '-150', 'Lieferant Zwei KG - RF18539007547034', '2024011500077-2'],
      ['2024-01-31', '-14.5', 'Kontofuehrungsgebuehr Januar', '2024013100001'],
    ]);
    expect(s.ignored).toEqual([{ line: 49, reason: 'entry status PDNG (only booked entries are imported)' }]);
  });

  it('reads version 08: Sts/Cd, DtTm dates, Pty names, Othr account ids, a reversal', async () => {
    const s = await read('camt053-v08.xml');
    expect(s.sections[0]).toMatchObject({
      bankAccountId: 'CH93-0076-2011-6238-5295-7',
      currency: 'CHF',
      opening: { date: '2024-02-01', amount: '-50' },
      closing: { date: '2024-02-29', amount: '250' },
    });
    expect(brief(s.rows)).toEqual([
      ['2024-02-12', '250', 'Muster Treuhand AG - Honorar Februar', 'CH-REF-1'],
      ['2024-02-20', '50', 'Reversal - Storno Lastschrift', 'CH-REF-2'],
    ]);
  });

  it('refuses other XML and DTDs', async () => {
    await expect(text('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"/>', 'x.xml')).rejects.toThrow(/not a CAMT.053/);
    await expect(text('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"/>', 'x.xml')).rejects.toThrow(/DTD/);
  });
});

describe('MT940', () => {
  it('reads a German bank: SWIFT envelope, a funds code, DK subfields with SEPA purpose, Latin-1', async () => {
    const s = await read('mt940-dk.sta');
    expect(s.errors).toEqual([]);
    expect(s.sections[0]).toMatchObject({
      bankAccountId: '37040044/0532013000',
      currency: 'EUR',
      opening: { date: '2023-12-31', amount: '10000' },
      closing: { date: '2024-01-31', amount: '13240.6' },
    });
    expect(brief(s.rows)).toEqual([
      ['2024-01-02', '-1250', 'Müller Immobilien GmbH - Miete Januar Büro Harbourstraße 5', 'BR240102001'],
      ['2024-01-15', '4500.5', 'Kunde Öztürk KG - Rechnung 2024-001', 'BR240115002'],
      ['2024-01-31', '-9.9', 'Kontofuehrung Januar', null],
    ]);
  });

  it('reads a Dutch bank: slash codes, wrapped :86:, two statements of one account, an entry date across the year end', async () => {
    const s = await read('mt940-abn.sta');
    expect(s.sections).toHaveLength(1);
    expect(s.sections[0]).toMatchObject({ bankAccountId: '417164300', opening: { date: '2023-12-29', amount: '1000' }, closing: { date: '2024-01-03', amount: '990' } });
    expect(brief(s.rows)).toEqual([
      ['2024-01-02', '-25', 'Albert Heijn BV - Boodschappen 2 januari', null],
      ['2024-01-03', '10', 'Stichting Voorbeeld - Storno bijdrage', 'REV-1'],
      ['2024-01-02', '5', 'RENTE EN KOSTEN', null],
    ]);
  });

  it('reads :86: information in each layout', () => {
    expect(information('/NAME/Shop/REMI/USTD//Order 7/EREF/E1')).toBe('Shop - Order 7');
    expect(information('166?00GUTSCHRIFT?20SVWZ+Invoice?2142?32ACME')).toBe('ACME - Invoice42');
    expect(information('PLAIN TEXT\nON TWO LINES')).toBe('PLAIN TEXT - ON TWO LINES');
  });
});

describe('whole files', () => {
  it('refuses empty, binary and mislabelled files, and unknown encodings', async () => {
    await expect(text('', 'empty.csv')).rejects.toThrow('The file is empty.');
    await expect(readStatement(bytesSource(Buffer.from('%PDF-1.7\n...'), 'x.csv'))).rejects.toThrow(/a PDF/);
    await expect(readStatement(bytesSource(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]), 'x.xlsx'))).rejects.toThrow(/ZIP archive/);
    await expect(readStatement(bytesSource(Buffer.from('a,b\n1,\u0000\n'), 'x.csv'))).rejects.toThrow(/binary/);
    await expect(read('ofx1-sgml.ofx', { format: 'csv' })).rejects.toThrow('This file is OFX, not CSV');
    await expect(read('us-bank.csv', { format: 'camt053' })).rejects.toThrow('This file is CSV, not CAMT.053');
    await expect(read('us-bank.csv', { encoding: 'klingon-8' })).rejects.toThrow(/Unknown encoding "klingon-8"/);
    await expect(read('us-bank.csv', { dateFormat: 'DD/MM' })).rejects.toThrow(/not a date format/);
  });

  it('refuses a 10 MB line', async () => {
    const long = `Date,Description,Amount\n2024-01-01,${'x'.repeat(10 * 1024 * 1024)},-1\n`;
    await expect(text(long, 'long.csv')).rejects.toThrow(/longer than 1 MB/);
  });
});

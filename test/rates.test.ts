// Exchange rates by day (issue 30): set by hand, imported from the ECB's
// reference-rate CSV as published (cross rates through the euro when the base
// is not the euro) or a plain date,currency,rate file; a date's rate is that
// day's or the latest of the 7 before it, and a missing one is an error naming
// the currency and the date. Bad files are refused whole, naming row and column.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { divideRates, invertRate, readRate, rateText, type Rate } from '../src/main/ledger/rates/decimal';
import { deskAs } from './support/desk';
import { ownerCommand, tempDir, tempLedger } from './support/env';

let ctx: DeskContext;
let usd: L.Organization;
let eur: L.Organization;
const desk = <T = any>(org: L.Organization, name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const file = (name: string, text: string) => {
  const path = join(ctx.dataDir, name);
  writeFileSync(path, text);
  return path;
};
const rate = (text: string) => readRate(text) as Rate;
const rows = async (org: L.Organization) => (await ctx.ledger.rows<{ n: number }>('SELECT count(*) AS n FROM exchange_rates WHERE org_seq = ?', org.seq))[0].n;

// As the ECB publishes eurofxref-hist.csv: newest first, a trailing comma, N/A where a currency has no rate, columns of retired currencies.
const ECB = `Date,USD,JPY,CYP,GBP,ISK,CHF,
2026-03-03,1.0856,157.23,N/A,0.8571,N/A,0.9612,
2026-03-02,1.0841,156.90,N/A,0.8566,N/A,0.9598,
2026-02-27,1.0799,156.12,N/A,0.8550,N/A,0.9577,
`;

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  usd = await L.createOrganization(ledger, { slug: 'usd-co', currency: 'USD' });
  eur = await L.createOrganization(ledger, { slug: 'eur-co', currency: 'EUR' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

describe('exact rate arithmetic', () => {
  it('cross rates and inverses to 12 significant digits, rounded once', () => {
    expect(rateText(divideRates(rate('1.0856'), rate('0.8571')))).toBe('1.26659666317');
    expect(rateText(invertRate(rate('0.8571')))).toBe('1.16672500292');
    expect(rateText(invertRate(rate('3')))).toBe('0.333333333333');
    expect(L.toBase(-10050, 'EUR', rate('1.0856'), 'USD')).toBe(-10910); // -109.1028 rounds half away from zero
    expect(L.toBase(1000, 'JPY', rate('0.0067'), 'USD')).toBe(670); // JPY has no minor digits
    expect(L.toBase(1234, 'KWD', rate('3.25'), 'USD')).toBe(401); // KWD has three
  });
});

describe('rates by hand', () => {
  it('sets, replaces and lists rates; a date takes the latest of the 7 days before it', async () => {
    expect(await desk(usd, 'setRate', { currency: 'eur', date: '2026-01-02', rate: '1.0350' })).toEqual({ currency: 'EUR', date: '2026-01-02', rate: '1.035', source: 'hand' });
    await desk(usd, 'setRate', { currency: 'EUR', date: '2026-01-02', rate: '1,0351' }); // a decimal comma is read too; the rate is replaced
    const list = await desk(usd, 'listRates', { currency: 'EUR' });
    expect(list).toMatchObject({ base: 'USD', total: 1, rates: [{ date: '2026-01-02', rate: '1.0351', source: 'hand' }] });
    expect(await L.exchangeRateOn(ctx.ledger, usd.seq, 'EUR', '2026-01-09')).toMatchObject({ date: '2026-01-02' });
    await expect(L.exchangeRateOn(ctx.ledger, usd.seq, 'EUR', '2026-01-10')).rejects.toThrow(/No EUR rate for 2026-01-10 \(the latest before it is 2026-01-02/);
    await expect(L.exchangeRateOn(ctx.ledger, usd.seq, 'GBP', '2026-01-02')).rejects.toThrow(
      expect.objectContaining({ code: 'conflict', details: { reason: 'rate_missing', currency: 'GBP', date: '2026-01-02' } }),
    );
    const audit = await L.listAudit(ctx.ledger, usd.seq, { action: 'rate.set', limit: 50, offset: 0 });
    expect(audit.entries.map((e) => e.summary)).toEqual([expect.stringContaining('EUR on 2026-01-02 set to 1.0351'), expect.stringContaining('set to 1.035')]);
  });

  it('refuses an unknown currency, the base currency, a rate of 0 or below, and a bad date', async () => {
    const refused = async (input: Record<string, unknown>, field: string, message: RegExp) =>
      expect(desk(usd, 'setRate', { currency: 'EUR', date: '2026-01-05', rate: '1.1', ...input })).rejects.toMatchObject({
        code: 'validation_failed',
        details: [{ field, message: expect.stringMatching(message) }],
      });
    await refused({ currency: 'EUX' }, 'currency', /EUX is not an ISO 4217 currency code/);
    await refused({ currency: 'USD' }, 'currency', /base currency/);
    await refused({ rate: '0' }, 'rate', /more than zero/);
    await refused({ rate: '-1.2' }, 'rate', /not a rate/);
    await refused({ date: '2026-02-30' }, 'date', /date/);
    expect((await desk(usd, 'listRates', {})).total).toBe(1);
    // An organization's base currency is an ISO 4217 one too.
    await expect(L.createOrganization(ctx.ledger, { slug: 'xyz-co', currency: 'XYZ' })).rejects.toThrow(
      expect.objectContaining({ details: [{ field: 'currency', message: expect.stringContaining('XYZ is not an ISO 4217') }] }),
    );
  });
});

describe('the ECB reference rates', () => {
  it('in a USD organization: EUR at USD per euro, the others as cross rates through the euro; N/A and retired currencies left out', async () => {
    const result = await desk(usd, 'importRates', { file: file('eurofxref-hist.csv', ECB) });
    expect(result).toMatchObject({
      format: 'ecb',
      read: 12,
      added: 12,
      changed: 0,
      currencies: ['CHF', 'EUR', 'GBP', 'JPY'],
      from: '2026-02-27',
      to: '2026-03-03',
      skipped: ['CYP'],
    });
    const on = async (currency: string, date: string) => rateText((await L.exchangeRateOn(ctx.ledger, usd.seq, currency, date)).rate);
    expect(await on('EUR', '2026-03-03')).toBe('1.0856');
    expect(await on('GBP', '2026-03-03')).toBe(rateText(divideRates(rate('1.0856'), rate('0.8571'))));
    expect(Number(await on('JPY', '2026-03-02'))).toBeCloseTo(1.0841 / 156.9, 12);
    expect(await on('GBP', '2026-03-01')).toBe(rateText(divideRates(rate('1.0799'), rate('0.855')))); // Sunday: Friday's
    await expect(L.exchangeRateOn(ctx.ledger, usd.seq, 'ISK', '2026-03-03')).rejects.toThrow(/No ISK rate/);
    // The same file again changes nothing and writes no audit entry.
    const audits = (await L.listAudit(ctx.ledger, usd.seq, { action: 'rate.imported', limit: 50, offset: 0 })).entries.length;
    expect(await desk(usd, 'importRates', { file: file('again.csv', ECB) })).toMatchObject({ added: 0, changed: 0, unchanged: 12 });
    expect((await L.listAudit(ctx.ledger, usd.seq, { action: 'rate.imported', limit: 50, offset: 0 })).entries.length).toBe(audits);
  });

  it('in a EUR organization: the inverse of each rate; the ECB day file (spaces, "3 March 2026") reads too', async () => {
    const day = 'Date, USD, JPY, GBP, \n3 March 2026, 1.0856, 157.23, 0.8571, \n';
    expect(await desk(eur, 'importRates', { file: file('eurofxref.csv', day) })).toMatchObject({ format: 'ecb', added: 3 });
    expect(rateText((await L.exchangeRateOn(ctx.ledger, eur.seq, 'USD', '2026-03-03')).rate)).toBe(rateText(invertRate(rate('1.0856'))));
  });

  it('refuses a file whose base currency has no column, an empty cell, a bad date: nothing written', async () => {
    const cad = await L.createOrganization(ctx.ledger, { slug: 'cad-co', currency: 'CAD' });
    await expect(desk(cad, 'importRates', { file: file('nocad.csv', ECB) })).rejects.toMatchObject({
      details: [{ field: 'file', message: expect.stringContaining('has no CAD column') }],
    });
    const holes = ECB.replace('2026-03-02,1.0841,156.90', '2026-03-02,1.0841,').replace('2026-02-27', '2026-02-31');
    await expect(desk(usd, 'importRates', { file: file('holes.csv', holes) })).rejects.toMatchObject({
      details: [
        { field: 'rows[3].JPY', message: expect.stringContaining('no rate (an empty cell') },
        { field: 'rows[4].Date', message: expect.stringContaining('"2026-02-31" is not a date') },
      ],
    });
    expect(await rows(cad)).toBe(0);
  });
});

describe('a plain rates file', () => {
  it('reads date,currency,rate in any column order; a gap longer than a rate serves, bad cells: refused whole', async () => {
    const before = await rows(usd);
    const gap = 'Currency,Rate,Date\nGBP,1.27,2026-04-01\nGBP,1.28,2026-04-20\nNOK,0.094,2026-04-01\n';
    await expect(desk(usd, 'importRates', { file: file('gap.csv', gap) })).rejects.toMatchObject({
      details: [{ field: 'rows[3].date', message: expect.stringContaining('GBP skips from 2026-04-01 (row 2) to 2026-04-20') }],
    });
    const bad = 'date,currency,rate\n2026-04-01,XYZ,1\n2026-04-01,GBP,0\n2026-04-01,GBP,\n2026-04-01,USD,1\n';
    await expect(desk(usd, 'importRates', { file: file('bad.csv', bad) })).rejects.toMatchObject({
      details: [
        { field: 'rows[2].currency', message: expect.stringContaining('XYZ is not an ISO 4217') },
        { field: 'rows[3].rate', message: expect.stringContaining('more than zero') },
        { field: 'rows[4].rate', message: expect.stringContaining('empty cell') },
        { field: 'rows[5].currency', message: expect.stringContaining('base currency') },
      ],
    });
    await expect(desk(usd, 'importRates', { file: file('wrong.csv', 'when,what\n1,2\n') })).rejects.toMatchObject({
      details: [{ field: 'file', message: expect.stringContaining('not a rates file') }],
    });
    await expect(desk(usd, 'importRates', { file: file('fmt.csv', ECB), format: 'plain' })).rejects.toMatchObject({ details: [{ field: 'format' }] });
    expect(await rows(usd)).toBe(before);
    const good = 'date,currency,rate\n2026-04-01,GBP,1.27\n2026-04-06,GBP,1.2712\n2026-04-01,JPY,0.0066\n';
    expect(await desk(usd, 'importRates', { file: file('good.csv', good) })).toMatchObject({ format: 'plain', added: 3, currencies: ['GBP', 'JPY'] });
    expect((await desk(usd, 'listRates', { currency: 'GBP', from: '2026-04-01' })).rates.map((r: L.StoredRate) => [r.date, r.rate, r.source])).toEqual([
      ['2026-04-06', '1.2712', 'file'],
      ['2026-04-01', '1.27', 'file'],
    ]);
  });
});

describe('from the command line', () => {
  it('rate set, rate import, rate list --json', () => {
    const data = tempDir();
    const run = ownerCommand(data);
    expect(run('rate', 'set', 'EUR', '2026-05-04', '1.12')).toContain('EUR on 2026-05-04: 1.12.');
    const path = join(data, 'rates.csv');
    writeFileSync(path, ECB);
    expect(run('rate', 'import', path)).toMatch(/^Read 12 rate\(s\) \(ecb\): 12 rate\(s\) added, 0 changed/);
    const listed = JSON.parse(run('rate', 'list', '--currency', 'EUR', '--json'));
    expect(listed).toMatchObject({
      base: 'USD',
      total: 4,
      rates: [{ date: '2026-05-04', rate: '1.12', source: 'hand' }, { date: '2026-03-03', rate: '1.0856', source: 'ecb' }, {}, {}],
    });
  });
});

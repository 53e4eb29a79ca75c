// Tax codes (issue 28, first part): the ready-made sets as data, a code's rate
// history (the rate of a day is the latest one starting on or before it),
// four-decimal rates held exactly, a category's default code, every change
// audited; the same through the owner commands.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';
import { booksFlags } from './support/books';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'uk', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

describe('tax codes', () => {
  it('sets up UK VAT from the data: six codes with their kinds, sides, boxes and rate history', async () => {
    const r = await desk<{ added: string[]; codes: L.TaxCode[] }>('setupTax', { set: 'uk-vat' });
    expect(r.added).toEqual(['S', 'R', 'Z', 'E', 'NV', 'RC']);
    const byCode = new Map(r.codes.map((c) => [c.code, c]));
    expect(byCode.get('S')).toMatchObject({
      kind: 'standard',
      applies: 'both',
      rate: 20,
      rates: [
        { from: '2010-01-01', rate: 17.5 },
        { from: '2011-01-04', rate: 20 },
      ],
    });
    expect(byCode.get('S')!.boxes).toEqual([
      { box: '6', side: 'sales', measure: 'net' },
      { box: '1', side: 'sales', measure: 'tax' },
      { box: '7', side: 'purchases', measure: 'net' },
      { box: '4', side: 'purchases', measure: 'tax' },
    ]);
    expect(byCode.get('RC')).toMatchObject({ kind: 'reverse_charge', applies: 'purchases' });
    expect(byCode.get('NV')).toMatchObject({ kind: 'outside_scope', boxes: [] });
    expect((await L.organizationBySeq(ctx.ledger, org.seq)).taxSet).toBe('uk-vat');
    // Again: nothing added, nothing changed.
    expect((await desk('setupTax', { set: 'uk-vat' })).added).toEqual([]);
    const s = await L.requireTaxCode(ctx.ledger, org.seq, 's');
    expect([await L.rateOn(ctx.ledger, s.seq, '2010-12-31'), await L.rateOn(ctx.ledger, s.seq, '2011-01-04'), await L.rateOn(ctx.ledger, s.seq, '2009-06-01')]).toEqual([
      175_000, 200_000, 0,
    ]);
  });

  it('changes a rate from a date on, holds four decimals exactly, and refuses a fifth', async () => {
    await desk('setTaxRate', { code: 'R', from: '2027-04-01', rate: '5.125' });
    const r = await L.requireTaxCode(ctx.ledger, org.seq, 'R');
    expect([await L.rateOn(ctx.ledger, r.seq, '2027-03-31'), await L.rateOn(ctx.ledger, r.seq, '2027-04-01')]).toEqual([50_000, 51_250]);
    await expect(desk('setTaxRate', { code: 'R', from: '2027-05-01', rate: '5.12345' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'rate', message: expect.stringContaining('at most four decimals') }],
    });
    await expect(desk('setTaxRate', { code: 'Q', from: '2027-05-01', rate: 5 })).rejects.toMatchObject({ code: 'not_found' });
    expect(L.rateE4Of('0.0125')).toBe(125);
    expect(() => L.rateE4Of('101')).toThrow(/not a percent/);
  });

  it('adds a code of its own, refuses the same code twice, archives one, and gives a category a default', async () => {
    const made = await desk<L.TaxCode>('addTaxCode', {
      code: 'S-PART',
      name: 'Standard, partly recoverable',
      rate: 20,
      kind: 'standard',
      applies: 'purchases',
      recoverablePercent: 60,
      boxes: [{ box: '4', side: 'purchases', measure: 'tax' }],
    });
    expect(made).toMatchObject({ code: 'S-PART', rate: 20, recoverablePercent: 60, applies: 'purchases', rates: [{ from: L.ALWAYS, rate: 20 }] });
    await expect(desk('addTaxCode', { code: 's-part', rate: 5, kind: 'reduced' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await desk('setCategoryTax', { categoryCode: '5100', taxCode: 's' })).toEqual({ categoryCode: '5100', taxCode: 'S' });
    expect((await L.categoryTaxCodes(ctx.ledger, org.seq)).get('5100')).toBe('S');
    await desk('archiveTaxCode', { code: 'S' });
    expect((await L.categoryTaxCodes(ctx.ledger, org.seq)).get('5100')).toBeUndefined(); // an archived code is no one's default
    await expect(desk('setCategoryTax', { categoryCode: '5100', taxCode: 'S' })).rejects.toMatchObject({ code: 'conflict' });
    const log = (await L.listAudit(ctx.ledger, org.seq, { limit: 20, offset: 0 })).entries.map((e) => e.action);
    expect(log).toEqual(expect.arrayContaining(['tax.setup', 'tax.rate_set', 'tax.code_added', 'tax.code_archived', 'category.tax_set']));
  });
});

describe('tax periods', () => {
  it('count monthly or quarterly from a start month; the period to file next follows the last filed return', async () => {
    const april = { period: 'quarterly' as const, startMonth: 4, basis: 'cash' as const };
    expect(L.periodOf(april, '2026-05-17')).toEqual({ from: '2026-04-01', to: '2026-06-30' });
    expect(L.periodOf(april, '2026-02-10')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(L.periodOf({ ...april, startMonth: 2 }, '2026-01-15')).toEqual({ from: '2025-11-01', to: '2026-01-31' });
    expect(L.periodOf({ ...april, period: 'monthly' }, '2024-02-29')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    const settings = await desk('taxSettings', { period: 'quarterly', startMonth: 3, basis: 'accrual' });
    expect(settings).toMatchObject({ period: 'quarterly', startMonth: 3, basis: 'accrual' });
    await expect(desk('taxSettings', { startMonth: 13 })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await L.currentTaxPeriod(ctx.ledger, org.seq, '2026-11-24')).toEqual({ from: '2026-09-01', to: '2026-11-30' });
    // A period that has ended by the ledger's clock (issue 50: one that has not is not filed).
    await desk('fileTaxReturn', { from: '2026-03-01', to: '2026-05-31' });
    expect(await L.currentTaxPeriod(ctx.ledger, org.seq, '2026-11-24')).toEqual({ from: '2026-06-01', to: '2026-08-31' });
    expect(await desk<L.TaxReturn>('taxReport', {})).toMatchObject({ from: '2026-06-01', to: '2026-08-31', basis: 'accrual' });
  });
});

describe('tax commands', () => {
  const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
  const run = (data: string, ...args: string[]) => spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { encoding: 'utf8', timeout: 60_000 });

  it('sets up Australian GST on a new organization, lists, adds and rates codes, names a default', () => {
    const data = tempDir();
    expect(run(data, 'org', 'create', 'au', '--currency', 'AUD', '--tax-set', 'au-gst').status).toBe(0);
    const list = JSON.parse(run(data, 'tax', 'code', 'list', '--org', 'au', '--json').stdout);
    expect(list.map((c: L.TaxCode) => [c.code, c.rate, c.kind])).toEqual([
      ['FRE', 0, 'zero_rated'],
      ['GST', 10, 'standard'],
      ['INP', 0, 'exempt'],
      ['N-T', 0, 'outside_scope'],
    ]);
    const added = run(data, 'tax', 'code', 'add', 'WET', '--rate', '29', '--kind', 'standard', '--applies', 'sales', '--org', 'au');
    expect(added.stdout).toMatch(/^Added WET\s+29%\s+standard\s+sales\s+WET/);
    expect(run(data, 'tax', 'code', 'rate', 'GST', '--from', '2030-07-01', '--rate', '12.5', '--org', 'au').stdout).toContain(
      '(rates: 10% from 2000-07-01, 12.5% from 2030-07-01)',
    );
    expect(run(data, 'category', 'tax', '5100', 'GST', '--org', 'au').stdout).toBe('5100: default tax code GST.\n');
    const bad = run(data, 'tax', 'code', 'frob', '--org', 'au');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('ledgerdesk tax code list');
  });
});

// Corrections after a filed return (issue 43): a person changes a row a filed
// UK VAT quarter took, as a correction; the filed return stays as filed, the
// next quarter's boxes include the exact difference with adjustment lines
// naming the row and the return, the tax audit report lists them, the audit
// log says so; changed again before the next return is filed it is
// recomputed, and after it a new correction chains on; filing stamps them;
// the tax office's threshold flags a large one (HMRC both ways, the ATO on
// tax owed only); without the flag, by an agent or in a closed period: refused.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';
import { printTaxReturn, taxReturnCsv } from '../src/main/desk/tax/tax';
import { bySql } from '../src/main/ledger/core/dialect';
import { booksFlags } from './support/books';

async function books(slug: string, currency: string, set: string) {
  const { ledger, dir } = await tempLedger();
  const org = await L.createOrganization(ledger, { slug, currency });
  const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  const add = async (date: string, amount: string, description: string, categoryCode: string, taxCode: string) =>
    (await desk('addTransaction', { account: 'Bank', date, amount, description, categoryCode, taxCode })).id as string;
  const start = async () => (await desk('setupTax', { set }), await desk('createAccount', { name: 'Bank', type: 'checking' }));
  return { ledger, org, desk, add, start };
}

const q1 = { from: '2026-01-01', to: '2026-03-31' };
const q2 = { from: '2026-04-01', to: '2026-06-30' };
const q3 = { from: '2026-07-01', to: '2026-09-30' };
const uk = await books('uk', 'GBP', 'uk-vat');
const rows: Record<string, string> = {};
let filed: L.FiledReturn;
const report = (period: { from: string; to: string }) => uk.desk<L.TaxReturn>('taxReport', period);
const boxes = async (period: { from: string; to: string }, ...names: string[]) => {
  const r = await report(period);
  return Object.fromEntries(names.map((n) => [n, r.boxes[n]]));
};
const auditSum = async (period: { from: string; to: string }, box: string, measure: 'net' | 'tax') => {
  const a = await uk.desk<{ data: L.TaxAuditLine[] }>('taxAudit', { ...period, box, limit: 500 });
  return { sum: a.data.reduce((s, l) => s + Math.round(l[measure] * 100), 0) / 100, lines: a.data };
};

beforeAll(async () => {
  await uk.start();
  rows.sale = await uk.add('2026-01-05', '1200.00', 'Design work', '4000', 'S');
  rows.big = await uk.add('2026-01-20', '120000.00', 'Big contract', '4000', 'S');
  rows.paint = await uk.add('2026-02-10', '-120.00', 'Paint', '5100', 'S');
  rows.cables = await uk.add('2026-02-11', '-60.00', 'Cables', '5100', 'S');
  rows.chair = await uk.add('2026-03-15', '-240.00', 'Chair', '5200', 'S');
  filed = await uk.desk<L.FiledReturn>('fileTaxReturn', q1);
  await uk.add('2026-04-10', '600.00', 'April work', '4000', 'S');
});

describe('a correction after a filed UK quarter', () => {
  it('files the quarter as it stood', () => {
    expect(filed.report.boxes).toMatchObject({ '1': 20200, '4': 70, '6': 101000, '7': 350 });
    expect(filed.report.corrections).toEqual([]);
  });

  it('refuses a change to a filed row without the flag, saying how to make it; an agent still may not propose one', async () => {
    await expect(uk.desk('categorizeTransactions', { ids: [rows.paint], categoryCode: '5100', taxCode: 'Z' })).rejects.toMatchObject({
      code: 'period_locked',
      message: expect.stringContaining('only as a correction in the next open return'),
      details: { taxReturn: filed.id, from: q1.from, to: q1.to },
    });
    await expect(uk.desk('deleteTransaction', { id: rows.cables })).rejects.toMatchObject({ code: 'period_locked' });
    const { info } = await L.createToken(uk.ledger, uk.org.seq, { name: 'Bot', scopes: ['read', 'propose-write'] });
    const tokenSeq = (await uk.ledger.stmt('SELECT seq FROM tokens WHERE id = ?').pluck().get(info.id)) as number;
    const agent = { type: 'token', tokenSeq, tokenId: info.id, tokenName: 'Bot', channel: 'rest' } as const;
    await expect(L.proposeCategorization(uk.ledger, uk.org.seq, agent, { transactionId: rows.paint, categoryCode: '5200' })).rejects.toThrow(
      expect.objectContaining({ code: 'period_locked', status: 409 }),
    );
    expect((await report(q2)).corrections).toEqual([]);
  });

  it('recategorizes a purchase from standard to zero-rated: the filed return unchanged, the next one takes the exact difference, named', async () => {
    await uk.desk('categorizeTransactions', { ids: [rows.paint], categoryCode: '5100', taxCode: 'Z', correction: true });
    const [q1Now] = (await uk.desk<L.FiledReturn[]>('listTaxReturns')).filter((r) => r.id === filed.id);
    expect(q1Now).toEqual(filed);
    const next = await report(q2);
    // The paint's 120.00 was 100.00 net and 20.00 VAT; zero-rated it is 120.00 net: box 4 down 20.00, box 7 up 20.00.
    expect(next.boxes).toMatchObject({ '1': 100, '4': -20, '5': 120, '6': 500, '7': 20 });
    expect(next.payable).toBe(120);
    const named = { transactionId: rows.paint, date: '2026-02-10', description: 'Paint', deleted: false, taxReturn: { id: filed.id, ...q1, filedAt: filed.filedAt } };
    expect(next.corrections).toEqual([
      { ...named, correctionId: expect.any(String), code: 'S', side: 'purchases', net: -100, tax: -20, boxes: { '7': -100, '4': -20 } },
      { ...named, correctionId: next.corrections[0].correctionId, code: 'Z', side: 'purchases', net: 120, tax: 0, boxes: { '7': 120 } },
    ]);
    expect(next.correctionThreshold).toMatchObject({ netValue: 20, limit: 10000, exceeded: false });
    // The tax audit report: the lines behind box 4 and box 7 add up to them, the adjustments among them.
    const box4 = await auditSum(q2, '4', 'tax');
    expect(box4.sum).toBe(-20);
    expect(box4.lines).toContainEqual(
      expect.objectContaining({ transactionId: rows.paint, code: 'S', tax: -20, correction: { id: next.corrections[0].correctionId, taxReturn: named.taxReturn } }),
    );
    expect((await auditSum(q2, '7', 'net')).sum).toBe(20);
    const [entry] = (await L.listAudit(uk.ledger, uk.org.seq, { action: 'tax.corrected', limit: 1, offset: 0 })).entries;
    expect(entry).toMatchObject({ targetType: 'transaction', targetId: rows.paint });
    expect(entry.summary).toContain(`of the return for 2026-01-01 to 2026-03-31 (filed ${filed.filedAt.slice(0, 10)}, ${filed.id})`);
    expect(entry.summary).toContain('"Paint" 2026-02-10 -120.00 GBP: S purchases net -100.00 tax -20.00; Z purchases net +120.00; boxes 4 -20.00, 7 +20.00; net value +20.00');
    // Still the filed return's row: the next change asks again.
    await expect(uk.desk('categorizeTransactions', { ids: [rows.paint], categoryCode: '5000' })).rejects.toMatchObject({ code: 'period_locked' });
    // The filed quarter shown again (the Tax screen, report tax) is what was filed, saying a row was corrected since.
    const shown = await report(q1);
    expect(shown).toEqual({ ...filed.report, filed: { id: filed.id, filedAt: filed.filedAt, filedBy: filed.filedBy, correctedSince: 1 } });
    expect(printTaxReturn(shown)[1]).toBe(
      `Filed ${filed.filedAt.slice(0, 10)} by ${filed.filedBy}: the figures as filed. 1 of its row(s) corrected since: the differences are in a later return.`,
    );
    // Asked on the other basis, it is worked out from the lines as they are now.
    expect((await uk.desk<L.TaxReturn>('taxReport', { ...q1, basis: 'cash' })).filed).toBeUndefined();
  });

  it('recomputes the open correction when the row changes again before the next return is filed', async () => {
    await uk.desk('categorizeTransactions', { ids: [rows.paint], categoryCode: '5100', taxCode: 'R', correction: true });
    const paint = (await report(q2)).corrections.filter((c) => c.transactionId === rows.paint);
    // Against what was filed (S), not against the zero-rating: 5% of 120.00 is 5.71.
    expect(paint.map((c) => [c.code, c.net, c.tax])).toEqual([
      ['R', 114.29, 5.71],
      ['S', -100, -20],
    ]);
    expect(new Set(paint.map((c) => c.correctionId)).size).toBe(1);
    await uk.desk('categorizeTransactions', { ids: [rows.paint], categoryCode: '5100', taxCode: 'S', correction: true });
    expect((await report(q2)).corrections).toEqual([]);
    expect((await L.listAudit(uk.ledger, uk.org.seq, { action: 'tax.corrected', limit: 1, offset: 0 })).entries[0].summary).toContain('no difference left');
    await uk.desk('splitTransaction', { id: rows.paint, lines: ['5100=100:paint@Z', '5000=20:brushes@S'], correction: true });
    expect((await report(q2)).corrections.map((c) => [c.code, c.net, c.tax])).toEqual([
      ['S', -83.33, -16.67],
      ['Z', 100, 0],
    ]);
    await uk.desk('unsplitTransaction', { id: rows.paint, categoryCode: '5100', correction: true });
    await uk.desk('categorizeTransactions', { ids: [rows.paint], categoryCode: '5100', taxCode: 'Z', correction: true });
    expect(await boxes(q2, '4', '7')).toEqual({ '4': -20, '7': 20 });
  });

  it('takes back box 4 and box 7 for a deleted purchase, and an amount changed by hand', async () => {
    await uk.desk('deleteTransaction', { id: rows.cables, correction: true });
    const cables = (await report(q2)).corrections.find((c) => c.transactionId === rows.cables)!;
    expect(cables).toMatchObject({ description: 'Cables', deleted: true, code: 'S', net: -50, tax: -10 });
    expect(await boxes(q2, '4', '7')).toEqual({ '4': -30, '7': -30 });
    await uk.desk('editTransaction', { id: rows.chair, amount: '-300.00', correction: true });
    expect(await boxes(q2, '4', '7')).toEqual({ '4': -20, '7': 20 });
    expect((await auditSum(q2, '4', 'tax')).sum).toBe(-20);
  });

  it('moves a row dated out of the filed quarter into its own return: what was filed is taken back, the row taken whole', async () => {
    await uk.desk('editTransaction', { id: rows.chair, date: '2026-04-15', correction: true });
    const chair = (await report(q2)).corrections.filter((c) => c.transactionId === rows.chair);
    expect(chair.map((c) => [c.date, c.code, c.net, c.tax])).toEqual([['2026-04-15', 'S', -200, -40]]);
    expect(await boxes(q2, '4', '7')).toEqual({ '4': -20, '7': 20 }); // -40 back, +50 in the period: as before
    // No longer a filed return's row: it changes as any row of an open period.
    await uk.desk('editTransaction', { id: rows.chair, description: 'Office chair' });
  });

  it('flags corrections over HMRC threshold (10,000, or 1% of box 6 up to 50,000) and files them only when confirmed; filing stamps them', async () => {
    await uk.desk('categorizeTransactions', { ids: [rows.big], categoryCode: '4000', taxCode: 'Z', correction: true });
    const next = await report(q2);
    // Output tax 20,000.00 less; the paint, the cables and the chair's 40.00 taken back add 70.00.
    expect(next.correctionThreshold).toEqual({
      netValue: -19930,
      limit: 10000,
      exceeded: true,
      message: "These corrections exceed HMRC's error correction threshold: disclose them separately (form VAT652) instead of including them",
      source: expect.stringContaining('VAT Notice 700/45'),
    });
    // `report tax` prints them apart, each naming its row and the return, and the flag; its CSV has them too.
    const printed = printTaxReturn(next);
    expect(printed).toContain('Corrections of earlier returns (in the figures above): date, code, side, net, tax');
    expect(printed.find((l) => l.includes('Big contract') && l.includes(' S '))).toContain(
      `[${rows.big}]  corrects 2026-01-01 to 2026-03-31 (filed ${filed.filedAt.slice(0, 10)})`,
    );
    expect(printed).toContain(
      "These corrections exceed HMRC's error correction threshold: disclose them separately (form VAT652) instead of including them (net value -19930.00, threshold 10000.00 GBP).",
    );
    expect(taxReturnCsv(next)).toContain(`correction,Z,"2026-01-20 Big contract [${rows.big}], corrects 2026-01-01 to 2026-03-31 (${filed.id})",,120000,0,,,\r\n`);
    await expect(uk.desk('fileTaxReturn', q2)).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'confirmCorrections' }] });
    const second = await uk.desk<L.FiledReturn>('fileTaxReturn', { ...q2, confirmCorrections: true });
    expect(second.report.corrections.length).toBe(6);
    expect(second.report.correctionThreshold?.exceeded).toBe(true);
    expect((await L.listAudit(uk.ledger, uk.org.seq, { action: 'tax.return_filed', limit: 1, offset: 0 })).entries[0].summary).toContain(
      '4 correction(s) of earlier returns over the threshold (-19930.00), confirmed',
    );
    // Stamped: the next return has none; the filed one, recomputed, still has its own.
    expect((await report(q3)).corrections).toEqual([]);
    expect((await report(q2)).corrections.length).toBe(6);
    expect((await uk.desk<L.FiledReturn[]>('listTaxReturns')).find((r) => r.id === filed.id)).toEqual(filed);
  });

  it('chains a second correction after the first was filed: against what the row said then', async () => {
    await uk.desk('categorizeTransactions', { ids: [rows.paint], categoryCode: '5100', taxCode: 'S', correction: true });
    const next = await report(q3);
    expect(next.corrections.map((c) => [c.code, c.net, c.tax, c.taxReturn.id])).toEqual([
      ['S', 100, 20, filed.id],
      ['Z', -120, 0, filed.id],
    ]);
    expect(await boxes(q3, '4', '7')).toEqual({ '4': 20, '7': -20 });
    expect(next.correctionThreshold?.exceeded).toBe(false);
  });

  it('reads a return filed before corrections existed as including none', async () => {
    // The report is JSON text: SQLite's json_remove, PostgreSQL's jsonb minus its keys.
    const dropped = bySql(uk.ledger, {
      sqlite: "json_remove(report, '$.corrections', '$.correctionThreshold')",
      postgres: "(report::jsonb - 'corrections' - 'correctionThreshold')::text",
    });
    await uk.ledger.stmt(`UPDATE tax_returns SET report = ${dropped} WHERE id = ?`).run(filed.id);
    expect((await uk.desk<L.FiledReturn[]>('listTaxReturns')).find((r) => r.id === filed.id)).toEqual(filed);
  });

  it('still refuses a correction dated on or before the closing date: the closing date is separate', async () => {
    await uk.desk('lockPeriod', { through: '2026-03-31' });
    await expect(uk.desk('categorizeTransactions', { ids: [rows.sale], categoryCode: '4000', taxCode: 'Z', correction: true })).rejects.toMatchObject({
      code: 'period_locked',
      details: { lockedThrough: '2026-03-31' },
    });
    await expectTotalsMatchRows(uk.ledger);
  });
});

describe('the ATO debit error value limit', () => {
  it('flags debit errors (tax owed) of 16,000 or more, net of credit errors; credit errors alone are never flagged', async () => {
    const au = await books('au', 'AUD', 'au-gst');
    await au.start();
    const exported = await au.add('2026-07-10', '176000.00', 'Export that was not', '4000', 'FRE');
    const taxed = await au.add('2026-08-10', '220000.00', 'Export after all', '4000', 'GST');
    await au.desk('fileTaxReturn', q3);
    const next = { from: '2026-10-01', to: '2026-12-31' };
    await au.desk('categorizeTransactions', { ids: [exported], categoryCode: '4000', taxCode: 'GST', correction: true });
    expect((await au.desk<L.TaxReturn>('taxReport', next)).correctionThreshold).toMatchObject({ netValue: 16000, limit: 16000, exceeded: true });
    await au.desk('categorizeTransactions', { ids: [taxed], categoryCode: '4000', taxCode: 'FRE', correction: true });
    const bas = await au.desk<L.TaxReturn>('taxReport', next);
    expect(bas.correctionThreshold).toMatchObject({ netValue: -4000, exceeded: false });
    expect(bas.boxes).toEqual({ G1: 0, '1A': -4000, '1B': 0 });
    await expectTotalsMatchRows(au.ledger);
  });
});

describe('the owner commands', () => {
  it('refuse a change to a filed row without --correction, make it with it, and print the corrections in report tax', () => {
    const data = tempDir();
    const run = (...args: string[]) => {
      const r = spawnSync(process.execPath, [join(__dirname, '..', 'bin', 'ledgerdesk.mjs'), ...args, ...booksFlags(data), ...(args[0] === 'org' ? [] : ['--org', 'studio'])], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    expect(run('org', 'create', 'studio', '--currency', 'GBP', '--tax-set', 'uk-vat', '--chart', 'default').code).toBe(0);
    expect(run('account', 'create', 'Bank', '--type', 'checking').code).toBe(0);
    const added = run(
      'tx',
      'add',
      '--account',
      'Bank',
      '--date',
      '2026-02-10',
      '--amount',
      '-120',
      '--description',
      'Paint',
      '--category-code',
      '5100',
      '--tax-code',
      'S',
      '--json',
    );
    const id = JSON.parse(added.stdout).id as string;
    expect(run('tax', 'return', 'file', '--from', '2026-01-01', '--to', '2026-03-31').code).toBe(0);
    const refused = run('tx', 'categorize', id, '--category-code', '5100', '--tax-code', 'Z');
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("period_locked: This row's tax was filed in the return for 2026-01-01 to 2026-03-31")]);
    expect(refused.stderr).toContain('(--correction; the screens ask)');
    const made = run('tx', 'categorize', id, '--category-code', '5100', '--tax-code', 'Z', '--correction');
    expect(made.code, made.stderr).toBe(0);
    const printed = run('report', 'tax', '--from', '2026-04-01', '--to', '2026-06-30');
    expect(printed.stdout).toContain('Corrections of earlier returns (in the figures above): date, code, side, net, tax');
    expect(printed.stdout).toMatch(new RegExp(`2026-02-10  Z      purchases +120\\.00 +0\\.00  Paint  \\[${id}\\]  corrects 2026-01-01 to 2026-03-31`));
  }, 60_000);
});

// The filing trap (issue 50), on both engines: a VAT return for a quarter that
// has not ended by the ledger's clock is refused (HMRC's TAX_PERIOD_NOT_ENDED),
// so invoices dated in the rest of the quarter are still taken; the return
// shown says when it can be filed. A filing recorded by mistake is undone by an
// owner or accountant, with the reason, audited: the latest first, never a
// paid one, a submitted one or the tax owed at a conversion. Undoing gives the
// return's lines back to its period, drops the corrections made of it, and
// opens again the corrections of earlier returns it included (one per row, a
// row corrected again since included). The owner commands too (`tax return
// file` refused for the quarter today is in; `tax return unfile --reason`).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { printTaxReturn } from '../src/main/desk/tax/tax';
import { periodOf } from '../src/main/ledger/tax/periods';
import { booksFlags } from './support/books';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';

const { ledger, dir } = await tempLedger();
const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
const org = await L.createOrganization(ledger, { slug: 'trap', name: 'Trap Ltd', currency: 'GBP' });
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const add = async (date: string, amount: string, description: string, categoryCode: string, taxCode: string) =>
  (await desk<{ id: string }>('addTransaction', { account: 'Bank', date, amount, description, categoryCode, taxCode })).id;
const invoice = (date: string) => desk<L.Document>('createInvoice', { customer: 'Acme Ltd', date, issue: true, lines: ['Design;1;1000;4000;S'] });
const q2 = { from: '2026-04-01', to: '2026-06-30' };
const q3 = { from: '2026-07-01', to: '2026-09-30' };
const q4 = { from: '2026-10-01', to: '2026-12-31' };
/** The ledger's clock on a day (core/clock.ts reads Date): as the bookkeeper's was. */
const on = (day: string) => vi.setSystemTime(new Date(`${day}T12:00:00Z`));
const rows: Record<string, string> = {};
const returnOf = async (period: { from: string }) => (await L.listTaxReturns(ledger, org.seq)).find((r) => r.from === period.from)!;

beforeAll(async () => {
  await desk('setupTax', { set: 'uk-vat' });
  await desk('createAccount', { name: 'Bank', type: 'checking' });
  await desk('addContact', { name: 'Acme Ltd', kind: 'customer' });
  rows.may = await add('2026-05-12', '-120.00', 'Paint', '5100', 'S');
  rows.aug = await add('2026-08-03', '600.00', 'August work', '4000', 'S');
  rows.oct = await add('2026-10-14', '1200.00', 'October work', '4000', 'S');
});
afterEach(() => void vi.useRealTimers());

describe('a quarter that has not ended', () => {
  it('is not filed: tax_period_not_ended, naming `to` and the first day it can be; the return says so', async () => {
    on('2026-11-28');
    await expect(desk('fileTaxReturn', q4)).rejects.toMatchObject({
      code: 'tax_period_not_ended',
      message: 'The period 2026-10-01 to 2026-12-31 has not ended (today is 2026-11-28): its return can be filed from 2027-01-01.',
      details: { field: 'to', to: '2026-12-31', fileFrom: '2027-01-01' },
    });
    await expect(desk('fileTaxReturn', { from: '2026-11-01', to: '2026-11-28' })).rejects.toMatchObject({ code: 'tax_period_not_ended' });
    const shown = await desk<L.TaxReturn>('taxReport', q4);
    expect(shown).toMatchObject({ from: q4.from, to: q4.to, fileFrom: '2027-01-01' });
    expect(printTaxReturn(shown).at(-1)).toBe('The period has not ended: it can be filed from 2027-01-01.');
    expect((await desk<L.TaxReturn>('taxReport', q3)).fileFrom).toBeUndefined();
    expect(await L.listTaxReturns(ledger, org.seq)).toEqual([]);
  });

  it('leaves the rest of the quarter open to VAT invoices (accrual basis); its return is filed once it has ended', async () => {
    await desk('taxSettings', { basis: 'accrual' });
    on('2026-11-28');
    await desk('fileTaxReturn', q2);
    await desk('fileTaxReturn', q3);
    expect((await invoice('2026-12-05')).status).toBe('sent');
    on('2027-01-01');
    const filed = await desk<L.FiledReturn>('fileTaxReturn', q4);
    expect([filed.from, filed.report.boxes['1'], filed.report.fileFrom]).toEqual([q4.from, 400, undefined]);
  });
});

describe('undoing a filing recorded by mistake', () => {
  it('needs a reason, and the latest filing first: a later return rests on it', async () => {
    const third = await returnOf(q3);
    await expect(desk('unfileTaxReturn', { returnId: third.id, reason: ' ' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'reason' }] });
    await expect(L.unfileTaxReturn(ledger, org.seq, L.deskActor(), third.id, '')).rejects.toMatchObject({ details: [{ field: 'reason' }] });
    await expect(desk('unfileTaxReturn', { returnId: third.id, reason: 'Filed too soon' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('The return for 2026-10-01 to 2026-12-31 was filed after it and rests on it: undo the latest filing first'),
      details: { reason: 'later' },
    });
  });

  it('takes back the latest: its lines are open again, invoices dated in it are taken, the Log has the reason', async () => {
    const fourth = await returnOf(q4);
    await expect(invoice('2026-12-10')).rejects.toMatchObject({ code: 'period_locked' });
    const undone = await desk<L.UnfiledReturn>('unfileTaxReturn', { returnId: fourth.id, reason: 'Filed on 28 November by mistake' });
    expect(undone).toMatchObject({ id: fourth.id, from: q4.from, to: q4.to, correctionsReopened: 0, correctionsDropped: 0 });
    expect(
      await ledger.stmt('SELECT count(*) FROM lines WHERE tax_return_seq IS NOT NULL AND transaction_seq = (SELECT seq FROM transactions WHERE id = ?)').pluck().get(rows.oct),
    ).toBe(0);
    expect((await L.listTaxReturns(ledger, org.seq)).map((r) => r.from)).toEqual([q3.from, q2.from]);
    expect((await invoice('2026-12-10')).status).toBe('sent');
    const [entry] = (await L.listAudit(ledger, org.seq, { action: 'tax.return_unfiled', limit: 1, offset: 0 })).entries;
    expect(entry.summary).toMatch(
      /^Filing undone of the return for 2026-10-01 to 2026-12-31 \(filed 2027-01-01 by .+: \d+ line\(s\), payable 400\.00 GBP\): Filed on 28 November by mistake$/,
    );
    expect(await L.currentTaxPeriod(ledger, org.seq)).toEqual(q4);
    expect((await L.verifyAuditChain(ledger, org.seq)).ok).toBe(true);
  });

  it('refuses a paid return, a submitted one and the tax owed at a conversion', async () => {
    const third = await returnOf(q3);
    await ledger.stmt('UPDATE tax_returns SET submission_receipt = ? WHERE id = ?').run('{"formBundleNumber":"123456789012"}', third.id);
    await expect(desk('unfileTaxReturn', { returnId: third.id, reason: 'x' })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'submitted' } });
    await ledger.stmt('UPDATE tax_returns SET submission_receipt = NULL WHERE id = ?').run(third.id);
    expect(third.payable).toBe(100);
    const paid = (await desk<{ id: string }>('addTransaction', { account: 'Bank', date: '2026-10-20', amount: '-100.00', description: 'HMRC VAT' })).id;
    await desk('payTaxReturn', { returnId: third.id, transactionId: paid });
    await expect(desk('unfileTaxReturn', { returnId: third.id, reason: 'x' })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'paid' } });
    // Unpaid again once the row is no longer its payment.
    await desk('deleteTransaction', { id: paid });
    const other = await L.createOrganization(ledger, { slug: 'opened', name: 'Opened Ltd', currency: 'GBP' });
    await deskAs(ctx, other.id, 'setupTax', { set: 'uk-vat' });
    await deskAs(ctx, other.id, 'setOpeningBalances', { date: '2026-07-01', lines: ['tax-control=-500'], balanceToEquity: true });
    const [opening] = await L.listTaxReturns(ledger, other.seq);
    expect(opening).toMatchObject({ openingBalances: true, submitted: false });
    await expect(deskAs(ctx, other.id, 'unfileTaxReturn', { returnId: opening.id, reason: 'x' })).rejects.toMatchObject({ details: { reason: 'opening' } });
  });

  it('drops the corrections made of it and opens again those of earlier returns it included, one per row', async () => {
    // Q2's Paint corrected (S to Z) and included in Q3's return; after Q3 was filed, changed again (to R); Q3's August work corrected too.
    const third = await returnOf(q3);
    await desk('unfileTaxReturn', { returnId: third.id, reason: 'Refile with the correction' });
    await desk('categorizeTransactions', { ids: [rows.may], categoryCode: '5100', taxCode: 'Z', correction: true });
    on('2026-11-28');
    await desk('fileTaxReturn', q3);
    const refiled = await returnOf(q3);
    expect(refiled.report.corrections.map((c) => [c.code, c.net, c.tax])).toEqual([
      ['S', -100, -20],
      ['Z', 120, 0],
    ]);
    await desk('categorizeTransactions', { ids: [rows.may], categoryCode: '5100', taxCode: 'R', correction: true });
    await desk('categorizeTransactions', { ids: [rows.aug], categoryCode: '4000', taxCode: 'Z', correction: true });
    expect((await L.taxReturn(ledger, org.seq, q4)).corrections).toHaveLength(4);
    const undone = await desk<L.UnfiledReturn>('unfileTaxReturn', { returnId: refiled.id, reason: 'Wrong figures' });
    expect([undone.correctionsReopened, undone.correctionsDropped]).toEqual([1, 1]);
    // One correction of Paint against Q2 (as filed there, S, to R now); August work is Q3's as it is now (Z).
    const again = await L.taxReturn(ledger, org.seq, q3);
    expect(again.corrections.map((c) => [c.taxReturn.from, c.code, c.net, c.tax])).toEqual([
      [q2.from, 'R', 114.29, 5.71],
      [q2.from, 'S', -100, -20],
    ]);
    expect(again.codes.find((c) => c.code === 'Z')).toMatchObject({ netSales: 600 });
    expect(await ledger.stmt('SELECT count(*) FROM tax_corrections WHERE org_seq = ? AND filed_in_seq IS NULL').pluck().get(org.seq)).toBe(1);
  });
});

describe('the owner command', () => {
  it('refuses filing the quarter today is in, and undoes a filing with --reason', () => {
    const data = tempDir();
    const run = (...args: string[]) => {
      const r = spawnSync(process.execPath, [join(__dirname, '..', 'bin', 'ledgerdesk.mjs'), ...args, ...booksFlags(data), ...(args[0] === 'org' ? [] : ['--org', 'cmd'])], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    expect(run('org', 'create', 'cmd', '--currency', 'GBP', '--tax-set', 'uk-vat').code).toBe(0);
    const now = periodOf({ period: 'quarterly', startMonth: 1, basis: 'accrual' }, new Date().toISOString().slice(0, 10));
    const refused = run('tax', 'return', 'file', '--from', now.from, '--to', now.to);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(`tax_period_not_ended: The period ${now.from} to ${now.to} has not ended`)]);
    const filed = run('tax', 'return', 'file', '--from', '2026-01-01', '--to', '2026-03-31', '--json');
    expect(filed.code, filed.stderr).toBe(0);
    const id = (JSON.parse(filed.stdout) as L.FiledReturn).id;
    const undone = run('tax', 'return', 'unfile', id, '--reason', 'Filed the wrong quarter');
    expect([undone.code, undone.stdout.trim()]).toEqual([
      0,
      'Undid the filing of the return for 2026-01-01 to 2026-03-31: it is open again and can be filed once its period has ended.',
    ]);
  }, 240_000);
});

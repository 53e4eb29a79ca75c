// Books taken over mid-year (issue 50), on both engines. The opening entry is
// dated the day before the conversion date, as Xero dates conversion balances:
// a conversion on 1 July carrying the year's revenue and expenses to date puts
// none of them in the third quarter's profit and loss, the balance sheet of 30
// June holds the whole entry, and hledger and bean-check read the same figures
// from the exports. On the cash basis the VAT inside the open invoices and
// bills is due when they are paid: the return of the period they are paid in
// declares it (boxes 1 and 6, 4 and 7), the accrual return never does (it was
// declared before the conversion); open documents without it are warned of.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { deskAs } from './support/desk';
import { accountantTool, tempDir, tempLedger } from './support/env';

const { ledger, dir } = await tempLedger();
const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
const Q3 = { from: '2026-07-01', to: '2026-09-30' };

describe('a new organization', () => {
  it("files its VAT returns on the accrual basis by default (HMRC's standard VAT accounting), as its reports", async () => {
    const org = await L.createOrganization(ledger, { slug: 'fresh', name: 'Fresh Ltd', currency: 'GBP' });
    expect((await L.taxSettings(ledger, org.seq)).basis).toBe('accrual');
    expect(org.reportBasis).toBe('accrual');
  });
});

describe('a conversion on 2026-07-01 carrying the year to date', () => {
  let org: L.Organization;
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  let set: L.OpeningBalances;

  beforeAll(async () => {
    org = await L.createOrganization(ledger, { slug: 'midyear', name: 'Midyear Ltd', currency: 'GBP' });
    await desk('createAccount', { name: 'Current', type: 'checking' });
    // The year to date from the books before: 33,000 of revenue and 12,000 of expenses, January to June.
    set = await desk<L.OpeningBalances>('setOpeningBalances', { date: '2026-07-01', lines: ['Current=21000', '4000=-33000', '5300=12000'] });
    await desk('addTransaction', { account: 'Current', date: '2026-08-20', amount: '11000', description: 'Brand identity for Corvid', categoryCode: '4000' });
  });

  it('is dated the day before: the conversion date is the day the books start', async () => {
    expect([set.date, set.asAt, set.difference]).toEqual(['2026-07-01', '2026-06-30', 0]);
    expect(await ledger.stmt("SELECT date FROM journals WHERE org_seq = ? AND kind = 'opening'").pluck().get(org.seq)).toBe('2026-06-30');
    expect(await ledger.stmt('SELECT DISTINCT p.date FROM postings p JOIN journals j ON j.seq = p.journal_seq WHERE j.org_seq = ?').pluck().all(org.seq)).toEqual(['2026-06-30']);
    expect((await L.listAccounts(ledger, org.seq)).find((a) => a.name === 'Current')).toMatchObject({ openingDate: '2026-06-30' });
  });

  it("puts none of the year to date in the third quarter's profit and loss: Q3's revenue is Q3's", async () => {
    const q3 = await L.profitAndLoss(ledger, org.seq, Q3);
    expect([q3.revenue, q3.expenses, q3.net]).toEqual([11000, 0, 11000]);
    const h1 = await L.profitAndLoss(ledger, org.seq, { from: '2026-01-01', to: '2026-06-30' });
    expect([h1.revenue, h1.expenses]).toEqual([33000, -12000]);
    const ledgerQ3 = await L.generalLedger(ledger, org.seq, { account: '4000', from: Q3.from, to: Q3.to, limit: 10, offset: 0 });
    expect(ledgerQ3.meta.totalCount).toBe(1);
  });

  it('has the balance sheet of 2026-06-30 hold the whole entry, and the day before hold nothing', async () => {
    const june = await L.balanceSheet(ledger, org.seq, { date: '2026-06-30' });
    expect(june.assets.lines.map((l) => [l.name, l.amount])).toEqual([['Current', 21000]]);
    expect([june.assets.total, june.liabilitiesAndEquity, june.currentYearEarnings]).toEqual([21000, 21000, 21000]);
    expect((await L.balanceSheet(ledger, org.seq, { date: '2026-06-29' })).assets.total).toBe(0);
    expect((await L.balanceSheet(ledger, org.seq, { date: '2026-09-30' })).currentYearEarnings).toBe(32000);
  });

  it('exports the same figures: hledger and bean-check read the entry on 2026-06-30, and the quarter without it', async () => {
    const journal = join(tempDir(), 'books.journal');
    const beancount = join(tempDir(), 'books.beancount');
    await desk('exportBooks', { format: 'hledger', out: journal });
    await desk('exportBooks', { format: 'beancount', out: beancount });
    const hledger = accountantTool('hledger');
    execFileSync(hledger, ['-f', journal, 'check', 'accounts', 'commodities']);
    const income = (...period: string[]) =>
      execFileSync(hledger, ['-f', journal, 'bal', '^income', '-N', '-O', 'csv', ...period], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => Number((JSON.parse(`[${line}]`) as [string, string])[1].replace(/ GBP$/, '')));
    expect(income('-b', Q3.from, '-e', '2026-10-01')).toEqual([-11000]);
    expect(income('-e', Q3.from)).toEqual([-33000]);
    expect(execFileSync(hledger, ['-f', journal, 'reg', '^income', '-e', Q3.from, '-O', 'csv'], { encoding: 'utf8' })).toContain('"2026-06-30"');
    execFileSync(accountantTool('bean-check'), [beancount]);
    const quarter = execFileSync(
      accountantTool('bean-query'),
      ['-f', 'csv', beancount, `SELECT sum(number) AS total WHERE account ~ '^Income' AND date >= ${Q3.from} AND date <= ${Q3.to}`],
      { encoding: 'utf8' },
    );
    expect(Number(quarter.trim().split('\n')[1])).toBe(-11000);
    const before = execFileSync(accountantTool('bean-query'), ['-f', 'csv', beancount, `SELECT sum(number) AS total WHERE account ~ '^Income' AND date <= 2026-06-30`], {
      encoding: 'utf8',
    });
    expect(Number(before.trim().split('\n')[1])).toBe(-33000);
  });

  it('refuses an open document dated on the conversion day (entered as any invoice) and closes with the books closed through the day before', async () => {
    await desk('addContact', { name: 'Acme Ltd', kind: 'customer' });
    const input = { date: '2026-07-01', lines: ['Current=21000', '4000=-33000', '5300=12000'], balanceToEquity: true };
    await expect(desk('setOpeningBalances', { ...input, invoices: ['INV-9;Acme Ltd;2026-07-01;;100'] })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'invoices[0].date' }],
    });
    await desk('lockPeriod', { through: '2026-06-30' });
    await expect(desk('setOpeningBalances', input)).rejects.toMatchObject({ code: 'period_locked', details: { date: '2026-06-30' } });
    await desk('unlockPeriod', {});
  });
});

describe('cash-basis VAT inside the open invoices and bills', () => {
  let org: L.Organization;
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  const row = async (date: string, amount: string, description: string) => (await desk<{ id: string }>('addTransaction', { account: 'Current', date, amount, description })).id;
  const opening = {
    date: '2026-07-01',
    lines: ['Current=12000', 'tax-control=-2400'],
    invoices: ['INV-0412;Acme Ltd;2026-06-10;2026-07-10;1,200.00;;S;200.00', 'INV-0415;Bolt & Co;2026-06-25;;960.00'],
    bills: [{ number: 'PC-77', contact: 'Paper Co', date: '2026-06-20', outstanding: '240.00', taxCode: 'S', tax: '40.00' }],
    balanceToEquity: true,
  };

  beforeAll(async () => {
    org = await L.createOrganization(ledger, { slug: 'cashvat', name: 'Cash VAT Ltd', currency: 'GBP' });
    await desk('setupTax', { set: 'uk-vat' });
    await desk('taxSettings', { basis: 'cash' });
    await desk('createAccount', { name: 'Current', type: 'checking' });
    for (const [name, kind] of [
      ['Acme Ltd', 'customer'],
      ['Bolt & Co', 'customer'],
      ['Paper Co', 'vendor'],
    ])
      await desk('addContact', { name, kind });
  });

  it('takes each document with its tax code and VAT: the VAT is in the tax control account, due when paid; one without is warned of', async () => {
    const set = await desk<L.OpeningBalances>('setOpeningBalances', opening);
    expect(set.invoices.map((d) => [d.number, d.outstanding, d.taxCode, d.tax])).toEqual([
      ['INV-0412', 1200, 'S', 200],
      ['INV-0415', 960, null, null],
    ]);
    expect(set.bills.map((d) => [d.number, d.taxCode, d.tax])).toEqual([['PC-77', 'S', 40]]);
    // The invoice's 200.00 is owed when paid (a credit), the bill's 40.00 due back (a debit).
    expect(set.lines.filter((l) => l.ref === 'tax-control').map((l) => [l.kind, l.amount])).toEqual([
      ['tax', -2400],
      ['vat', -160],
    ]);
    expect(set.taxReturn).toMatchObject({ from: '2026-04-01', to: '2026-06-30', payable: 2400 });
    expect(set.warnings).toEqual([expect.stringContaining('1 open invoice(s) or bill(s) of the opening balances carry no VAT (INV-0415)')]);
    const control = (await L.balanceSheet(ledger, org.seq, { date: '2026-06-30' })).liabilities.lines.find((l) => l.ref === 'tax-control')!;
    expect(control.amount).toBe(2560);
    const shown = await desk<L.OpeningBalances>('openingBalances');
    expect(shown).toMatchObject({ asAt: '2026-06-30', taxBasis: 'cash' });
  });

  it("declares the paid documents' VAT and net in the cash return of the period they are paid in; the accrual return does not", async () => {
    await desk('payInvoice', { numbers: ['INV-0412'], transactionId: await row('2026-08-10', '1200.00', 'ACME LTD INV-0412') });
    await desk('payBill', { numbers: ['PC-77'], transactionId: await row('2026-08-15', '-240.00', 'PAPER CO PC-77') });
    const cash = await L.taxReturn(ledger, org.seq, { ...Q3, basis: 'cash' });
    expect([cash.boxes['1'], cash.boxes['6'], cash.boxes['4'], cash.boxes['7'], cash.boxes['5'], cash.payable]).toEqual([200, 1000, 40, 200, 160, 160]);
    expect(cash.codes).toEqual([expect.objectContaining({ code: 'S', netSales: 1000, taxSales: 200, netPurchases: 200, taxPurchases: 40 })]);
    const accrual = await L.taxReturn(ledger, org.seq, { ...Q3, basis: 'accrual' });
    expect([accrual.boxes['1'], accrual.boxes['6'], accrual.boxes['4'], accrual.boxes['7'], accrual.payable]).toEqual([0, 0, 0, 0, 0]);
    // Nothing in the second quarter's either: it was filed before these books.
    expect((await L.taxReturn(ledger, org.seq, { from: '2026-04-01', to: '2026-06-30', basis: 'cash' })).boxes['1']).toBe(0);
    const audit = await L.taxAudit(ledger, org.seq, { ...Q3, box: '1', basis: 'cash', limit: 10, offset: 0 });
    expect(audit.data.map((l) => [l.date, l.description, l.side, l.net, l.tax, l.document?.number])).toEqual([
      ['2026-08-10', 'Invoice INV-0412 Acme Ltd', 'sales', 1000, 200, 'INV-0412'],
    ]);
    // The control account: the VAT owed at the conversion and the quarter's payable.
    expect((await L.balanceSheet(ledger, org.seq, { date: Q3.to })).liabilities.lines.find((l) => l.ref === 'tax-control')!.amount).toBe(2560);
  });

  it('warns in the return of an open document without VAT paid in its period, and takes its VAT once given, though it was paid', async () => {
    await desk('payInvoice', { numbers: ['INV-0415'], transactionId: await row('2026-09-01', '960.00', 'BOLT INV-0415') });
    const before = await L.taxReturn(ledger, org.seq, { ...Q3, basis: 'cash' });
    expect(before.warnings).toEqual([expect.objectContaining({ code: 'opening_without_vat', documents: ['INV-0415'] })]);
    expect(before.warnings[0].message).toContain('paid in this period carry no VAT (INV-0415)');
    const given = { ...opening, invoices: [opening.invoices[0], 'INV-0415;Bolt & Co;2026-06-25;;960.00;;S;160.00'] };
    const set = await desk<L.OpeningBalances>('setOpeningBalances', given);
    expect(set.invoices.find((d) => d.number === 'INV-0415')).toMatchObject({ taxCode: 'S', tax: 160, settled: true });
    expect(set.warnings).toEqual([]);
    const after = await L.taxReturn(ledger, org.seq, { ...Q3, basis: 'cash' });
    expect([after.boxes['1'], after.boxes['6'], after.warnings]).toEqual([360, 1800, []]);
    expect((await L.listAudit(ledger, org.seq, { action: 'invoice.opening_vat', limit: 5, offset: 0 })).entries[0].summary).toContain('VAT 160.00 at S (was: no VAT given)');
  });

  it("refuses to change a paid document's VAT once a filed return took its payment, and a tax code without its VAT", async () => {
    await desk('fileTaxReturn', Q3);
    const changed = { ...opening, invoices: [opening.invoices[0], 'INV-0415;Bolt & Co;2026-06-25;;960.00;;S;150.00'] };
    await expect(desk('setOpeningBalances', changed)).rejects.toMatchObject({ code: 'period_locked', details: { number: 'INV-0415', date: '2026-09-01' } });
    await expect(desk('setOpeningBalances', { ...opening, invoices: ['INV-0500;Acme Ltd;2026-06-10;;100.00;;S'] })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'invoices[0].tax' }],
    });
    await expect(desk('setOpeningBalances', { ...opening, invoices: ['INV-0500;Acme Ltd;2026-06-10;;100.00;;Z;10.00'] })).rejects.toMatchObject({
      details: [{ field: 'invoices[0].tax', message: 'Z (zero rated) carries no VAT: 0' }],
    });
  });
});

describe('VAT inside the open documents on the accrual basis', () => {
  it('was declared before the conversion: it stays in the opening balances, and no return takes it', async () => {
    const org = await L.createOrganization(ledger, { slug: 'accrual', name: 'Accrual Ltd', currency: 'GBP' });
    const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
    await desk('setupTax', { set: 'uk-vat' });
    await desk('createAccount', { name: 'Current', type: 'checking' });
    await desk('addContact', { name: 'Acme Ltd', kind: 'customer' });
    const set = await desk<L.OpeningBalances>('setOpeningBalances', {
      date: '2026-07-01',
      lines: ['Current=1000', 'tax-control=-200'],
      invoices: ['INV-1;Acme Ltd;2026-06-10;;1,200.00;;S;200.00'],
      balanceToEquity: true,
    });
    expect([set.taxBasis, set.warnings, set.lines.some((l) => l.kind === 'vat'), set.invoices[0].tax]).toEqual(['accrual', [], false, 200]);
    const pay = await desk<{ id: string }>('addTransaction', { account: 'Current', date: '2026-08-10', amount: '1200', description: 'ACME INV-1' });
    await desk('payInvoice', { numbers: ['INV-1'], transactionId: pay.id });
    for (const basis of ['accrual', 'cash'] as const) expect((await L.taxReturn(ledger, org.seq, { ...Q3, basis })).boxes['1']).toBe(0);
    expect((await L.balanceSheet(ledger, org.seq, { date: Q3.to })).liabilities.lines.find((l) => l.ref === 'tax-control')!.amount).toBe(200);
  });
});

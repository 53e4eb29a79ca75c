// A VAT-registered design studio taken over mid-year (issue 43): the opening
// entry at the conversion date holds the money accounts, equipment and its
// depreciation, a director's loan, share capital, the VAT owed for the last
// quarter, and the open invoices and bills as documents; the balance sheet at
// the conversion date is the entry, line by line. Then a quarter of work: an
// open invoice and an open bill paid, the VAT owed paid to the tax office,
// a sale, monthly depreciation, an accrual reversed; the balance sheet at the
// quarter's end equals hledger's `bs` on the export, bean-check accepts the
// Beancount file and bean-query's balances are the books'. An existing file is
// upgraded in place, its balance sheet unchanged at every date.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { beancountAccountNames, BEANCOUNT_TAX } from '../src/main/exports/beancount';
import { HLEDGER_OPENING, HLEDGER_PAYABLE, HLEDGER_RECEIVABLE, HLEDGER_TAX, hledgerAccountNames } from '../src/main/exports/hledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { accountantTool, tempDir, tempLedger } from './support/env';

const { ledger, dir } = await tempLedger();
const org = await L.createOrganization(ledger, { slug: 'studio', name: 'Hartley Design Studio', currency: 'GBP' });
const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const CONVERSION = '2026-07-01';
const QUARTER_END = '2026-09-30';

const opening = {
  date: CONVERSION,
  lines: ['Current=12450.00', 'Savings=5000', '1500=9000', '1510=-1500', '2100=-6000', '3000=-100', 'tax-control=-2400'],
  invoices: ['INV-0412;Acme Ltd;2026-06-10;2026-07-10;1,800.00', 'INV-0415;Bolt & Co;2026-06-25;;960.00'],
  bills: ['PC-77;Paper Co;2026-06-20;2026-07-20;240.00'],
};

beforeAll(async () => {
  await desk('setupTax', { set: 'uk-vat' });
  await desk('createAccount', { name: 'Current', type: 'checking' });
  await desk('createAccount', { name: 'Savings', type: 'savings' });
  for (const [code, name, type] of [
    ['1500', 'Equipment', 'asset'],
    ['1510', 'Accumulated depreciation', 'asset'],
    ['2100', "Director's loan", 'liability'],
    ['2300', 'Accruals', 'liability'],
    ['3000', 'Share capital', 'equity'],
    ['3100', 'Retained earnings brought forward', 'equity'],
    ['5900', 'Depreciation', 'expense'],
  ])
    await desk('addCategory', { code, name, type });
  for (const [name, kind] of [
    ['Acme Ltd', 'customer'],
    ['Bolt & Co', 'customer'],
    ['Paper Co', 'vendor'],
  ])
    await desk('addContact', { name, kind });
});

describe('the opening entry at the conversion date', () => {
  it('is refused while debits and credits differ, saying by how much, unless the difference is put to Opening balances', async () => {
    const e = await deskAs(ctx, org.id, 'setOpeningBalances', opening).catch((error) => error);
    expect(e).toMatchObject({ code: 'validation_failed', details: [{ field: 'balanceToEquity', message: expect.stringContaining('18970.00 GBP over (debits exceed)') }] });
    expect((await L.showOpeningBalances(ledger, org.seq)).date).toBeNull();
  });

  it('balances with the earnings brought forward; the balance sheet at the conversion date is the entry, line by line', async () => {
    const set = await desk<L.OpeningBalances>('setOpeningBalances', { ...opening, lines: [...opening.lines, '3100=-18970'] });
    expect([set.totalDebit, set.totalCredit, set.difference]).toEqual([29210, 29210, 0]);
    expect(set.taxReturn).toMatchObject({ from: '2026-04-01', to: '2026-06-30', payable: 2400, paid: false });
    expect(set.invoices.map((d) => [d.number, d.contact, d.dueDate, d.outstanding])).toEqual([
      ['INV-0412', 'Acme Ltd', '2026-07-10', 1800],
      ['INV-0415', 'Bolt & Co', '2026-07-25', 960],
    ]);
    const sheet = await L.balanceSheet(ledger, org.seq, { date: CONVERSION });
    const entry = new Map(set.lines.map((l) => [l.ref, l.amount]));
    for (const section of ['assets', 'liabilities', 'equity'] as const)
      for (const l of sheet[section].lines.filter((x) => x.ref)) expect([l.name, l.amount]).toEqual([l.name, (section === 'assets' ? 1 : -1) * entry.get(l.ref!)!]);
    expect(sheet.assets.lines.map((l) => l.name).sort()).toEqual(['Accounts receivable', 'Accumulated depreciation', 'Current', 'Equipment', 'Savings']);
    expect(sheet.equity.lines.some((l) => l.ref === 'opening-balances')).toBe(false);
    expect([sheet.assets.total, sheet.liabilitiesAndEquity]).toEqual([27710, 27710]);
    // The open documents work from the first day: the aging, the statement.
    const aging = await L.aging(ledger, org.seq, 'receivables', CONVERSION);
    expect([aging.total, aging.contacts.map((c) => c.name)]).toEqual([2760, ['Acme Ltd', 'Bolt & Co']]);
    expect((await L.aging(ledger, org.seq, 'payables', CONVERSION)).total).toBe(240);
    await expectTotalsMatchRows(ledger);
  });

  it('is set again in place: unchanged documents stay, a figure changes, the same entry', async () => {
    const before = (await L.listAudit(ledger, org.seq, { action: 'invoice.opened', limit: 10, offset: 0 })).totalCount;
    const again = await desk<L.OpeningBalances>('setOpeningBalances', {
      ...opening,
      lines: [...opening.lines.filter((l) => !l.startsWith('Savings')), 'Savings=5200', '3100=-19170'],
    });
    expect(again.lines.find((l) => l.name === 'Savings')!.amount).toBe(5200);
    expect((await L.listAudit(ledger, org.seq, { action: 'invoice.opened', limit: 10, offset: 0 })).totalCount).toBe(before);
    expect(await ledger.stmt("SELECT count(*) FROM journals WHERE kind = 'opening'").pluck().get()).toBe(1);
    await desk('setOpeningBalances', { ...opening, lines: [...opening.lines, '3100=-18970'] });
    await expectTotalsMatchRows(ledger);
  });
});

describe('a quarter after the conversion', () => {
  let journal: string;
  let beancount: string;
  const add = async (date: string, amount: string, description: string, extra: Record<string, unknown> = {}) =>
    (await desk('addTransaction', { account: 'Current', date, amount, description, ...extra })).id as string;

  beforeAll(async () => {
    await desk('payInvoice', { numbers: ['INV-0412'], transactionId: await add('2026-07-08', '1800.00', 'ACME LTD INV-0412') });
    await desk('payBill', { numbers: ['PC-77'], transactionId: await add('2026-07-15', '-240.00', 'PAPER CO PC-77') });
    const vat = await add('2026-08-05', '-2400.00', 'HMRC VAT');
    const [candidate] = await desk<L.TaxPaymentCandidate[]>('taxPaymentCandidates');
    expect(candidate).toMatchObject({ from: '2026-04-01', to: '2026-06-30', transactionId: vat });
    await desk('payTaxReturn', { returnId: candidate.returnId, transactionId: vat });
    await add('2026-08-20', '1200.00', 'Brand identity for Corvid', { categoryCode: '4000', taxCode: 'S' });
    await desk('addJournal', { date: '2026-07-31', narration: 'Depreciation', lines: ['5900=250', '1510=-250'], repeat: 'monthly', count: 3 });
    await desk('addJournal', { date: '2026-09-30', narration: 'Accrued hosting', lines: ['5300=90@S', '2300=-108'], reverseOn: '2026-10-01' });
    journal = join(tempDir(), 'books.journal');
    beancount = join(tempDir(), 'books.beancount');
    await desk('exportBooks', { format: 'hledger', out: journal });
    await desk('exportBooks', { format: 'beancount', out: beancount });
  });

  it('the open invoice and bill are paid, the VAT owed settled: nothing left on the control account from before', async () => {
    expect(await L.aging(ledger, org.seq, 'receivables', QUARTER_END)).toMatchObject({ total: 960 });
    expect(await L.aging(ledger, org.seq, 'payables', QUARTER_END)).toMatchObject({ total: 0 });
    expect((await L.showOpeningBalances(ledger, org.seq)).taxReturn).toMatchObject({ paid: true });
    expect(await L.contactStatement(ledger, org.seq, 'Acme Ltd', { from: CONVERSION, to: QUARTER_END })).toMatchObject({ closing: 0 });
    const control = (await L.balanceSheet(ledger, org.seq, { date: QUARTER_END })).liabilities.lines.find((l) => l.ref === 'tax-control')!.amount;
    // The sale's output tax less the accrual's input tax: the next return's payable.
    expect(control).toBe(200 - 18);
    expect((await L.taxReturn(ledger, org.seq, { from: '2026-07-01', to: QUARTER_END })).payable).toBe(182);
    await expectTotalsMatchRows(ledger);
  });

  it("the balance sheet at the quarter's end is hledger's bs on the export, account by account", async () => {
    const hledger = accountantTool('hledger');
    execFileSync(hledger, ['-f', journal, 'check', 'accounts', 'commodities']);
    const bal = new Map(
      execFileSync(hledger, ['-f', journal, 'bal', '--flat', '-N', '-O', 'csv', '-e', '2026-10-01'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(`[${line}]`) as [string, string])
        .map(([account, amount]) => [account, amount === '0' ? 0 : Number(amount.replace(/ GBP$/, ''))]),
    );
    const sheet = await L.balanceSheet(ledger, org.seq, { date: QUARTER_END });
    const names = hledgerAccountNames(await L.exportBook(ledger, org.seq, {}));
    const nameOf = async (ref: string) =>
      ({ 'tax-control': HLEDGER_TAX, receivables: HLEDGER_RECEIVABLE, payables: HLEDGER_PAYABLE, 'opening-balances': HLEDGER_OPENING })[ref] ??
      (ref.startsWith('account:')
        ? names.money.get(ref.slice(8))!
        : names.categories.get((await L.listCategories(ledger, org.seq)).find((c) => `category:${c.code}` === ref)!.name)!);
    for (const section of ['assets', 'liabilities', 'equity'] as const)
      for (const l of sheet[section].lines.filter((x) => x.ref))
        expect([l.name, l.amount]).toEqual([l.name, (section === 'assets' ? 1 : -1) * (bal.get(await nameOf(l.ref!)) ?? 0)]);
    const bs = execFileSync(hledger, ['-f', journal, 'bs', '-e', '2026-10-01', '-O', 'csv'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(`[${line}]`) as [string, string]);
    const figure = (text: string) => (text === '0' ? 0 : Number(text.replace(/ GBP$/, '')));
    expect(bs.filter(([name]) => name === 'total').map(([, amount]) => figure(amount))).toEqual([sheet.assets.total, sheet.liabilities.total]);
    expect(figure(bs.find(([name]) => name === 'Net:')![1])).toBeCloseTo(sheet.equity.total, 6);
  });

  it('bean-check accepts the Beancount file and bean-query reads the books', async () => {
    execFileSync(accountantTool('bean-check'), [beancount]);
    const query = execFileSync(accountantTool('bean-query'), ['-f', 'csv', beancount, `SELECT account, sum(number) AS total WHERE date <= ${QUARTER_END} GROUP BY account`], {
      encoding: 'utf8',
    });
    const totals = new Map(
      query
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',').map((c) => c.trim()))
        .map(([account, total]) => [account, Number(total)]),
    );
    const names = beancountAccountNames(await L.exportBook(ledger, org.seq, {}));
    const sheet = await L.balanceSheet(ledger, org.seq, { date: QUARTER_END });
    expect(-(totals.get(BEANCOUNT_TAX) ?? 0)).toBe(sheet.liabilities.lines.find((l) => l.ref === 'tax-control')!.amount);
    const current = (await L.listAccounts(ledger, org.seq)).find((a) => a.name === 'Current')!;
    expect(totals.get(names.money.get(current.id)!)).toBe(sheet.assets.lines.find((l) => l.name === 'Current')!.amount);
  });
});

describe('the opening entry in another currency', () => {
  it("values a EUR account's opening balance and a EUR open invoice at the conversion date's rate; Opening balances' ledger adds up to its line", async () => {
    const { ledger: books } = await tempLedger();
    const me = L.deskActor();
    const o = await L.createOrganization(books, { slug: 'eu', name: 'EU clients', currency: 'GBP' });
    await L.createAccount(books, o.seq, me, { name: 'Current', type: 'checking' });
    await L.createAccount(books, o.seq, me, { name: 'Euro', type: 'checking', currency: 'EUR' });
    await L.setRate(books, o.seq, me, { currency: 'EUR', date: '2026-06-30', rate: '0.85' });
    await L.addContact(books, o.seq, me, { name: 'Client GmbH', customer: true });
    const set = await L.setOpeningBalances(books, o.seq, me, {
      date: '2026-07-01',
      lines: [
        { account: 'Current', amount: '100' },
        { account: 'Euro', amount: '1000' },
      ],
      invoices: [{ number: 'RE-7', contact: 'Client GmbH', date: '2026-06-01', outstanding: '500', currency: 'EUR' }],
      balanceToEquity: true,
    });
    expect(set.lines.map((l) => [l.name, l.amount, l.own?.amount ?? null])).toEqual([
      ['Current', 100, null],
      ['Euro', 850, 1000],
      ['Accounts receivable', 425, null],
    ]);
    expect(set.difference).toBe(1375);
    const equity = (await L.balanceSheet(books, o.seq, { date: '2026-07-01' })).equity.lines.find((l) => l.ref === 'opening-balances')!;
    expect(equity.amount).toBe(1375);
    expect(await L.generalLedger(books, o.seq, { account: 'opening-balances', limit: 10, offset: 0 })).toMatchObject({
      currency: 'GBP',
      endingBalance: -1375,
      meta: { totalCount: 3 },
    });
    await expectTotalsMatchRows(books);
  });
});

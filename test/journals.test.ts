// Manual journals (issue 43) through the desk operations the screens and the
// commands run: a journal with tax in the return's boxes (accrual and cash), a
// reversing accrual, a monthly repeat made on its dates (and only once), a
// money account's line in the register, the balances and a reconciliation,
// refusals (unbalanced, a closed period, a filed return's period, the row
// changed by hand), the general ledger and the maintained totals recounted.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { accountantTool, tempDir, tempLedger } from './support/env';
import { HLEDGER_TAX, hledgerAccountNames } from '../src/main/exports/hledger';

async function books() {
  const { ledger, dir } = await tempLedger();
  const org = await L.createOrganization(ledger, { slug: 'studio', name: 'Design studio', currency: 'GBP' });
  const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  return { ledger, org, desk };
}

const refused = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return error as { code: string; message: string; details: any };
  }
  throw new Error('it was not refused');
};

const { ledger, org, desk } = await books();
const me = L.deskActor();

beforeAll(async () => {
  await desk('setupTax', { set: 'uk-vat' });
  await desk('createAccount', { name: 'Current', type: 'checking', openingBalance: '10000', openingDate: '2025-12-31' });
  for (const [code, name, type] of [
    ['1500', 'Equipment', 'asset'],
    ['1510', 'Accumulated depreciation', 'asset'],
    ['2300', 'Accruals', 'liability'],
    ['5900', 'Depreciation', 'expense'],
  ])
    await desk('addCategory', { code, name, type });
});

describe('a journal with tax', () => {
  it('is saved when it balances (tax included), its tax on the next line, and enters the return on its date on either basis', async () => {
    const j = await desk<L.Journal>('addJournal', {
      date: '2026-01-20',
      narration: 'Studio rent, invoice not yet in',
      lines: ['5200=1000.00:January rent@S', '2300=-1200.00'],
    });
    expect(j.number).toBe('JNL-0001');
    expect(j.lines.map((l) => [l.ref, l.debit, l.credit, l.taxCode, l.worked])).toEqual([
      ['category:5200', 1000, 0, 'S', false],
      ['tax-control', 200, 0, 'S', true],
      ['category:2300', 0, 1200, null, false],
    ]);
    expect([j.totalDebit, j.totalCredit]).toEqual([1200, 1200]);
    for (const basis of ['accrual', 'cash'] as const) {
      const r = await L.taxReturn(ledger, org.seq, { from: '2026-01-01', to: '2026-03-31', basis });
      expect([r.boxes['4'], r.boxes['7'], r.boxes['5']], basis).toEqual([200, 1000, -200]);
      const audit = await L.taxAudit(ledger, org.seq, { from: '2026-01-01', to: '2026-03-31', box: '4', basis, limit: 10, offset: 0 });
      expect(
        audit.data.map((l) => [l.description, l.tax]),
        basis,
      ).toEqual([['JNL-0001 Studio rent, invoice not yet in', 200]]);
    }
    // The P&L sees the net, on either basis.
    for (const basis of ['accrual', 'cash'] as const) {
      expect((await L.profitAndLoss(ledger, org.seq, { from: '2026-01-01', to: '2026-01-31', basis })).expenses, basis).toBe(-1000);
      // The figure opens the journal's line, whose net is the figure.
      const gl = await L.generalLedger(ledger, org.seq, { account: '5200', from: '2026-01-01', to: '2026-01-31', basis, limit: 10, offset: 0 });
      expect([gl.net, gl.data.map((p) => [p.description, p.other, p.journal?.number])], basis).toEqual([
        1000,
        [['Studio rent, invoice not yet in', 'Journal JNL-0001', 'JNL-0001']],
      ]);
    }
    await expectTotalsMatchRows(ledger);
  });

  it('is refused when it does not balance, naming the debits, the credits and the difference', async () => {
    const e = await refused(desk('addJournal', { date: '2026-01-21', narration: 'Short', lines: ['5200=100@S', '2300=-100'] }));
    expect(e.code).toBe('validation_failed');
    expect(e.details).toEqual([{ field: 'lines', message: expect.stringContaining('debits 120.00 GBP and credits 100.00 GBP differ by 20.00 GBP') }]);
    const lines = await refused(desk('addJournal', { date: '2026-01-21', narration: 'x', lines: ['receivables=10', '2300=-10'] }));
    expect(lines.details[0]).toMatchObject({ field: 'lines[0].account', message: expect.stringContaining('invoice') });
    const tax = await refused(desk('addJournal', { date: '2026-01-21', narration: 'x', lines: ['Current=10@S', '2300=-10'] }));
    expect(tax.details[0]).toMatchObject({ field: 'lines[0].taxCode' });
    expect((await L.listJournals(ledger, org.seq, { limit: 10, offset: 0 })).meta.totalCount).toBe(1);
  });
});

describe('a reversing accrual', () => {
  it('writes its reversal on the date with it: the expense in March, taken back in April', async () => {
    const j = await desk<L.Journal>('addJournal', { date: '2026-03-31', narration: 'Accrued electricity', lines: ['5200=300', '2300=-300'], reverseOn: '2026-04-01' });
    expect(j.reversedBy).toMatchObject({ date: '2026-04-01' });
    const reversal = await desk<L.Journal>('showJournal', { number: j.reversedBy!.number });
    expect(reversal.reverses).toMatchObject({ number: j.number });
    expect(reversal.lines.map((l) => [l.ref, l.amount])).toEqual([
      ['category:5200', -300],
      ['category:2300', 300],
    ]);
    const pl = await L.profitAndLoss(ledger, org.seq, { from: '2026-03-01', to: '2026-04-30', byMonth: true });
    expect(pl.lines.find((l) => l.code === '5200')!.months).toEqual({ '2026-03': -300, '2026-04': 300 });
    const accruals = async (date: string) => (await L.balanceSheet(ledger, org.seq, { date })).liabilities.lines.find((l) => l.code === '2300')?.amount;
    expect([await accruals('2026-03-31'), await accruals('2026-04-01')]).toEqual([1500, 1200]);
    // Reversed once, never its reversal.
    expect((await refused(desk('reverseJournal', { number: j.number }))).message).toMatch(/already reversed by JNL-/);
    expect((await refused(desk('reverseJournal', { number: reversal.number }))).message).toMatch(/is the reversal of/);
    await expectTotalsMatchRows(ledger);
  });

  it('reverses a journal later, on a date not before its own', async () => {
    const e = await refused(desk('reverseJournal', { number: 'JNL-0001', date: '2026-01-19' }));
    expect(e.details).toEqual([{ field: 'date', message: expect.stringContaining('2026-01-20') }]);
    const r = await desk<L.Journal>('reverseJournal', { number: '1', date: '2026-02-01' });
    expect(r.narration).toBe('Reversal of JNL-0001: Studio rent, invoice not yet in');
    expect((await L.taxReturn(ledger, org.seq, { from: '2026-01-01', to: '2026-03-31', basis: 'accrual' })).boxes['4']).toBe(0);
  });
});

describe('a monthly repeat', () => {
  it('makes each occurrence on its date (the month end kept), once, until its count', async () => {
    const first = await desk<L.Journal>('addJournal', {
      date: '2026-01-31',
      narration: 'Depreciation of equipment',
      lines: ['5900=250', '1510=-250'],
      repeat: 'monthly',
      count: 4,
    });
    // Dated in the past: the occurrences due by today are made with it, the later ones when their day comes.
    const made = async () => (await L.listJournals(ledger, org.seq, { limit: 50, offset: 0 })).data.filter((j) => j.narration === 'Depreciation of equipment');
    const dates = ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30'];
    const today = new Date().toISOString().slice(0, 10);
    expect((await made()).map((j) => j.date).sort()).toEqual(dates.filter((d) => d <= today));
    // Catching up at a later day makes the rest, and catching up again makes nothing more.
    expect(await L.catchUpRepeats(ledger, me, '2027-12-31', org.seq)).toBe(dates.filter((d) => d > today).length);
    expect(await L.catchUpRepeats(ledger, me, '2027-12-31', org.seq)).toBe(0);
    expect((await made()).map((j) => j.date).sort()).toEqual(dates);
    const shown = await desk<L.Journal>('showJournal', { number: first.number });
    expect(shown.repeat).toMatchObject({ made: 4, nextDate: null, count: 4 });
    expect(shown.repeat!.journals).toHaveLength(4);
    const accumulated = (await L.balanceSheet(ledger, org.seq, { date: '2026-04-30' })).assets.lines.find((l) => l.code === '1510')!.amount;
    expect(accumulated).toBe(-1000);
    expect((await L.listAudit(ledger, org.seq, { action: 'journal.repeated', limit: 10, offset: 0 })).totalCount).toBe(3);
    await expectTotalsMatchRows(ledger);
  });

  it('passes over an occurrence the closing date covers, audited, and goes on', async () => {
    const first = await desk<L.Journal>('addJournal', {
      date: '2030-01-15',
      narration: 'Licence amortisation',
      lines: ['5900=10', '1510=-10'],
      repeat: 'monthly',
      until: '2030-04-15',
    });
    expect(first.repeat).toMatchObject({ made: 1, nextDate: '2030-02-15' });
    await L.lockPeriod(ledger, org.seq, me, '2030-02-28');
    expect(await L.catchUpRepeats(ledger, me, '2030-03-20', org.seq)).toBe(1);
    await L.unlockPeriod(ledger, org.seq, me);
    const skipped = (await L.listAudit(ledger, org.seq, { action: 'journal.repeat_skipped', limit: 10, offset: 0 })).entries;
    expect(skipped[0].summary).toMatch(/not made for 2030-02-15: 2030-02-15 is on or before the closing date 2030-02-28/);
    const stopped = await desk<L.Journal>('stopJournalRepeat', { number: first.number });
    expect(stopped.repeat).toMatchObject({ made: 3, nextDate: null, stoppedAt: expect.any(String), journals: [first.number, expect.stringMatching(/^JNL-/)] });
    expect(await L.catchUpRepeats(ledger, me, '2031-01-01', org.seq)).toBe(0);
  });
});

describe("a money account's line", () => {
  let journal: L.Journal;
  beforeAll(async () => {
    journal = await desk<L.Journal>('addJournal', { date: '2026-02-10', narration: "Director's loan paid in", lines: ['Current=5000:loan in', '2300=-5000'] });
  });

  it('is a row of the account: in its register, its balances and its general ledger', async () => {
    const row = journal.lines[0];
    expect(row).toMatchObject({ ref: expect.stringMatching(/^account:/), name: 'Current', debit: 5000, transactionId: expect.any(String) });
    const register = await desk<L.RegisterPage>('register', { account: 'Current', limit: 50, offset: 0 });
    const shown = register.data.find((t) => t.id === row.transactionId)!;
    expect(shown).toMatchObject({ amount: 5000, description: 'loan in', origin: 'journal', status: 'matched', entry: { journal: journal.number } });
    expect(shown.locked).toMatch(/reverse the journal/);
    expect((await L.balancesAt(ledger, org.seq, '2026-02-10')).accounts.find((a) => a.name === 'Current')).toMatchObject({ balance: 15000 });
    const gl = await L.generalLedger(ledger, org.seq, { account: 'Current', from: '2026-02-10', to: '2026-02-10', limit: 10, offset: 0 });
    expect(gl.data.map((p) => [p.amount, p.other])).toEqual([[5000, `Journal ${journal.number}`]]);
    // The clearing never shows: not on the balance sheet, not in the trial balance, which balances.
    const tb = await L.trialBalance(ledger, org.seq, { from: '2026-01-01', to: '2026-12-31' });
    expect(tb.totalDebit).toBe(tb.totalCredit);
    expect(tb.lines.some((l) => /clearing|journal/i.test(l.name))).toBe(false);
    const sheet = await L.balanceSheet(ledger, org.seq, { date: '2026-12-31' });
    expect(sheet.assets.total).toBe(sheet.liabilitiesAndEquity);
  });

  it('reconciles with the account, and is changed only by reversing its journal', async () => {
    const id = journal.lines[0].transactionId!;
    expect((await refused(desk('deleteTransaction', { id }))).message).toMatch(/line of a manual journal: reverse the journal/);
    await desk('reconcileAccount', { account: 'Current', date: '2026-02-10', balance: '15000', clearThrough: '2026-02-10' });
    expect((await L.getTransaction(ledger, org.seq, id)).transaction.status).toBe('reconciled');
    const categorize = await refused(desk('categorizeTransactions', { ids: [id], categoryCode: '5200' }));
    expect(categorize).toMatchObject({ code: 'conflict', details: { reason: 'journal', journal: journal.number } });
    const reversal = await desk<L.Journal>('reverseJournal', { number: journal.number, date: '2026-02-11' });
    expect((await L.balancesAt(ledger, org.seq, '2026-02-11')).accounts.find((a) => a.name === 'Current')).toMatchObject({ balance: 10000, reconciled: 15000 });
    expect(reversal.lines[0]).toMatchObject({ name: 'Current', credit: 5000 });
    await expectTotalsMatchRows(ledger);
  });
});

describe('dates a journal may not take', () => {
  it('is refused on or before the closing date', async () => {
    await L.lockPeriod(ledger, org.seq, me, '2026-01-31');
    const e = await refused(desk('addJournal', { date: '2026-01-31', narration: 'Late', lines: ['5200=1', '2300=-1'] }));
    expect(e).toMatchObject({ code: 'period_locked', details: { date: '2026-01-31', lockedThrough: '2026-01-31' } });
    await L.unlockPeriod(ledger, org.seq, me);
  });

  it('with taxed lines, is refused in a period a filed return covers (on either basis); without tax it is taken', async () => {
    await L.fileTaxReturn(ledger, org.seq, me, { from: '2026-01-01', to: '2026-03-31', basis: 'cash' });
    const e = await refused(desk('addJournal', { date: '2026-03-15', narration: 'Taxed', lines: ['5200=100@S', '2300=-120'] }));
    expect(e).toMatchObject({ code: 'period_locked', details: { date: '2026-03-15', from: '2026-01-01', to: '2026-03-31' } });
    await desk('addJournal', { date: '2026-03-15', narration: 'Untaxed', lines: ['5200=100', '2300=-100'] });
    await expectTotalsMatchRows(ledger);
  });
});

describe('the exports', () => {
  it('write each journal as one entry, its money line a money posting: hledger and bean-check accept them, the trial balance is hledger bal', async () => {
    await desk('addJournal', { date: '2026-05-02', narration: 'Card fee moved to the bank', lines: ['Current=-12.50:fee', '5200=12.50'] });
    const dir = tempDir();
    const [journal, beancount] = [join(dir, 'books.journal'), join(dir, 'books.beancount')];
    await desk('exportBooks', { format: 'hledger', out: journal });
    await desk('exportBooks', { format: 'beancount', out: beancount });
    const hledger = accountantTool('hledger');
    execFileSync(hledger, ['-f', journal, 'check', 'accounts', 'commodities']);
    execFileSync(accountantTool('bean-check'), [beancount]);
    const text = readFileSync(journal, 'utf8');
    expect(text).toMatch(/2026-05-02 JNL-\d{4} Card fee moved to the bank {2}; journal:/);
    expect(text).not.toMatch(/journal clearing|equity:suspense:uncategorized {4}-?12\.50/);
    const bal = new Map(
      execFileSync(hledger, ['-f', journal, 'bal', '--flat', '-N', '-O', 'csv', '-e', '2027-01-01'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(`[${line}]`) as [string, string])
        .map(([account, amount]) => [account, amount === '0' ? 0 : Number(amount.replace(/ GBP$/, ''))]),
    );
    const names = hledgerAccountNames(await L.exportBook(ledger, org.seq, {}));
    const current = (await L.listAccounts(ledger, org.seq)).find((a) => a.name === 'Current')!;
    const sheet = await L.balanceSheet(ledger, org.seq, { date: '2026-12-31' });
    expect(bal.get(names.money.get(current.id)!)).toBe(sheet.assets.lines.find((l) => l.name === 'Current')!.amount);
    expect(0 - (bal.get(HLEDGER_TAX) ?? 0)).toBe(sheet.liabilities.lines.find((l) => l.ref === 'tax-control')?.amount ?? 0);
    const accruals = (await L.listCategories(ledger, org.seq)).find((c) => c.code === '2300')!;
    expect(-(bal.get(names.categories.get(accruals.name)!) ?? 0)).toBe(sheet.liabilities.lines.find((l) => l.code === '2300')!.amount);
  });
});

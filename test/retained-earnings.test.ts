// Retained earnings as one line (issue 50): the chart's retained earnings account (the UK template's 3200, or the one a
// takeover's opening balances name, made so) and the earnings computed before the fiscal year are one "Retained
// earnings" line of the balance sheet and the trial balance, whose parts each open what they opened before; without
// the account, the two lines of before. The opening balances offer the account; Beancount's summaries join them too.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { balanceSheetCsv } from '../src/main/exports/books-csv';
import { deskAs } from './support/desk';
import { accountantTool, tempDir, tempLedger } from './support/env';

const { ledger, dir } = await tempLedger();
const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
const uk = await L.createOrganization(ledger, { slug: 'loch', name: 'Loch Joinery', currency: 'GBP', taxSet: 'uk-vat' });
const desk = <T = any>(name: string, input: Record<string, unknown> = {}, org = uk) => deskAs<T>(ctx, org.id, name, input);
const AT = '2026-03-31';

async function sale(date: string, amount: string, org = uk) {
  const row = await desk<{ id: string }>('addTransaction', { account: 'Current', date, amount, description: `JOB ${date}` }, org);
  await desk('categorizeTransactions', { ids: [row.id], categoryCode: '4000' }, org);
}

beforeAll(async () => {
  await desk('createAccount', { name: 'Current', type: 'checking' });
  // Taken over on 1 July 2025 with 10,000.00 of earnings brought forward; a sale in each fiscal year since.
  await desk('setOpeningBalances', { date: '2025-07-01', lines: ['Current=10000', '3200=-10000'] });
  await sale('2025-08-01', '500');
  await sale('2026-02-01', '200');
});

describe('the retained earnings account and the earlier years’ earnings', () => {
  it('are one line of the balance sheet, its parts the account (opening its ledger) and the computed earnings', async () => {
    const bs = await desk<L.BalanceSheet>('balanceSheet', { date: AT });
    const retained = bs.equity.lines.filter((l) => /retained/i.test(l.name));
    expect(retained).toEqual([
      {
        code: '3200',
        name: 'Retained earnings',
        amount: 10500,
        parts: [
          { code: '3200', name: 'Retained earnings', amount: 10000, ref: 'category:3200' },
          { name: 'Earnings before 2026-01-01', amount: 500 },
        ],
      },
    ]);
    expect(bs.equity.lines.find((l) => l.name === 'Current-year earnings')?.amount).toBe(200);
    expect([bs.retainedEarnings, bs.currentYearEarnings]).toEqual([10500, 200]);
    expect(bs.liabilitiesAndEquity).toBe(bs.assets.total);
    const gl = await desk<L.GeneralLedger>('generalLedger', { account: 'category:3200', to: AT });
    expect(gl.endingBalance).toBe(-10000);
    expect(balanceSheetCsv(bs)).toContain('equity,part,3200,Retained earnings,10000\r\nequity,part,,Earnings before 2026-01-01,500\r\n');
  });

  it('are one line of the trial balance, and the columns agree', async () => {
    const tb = await desk<L.TrialBalance>('trialBalance', { from: '2026-01-01', to: AT });
    expect(tb.lines.filter((l) => /retained/i.test(l.name))).toEqual([
      {
        code: '3200',
        name: 'Retained earnings',
        debit: 0,
        credit: 10500,
        parts: [
          { code: '3200', name: 'Retained earnings', debit: 0, credit: 10000, ref: 'category:3200' },
          { name: 'Earnings before 2026-01-01', debit: 0, credit: 500 },
        ],
      },
    ]);
    expect(tb.totalDebit).toBe(tb.totalCredit);
  });

  it('are two lines again once no category is the account; only an equity category can be', async () => {
    await desk('setRetainedEarnings', { none: true });
    const bs = await desk<L.BalanceSheet>('balanceSheet', { date: AT });
    expect(bs.equity.lines.filter((l) => /retained/i.test(l.name)).map((l) => [l.code, l.name, l.amount, l.ref])).toEqual([
      ['3200', 'Retained earnings', 10000, 'category:3200'],
      [undefined, 'Retained earnings', 500, undefined],
    ]);
    expect(bs.retainedEarnings).toBe(500);
    await expect(desk('setRetainedEarnings', { code: '4000' })).rejects.toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'code' })] });
    await expect(desk('setRetainedEarnings', {})).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await desk('setRetainedEarnings', { code: '3200' })).toMatchObject({ code: '3200', retainedEarnings: true });
    expect((await desk<L.BalanceSheet>('balanceSheet', { date: AT })).retainedEarnings).toBe(10500);
  });

  it("Beancount's summary of the years before puts their earnings in the same account", async () => {
    const file = join(tempDir(), 'books.beancount');
    await desk('exportBooks', { format: 'beancount', out: file });
    execFileSync(accountantTool('bean-check'), [file]);
    const query = `SELECT account, sum(number) AS total FROM OPEN ON 2026-01-01 CLOSE ON 2026-04-01 WHERE account ~ '^Equity' GROUP BY account`;
    const rows = execFileSync(accountantTool('bean-query'), ['-f', 'csv', file, query], { encoding: 'utf8' }).trim().split('\n').slice(1);
    expect(rows.filter((r) => /Retained|Earnings/.test(r)).map((r) => r.replace(/\s+/g, ''))).toEqual(['Equity:3200-Retained-Earnings,-10500.00']);
  });
});

describe('the opening balances', () => {
  it('name the retained earnings account, or offer the equity category that reads as one', async () => {
    expect((await desk<L.OpeningBalances>('openingBalances')).retainedEarnings).toEqual({ code: '3200', name: 'Retained earnings', offered: false });
    const studio = await L.createOrganization(ledger, { slug: 'studio', currency: 'GBP' });
    await desk('createAccount', { name: 'Current', type: 'checking' }, studio);
    await desk('addCategory', { code: '3000', name: 'Share capital', type: 'equity' }, studio);
    await desk('addCategory', { code: '3100', name: 'Retained earnings brought forward', type: 'equity' }, studio);
    const set = await desk<L.OpeningBalances>('setOpeningBalances', { date: '2025-07-01', lines: ['Current=1100', '3000=-100', '3100=-1000'] }, studio);
    expect(set.retainedEarnings).toEqual({ code: '3100', name: 'Retained earnings brought forward', offered: true });
    await sale('2025-08-01', '50', studio);
    const two = await desk<L.BalanceSheet>('balanceSheet', { date: AT }, studio);
    expect(two.equity.lines.filter((l) => /retained/i.test(l.name)).map((l) => l.amount)).toEqual([1000, 50]);
    await desk('setRetainedEarnings', { code: '3100' }, studio);
    expect((await desk<L.OpeningBalances>('openingBalances', {}, studio)).retainedEarnings).toMatchObject({ code: '3100', offered: false });
    const one = await desk<L.BalanceSheet>('balanceSheet', { date: AT }, studio);
    expect(one.equity.lines.filter((l) => /retained/i.test(l.name)).map((l) => [l.name, l.amount])).toEqual([['Retained earnings brought forward', 1050]]);
  });
});

// The hledger and Beancount exports of books holding every kind of entry
// (issue 42): a GBP organization with EUR and USD accounts; rows categorized,
// uncategorized and split with tax; transfers matched on one day and dated
// apart, between two currencies both ways and between two foreign ones, and
// in transit; invoices and bills issued, paid, partly paid, credited and
// voided; a EUR invoice paid at a gain; a EUR invoice and bill paid from the
// pounds account (issue 43); a revaluation; a VAT return paid.
// hledger and bean-check accept the files, and what they read is the app's
// trial balance, balance sheet and P&L to the penny.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as bean from '../src/main/exports/beancount';
import { HLEDGER_IN_TRANSIT, HLEDGER_OPENING, HLEDGER_PAYABLE, HLEDGER_RECEIVABLE, HLEDGER_SUSPENSE, HLEDGER_TAX, hledgerAccountNames } from '../src/main/exports/hledger';
import * as L from '../src/main/ledger';
import { addDays } from '../src/shared/dates';
import { deskAs } from './support/desk';
import { accountantTool, tempLedger } from './support/env';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const ids: Record<string, string> = {};
const row = async (key: string, account: string, date: string, amount: string, description: string, more: Record<string, unknown> = {}) =>
  (ids[key] = (await desk<{ id: string }>('addTransaction', { account, date, amount, description, ...more })).id);
let journal: string;
let beancount: string;
let revaluation: L.Revaluation;
let converted: string;

/** Weekly rates (one unit in GBP) that move, so that each date has its own and the revaluation finds a difference. */
function ratesFile(): string {
  const lines = ['date,currency,rate'];
  for (let d = '2025-12-25', i = 0; d <= '2026-05-31'; d = addDays(d, 7), i++)
    lines.push(`${d},EUR,${(0.8512 + 0.0013 * i).toFixed(4)}`, `${d},USD,${(0.7931 - 0.0017 * i).toFixed(4)}`);
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'hartley', name: 'Hartley Studio', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  writeFileSync(join(dir, 'rates.csv'), ratesFile());
  await desk('importRates', { file: join(dir, 'rates.csv') });
  await desk('setupTax', { set: 'uk-vat' });
  const opening = { openingDate: '2025-12-31' };
  await desk('createAccount', { name: 'Current', openingBalance: '5000', ...opening });
  await desk('createAccount', { name: 'Card', type: 'credit_card', openingBalance: '-250', ...opening });
  await desk('createAccount', { name: 'Euro', currency: 'EUR', openingBalance: '2000', ...opening });
  await desk('createAccount', { name: 'Dollar', currency: 'USD', openingBalance: '1500', ...opening });
  await desk('createAccount', { name: 'Euro savings', type: 'savings', currency: 'EUR' });

  // Bank rows: categorized (with tax), uncategorized, split with two rates.
  await row('sale', 'Current', '2026-01-05', '1200', 'Client A', { categoryCode: '4000', taxCode: 'S' });
  await row('hosting', 'Card', '2026-01-10', '-89.99', 'CLOUD HOSTING', { categoryCode: '5300' });
  await row('software', 'Current', '2026-01-20', '-240', 'Software', { categoryCode: '5100', taxCode: 'S' });
  await row('unknown', 'Current', '2026-01-22', '-45', 'UNKNOWN PAYEE');
  await row('mixed', 'Current', '2026-02-02', '-130', 'Supermarket: cleaning and food');
  await desk('splitTransaction', { id: ids.mixed, lines: ['5200=-120:cleaning@S', '5000=-10:food@Z'] });

  // Transfers: one currency on one day, and dated apart.
  await row('thanks', 'Card', '2026-01-25', '500', 'PAYMENT THANK YOU');
  await row('cardPayment', 'Current', '2026-01-25', '-500', 'CARD PAYMENT');
  await desk('makeTransfer', { id: ids.cardPayment, account: 'Card' });
  await row('cardIn', 'Card', '2026-02-03', '300', 'PAYMENT RECEIVED');
  await row('toCard', 'Current', '2026-02-01', '-300', 'TO CARD');
  await desk('makeTransfer', { id: ids.toCard, account: 'Card' });
  // Two currencies: EUR to GBP on one day, GBP to EUR dated apart, EUR to GBP the pound side later, USD to EUR (neither the base).
  await row('eurOut', 'Euro', '2026-02-10', '-3000', 'TO CURRENT');
  await row('gbpIn', 'Current', '2026-02-10', '2568.60', 'FROM EURO');
  await desk('matchTransfer', { id: ids.eurOut, other: ids.gbpIn });
  await row('gbpOut', 'Current', '2026-02-16', '-1000', 'TO EURO');
  await row('eurIn', 'Euro', '2026-02-18', '1160.25', 'FROM CURRENT');
  await desk('matchTransfer', { id: ids.gbpOut, other: ids.eurIn });
  await row('eurOut2', 'Euro', '2026-03-02', '-500', 'TO CURRENT AGAIN');
  await row('gbpIn2', 'Current', '2026-03-04', '425.10', 'FROM EURO AGAIN');
  await desk('matchTransfer', { id: ids.eurOut2, other: ids.gbpIn2 });
  await row('wireOut', 'Dollar', '2026-02-20', '-1000', 'WIRE TO EURO SAVINGS');
  await row('wireIn', 'Euro savings', '2026-02-24', '920', 'WIRE FROM DOLLAR');
  await desk('matchTransfer', { id: ids.wireOut, other: ids.wireIn });
  // Still waiting for their other side: one in pounds, one from euros.
  await row('waiting', 'Current', '2026-03-25', '-200', 'TO CARD (PENDING)');
  await desk('makeTransfer', { id: ids.waiting, account: 'Card' });
  await row('waitingEur', 'Euro', '2026-03-20', '-400', 'TO DOLLAR (PENDING)');
  await desk('makeTransfer', { id: ids.waitingEur, account: 'Dollar' });

  // Invoices and bills: paid, partly paid, credited, voided, open; a EUR invoice paid at another rate.
  await desk('addContact', { name: 'Acme Ltd', customer: true });
  await desk('addContact', { name: 'Berlin GmbH', customer: true });
  await desk('addContact', { name: 'Paper Co', vendor: true });
  const invoice = async (date: string, line: string, more: Record<string, unknown> = {}) =>
    (await desk<L.Document>('createInvoice', { customer: 'Acme Ltd', date, lines: [line], issue: true, ...more })).number;
  const paid = await invoice('2026-01-06', 'Design;1;1000;4000;S');
  await desk('payInvoice', { numbers: [paid], transactionId: await row('paidIn', 'Current', '2026-01-28', '1200', 'ACME LTD') });
  const part = await invoice('2026-01-12', 'Retainer;1;500;4000;S');
  await desk('payInvoice', { numbers: [part], transactionId: await row('partIn', 'Current', '2026-02-12', '250', 'ACME LTD PART') });
  const credited = await invoice('2026-02-01', 'Workshop;1;400;4000;S');
  await desk('creditInvoice', { number: credited, date: '2026-02-15', lines: ['Workshop;1;100;4000;S'] });
  await desk('voidInvoice', { number: await invoice('2026-02-05', 'Mistake;1;100;4000;S'), date: '2026-02-06', reason: 'wrong customer' });
  await invoice('2026-03-10', 'Consulting;1;800;4000;S');
  const euro = await invoice('2026-01-14', 'Design;1;1000;4000;Z', { customer: 'Berlin GmbH', currency: 'EUR' });
  await desk('payInvoice', { numbers: [euro], transactionId: await row('euroIn', 'Euro', '2026-02-25', '1000', 'BERLIN GMBH') });
  const bill = async (number: string, date: string, line: string) => desk('createBill', { vendor: 'Paper Co', number, date, lines: [line] });
  await bill('P-1', '2026-01-15', 'Paper;1;200;5200;S');
  await desk('payBill', { numbers: ['P-1'], transactionId: await row('billOut', 'Current', '2026-02-01', '-240', 'PAPER CO') });
  await bill('P-2', '2026-02-20', 'Ink;1;150;5200;S');
  await desk('payBill', { numbers: ['P-2'], transactionId: await row('billPart', 'Current', '2026-03-05', '-100', 'PAPER CO PART') });
  await bill('P-3', '2026-03-01', 'Wrong;1;50;5200;S');
  await desk('voidBill', { number: 'P-3', date: '2026-03-03' });
  // A EUR invoice paid into the pounds account, the bank converting on arrival (issue 43), and a EUR bill paid from it.
  converted = await invoice('2026-02-02', 'Translation;1;2000;4000;Z', { customer: 'Berlin GmbH', currency: 'EUR' });
  await desk('payInvoice', { numbers: [converted], transactionId: await row('convertedIn', 'Current', '2026-03-09', '1700', `BERLIN GMBH ${converted}`) });
  await desk('createBill', { vendor: 'Paper Co', number: 'P-4', currency: 'EUR', date: '2026-02-03', lines: ['Import;1;300;5200;Z'] });
  await desk('payBill', { numbers: ['P-4'], transactionId: await row('convertedOut', 'Current', '2026-03-11', '-262', 'PAPER CO P-4') });

  // The quarter's end: a revaluation (reversed the next day), the VAT return filed and paid in April.
  revaluation = await desk<L.Revaluation>('revalue', { date: '2026-03-31' });
  const filed = await desk<L.FiledReturn>('fileTaxReturn', { from: '2026-01-01', to: '2026-03-31' });
  const hmrc = await row('hmrc', 'Current', '2026-04-20', (-filed.payable).toFixed(2), 'HMRC VAT');
  await desk('payTaxReturn', { returnId: filed.id, transactionId: hmrc });

  journal = join(dir, 'books.journal');
  beancount = join(dir, 'books.beancount');
  await desk('exportBooks', { format: 'hledger', out: journal });
  await desk('exportBooks', { format: 'beancount', out: beancount });
});

/** Runs an accountant's tool; a refusal fails the test with what the tool said. */
function tool(name: string, ...args: string[]): string {
  const run = spawnSync(accountantTool(name), args, { encoding: 'utf8' });
  if (run.status !== 0 || run.stderr.trim()) throw new Error(`${name} ${args.join(' ')}:\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

/** "2568.60 GBP" (or "0", or "" for nothing) in minor units of `currency`; any other commodity fails the test. */
function minorOf(text: string, currency: string): number {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p && p !== '0');
  expect(parts.every((p) => p.endsWith(` ${currency}`))).toBe(true);
  return parts.reduce((s, p) => s + Math.round(Number(p.slice(0, -4)) * 100), 0);
}

/** hledger's balance of every account (flat) with these arguments, in minor units of a currency, zeros left out. */
function hledgerBalances(currency: string, ...args: string[]): Map<string, number> {
  const csv = tool('hledger', '-f', journal, 'bal', '--flat', '-N', '-O', 'csv', ...args);
  const lines = csv.trim().split('\n').slice(1);
  return new Map(
    lines
      .map((l) => JSON.parse(`[${l}]`) as [string, string])
      .map(([account, amount]) => [account, minorOf(amount, currency)] as const)
      .filter(([, m]) => m !== 0),
  );
}

/**
 * bean-query's weight (booked cost) of every account over [from, to], zeros left out. As exact decimals: a total
 * price is kept per unit, so a weight can be 999.9999... GBP, which bean-query shows cut to 999.99.
 */
function beancountBalances(from: string, to: string): Map<string, number> {
  const query = `SELECT account, currency(weight) AS c, str(sum(number(weight))) AS w WHERE date >= ${from} AND date <= ${to} GROUP BY account, c`;
  const lines = tool('bean-query', '-f', 'csv', beancount, query).trim().split('\n').slice(1);
  const sums = lines
    .map((l) => l.split(',').map((c) => c.trim()))
    .map(([account, currency, w]) => [account, minorOf(`${/^Decimal\('(.*)'\)$/.exec(w)![1]} ${currency}`, 'GBP')] as const);
  return new Map(sums.filter(([, m]) => m !== 0));
}

/** The accounts every export has, by the report lines' refs, in each tool. */
const REFS = ['suspense', 'in-transit', 'tax-control', 'opening-balances', 'receivables', 'payables'];
const FIXED = {
  hledger: [HLEDGER_SUSPENSE, HLEDGER_IN_TRANSIT, HLEDGER_TAX, HLEDGER_OPENING, HLEDGER_RECEIVABLE, HLEDGER_PAYABLE],
  beancount: [bean.BEANCOUNT_SUSPENSE, bean.BEANCOUNT_IN_TRANSIT, bean.BEANCOUNT_TAX, bean.BEANCOUNT_OPENING, bean.BEANCOUNT_RECEIVABLE, bean.BEANCOUNT_PAYABLE],
};

/** The name each tool gives a report line's account. */
async function namer(format: 'hledger' | 'beancount'): Promise<(ref: L.BookRef) => string> {
  const book = await L.exportBook(ctx.ledger, org.seq, {});
  const names = format === 'hledger' ? hledgerAccountNames(book) : bean.beancountAccountNames(book);
  const categories = new Map((await L.listCategories(ctx.ledger, org.seq)).map((c) => [`category:${c.code}`, c.name]));
  return (ref) => FIXED[format][REFS.indexOf(ref)] ?? (ref.startsWith('account:') ? names.money.get(ref.slice(8))! : names.categories.get(categories.get(ref)!)!);
}

/** The trial balance as each account's debit minus credit, by the tool's account names. */
async function trialBalanceBy(format: 'hledger' | 'beancount', tb: L.TrialBalance): Promise<Map<string, number>> {
  const name = await namer(format);
  expect(tb.lines.filter((l) => !l.ref)).toEqual([]); // no computed line (retained earnings) in these books
  return new Map(tb.lines.map((l) => [name(l.ref!), Math.round(l.debit * 100) - Math.round(l.credit * 100)]));
}

/** An entry of the hledger journal by its row's id: its postings' lines. */
const hledgerEntry = (id: string) =>
  readFileSync(journal, 'utf8')
    .split('\n\n')
    .find((e) => e.includes(`; id:${id}`))!
    .split('\n')
    .slice(1);
const beancountEntries = (id: string) =>
  readFileSync(beancount, 'utf8')
    .split('\n\n')
    .filter((e) => e.includes(`id: "${id}"`));

describe('a transfer between accounts of two currencies', () => {
  it('keeps each side in its own currency; the side in the base currency sets the value the other takes', async () => {
    const base = async (id: string) => (await ctx.ledger.rows<{ b: number }>('SELECT base_minor AS b FROM transactions WHERE id = ?', id))[0].b;
    // Pounds that arrived are worth what they are, whichever side came first: the euros take that value.
    expect([await base(ids.gbpIn), await base(ids.eurOut)]).toEqual([256860, -256860]);
    expect([await base(ids.gbpIn2), await base(ids.eurOut2)]).toEqual([42510, -42510]);
    expect([await base(ids.gbpOut), await base(ids.eurIn)]).toEqual([-100000, 100000]);
    expect(await base(ids.wireIn)).toBe(-(await base(ids.wireOut)));
  });

  it('is one hledger entry with two money postings, each in its currency at its cost, the later side on its own date', async () => {
    expect(hledgerEntry(ids.eurOut)).toEqual([`    assets:Euro    -3000.00 EUR @@ 2568.60 GBP`, `    assets:Current    2568.60 GBP  ; id:${ids.gbpIn}`]);
    expect(hledgerEntry(ids.gbpOut)).toEqual([`    assets:Current    -1000.00 GBP`, `    assets:Euro    1160.25 EUR @@ 1000.00 GBP  ; id:${ids.eurIn}, date:2026-02-18`]);
    const usd = -(await ctx.ledger.rows<{ b: number }>('SELECT base_minor AS b FROM transactions WHERE id = ?', ids.wireOut))[0].b / 100;
    expect(hledgerEntry(ids.wireOut)).toEqual([
      `    assets:Dollar    -1000.00 USD @@ ${usd.toFixed(2)} GBP`,
      `    assets:Euro savings    920.00 EUR @@ ${usd.toFixed(2)} GBP  ; id:${ids.wireIn}, date:2026-02-24`,
    ]);
    expect(hledgerEntry(ids.toCard)).toEqual([`    assets:Current    -300.00 GBP`, `    liabilities:Card    300.00 GBP  ; id:${ids.cardIn}, date:2026-02-03`]);
    // Only a side still waiting posts to transfers in transit.
    expect(hledgerEntry(ids.waiting)).toEqual([`    assets:Current    -200.00 GBP`, `    ${HLEDGER_IN_TRANSIT}    200.00 GBP`]);
    tool('hledger', '-f', journal, 'check');
  });

  it('is one Beancount entry on one day; dated apart, two entries through transit that leave nothing there', () => {
    const [same] = beancountEntries(ids.eurOut);
    expect(same.split('\n').filter((l) => /^ {2}[A-Z]/.test(l))).toEqual(['  Assets:Euro  -3000.00 EUR @@ 2568.60 GBP', '  Assets:Current  2568.60 GBP']);
    const apart = [...beancountEntries(ids.gbpOut), ...beancountEntries(ids.eurIn)].map((e) => e.split('\n').filter((l) => /^ {2}[A-Z]/.test(l)));
    expect(apart).toEqual([
      ['  Assets:Current  -1000.00 GBP', `  ${bean.BEANCOUNT_IN_TRANSIT}  1000.00 GBP`],
      ['  Assets:Euro  1160.25 EUR @@ 1000.00 GBP', `  ${bean.BEANCOUNT_IN_TRANSIT}  -1000.00 GBP`],
    ]);
    const transit = tool('bean-query', '-f', 'csv', beancount, `SELECT sum(position) WHERE account = '${bean.BEANCOUNT_IN_TRANSIT}' AND date <= 2026-03-19`);
    expect(transit.trim().split('\n').slice(1).join('').replace(/"/g, '').trim()).toBe('');
    tool('bean-check', beancount);
  });
});

describe('a document paid from an account in another currency than its own (issue 43)', () => {
  it('writes what is owed in the document’s currency at its booked cost beside the pounds and the realized difference', async () => {
    const realized = (await namer('hledger'))('category:7900');
    const booked = async (number: string) =>
      (
        await ctx.ledger.rows<{ b: number }>(
          "SELECT abs(p.base_minor) AS b FROM postings p JOIN documents d ON d.seq = p.document_seq WHERE d.number = ? AND p.kind IN ('receivable', 'payable')",
          number,
        )
      )[0].b;
    const [inv, bill] = [await booked(converted), await booked('P-4')];
    expect(hledgerEntry(ids.convertedIn)).toEqual([
      '    assets:Current    1700.00 GBP',
      `    ${HLEDGER_RECEIVABLE}    -2000.00 EUR @@ ${(inv / 100).toFixed(2)} GBP  ; Payment of invoice ${converted} (2000.00 EUR for 1700.00 GBP)`,
      `    ${realized}    ${((inv - 170000) / 100).toFixed(2)} GBP  ; Realized exchange gain or loss`,
    ]);
    expect(hledgerEntry(ids.convertedOut)).toEqual([
      '    assets:Current    -262.00 GBP',
      `    ${HLEDGER_PAYABLE}    300.00 EUR @@ ${(bill / 100).toFixed(2)} GBP  ; Payment of bill P-4 (300.00 EUR for 262.00 GBP)`,
      `    ${realized}    ${((26200 - bill) / 100).toFixed(2)} GBP  ; Realized exchange gain or loss`,
    ]);
    const [entry] = beancountEntries(ids.convertedIn);
    expect(entry.split('\n').filter((l) => /^ {2}[A-Z]/.test(l))[1]).toBe(`  ${bean.BEANCOUNT_RECEIVABLE}  -2000.00 EUR @@ ${(inv / 100).toFixed(2)} GBP`);
    // Nothing is left owed in euros, in hledger as in the books' own euro figures (which balance through "Currency conversions").
    const euros = tool('hledger', '-f', journal, 'bal', '--flat', '-N', '-O', 'csv', '-e', '2026-04-01', `^(${HLEDGER_RECEIVABLE}|${HLEDGER_PAYABLE})$`);
    expect(euros).not.toContain('EUR');
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-03-31', currency: 'EUR' });
    expect([...sheet.assets.lines, ...sheet.liabilities.lines].filter((l) => l.ref === 'receivables' || l.ref === 'payables')).toEqual([]);
    expect(sheet.assets.total).toBeCloseTo(sheet.liabilitiesAndEquity, 2);
  });
});

describe('books holding every kind of entry', () => {
  const end = '2026-04-30';
  const after = addDays(end, 1);

  it('hledger check (declared accounts and commodities) and bean-check accept the files', () => {
    tool('hledger', '-f', journal, 'check', 'accounts', 'commodities');
    tool('bean-check', beancount);
  });

  it('the trial balance is what hledger bal -B and bean-query read, account by account, to the penny', async () => {
    const tb = await desk<L.TrialBalance>('trialBalance', { from: '2026-01-01', to: end });
    expect(tb.lines.length).toBeGreaterThan(15);
    const expected = Object.fromEntries(await trialBalanceBy('hledger', tb));
    expect(Object.fromEntries(hledgerBalances('GBP', '-B', '-e', after))).toEqual(expected);
    expect(Object.fromEntries(hledgerBalances('GBP', '-B', '-X', 'GBP', '-e', after))).toEqual(expected);
    expect(Object.fromEntries(beancountBalances('1970-01-01', end))).toEqual(Object.fromEntries(await trialBalanceBy('beancount', tb)));
  });

  it('the quarter’s P&L is theirs, but for the revaluation the exports leave out', async () => {
    const pl = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2026-01-01', to: '2026-03-31', basis: 'accrual' });
    const lines = pl.lines.filter((l) => !l.parent && l.amount !== 0);
    expect(lines.map((l) => l.code)).toEqual(expect.arrayContaining(['4000', '5000', '5100', '5200', '5300', '7900', '7910']));
    for (const [format, read] of [
      ['hledger', hledgerBalances('GBP', '-B', '-b', '2026-01-01', '-e', '2026-04-01')],
      ['beancount', beancountBalances('2026-01-01', '2026-03-31')],
    ] as const) {
      const name = await namer(format);
      const figures = lines.map((l) => [l.code, 0 - (read.get(name(`category:${l.code}`)) ?? 0)]);
      const expected = lines.map((l) => [l.code, l.name === L.UNREALIZED_NAME ? 0 : Math.round(l.amount * 100)]);
      expect([format, figures]).toEqual([format, expected]);
    }
    expect(lines.find((l) => l.code === '7910')!.amount).toBeCloseTo(revaluation.gain, 2);
  });

  it('between the two dates of a transfer, Beancount holds it in transit as the books do; hledger each side on its date', async () => {
    const date = '2026-02-17'; // the pounds left on the 16th, the euros arrived on the 18th
    const bs = await desk<L.BalanceSheet>('balanceSheet', { date });
    const lines = [...bs.assets.lines.map((l) => [l, 1] as const), ...bs.liabilities.lines.map((l) => [l, -1] as const), ...bs.equity.lines.map((l) => [l, -1] as const)];
    expect(bs.assets.lines.find((l) => l.ref === 'in-transit')?.amount).toBe(1000);
    const inBeancount = beancountBalances('1970-01-01', date);
    const hledger = hledgerBalances('GBP', '-B', '-e', addDays(date, 1));
    const [beanName, hledgerName] = [await namer('beancount'), await namer('hledger')];
    for (const [l, sign] of lines.filter(([x]) => x.ref && !x.ref.startsWith('category:'))) {
      expect([l.name, sign * (inBeancount.get(beanName(l.ref!)) ?? 0)]).toEqual([l.name, Math.round(l.amount * 100)]);
      if (l.ref!.startsWith('account:')) expect([l.name, sign * (hledger.get(hledgerName(l.ref!)) ?? 0)]).toEqual([l.name, Math.round(l.amount * 100)]);
    }
    expect(hledger.get(HLEDGER_IN_TRANSIT)).toBeUndefined();
  });

  it('each money account holds its own currency, as its statement says', async () => {
    const own = (await L.balancesAt(ctx.ledger, org.seq, end)).accounts;
    const hledger = new Map(
      tool('hledger', '-f', journal, 'bal', '--flat', '-N', '-O', 'csv', '-e', after, '^(assets|liabilities):')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(`[${l}]`) as [string, string]),
    );
    const names = hledgerAccountNames(await L.exportBook(ctx.ledger, org.seq, {}));
    const accounts = await L.listAccounts(ctx.ledger, org.seq);
    for (const a of own) {
      const id = accounts.find((x) => x.name === a.name)!.id;
      expect([a.name, hledger.get(names.money.get(id)!)]).toEqual([a.name, `${a.balance.toFixed(2)} ${a.currency}`]);
    }
    expect(own.map((a) => a.currency)).toEqual(expect.arrayContaining(['GBP', 'EUR', 'USD']));
  });
});

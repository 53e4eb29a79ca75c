// Double-entry books in real Chromium: split a row in the register (the live
// remainder, "=" for what remains, save), accept a possible transfer with one
// key, the balance sheet and trial balance in Reports with a figure opening
// the general ledger, and the closing date in Organizations refusing an edit.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, signedInPage } from './support/browser';
import { expectTotalsMatchRows } from './support/aggregates';
import { serveDesk, screenshot } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;
const rows: Record<string, L.HandRow> = {};
const add = async (key: string, account: string, date: string, amount: number, description: string) =>
  (rows[key] = await L.addTransaction(books, org.seq, L.deskActor(), { account, date, amount, description }));
const shot = (name: string) => screenshot(page, name);

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-double-'));
  const me = L.deskActor();
  await L.createAccount(books, org.seq, me, { name: 'Checking', type: 'checking', openingBalance: 1000, openingDate: '2025-12-31' });
  await L.createAccount(books, org.seq, me, { name: 'Card', type: 'credit_card' });
  await add('store', 'Checking', '2026-02-10', -100, 'HARDWARE STORE');
  await add('payment', 'Checking', '2026-02-20', -250, 'CARD PAYMENT');
  await add('thanks', 'Card', '2026-02-22', 250, 'PAYMENT THANK YOU');
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('splits and transfers in the register', () => {
  it('splits a row as a person types it: parts as positive figures, what is left live, = puts it on the last line, never against the row', async () => {
    await page.goto(`${app.server.url}/#/transactions?description=HARDWARE`);
    await page.getByRole('row', { name: /HARDWARE STORE/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Split', exact: true }).click();
    const editor = page.getByRole('form', { name: 'Split the row' });
    expect(await editor.getByLabel('Line 1 amount').inputValue()).toBe('100.00');
    await editor.getByLabel('Line 1 category').selectOption('5100');
    await editor.getByLabel('Line 1 amount').fill('60');
    await editor.getByText('Left to assign: 40.00 USD (must be zero to save).').waitFor();
    expect(await editor.getByRole('button', { name: 'Save split' }).isDisabled()).toBe(true);
    await editor.getByLabel('Line 2 category').selectOption('5200');
    await editor.getByLabel('Line 2 memo').fill('shelf');
    // Over the row: = does not make a refund of the last line; it says what that would be.
    await editor.getByLabel('Line 1 amount').fill('120');
    await editor.getByLabel('Line 2 amount').press('=');
    await editor
      .getByText('The other lines are over the payment by 20.00: the last line would be a refund of 20.00 inside the payment. Type -20.00 on it if that is what it is.')
      .waitFor();
    expect(await editor.getByLabel('Line 2 amount').inputValue()).toBe('');
    await editor.getByLabel('Line 2 amount').fill('-20');
    await editor.getByRole('note', { name: 'Line 2 goes against the row' }).waitFor();
    await editor.getByText('The lines add up to the payment. One line goes against it (marked).').waitFor();
    await shot('split-editor-against');
    await editor.getByLabel('Line 1 amount').fill('60');
    await editor.getByLabel('Line 2 amount').fill('');
    await editor.getByLabel('Line 2 amount').press('=');
    expect(await editor.getByLabel('Line 2 amount').inputValue()).toBe('40.00');
    expect(await editor.getByRole('note').count()).toBe(0);
    await editor.getByText('The lines add up to the payment.').waitFor();
    await shot('split-editor');
    await editor.getByRole('button', { name: 'Save split' }).click();
    await page.getByText('Split HARDWARE STORE into 2 lines.').waitFor();
    expect((await L.getTransaction(books, org.seq, rows.store.id)).lines.map((l) => [l.categoryCode, l.amount, l.memo])).toEqual([
      ['5100', -60, null],
      ['5200', -40, 'shelf'],
    ]);
    await page.getByText('split 2').waitFor();
    // The register's lines read as the editor typed them, once the opened row has loaded again
    // (the register and the opened row reload one after the other).
    const list = page.getByRole('list', { name: 'Lines of the entry' });
    await expect.poll(() => list.innerText()).toMatch(/5100 Software & tools \$60\.00\s+5200 Office & rent \$40\.00 — shelf/);
  });

  it('fills the remainder of a -389.98 payment as the part left, 59.99, after 329.99 typed; unsplit asks when it cannot know', async () => {
    await L.addTransaction(books, org.seq, L.deskActor(), { account: 'Checking', date: '2026-02-12', amount: -389.98, description: 'COMPUTER SHOP' });
    await page.goto(`${app.server.url}/#/transactions?description=COMPUTER`);
    await page.getByRole('row', { name: /COMPUTER SHOP/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Split', exact: true }).click();
    const editor = page.getByRole('form', { name: 'Split the row' });
    await editor.getByLabel('Line 1 category').selectOption('5100');
    await editor.getByLabel('Line 2 category').selectOption('5200');
    await editor.getByLabel('Line 1 amount').fill('329.99');
    await editor.getByLabel('Line 2 amount').press('=');
    expect(await editor.getByLabel('Line 2 amount').inputValue()).toBe('59.99');
    await editor.getByText('The lines add up to the payment.').waitFor();
    await editor.getByRole('button', { name: 'Save split' }).click();
    await page.getByText('Split COMPUTER SHOP into 2 lines.').waitFor();
    // A split from before what it replaced was kept: Unsplit asks what the row becomes.
    await books.stmt('DELETE FROM split_origins').run();
    await page.getByRole('button', { name: 'Unsplit' }).click();
    const ask = page.getByRole('form', { name: 'Unsplit into' });
    await ask.getByText(/was before its split is not known/).waitFor();
    await ask.getByLabel('Becomes').selectOption('5100');
    await ask.getByRole('button', { name: 'Unsplit' }).click();
    await page.getByText('Unsplit into 5100.').waitFor();
    const row = (await L.registerPage(books, org.seq, { description: 'COMPUTER', limit: 1, offset: 0 })).data[0];
    expect([row.category, row.entry.lines]).toEqual(['Software & tools', 1]);
  });

  it('shows a possible transfer and accepts it with t', async () => {
    await page.goto(`${app.server.url}/#/transactions?account=${(await L.requireAccount(books, org.seq, 'Checking')).id}`);
    const row = page.getByRole('row', { name: /CARD PAYMENT/ });
    await row.getByText('possible transfer: Card').waitFor();
    await row.focus();
    await page.keyboard.press('t');
    await page.getByText('Matched as one transfer with Card.').waitFor();
    await page
      .getByRole('row', { name: /CARD PAYMENT/ })
      .getByText('Transfer to Card')
      .waitFor();
    // Money in is a transfer from its source account.
    await page.goto(`${app.server.url}/#/transactions?account=${(await L.requireAccount(books, org.seq, 'Card')).id}`);
    await page
      .getByRole('row', { name: /PAYMENT THANK YOU/ })
      .getByText('Transfer from Checking')
      .waitFor();
    expect((await L.getTransaction(books, org.seq, rows.thanks.id)).lines[0]).toMatchObject({ kind: 'transfer', counterpartId: rows.payment.id });
    await expectTotalsMatchRows(books);
  });

  it('marks a possible transfer on a page spanning months, with what it pairs with; t accepts it and Undo takes it back', async () => {
    await L.createAccount(books, org.seq, L.deskActor(), { name: 'Savings', type: 'savings' });
    await add('toSavings', 'Checking', '2026-05-02', -500, 'TO SAVINGS');
    await add('fromChecking', 'Savings', '2026-05-04', 500, 'FROM CHECKING');
    // Every account, February to May on one page.
    await page.goto(`${app.server.url}/#/transactions`);
    const row = page.getByRole('row', { name: /TO SAVINGS/ });
    await row.getByText('possible transfer: Savings 2026-05-04').waitFor();
    await shot('register-possible-transfer');
    await row.focus();
    await page.keyboard.press('t');
    await page.getByText('Matched as one transfer with Savings.').waitFor();
    await page
      .getByRole('row', { name: /TO SAVINGS/ })
      .getByText('Transfer to Savings')
      .waitFor();
    expect((await L.getTransaction(books, org.seq, rows.toSavings.id)).lines[0]).toMatchObject({ kind: 'transfer', counterpartId: rows.fromChecking.id });
    await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
    await page.getByText('No longer a transfer: both rows are uncategorized again.').waitFor();
    await page
      .getByRole('row', { name: /TO SAVINGS/ })
      .getByText('possible transfer: Savings')
      .waitFor();
    expect((await L.getTransaction(books, org.seq, rows.fromChecking.id)).transaction).toMatchObject({ category: null, status: 'uncategorized' });
    await expectTotalsMatchRows(books);
  });
});

describe('a proposed split in Approvals', () => {
  it('says plainly that a line goes against the row, and names the evidence in words', async () => {
    const { info } = await L.createToken(books, org.seq, { name: 'split agent', scopes: ['read', 'propose-write'] });
    const tokenSeq = (await books.stmt('SELECT seq FROM tokens WHERE id = ?').pluck().get(info.id)) as number;
    const agent = { type: 'token' as const, tokenSeq, tokenId: info.id, tokenName: 'split agent', channel: 'rest' as const };
    const row = await L.addTransaction(books, org.seq, L.deskActor(), { account: 'Checking', date: '2026-02-15', amount: -100, description: 'ELECTRONICS' });
    await L.proposeCategorization(books, org.seq, agent, {
      transactionId: row.id,
      lines: [
        { categoryCode: '5100', amount: 120 },
        { categoryCode: '5200', amount: -20, memo: 'cable returned' },
      ],
      evidence: [{ type: 'counterparty_match', value: 'ELECTRONICS' }],
    });
    await page.goto(`${app.server.url}/#/approvals`);
    const card = page.locator('article.proposal', { hasText: 'ELECTRONICS' });
    await card.getByText(/This line goes against the row: a refund of \$20\.00 inside the payment\./).waitFor();
    expect(await card.getByRole('list', { name: 'Split into' }).innerText()).toMatch(/5100 Software & tools \$120\.00[\s\S]*5200 Office & rent -\$20\.00/);
    expect(await card.getByRole('list', { name: 'Evidence' }).innerText()).toBe('Counterparty match ELECTRONICS');
    await shot('approvals-split-against');
  });
});

describe('reports and the closing date', () => {
  it('shows the balance sheet and trial balance, and a figure opens its general ledger lines', async () => {
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    const bs = page.getByRole('table', { name: /Balance sheet at/ });
    await bs.waitFor();
    expect(await bs.textContent()).toContain('Total liabilities and equity');
    const tb = page.getByRole('table', { name: /Trial balance/ });
    await tb.getByText('Total').first().waitFor();
    await shot('balance-sheet');
    await bs.getByRole('link', { name: 'Checking' }).first().click();
    await page.getByRole('heading', { name: 'General ledger' }).waitFor();
    await page.getByText('Starting balance').waitFor();
    const ledger = page.locator('table.ledger');
    expect(await ledger.textContent()).toContain('Split: Software & tools, Office & rent');
    expect(await ledger.textContent()).toContain('Transfer to Card');
  });

  it('opens a P&L figure as the general-ledger lines that add up to it: a split line, a bill, a parent with its children, a month', async () => {
    // March's own rows: a split (approved from a proposal), a row, a bill.
    const me = L.deskActor();
    const { info } = await L.createToken(books, org.seq, { name: 'drill agent', scopes: ['read', 'propose-write'] });
    const tokenSeq = (await books.stmt('SELECT seq FROM tokens WHERE id = ?').pluck().get(info.id)) as number;
    const agent = { type: 'token' as const, tokenSeq, tokenId: info.id, tokenName: 'drill agent', channel: 'rest' as const };
    const paint = await L.addTransaction(books, org.seq, me, { account: 'Checking', date: '2026-03-10', amount: -100, description: 'PAINT SHOP' });
    const lines = [
      { categoryCode: '5100', amount: -60 },
      { categoryCode: '5200', amount: -40, memo: 'shelf paint' },
    ];
    await L.reviewProposal(books, org.seq, (await L.proposeCategorization(books, org.seq, agent, { transactionId: paint.id, lines })).id, 'approve', me);
    await L.addTransaction(books, org.seq, me, { account: 'Checking', date: '2026-03-12', amount: -9, description: 'STAMPS', categoryCode: '5000' });
    await L.createDocument(
      books,
      org.seq,
      me,
      { contact: 'Amazon Web Services', number: 'AWS-3', date: '2026-03-14', lines: [{ description: 'Hosting', quantity: 1, unitPrice: 45, categoryCode: '5300' }] },
      { kind: 'bill', issue: true },
    );
    const digits = (text: string) => text.replace(/[^\d.]/g, '');
    /** Clicks a P&L figure of Q1 (a row's total, or a month's) and answers its text, the ledger's net for the period and its lines. */
    const open = async (label: string, column: 'total' | RegExp) => {
      await page.goto(`${app.server.url}/#/reports`);
      await page.getByLabel('Period').selectOption('custom');
      const period = page.locator('form.filters').first();
      await period.getByLabel('From', { exact: true }).fill('2026-01-01');
      await period.getByLabel('To', { exact: true }).fill('2026-03-31');
      await page.getByRole('heading', { name: /Profit and loss, 2026-01-01 to 2026-03-31/ }).waitFor();
      const row = page.locator('table.pl tr', { has: page.locator('td:first-child', { hasText: label }) }).first();
      const months = await page.locator('table.pl thead th').allInnerTexts();
      const figure = row
        .locator('td')
        .nth(column === 'total' ? months.length - 1 : months.findIndex((m) => column.test(m)))
        .getByRole('link');
      const text = await figure.innerText();
      await figure.click();
      await page.getByRole('heading', { name: 'General ledger' }).waitFor();
      const net = page.getByRole('row', { name: 'Net for the period' });
      await net.waitFor();
      return { figure: digits(text), net: digits(await net.innerText()), ledger: await page.locator('table.ledger').innerText() };
    };
    // The split row is 100.00, its largest line 5100's: 5200's figure is its own line, 40.00.
    expect(await open('5200 Office & rent', /2026-03|Mar 2026/)).toMatchObject({ figure: '40.00', net: '40.00', ledger: expect.stringContaining('shelf paint') });
    expect(await open('5300 Cloud infrastructure', 'total')).toMatchObject({ figure: '45.00', net: '45.00', ledger: expect.stringContaining('Amazon Web Services AWS-3') });
    // A parent's subtotal opens it with the categories under it, each posting naming its own.
    const parent = await open('5000 Operating expenses', /2026-03|Mar 2026/);
    expect(parent).toMatchObject({ figure: '154.00', net: '154.00' });
    await page
      .getByRole('heading', { name: /5000 Operating expenses with 5100 Software & tools, 5200 Office & rent, 5300 Cloud infrastructure, from 2026-03-01 to 2026-03-31/ })
      .waitFor();
    expect(parent.ledger).toMatch(/5000 Operating expenses[\s\S]*STAMPS/);
    expect(parent.ledger).toMatch(/5100 Software & tools\s+PAINT SHOP/);
    await shot('pl-parent-ledger');
  });

  it('closes the books through a date in Organizations, and an edit there is refused with the date', async () => {
    await page.getByRole('link', { name: 'Organizations' }).click();
    const form = page.getByRole('form', { name: 'Closing date' });
    await form.getByLabel('Close the books through').fill('2026-02-28');
    await form.getByLabel('Reason (for the Log)').fill('February filed');
    await form.getByRole('button', { name: 'Close the period' }).click();
    await page.getByText('Books closed through 2026-02-28.').waitFor();
    expect((await L.organizationBySeq(books, org.seq)).lockedThrough).toBe('2026-02-28');
    await page.goto(`${app.server.url}/#/transactions?description=HARDWARE`);
    await page.getByRole('row', { name: /HARDWARE STORE/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Unsplit' }).click();
    await page.getByText(/2026-02-10 is on or before the closing date 2026-02-28/).waitFor();
  });
});

describe('the Tax screen', () => {
  it('sets up UK VAT, shows the return with a box opening its lines, and files it', async () => {
    await page.getByRole('link', { name: 'Tax', exact: true }).click();
    await page.getByRole('heading', { name: 'Tax', exact: true }).waitFor();
    await page.getByRole('form', { name: 'Set up tax codes' }).getByRole('button', { name: 'Set up' }).click();
    await page.getByRole('table', { name: 'Tax codes' }).getByText('Standard rate 20%').waitFor();
    await L.addTransaction(books, org.seq, L.deskActor(), {
      account: 'Checking',
      date: '2026-05-10',
      amount: 120,
      description: 'INVOICE 42',
      categoryCode: '4000',
      taxCode: 'S',
    });
    const period = page.getByRole('form', { name: 'Period' });
    await period.getByLabel('From').fill('2026-04-01');
    await period.getByLabel('To').fill('2026-06-30');
    await page.getByRole('heading', { name: 'Return, 2026-04-01 to 2026-06-30 (accrual basis)' }).waitFor();
    await page.getByRole('button', { name: 'Box 1: the lines behind it' }).click();
    await page.getByRole('table', { name: 'Tax audit' }).getByText('INVOICE 42').waitFor();
    await shot('tax-return');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'File this return' }).click();
    await page.getByText('Filed the return for 2026-04-01 to 2026-06-30: 1 line(s), payable $20.00.').waitFor();
    await page
      .getByRole('list', { name: 'Filed returns' })
      .getByText(/2026-04-01 to 2026-06-30: payable \$20\.00/)
      .waitFor();
  });

  it('matches the payment to the tax office with the filed return', async () => {
    await L.addTransaction(books, org.seq, L.deskActor(), { account: 'Checking', date: '2026-07-20', amount: -20, description: 'HMRC VAT PAYMENT' });
    await page.reload();
    const payments = page.getByRole('list', { name: 'Payments to match' });
    await payments.getByText(/HMRC VAT PAYMENT: may pay the return for 2026-04-01 to 2026-06-30/).waitFor();
    await payments.getByRole('button', { name: 'Match payment' }).click();
    await page.getByText('The return for 2026-04-01 to 2026-06-30 is paid.').waitFor();
    await page.getByRole('list', { name: 'Filed returns' }).getByText(/paid$/).waitFor();
  });

  it('adds a tax code and changes a rate from a date on the screen', async () => {
    const code = page.getByRole('form', { name: 'New tax code' });
    await code.getByLabel('Code').fill('WET');
    await code.getByLabel('Rate (%)').fill('29');
    await code.getByRole('button', { name: 'Add tax code' }).click();
    await page
      .getByRole('table', { name: 'Tax codes' })
      .getByRole('row', { name: /WET WET 29%/ })
      .waitFor();
    const rate = page.getByRole('form', { name: 'New rate' });
    await rate.getByLabel('Code').selectOption('R');
    await rate.getByLabel('From').fill('2027-01-01');
    await rate.getByLabel('Rate (%)').fill('7.5');
    await rate.getByRole('button', { name: 'Set the rate' }).click();
    await expect.poll(async () => (await L.listTaxCodes(books, org.seq)).find((c) => c.code === 'R')!.rates.at(-1)).toEqual({ from: '2027-01-01', rate: 7.5 });
  });

  it('taxes a row from the register: its lines become net and tax', async () => {
    const chair = await L.addTransaction(books, org.seq, L.deskActor(), {
      account: 'Checking',
      date: '2026-07-05',
      amount: -60,
      description: 'OFFICE CHAIR',
      categoryCode: '5200',
    });
    await page.goto(`${app.server.url}/#/transactions?description=CHAIR`);
    await page.getByRole('row', { name: /OFFICE CHAIR/ }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Tax code' });
    await form.getByLabel('Tax code').selectOption('S');
    await form.getByRole('button', { name: 'Apply tax code' }).click();
    await page.getByText('Taxed at S.').waitFor();
    expect((await L.getTransaction(books, org.seq, chair.id)).lines.map((l) => [l.kind, l.amount])).toEqual([
      ['category', -50],
      ['tax', -10],
    ]);
    await page.getByRole('list', { name: 'Lines of the entry' }).getByText('Tax').waitFor();
  });
});

describe('the Contacts screen', () => {
  it('lists the seed vendors, adds a customer, and archives it', async () => {
    await page.getByRole('link', { name: 'Contacts', exact: true }).click();
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    const form = page.getByRole('form', { name: 'New contact' });
    await form.getByLabel('Name', { exact: true }).fill('Initech Ltd');
    await form.getByLabel('Email').fill('ap@initech.example');
    await form.getByLabel('Terms (days)').fill('30');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await page.getByText('Added Initech Ltd.').waitFor();
    await page.getByRole('row', { name: /Initech Ltd customer ap@initech\.example 30 days/ }).waitFor();
    expect((await L.listContacts(books, org.seq, { role: 'customer' })).map((c) => [c.name, c.termsDays])).toEqual([['Initech Ltd', 30]]);
    await page.getByRole('button', { name: 'Archive Initech Ltd' }).click();
    await page.getByRole('button', { name: 'Restore Initech Ltd' }).waitFor();
    expect(await L.listContacts(books, org.seq, { role: 'customer' })).toEqual([]);
  });
});

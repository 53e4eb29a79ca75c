// Invoices in real Chromium (issue 29): a new invoice written by keyboard
// (customer, lines, the live total), saved and issued; its PDF downloaded and
// read back by pdftotext; a payment recorded from a bank row; the aging
// report; axe finds nothing on the new screens (e2e-a11y visits them too).
// Issue 50: a line takes its category's VAT unless set to No tax; a void is
// dated the invoice's own date by default, and the Dashboard's chart draws a
// negative month below its zero line.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, signedInPage } from './support/browser';
import { tempDir } from './support/env';
import { expectTotalsMatchRows } from './support/aggregates';
import { serveDesk, screenshot } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;
const shot = (name: string) => screenshot(page, name);

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-invoices-'));
  const me = L.deskActor();
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.createAccount(books, org.seq, me, { name: 'Checking', type: 'checking' });
  await L.addContact(books, org.seq, me, { name: 'Øresund Design ApS', customer: true, termsDays: 14 });
  await L.addTransaction(books, org.seq, me, { account: 'Checking', date: '2026-03-20', amount: 1200, description: 'ORESUND DESIGN INV-0001' });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('invoices on screen', () => {
  it('writes an invoice by keyboard with a live total, issues it, downloads its PDF and records its payment', async () => {
    await page.goto(`${app.server.url}/#/invoices`);
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.getByLabel('Customer').focus();
    await form.getByLabel('Customer').selectOption({ label: 'Øresund Design ApS' });
    await page.keyboard.press('Tab');
    await page.keyboard.type('2026-03-01');
    await form.getByLabel('Line 1 description').focus();
    await page.keyboard.type('Logo design');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    await page.keyboard.type('500');
    await page.keyboard.press('Tab');
    await page.keyboard.press('4'); // the first category whose label starts with 4
    await form.getByLabel('Line 1 category').selectOption('4000');
    await form.getByLabel('Line 1 tax code').focus();
    await form.getByLabel('Line 1 tax code').selectOption('S');
    await form.getByText('Total $1,200.00').waitFor();
    await shot('invoice-form');
    await form.getByRole('button', { name: 'Save and issue' }).press('Enter');
    await page.getByText('INV-0001 saved (sent).').waitFor();
    const row = page.getByRole('row', { name: /INV-0001/ });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download PDF of INV-0001' }).click()]);
    const file = join(tempDir(), 'invoice.pdf');
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('INV-0001');
    expect(text).toContain('Øresund Design ApS');
    expect(text).toContain('1,200.00');
    await row.getByRole('button', { name: 'Record a payment of INV-0001' }).click();
    const payment = page.getByRole('form', { name: 'Record a payment of INV-0001' });
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('INV-0001 is now paid.').waitFor();
    expect((await L.aging(books, org.seq, 'receivables', '2026-12-31')).total).toBe(0);
    await expectTotalsMatchRows(books);
  });

  it('shows the aged receivables by contact', async () => {
    await L.createDocument(
      books,
      org.seq,
      L.deskActor(),
      { contact: 'Øresund Design ApS', date: '2026-01-01', dueDate: '2026-01-31', lines: [{ description: 'Late', quantity: 1, unitPrice: 100, categoryCode: '4000' }] },
      { kind: 'invoice', issue: true },
    );
    await page.goto(`${app.server.url}/#/aging`);
    await page.getByLabel('At', { exact: true }).fill('2026-03-31');
    const table = page.getByRole('table', { name: 'Aged receivables at 2026-03-31' });
    await table.getByRole('button', { name: 'Øresund Design ApS' }).click();
    await table.getByText('INV-0002 · due 2026-01-31 · 59 days late').waitFor();
    await shot('aging');
  });

  it("shows a bank row that looks like an invoice's payment in the register, recorded with p", async () => {
    const me = L.deskActor();
    await L.createDocument(
      books,
      org.seq,
      me,
      { contact: 'Øresund Design ApS', date: '2026-04-01', lines: [{ description: 'Poster', quantity: 1, unitPrice: 75, categoryCode: '4000' }] },
      { kind: 'invoice', issue: true },
    );
    await L.addTransaction(books, org.seq, me, { account: 'Checking', date: '2026-04-09', amount: 75, description: 'ORESUND INV-0003' });
    await page.goto(`${app.server.url}/#/transactions?description=ORESUND INV-0003`);
    const row = page.getByRole('row', { name: /ORESUND INV-0003/ });
    await row.getByText('pays INV-0003?').waitFor();
    await row.focus();
    await page.keyboard.press('p');
    await page.getByText('Recorded as the payment of invoice INV-0003.').waitFor();
    await page
      .getByRole('row', { name: /ORESUND INV-0003/ })
      .getByText('Pays INV-0003')
      .waitFor();
    expect((await L.toDocument(books, await L.requireDocument(books, org.seq, ['invoice'], 'INV-0003'))).status).toBe('paid');
  });

  it("gives a line its category's VAT, as the command does, and keeps a line set to No tax without", async () => {
    await L.setCategoryTax(books, org.seq, L.deskActor(), '4000', 'S');
    await page.goto(`${app.server.url}/#/invoices`);
    await page.reload(); // the same address: the screen reads the books again
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.getByLabel('Customer').selectOption({ label: 'Øresund Design ApS' });
    await form.getByLabel('Date').fill('2026-05-12');
    await form.getByLabel('Line 1 description').fill('Brand strategy');
    await form.getByLabel('Line 1 unit price').fill('3000');
    await form.getByLabel('Line 1 category').selectOption('4000');
    // Picked with the category: the ledger's default for the line, shown and still changeable.
    await expect.poll(() => form.getByLabel('Line 1 tax code').inputValue()).toBe('S');
    await form.getByRole('button', { name: 'Add line' }).click();
    await form.getByLabel('Line 2 description').fill('Printed samples');
    await form.getByLabel('Line 2 unit price').fill('100');
    await form.getByLabel('Line 2 category').selectOption('4000');
    await expect.poll(() => form.getByLabel('Line 2 tax code').inputValue()).toBe('S');
    await form.getByLabel('Line 2 tax code').selectOption({ label: 'No tax' });
    await form.getByText('Total $3,700.00').waitFor();
    await form.getByRole('button', { name: 'Save and issue' }).click();
    const saved = await page.getByText(/^INV-\d+ saved \(sent\)\.$/).textContent();
    const doc = await L.toDocument(books, await L.requireDocument(books, org.seq, ['invoice'], saved!.split(' ')[0]));
    expect(doc).toMatchObject({ issueDate: '2026-05-12', net: 3100, tax: 600, total: 3700 });
    expect(doc.lines.map((l) => [l.description, l.taxCode])).toEqual([
      ['Brand strategy', 'S'],
      ['Printed samples', null],
    ]);
  });

  it("voids on the invoice's own date by default: the quarter's P&L then has no revenue of it", async () => {
    const me = L.deskActor();
    const inv = await L.createDocument(
      books,
      org.seq,
      me,
      { contact: 'Øresund Design ApS', date: '2026-08-03', lines: [{ description: 'Brand strategy', quantity: 1, unitPrice: 3000, categoryCode: '4000' }] },
      { kind: 'invoice', issue: true },
    );
    await page.goto(`${app.server.url}/#/invoices`);
    await page.reload(); // the same address: the screen reads the books again
    await page.getByRole('button', { name: `Void ${inv.number}` }).click();
    const dialog = page.getByRole('form', { name: `Void ${inv.number}` });
    const date = dialog.getByLabel('Void date');
    await expect.poll(() => date.inputValue()).toBe('2026-08-03');
    expect(await date.isEnabled()).toBe(true);
    await dialog.getByText('Dated its own date, 2026-08-03').waitFor();
    await dialog.getByLabel('Reason').fill('Wrong customer');
    await shot('invoice-void');
    await dialog.getByRole('button', { name: 'Void on this date' }).click();
    await page.getByText(`${inv.number} voided: its entry is reversed on 2026-08-03.`).waitFor();
    const q3 = { from: '2026-07-01', to: '2026-09-30' };
    expect((await L.profitAndLoss(books, org.seq, q3)).revenue).toBe(0);
    // The Reports screen says the same for the quarter.
    await page.goto(`${app.server.url}/#/reports`);
    await page.getByLabel('Period').selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill(q3.from);
    await page.getByLabel('To', { exact: true }).fill(q3.to);
    await page.getByRole('columnheader', { name: 'Aug 2026' }).waitFor();
    const revenue = page.getByRole('row', { name: /^Total revenue/ });
    await expect.poll(() => revenue.locator('td').last().textContent()).toMatch(/^\D*0\.00$/);
  });

  it('draws a negative month below the zero line, without an error', async () => {
    const me = L.deskActor();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // Voided with a later date named: October's revenue is the reversal alone, -3,000.
    const inv = await L.createDocument(
      books,
      org.seq,
      me,
      { contact: 'Øresund Design ApS', date: '2026-09-15', lines: [{ description: 'Retainer', quantity: 1, unitPrice: 3000, categoryCode: '4000' }] },
      { kind: 'invoice', issue: true },
    );
    await L.voidDocument(books, org.seq, me, ['invoice'], inv.number, 'issued twice', '2026-10-05');
    await L.addTransaction(books, org.seq, me, { account: 'Checking', date: '2026-10-20', amount: -10, description: 'BANK FEE' });
    await page.goto(`${app.server.url}/#/dashboard`);
    const chart = page.getByRole('img', { name: 'Revenue and expenses per month' });
    const october = chart.locator('rect.rev', { has: page.locator('title', { hasText: 'Oct 2026 revenue' }) });
    await october.waitFor();
    const [y, height, zero] = await Promise.all([october.getAttribute('y'), october.getAttribute('height'), chart.locator('line.zero').getAttribute('y1')]);
    expect(Number(y)).toBeCloseTo(Number(zero));
    expect(Number(height)).toBeGreaterThan(0);
    const september = chart.locator('rect.rev', { has: page.locator('title', { hasText: 'Sep 2026 revenue' }) });
    expect(Number(await september.getAttribute('y')) + Number(await september.getAttribute('height'))).toBeCloseTo(Number(zero));
    await shot('dashboard-negative-month');
    expect(errors).toEqual([]);
  });
});

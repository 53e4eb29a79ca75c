// The Rates screen in real Chromium (issue 30): a rate typed by keyboard, the
// ECB's reference-rate file imported (cross rates in the base currency), the
// list narrowed to a currency, a bad file refused with its row and column
// named and nothing written. axe visits the screen with the others (e2e-a11y).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, signedInPage, SCREENSHOTS } from './support/browser';
import { serveDesk } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;

const ECB = 'Date,USD,JPY,GBP,\n2026-03-03,1.0856,157.23,0.8571,\n2026-03-02,1.0841,156.90,0.8566,\n';

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-rates-'));
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the Rates screen', () => {
  it('sets a rate by keyboard, imports the ECB file, narrows to a currency, and refuses a bad file whole', async () => {
    await page.goto(`${app.server.url}/#/rates`);
    await page.getByRole('heading', { name: `Exchange rates in ${org.currency}` }).waitFor();
    const form = page.getByRole('form', { name: 'Set a rate' });
    await form.getByLabel('Currency').fill('chf');
    await form.getByLabel('Date').fill('2026-03-04');
    await form.getByLabel(/^Rate/).fill('1,1312');
    await page.keyboard.press('Enter');
    await page.getByText(`1 CHF = 1.1312 ${org.currency} on 2026-03-04.`).waitFor();

    await page.getByLabel(/^Rates file/).setInputFiles({ name: 'eurofxref-hist.csv', mimeType: 'text/csv', buffer: Buffer.from(ECB) });
    await page.getByText(/ECB reference rates\): 6 added, 0 changed/).waitFor();
    const table = page.getByRole('table', { name: 'Rates' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(7);
    await page.getByRole('combobox', { name: 'Currency' }).selectOption('GBP');
    await expect
      .poll(() => table.locator('tbody tr').allInnerTexts())
      .toEqual([expect.stringMatching(/^2026-03-03\s+GBP\s+1\.26659666317\s+ECB file$/), expect.stringMatching(/^2026-03-02\s+GBP\s+1\.26558487042\s+ECB file$/)]);
    await page.screenshot({ path: join(SCREENSHOTS, 'rates.png'), fullPage: true });

    await page.getByLabel(/^Rates file/).setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('date,currency,rate\n2026-03-05,GBP,0\n') });
    await page.getByText(/rows\[2\]\.rate: 0 is not a rate: a rate is more than zero/).waitFor();
    expect((await L.listRates(books, org.seq, {})).total).toBe(7);
  });

  it('shows a row in another currency with its base amount as booked under its own', async () => {
    const me = L.deskActor();
    const euro = await L.createAccount(books, org.seq, me, { name: 'Euro account', type: 'checking', currency: 'EUR' });
    await L.addTransaction(books, org.seq, me, { account: 'Euro account', date: '2026-03-03', amount: -100, description: 'PARIS HOTEL' });
    await page.goto(`${app.server.url}/#/transactions?account=${euro.id}`);
    const row = page.getByRole('row', { name: /PARIS HOTEL/ });
    await row.waitFor();
    expect(await row.locator('.base-amount').innerText()).toMatch(/108\.56/); // 100 EUR at 1.0856
  });

  it('writes an invoice in euros: its total in EUR, booked at the day\u2019s rate', async () => {
    await L.addContact(books, org.seq, L.deskActor(), { name: 'Café de Lyon', customer: true });
    await page.goto(`${app.server.url}/#/invoices`);
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.getByLabel('Customer').selectOption({ label: 'Café de Lyon' });
    await form.getByLabel('Date').fill('2026-03-03');
    await form.getByLabel('Currency').fill('eur');
    await form.getByLabel('Line 1 description').fill('Catering');
    await form.getByLabel('Line 1 unit price').fill('250');
    await form.getByLabel('Line 1 category').selectOption('4000');
    await form.getByText('Total €250.00').waitFor();
    await form.getByRole('button', { name: 'Save and issue' }).click();
    await page.getByText(/saved \(sent\)/).waitFor();
    const [doc] = (await L.listDocuments(books, org.seq, { kinds: ['invoice'] })).data;
    expect(doc).toMatchObject({ currency: 'EUR', total: 250 });
    const booked = (await books.rows<{ b: number }>("SELECT base_minor AS b FROM postings WHERE kind = 'receivable'"))[0].b;
    expect(booked).toBe(27140); // 250 EUR at 1.0856
  });
});

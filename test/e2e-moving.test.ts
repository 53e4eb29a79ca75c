// Moving from Xero in real Chromium (issue 50): on the Chart of accounts and
// Contacts screens, "Import from Xero / QuickBooks" takes the program's own
// CSV export, previews what each row becomes and why with nothing written,
// and imports on confirmation; the lists then show what came in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, signedInPage, SCREENSHOTS } from './support/browser';
import { serveDesk } from './support/desk-page';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', 'moving', name));
let app: Headless;
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-moving-'));
  await L.setupTaxSet(books, org.seq, L.deskActor(), 'uk-vat');
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('Import from Xero / QuickBooks', () => {
  it("previews Xero's chart, writes nothing until confirmed, then imports it", async () => {
    await page.goto(`${app.server.url}/#/chart`);
    await page.getByRole('heading', { name: 'Chart of accounts' }).waitFor();
    await page.getByLabel(/^Chart of accounts export/).setInputFiles({ name: 'ChartOfAccounts.csv', mimeType: 'text/csv', buffer: fixture('xero-chart.csv') });
    const preview = page.getByRole('region', { name: 'Import preview' });
    await preview.getByText("ChartOfAccounts.csv (Xero's chart of accounts export): 16 new, 1 money account(s), 5 skipped. Nothing is written until you confirm.").waitFor();
    const plan = preview.getByRole('table', { name: 'What the import does' });
    expect(await plan.getByRole('row', { name: /610 Accounts Receivable/ }).innerText()).toMatch(/Skip\s+610 Accounts Receivable\s+Ledgerdesk keeps what customers owe itself/);
    expect(await plan.getByRole('row', { name: /200 Sales/ }).innerText()).toMatch(/New\s+200 Sales\s+revenue, tax S\s*$/);
    expect(await plan.getByRole('row', { name: /310 Cost of Goods Sold/ }).innerText()).toMatch(/cost of sales, tax S\s*$/);
    expect(await plan.getByRole('row', { name: /215 EU Sales/ }).innerText()).toMatch(
      /New\s+215 EU Sales\s+revenue\s+its tax type "Zero Rated EC Goods Income" has no counterpart here/,
    );
    expect((await L.listCategories(books, org.seq)).some((c) => c.code === '200')).toBe(false);
    await page.screenshot({ path: join(SCREENSHOTS, 'chart-import-preview.png'), fullPage: true });
    await preview.getByRole('button', { name: 'Import 17 change(s)' }).click();
    await page.getByText('Imported ChartOfAccounts.csv: 16 new, 1 money account(s), 5 skipped.').waitFor();
    await page.getByRole('row', { name: /200\s+Sales/ }).waitFor();
    expect((await L.listCategories(books, org.seq)).find((c) => c.code === '200')).toMatchObject({ name: 'Sales', taxCode: 'S' });
  });

  it("imports Xero's contacts from the Contacts screen", async () => {
    await page.goto(`${app.server.url}/#/contacts`);
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    await page.getByLabel(/^Contacts export/).setInputFiles({ name: 'Contacts.csv', mimeType: 'text/csv', buffer: fixture('xero-contacts.csv') });
    const preview = page.getByRole('region', { name: 'Import preview' });
    await preview.getByText(/Contacts\.csv \(Xero's contacts export\): 4 new, 1 skipped\./).waitFor();
    await preview.getByRole('button', { name: 'Import 4 change(s)' }).click();
    await page.getByText('Imported Contacts.csv: 4 new, 1 skipped.').waitFor();
    const row = page.getByRole('table', { name: 'Contacts' }).getByRole('row', { name: /Hartley Studio Ltd/ });
    expect(await row.innerText()).toMatch(/customer\s+accounts@hartley\.example\s+Accounts, 12 Mill Lane, Leeds, West Yorkshire, LS1 4AB, United Kingdom\s+GB123456789\s+30 days/);
  });
});

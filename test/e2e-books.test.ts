// The books in real Chromium against the headless server: accounts, statement
// import (drop, preview, confirm, duplicates, date format question, undo) and
// the imported rows in Transactions. Screenshots land in test-results/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { buildRenderer, launchChromium, SCREENSHOTS } from './support/browser';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
let app: Headless;
let browser: Browser;
let page: Page;
let org: L.Organization;
const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** Drops a file on the Import screen's zone, as a person drags it from their file manager. */
async function drop(name: string, bytes = readFileSync(fixture(name))) {
  const data = await page.evaluateHandle(
    ({ name, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name));
      return transfer;
    },
    { name, bytes: [...bytes] },
  );
  await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: data });
}

beforeAll(async () => {
  const rendererDir = buildRenderer(root);
  app = await startHeadless(tempDir('ldk-e2e-books-'), { port: 0, rendererDir, log: () => {} });
  org = L.listOrganizations(app.ledger)[0];
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000); // a step that hangs fails with its locator, before the test's own timeout
  await page.goto(app.signInUrl);
  await page.waitForURL(`${app.server.url}/`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('accounts and import', () => {
  it('teaches the first step on empty books, then adds an account', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText('These books are empty.').waitFor();
    await page.getByRole('link', { name: 'add an account' }).click();
    await page.getByText('No accounts yet.').waitFor();
    const form = page.getByRole('form', { name: 'New account' });
    await form.getByLabel('Name').fill('Operating');
    await form.getByLabel('Opening balance').fill('1000');
    await form.getByLabel('On (YYYY-MM-DD)').fill('2023-12-31');
    await form.getByRole('button', { name: 'Add account' }).click();
    await page.getByText('Added Operating. Import its statement next.').waitFor();
    expect(L.listAccounts(app.ledger, org.seq)).toMatchObject([{ name: 'Operating', type: 'checking', balance: 1000, openingDate: '2023-12-31' }]);
  });

  it('drops a CSV, previews it, imports it into the account, and shows the rows in Transactions', async () => {
    await page.getByRole('link', { name: 'Import statement' }).click();
    await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
    await drop('us-bank.csv');
    await page.getByLabel('What the file holds').filter({ hasText: '5 new' }).waitFor();
    expect(await page.getByLabel('Account').first().inputValue()).toBe(L.listAccounts(app.ledger, org.seq)[0].id);
    expect(await page.locator('.import-preview tbody tr').count()).toBe(5);
    await shot('import-preview');
    expect(L.listTransactions(app.ledger, org.seq, { limit: 1, offset: 0 }).meta.totalCount).toBe(0); // a preview writes nothing
    await page.getByRole('button', { name: 'Import 5 new row(s) into Operating' }).click();
    await page.getByText('Imported 5 new row(s) from us-bank.csv').waitFor();
    await page.getByRole('link', { name: 'See the rows in Transactions' }).click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    await expect.poll(() => page.locator('table.grid tbody tr').count()).toBe(5);
    expect(await page.locator('table.grid').textContent()).toContain('PAYROLL ACME CORP');
    await shot('transactions-imported');
  });

  it('imports nothing the second time, asks for an ambiguous date format, and undoes an import', async () => {
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
    await page.getByLabel('Account').first().selectOption({ label: 'Operating (USD)' });
    await drop('us-bank.csv');
    await page.getByLabel('What the file holds').filter({ hasText: '0 new · 5 duplicate' }).waitFor();
    await drop('ambiguous.csv');
    await page.getByText('the dates fit more than one format').waitFor();
    expect(await page.getByRole('button', { name: /Import 0 new/ }).isDisabled()).toBe(true);
    await page.getByLabel('Date format').selectOption('D/M/YYYY');
    await page.getByLabel('What the file holds').filter({ hasText: '3 new' }).waitFor();
    await page.getByRole('button', { name: 'Import 3 new row(s) into Operating' }).click();
    await page.getByText('Imported 3 new row(s) from ambiguous.csv').waitFor();
    expect(L.listTransactions(app.ledger, org.seq, { date: '2024-02-01', limit: 5, offset: 0 }).data.map((t) => t.description)).toEqual(['Coffee']);
    page.once('dialog', (d) => void d.accept());
    await page.locator('table.imports tbody tr').first().getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Undid the import of ambiguous.csv.').waitFor();
    expect(L.listTransactions(app.ledger, org.seq, { limit: 1, offset: 0 }).meta.totalCount).toBe(5);
    await shot('import-history');
  });

  it('creates the accounts an OFX file describes and lists them with their statement balance', async () => {
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
    await page.getByLabel('Account').first().selectOption('');
    await drop('ofx1-sgml.ofx');
    await page.getByLabel('What the file holds').filter({ hasText: '6 new' }).waitFor();
    await page.getByRole('button', { name: /Import 6 new row\(s\)/ }).click();
    await page.getByText('Imported 6 new row(s) from ofx1-sgml.ofx').waitFor();
    await page.getByRole('link', { name: 'Accounts' }).click();
    const row = page.locator('table.accounts tr', { hasText: 'Checking ****6789' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/4,142\.30/);
    await shot('accounts');
  });
});

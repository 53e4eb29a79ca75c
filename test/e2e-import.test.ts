// Issue 42 on the Import screen in real Chromium against the headless server:
// skipped rows stay listed (before, after, in the history) and download as a
// CSV to fix; a Starling-style CSV reads payee first and keeps the columns
// ticked when the account is picked by hand, which is not "found from the
// file"; a file whose rows are in another account is warned about; a QIF
// whose dates read both ways asks for the format; the preview is the account
// picked last, whichever dry run answers first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, signedInPage } from './support/browser';
import { serveDesk, screenshot } from './support/desk-page';

const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;
const shot = (name: string) => screenshot(page, name);

async function drop(name: string) {
  const bytes = readFileSync(fixture(name));
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

const counts = () => page.getByLabel('What the file holds');
const firstDescription = () => page.locator('.import-preview tbody tr').first().locator('td').nth(2).innerText();
const described = () =>
  page
    .getByRole('group', { name: 'Description columns' })
    .getByRole('checkbox', { checked: true })
    .evaluateAll((boxes) => boxes.map((b) => b.parentElement!.textContent!.trim()));

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-import-'));
  for (const name of ['Operating', 'Starling', 'Barclays', 'Current']) await L.createAccount(books, org.seq, L.deskActor(), { name, type: 'checking' });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the Import screen', () => {
  it('keeps the skipped rows listed when skipping them, after the import and in the history, and downloads them to fix', async () => {
    await page.getByLabel('Account').first().selectOption({ label: 'Operating (USD)' });
    await drop('bad-rows.csv');
    await counts().filter({ hasText: '3 to fix' }).waitFor();
    await page.getByRole('checkbox', { name: 'Skip the bad rows and import the others' }).check();
    await counts().filter({ hasText: '4 new' }).filter({ hasText: '3 skipped' }).waitFor();
    // Ticked, the list and the box stay: what is left out is in view.
    expect(await page.getByRole('table', { name: 'Rows to skip' }).locator('tr').allInnerTexts()).toEqual([
      'line 3\tAmount\t"1.250,00" is not an amount',
      'line 6\tDate\t"2026-02-30" is not a date in the format YYYY-MM-DD',
      'line 7\tAmount\t"abc" is not an amount',
    ]);
    expect(await page.getByRole('checkbox', { name: 'Skip the bad rows and import the others' }).isChecked()).toBe(true);
    await shot('import-skipping');
    await page.getByRole('button', { name: 'Import 4 new row(s) into Operating, skipping 3' }).click();
    await page.getByText('Imported 4 new row(s) from bad-rows.csv; 0 duplicate(s) left out, 3 row(s) skipped (below).').waitFor();
    expect(await page.getByRole('table', { name: 'Skipped rows' }).first().locator('tr').count()).toBe(3);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the skipped rows to fix (bad-rows-skipped.csv)' }).first().click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('bad-rows-skipped.csv');
    expect(
      readFileSync((await file.path())!, 'utf8')
        .split('\r\n')
        .slice(0, 2),
    ).toEqual(['Date,Description,Amount,reason', '2026-03-03,HARTLEY STUDIO client receipt,"1.250,00","line 3, Amount: ""1.250,00"" is not an amount"']);
    const row = page.locator('table.imports tbody tr', { hasText: 'bad-rows.csv' });
    await row.getByRole('button', { name: '3 skipped in bad-rows.csv: show them' }).click();
    await page.locator('table.imports').getByRole('table', { name: 'Skipped rows' }).waitFor();
    expect(await page.locator('table.imports').getByRole('table', { name: 'Skipped rows' }).innerText()).toContain('"1.250,00" is not an amount');
    await shot('import-skipped-history');
  });

  it('reads a Starling-style CSV payee first, keeps the ticked columns when an account is picked by hand, and warns of rows in another account', async () => {
    await page.getByLabel('Account').first().selectOption('');
    await drop('starling.csv');
    await page.getByText('a CSV file does not say which account it belongs to').waitFor();
    await page.getByLabel('Account').first().selectOption({ label: 'Starling (USD)' });
    await counts().filter({ hasText: '5 new' }).waitFor();
    // Picked by hand, the account is not said to be found from the file.
    expect(await page.getByLabel('Account').first().locator('option').first().innerText()).toBe('Find it from the file');
    expect(await described()).toEqual(['Counter Party', 'Reference']);
    expect(await firstDescription()).toBe('WEWORK - LONDON EC2');
    // Ticked in any order, the payee comes first.
    await page.getByRole('checkbox', { name: 'Counter Party' }).uncheck();
    await expect.poll(firstDescription).toBe('LONDON EC2');
    await page.getByRole('checkbox', { name: 'Counter Party' }).check();
    await expect.poll(firstDescription).toBe('WEWORK - LONDON EC2');
    await page.getByRole('checkbox', { name: 'Type' }).check();
    await expect.poll(firstDescription).toBe('WEWORK - LONDON EC2 - CARD PAYMENT');
    await page.getByLabel('Account').first().selectOption({ label: 'Barclays (USD)' });
    await page.getByLabel('Account').first().selectOption({ label: 'Starling (USD)' });
    await counts().filter({ hasText: '5 new' }).waitFor();
    expect(await described()).toEqual(['Counter Party', 'Reference', 'Type']);
    expect(await firstDescription()).toBe('WEWORK - LONDON EC2 - CARD PAYMENT');
    await page.getByRole('button', { name: 'Import 5 new row(s) into Starling' }).click();
    await page.getByText('Imported 5 new row(s) from starling.csv').waitFor();
    // The same file again: found from its header, read with the columns saved for it; another account picked by
    // hand keeps them, and is told its rows are already in Starling.
    await page.getByLabel('Account').first().selectOption('');
    await drop('starling.csv');
    await counts().filter({ hasText: '0 new · 5 duplicate' }).waitFor();
    expect(await page.getByLabel('Account').first().locator('option').first().innerText()).toBe('Starling (found from the file)');
    expect(await described()).toEqual(['Counter Party', 'Reference', 'Type']);
    await page.getByLabel('Account').first().selectOption({ label: 'Barclays (USD)' });
    await page.getByRole('alert').filter({ hasText: 'These rows are already in "Starling" (5 of 5): is this the right account?' }).waitFor();
    expect(await described()).toEqual(['Counter Party', 'Reference', 'Type']);
    expect(await firstDescription()).toBe('WEWORK - LONDON EC2 - CARD PAYMENT');
    expect(await page.getByLabel('Account').first().locator('option').first().innerText()).toBe('Find it from the file');
    await shot('import-other-account');
  });

  it('shows the dry run of the account picked last, whichever answers first', async () => {
    const account = page.getByLabel('Account').first();
    await account.selectOption('');
    await drop('starling.csv');
    await counts().filter({ hasText: '0 new · 5 duplicate' }).waitFor();
    const [barclays, starling] = await Promise.all(['Barclays (USD)', 'Starling (USD)'].map((label) => account.locator('option', { hasText: label }).getAttribute('value')));
    const dryRunOf = (id: string | null) => (r: Response) => r.url().endsWith('/desk/api/importStatement') && r.request().postDataJSON()?.account === id;
    // Barclays's dry run is answered only once Starling's, asked after it, has been.
    const starlingAnswered = page.waitForResponse(dryRunOf(starling));
    const barclaysAnswered = page.waitForResponse(dryRunOf(barclays));
    await page.route('**/desk/api/importStatement', async (route) => {
      if (route.request().postDataJSON()?.account === barclays) await starlingAnswered;
      await route.continue();
    });
    await account.selectOption({ label: 'Barclays (USD)' });
    await account.selectOption({ label: 'Starling (USD)' });
    await barclaysAnswered;
    await page.unrouteAll({ behavior: 'wait' });
    await page.evaluate(() => new Promise((done) => setTimeout(done, 200))); // the late answer's turn to be shown, if it were
    expect(await counts().innerText()).toContain('0 new · 5 duplicate');
    expect(await page.getByRole('alert').filter({ hasText: 'already in "Starling"' }).count()).toBe(0);
  });

  it("takes a CSV's Balance column as the statement balance Reconcile starts from, and says one that disagrees", async () => {
    await page.getByLabel('Account').first().selectOption({ label: 'Current (USD)' });
    await drop('balance-disagrees.csv');
    await page.getByRole('alert').filter({ hasText: 'Line 3 has a balance that does not follow from the amounts (1375 then -5 makes 1370; the file says 1360)' }).waitFor();
    await drop('balance-newest-first.csv');
    await counts().filter({ hasText: '3 new' }).waitFor();
    expect(await page.getByLabel('Running balance').inputValue()).toBe('Balance');
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('button', { name: 'Import 3 new row(s) into Current' }).click();
    await page.getByText('Imported 3 new row(s) from balance-newest-first.csv').waitFor();
    const current = (await L.listAccounts(books, org.seq)).find((a) => a.name === 'Current')!;
    await page.goto(`${app.server.url}/#/reconcile?account=${current.id}`);
    // The balance after the last row of 15 March (the file lists that day oldest-first under a newest-first order).
    await expect.poll(() => page.getByLabel('Statement ending balance').inputValue()).toBe('1,380.00');
    expect(await page.getByLabel('Statement end date (YYYY-MM-DD)').inputValue()).toBe('2026-03-15');
    await shot('reconcile-from-csv-balance');
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
  });

  it('asks the date format of a QIF whose dates read both ways', async () => {
    await page.getByLabel('Account').first().selectOption('');
    await drop('quicken-uk.qif');
    await page.getByText('the dates fit more than one format (D/M/YYYY, M/D/YYYY); choose the date format').waitFor();
    expect(await page.getByRole('button', { name: /Import 0 new/ }).isDisabled()).toBe(true);
    await page.getByLabel('Date format').selectOption('D/M/YYYY');
    await counts().filter({ hasText: '3 new' }).waitFor();
    expect(await page.getByLabel('Account').first().locator('option').first().innerText()).toBe('New account: High Street Current');
    await page.getByRole('button', { name: 'Import 3 new row(s) into High Street Current' }).click();
    await page.getByText('Imported 3 new row(s) from quicken-uk.qif').waitFor();
    expect((await L.listTransactions(books, org.seq, { description: 'Newsagent', limit: 5, offset: 0 })).data.map((t) => t.date)).toEqual(['2021-02-03']);
  });
});

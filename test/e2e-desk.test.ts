// The desk as a new bookkeeper met it (issue 25), in real Chromium at 1366 px:
// an empty organization opens on what to do first, tables that never break a
// word or a figure, a bookkeeper's words, a P&L read like an accountant's,
// imports that find the account by the number statements print and say when
// nothing is new, a reconciliation report, notes and receipts from a row.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { booksFlags, headlessBooks, testBooks } from './support/books';
import { builtRenderer, launchChromium, SCREENSHOTS } from './support/browser';
import { tempDir } from './support/env';
import { fillDemo } from '../src/main/demo';

const root = join(__dirname, '..');
const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let data: string;
let browser: Browser;
let page: Page;
let org: L.Organization;
const notFound: string[] = [];
const consoleErrors: string[] = [];
const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  data = tempDir('ldk-e2e-desk-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: builtRenderer(root), log: () => {} });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  page.setDefaultTimeout(20_000);
  page.on('response', (r) => r.status() === 404 && notFound.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await page.goto(app.signInUrl);
  await page.waitForURL(`${app.server.url}/`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('first steps', () => {
  it('opens an empty organization on the Dashboard, which says what to do first; no 404, no invalid pattern', async () => {
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('These books are empty.').waitFor();
    await page.goto(`${app.server.url}/#/organizations`);
    await page.getByRole('form', { name: 'New organization' }).waitFor();
    expect(notFound).toEqual([]); // the favicon included
    expect(consoleErrors.filter((e) => /pattern/i.test(e))).toEqual([]);
  });

  it('says that an address names no screen, rather than opening another', async () => {
    await page.goto(`${app.server.url}/#/invoicez?x=1`);
    await page.getByText('No such screen.').waitFor();
    await expect(page.locator('main').innerText()).resolves.toMatch(/There is no screen at #\/invoicez \(a mistyped or outdated link\)/);
    await page.locator('main').getByRole('link', { name: 'the Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${app.server.url}/#/organizations`); // where the next test starts
    await page.getByRole('form', { name: 'New organization' }).waitFor();
  });

  it('shows an organization made by command, and renamed, without a reload; removes an empty one', async () => {
    execFileSync(process.execPath, [join(root, 'bin', 'ledgerdesk.mjs'), 'org', 'create', 'studio', '--name', 'Studio Amsterdam', '--currency', 'EUR', ...booksFlags(data)], {
      env: process.env,
    });
    await page.getByLabel('Organization', { exact: true }).locator('option', { hasText: 'Studio Amsterdam' }).waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Rename' }).first().click();
    await page.getByLabel('New name').fill('Coffee Roaster Ltd');
    await page
      .getByRole('form', { name: /^Rename / })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Renamed to Coffee Roaster Ltd.').waitFor();
    expect((await L.listOrganizations(books)).map((o) => o.name)).toContain('Coffee Roaster Ltd');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Removed Studio Amsterdam.').waitFor();
    expect(await L.listOrganizations(books)).toHaveLength(1);
  });
});

describe('books kept for a while', () => {
  beforeAll(async () => {
    org = (await L.listOrganizations(books))[0];
    await fillDemo(books, org.seq, org.slug, 2000, org.currency);
    await L.addCategory(books, org.seq, L.deskActor(), { code: '5010', name: 'Green coffee beans', type: 'expense', costOfSales: true });
    await L.addCategory(books, org.seq, L.deskActor(), { code: '5400', name: 'Marketing and advertising campaigns', type: 'expense', parentCode: '5000' });
    await L.addCategory(books, org.seq, L.deskActor(), { code: '5410', name: 'Trade fairs', type: 'expense', parentCode: '5400' });
    await L.createAccount(books, org.seq, L.deskActor(), { name: 'Roasting cash', type: 'cash' });
    for (const [code, amount] of [
      ['5010', -1200],
      ['5410', -350],
      ['5400', -80],
    ] as const) {
      await L.addTransaction(books, org.seq, L.deskActor(), { account: 'Roasting cash', date: '2026-05-04', amount, description: `Row for ${code}`, categoryCode: code });
    }
  });

  it("writes a bookkeeper's words, never breaks a figure or a word, and scrolls a wide table inside its frame", async () => {
    await page.goto(`${app.server.url}/#/transactions`);
    await page.locator('tr.row').first().waitFor();
    const register = await page.locator('table.register').innerText();
    expect(register).not.toMatch(/manual_csv|uncategorized\b|\bmatched\b/);
    expect(register).toMatch(/Uncategorized|Categorized/);
    expect(await page.getByLabel('Category').locator('option', { hasText: 'Uncategorized' }).count()).toBe(1);
    // Every figure and chip on one line; the page itself never wider than the window.
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll('.money, .status, th')]
        .filter((e) => e.getClientRects().length > 1 || (e as HTMLElement).offsetHeight > 2 * parseFloat(getComputedStyle(e).lineHeight || '20'))
        .map((e) => e.textContent),
    );
    expect(broken).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await shot('register-1366');
  });

  it('reads the P&L like an accountant: sections, each category under its parent, subtotals and net in every month, names on one line', async () => {
    await page.goto(`${app.server.url}/#/reports`);
    await page.getByLabel('Period').selectOption('custom');
    const period = page.locator('form.filters').first();
    await period.getByLabel('From', { exact: true }).fill('2026-01-01');
    await period.getByLabel('To', { exact: true }).fill('2026-06-30');
    const table = page.locator('table.pl');
    // The period's own table, not the default one shown until both dates are in (its months would be other columns).
    const months = () => table.locator('thead th').evaluateAll((ths) => ths.map((th) => th.textContent ?? '').filter((t) => /^[A-Z][a-z]{2} \d{4}$/.test(t)));
    await expect.poll(months).toEqual(['Jan 2026', 'Feb 2026', 'Mar 2026', 'Apr 2026', 'May 2026', 'Jun 2026']);
    await table.locator('tr.section', { hasText: 'Cost of sales' }).waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => (tr.firstElementChild as HTMLElement).innerText.trim()));
    const at = (text: string) => rows.findIndex((r) => r.startsWith(text));
    expect(at('Revenue')).toBeLessThan(at('Cost of sales'));
    expect(at('Cost of sales')).toBeLessThan(at('Gross profit'));
    expect(at('Gross profit')).toBeLessThan(at('Expenses'));
    // 5400 and 5410 under 5000, in that order, after 5300? No: under their parent, by code.
    expect([at('5000 Operating expenses'), at('5400 Marketing'), at('5410 Trade fairs')]).toEqual(
      [...[at('5000 Operating expenses'), at('5400 Marketing'), at('5410 Trade fairs')]].sort((a, b) => a - b),
    );
    expect(at('5400 Marketing')).toBeLessThan(at('5300') < 0 ? Infinity : rows.length);
    const may = await table.locator('thead th').evaluateAll((ths) => ths.findIndex((th) => th.textContent === 'May 2026'));
    const cell = (label: string) =>
      table
        .locator('tr', { has: page.locator('td:first-child', { hasText: label }) })
        .first()
        .locator('td')
        .nth(may);
    expect(await cell('5400 Marketing').innerText()).toContain('430.00'); // its own 80 and 5410's 350
    expect(await cell('Net profit').innerText()).not.toBe('');
    // Names on one line, zeros muted (never green), the table scrolls in its frame at 1366 px.
    const wrapped = await table
      .locator('td:first-child')
      .evaluateAll((tds) => tds.filter((td) => td.getClientRects()[0] && (td as HTMLElement).offsetHeight > 40).map((td) => td.textContent));
    expect(wrapped).toEqual([]);
    expect(
      await table
        .locator('.money.zero')
        .first()
        .evaluate((e) => getComputedStyle(e).color),
    ).toBe(
      await page
        .locator('.muted')
        .first()
        .evaluate((e) => getComputedStyle(e).color),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await shot('profit-and-loss-1366');
  });

  it('offers no Archive on the default categories, and reports an expense as cost of sales', async () => {
    await page.goto(`${app.server.url}/#/chart`);
    const row = (code: string) => page.locator('table.chart-table tr', { has: page.locator('code', { hasText: new RegExp(`^${code}$`) }) });
    await row('5100').waitFor();
    expect(await row('5100').getByRole('button', { name: 'Archive' }).count()).toBe(0);
    expect(await row('5410').getByRole('button', { name: 'Archive' }).count()).toBe(1);
    await row('5200').getByLabel('Where 5200 is reported').selectOption('cost_of_sales');
    await page.getByText('5200 Office & rent is now reported as cost of sales.').waitFor();
    await row('5200').getByLabel('Where 5200 is reported').selectOption('expenses');
    await page.getByText('5200 Office & rent is now reported among the expenses.').waitFor();
    // Under a parent reported as cost of sales, a category goes with it: its choice is the parent's.
    await row('5000').getByLabel('Where 5000 is reported').selectOption('cost_of_sales');
    await expect.poll(() => row('5200').getByLabel('Where 5200 is reported').isDisabled()).toBe(true);
    expect(await row('5200').getByLabel('Where 5200 is reported').inputValue()).toBe('cost_of_sales');
    await row('5000').getByLabel('Where 5000 is reported').selectOption('expenses');
    await expect.poll(() => row('5200').getByLabel('Where 5200 is reported').isDisabled()).toBe(false);
  });

  it("says, on adding a category named as another's synonym, what agents' word now means", async () => {
    const form = page.getByRole('form', { name: 'New category' });
    await form.getByLabel('Code', { exact: true }).fill('5020');
    await form.getByLabel('Name', { exact: true }).fill('Travel');
    await form.getByLabel('Parent code').fill('5000');
    await form.getByRole('button', { name: 'Add category' }).click();
    await page.getByText(`Added 5020 Travel. "Travel" is also a synonym of 5000 Operating expenses: agents' "travel" will now mean 5020 Travel`).waitFor();
    expect((await L.resolveCategory(books, org.seq, { category: 'travel' }, 'outflow')).code).toBe('5020');
  });
});

describe('imports', () => {
  it('finds the account by the number its statements print, says when nothing is new, and reads the same file picked again', async () => {
    const mine = await L.createAccount(books, org.seq, L.deskActor(), { name: 'Main checking', type: 'checking', maskedNumber: '****6789' });
    await page.goto(`${app.server.url}/#/import`);
    const picker = page.getByLabel('Statement file');
    await picker.setInputFiles(fixture('bank.qfx'));
    await page.getByLabel('What the file holds').filter({ hasText: '4 new' }).waitFor();
    expect(await page.getByLabel('Account').first().locator('option:checked').innerText()).toBe('Main checking (found from the file)');
    await page.getByRole('button', { name: 'Import 4 new row(s) into Main checking' }).click();
    await page.getByText('Imported 4 new row(s) from bank.qfx').waitFor();
    // The same file again, from the same picker: read again, nothing new, nothing recorded.
    await picker.setInputFiles(fixture('bank.qfx'));
    await page.getByText('Nothing new: the 4 row(s) of bank.qfx are already in Main checking').waitFor();
    expect(await page.getByRole('button', { name: /Import 0 new/ }).count()).toBe(0);
    expect((await L.listImports(books, org.seq, { limit: 10, offset: 0 })).totalCount).toBe(1);
    expect((await L.listAccounts(books, org.seq)).find((a) => a.id === mine.id)!.bankAccountId).toBe('000123456789');
  });
});

describe("the bookkeeper's hand", () => {
  it('adds a note and asks for a receipt from a row, and deletes a bank row that should not be there', async () => {
    const [row] = (await L.listTransactions(books, org.seq, { description: 'GITHUB', limit: 1, offset: 0 })).data;
    await page.goto(`${app.server.url}/#/transactions?description=GITHUB`);
    await page.locator('tr.row').first().getByText(row.description).click();
    await page.getByRole('form', { name: 'Add a note' }).getByLabel('Note').fill('Annual plan, ask for the invoice');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Note added.').waitFor();
    await page.getByRole('button', { name: 'Needs a receipt' }).click();
    await page.getByText('Marked as needing a receipt.').waitFor();
    expect(await L.getTransaction(books, org.seq, row.id)).toMatchObject({ notes: [{ content: 'Annual plan, ask for the invoice' }] });
    expect((await L.handRow(books, org.seq, row.id)).receipt_needed).toBe(1);
  });

  it('lists what each receipt is linked to, and deletes one linked to nothing', async () => {
    const ctx = { ledger: app.ledger, dataDir: data, agentUrl: '', mode: 'command' as const, reviewer: L.deskActor() };
    await runDesk(ctx, 'uploadReceipt', { orgId: org.id, fileName: 'mistake.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]) }, () => {});
    await page.goto(`${app.server.url}/#/receipts`);
    const mistake = page.locator('tr', { hasText: 'mistake.png' });
    await mistake.getByText('linked to nothing').waitFor();
    expect(await page.locator('table.grid').innerText()).toMatch(/\d{4}-\d\d-\d\d · .+ · /); // a linked receipt names its row
    page.once('dialog', (d) => void d.accept());
    await mistake.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted mistake.png.').waitFor();
  });

  it('prints a report of a finished reconciliation, its difference at zero', async () => {
    const account = (await L.listAccounts(books, org.seq)).find((a) => a.name === 'Main checking')!;
    await L.reconcileAccount(books, org.seq, L.deskActor(), {
      account: account.id,
      statementDate: '2024-01-31',
      statementBalance: account.balance,
      clearThrough: '2024-12-31',
    });
    await page.goto(`${app.server.url}/#/reconcile?account=${account.id}`);
    await page.getByRole('link', { name: 'report', exact: true }).click();
    await page.getByRole('heading', { name: 'Reconciliation of Main checking through 2024-01-31' }).waitFor();
    const summary = await page.locator('table.summary').innerText();
    expect(summary).toMatch(/Cleared deposits \(\d+\)/);
    expect(summary).toMatch(/Difference\s+\$0\.00/);
    await shot('reconciliation-report');
  });
});

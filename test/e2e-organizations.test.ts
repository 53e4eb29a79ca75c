// The first organization's currency and the Dashboard's words (issue 42), in
// real Chromium: the empty Dashboard says what the books are kept in and where
// that changes while they hold no money; Organizations changes it, and stops
// offering to once there is money; the Dashboard's revenue and expenses are the
// profit and loss's, and its caption says so (transfers and uncategorized rows
// are neither).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, SCREENSHOTS, signedInPage } from './support/browser';
import { serveDesk } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ app, books } = await serveDesk('ldk-e2e-orgs-'));
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the first organization', () => {
  it('says its currency on the empty Dashboard, changes it in Organizations while the books hold no money, and no longer once they do', async () => {
    const org = (await L.listOrganizations(books))[0];
    expect([org.name, org.currency]).toEqual(['My organization', 'USD']);
    await L.createAccount(books, org.seq, L.deskActor(), { name: 'Bank', type: 'checking' }); // an account holds no money yet
    await page.getByRole('link', { name: 'Dashboard' }).click(); // with an account it opens on Approvals
    await page.getByText('These books are empty.').waitFor();
    await page.getByText('Books in USD (US Dollar): while they hold no money, change the currency in Organizations.').waitFor();
    await page.getByRole('link', { name: 'change the currency in Organizations' }).click();
    await page.getByRole('textbox', { name: 'Currency of My organization' }).fill('GBP');
    await page.screenshot({ path: join(SCREENSHOTS, 'organizations-currency.png'), fullPage: true });
    await page.getByRole('button', { name: 'Change', exact: true }).click();
    await page.getByText('My organization now keeps its books in GBP.').waitFor();
    expect((await L.requireOrganization(books, 'default')).currency).toBe('GBP');
    expect((await L.listAccounts(books, org.seq)).map((a) => [a.name, a.currency])).toEqual([['Bank', 'GBP']]);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText('Books in GBP (British Pound): while they hold no money').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-empty-currency.png'), fullPage: true });

    await L.setRate(books, org.seq, L.deskActor(), { currency: 'EUR', date: '2026-03-01', rate: '0.85' }); // money in GBP: fixed from now on
    await page.reload();
    await page.getByText('Books in GBP (British Pound).').waitFor();
    await page.getByRole('link', { name: 'Organizations' }).click();
    await page.getByRole('cell', { name: 'GBP', exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Currency of My organization' }).count()).toBe(0);
  });

  it("shows the profit and loss's revenue and expenses, and says exactly that", async () => {
    const org = await L.requireOrganization(books, 'default');
    const add = (account: string, amount: string, description: string, categoryCode?: string) =>
      L.addTransaction(books, org.seq, L.deskActor(), { account, date: '2026-03-10', amount, description, categoryCode });
    await L.createAccount(books, org.seq, L.deskActor(), { name: 'Savings', type: 'savings' });
    await add('Bank', '1200', 'Design work', '4000');
    await add('Bank', '-300', 'Software', '5100');
    await add('Bank', '-99', 'Unknown card payment'); // uncategorized: neither
    const out = await add('Bank', '-500', 'To savings');
    await add('Savings', '500', 'From bank');
    await L.makeTransfer(books, org.seq, L.deskActor(), out.id, 'Savings'); // a transfer: neither
    const pl = await L.profitAndLoss(books, org.seq, { from: '2025-04-01', to: '2026-03-31' });
    expect([pl.revenue, -pl.expenses]).toEqual([1200, 300]);

    await page.getByRole('link', { name: 'Dashboard' }).click();
    const tile = (name: string) => page.locator('.tile', { hasText: name });
    await expect.poll(() => tile('Revenue (12 months)').innerText()).toMatch(/1,200\.00/);
    expect(await tile('Expenses (12 months)').innerText()).toMatch(/300\.00/);
    await page
      .getByText(
        "Revenue and expenses are the profit and loss's over the twelve months Apr 2025 to Mar 2026 (to the latest transaction), on the accrual basis, in GBP: transfers between the organization's own accounts and uncategorized rows are neither.",
      )
      .waitFor();
    await page.getByRole('img', { name: 'Revenue and expenses per month' }).waitFor();
    expect(await page.getByText(/Money in|Money out/).count()).toBe(0);
  });
});

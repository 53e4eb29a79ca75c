// A EUR invoice paid into the GBP account on screen, in real Chromium (issue
// 43): the Record payment form offers the pound row (each row with its
// currency), asks what of the invoice it settles (the balance to begin with),
// shows what that was booked at, the rate the amounts imply and the realized
// loss before saving, refuses a slip as it is typed, and records the payment.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { launchChromium, signedInPage, SCREENSHOTS } from './support/browser';
import { steadyRate } from './support/rates';
import { serveDesk } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;

beforeAll(async () => {
  ({ app, books } = await serveDesk('ldk-e2e-fx-'));
  const me = L.deskActor();
  org = await L.updateOrganization(books, (await L.listOrganizations(books))[0].id, { currency: 'GBP' });
  await steadyRate(books, org.seq, 'EUR', '0.859', '2026-01-01', '2026-06-30');
  await L.setRate(books, org.seq, me, { currency: 'EUR', date: '2026-02-10', rate: '0.8562' });
  await L.createAccount(books, org.seq, me, { name: 'Current', type: 'checking' });
  await L.addContact(books, org.seq, me, { name: 'Berlin GmbH', customer: true });
  await L.createDocument(
    books,
    org.seq,
    me,
    { contact: 'Berlin GmbH', currency: 'EUR', date: '2026-01-15', lines: [{ description: 'Design', quantity: 1, unitPrice: 3000, categoryCode: '4000', taxCode: null }] },
    { kind: 'invoice', issue: true },
  );
  await L.addTransaction(books, org.seq, me, { account: 'Current', date: '2026-02-09', amount: 120, description: 'SOMEONE ELSE' });
  await L.addTransaction(books, org.seq, me, { account: 'Current', date: '2026-02-10', amount: 2568.6, description: 'BERLIN GMBH INV-0001' });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a EUR invoice paid from the GBP account on screen', () => {
  it('picks the pound row, shows its currency and the realized difference, refuses a slip, and saves', async () => {
    await page.goto(`${app.server.url}/#/invoices`);
    await page
      .getByRole('row', { name: /INV-0001/ })
      .getByRole('button', { name: 'Record a payment of INV-0001' })
      .click();
    const form = page.getByRole('form', { name: 'Record a payment of INV-0001' });
    // The likely payment first, starred; every row with its currency.
    await expect
      .poll(() => form.getByLabel('Bank row').locator('option').allTextContents())
      .toEqual(['★ 2026-02-10 £2,568.60 GBP BERLIN GMBH INV-0001', '2026-02-09 £120.00 GBP SOMEONE ELSE']);
    await expect.poll(() => form.getByLabel('Settles (EUR)').inputValue()).toBe('3000.00');
    const status = form.getByRole('status');
    await status.getByText("€3,000.00 booked at £2,577.00; received £2,568.60 (0.8562 GBP per EUR; the day's rate 0.8562): realized loss £8.40.").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'fx-payment.png'), fullPage: true });
    // A slip (300.00 for 3,000.00) is named before anything is saved.
    await form.getByLabel('Settles (EUR)').fill('300');
    await status.getByText(/is 8\.562 GBP per EUR, more than 25% from the rate of 2026-02-10/).waitFor();
    await form.getByLabel('Settles (EUR)').fill('3000.00');
    await status.getByText(/realized loss £8\.40/).waitFor();
    await form.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('INV-0001 is now paid; realized loss £8.40.').waitFor();
    expect(await L.toDocument(books, await L.requireDocument(books, org.seq, ['invoice'], 'INV-0001'))).toMatchObject({ status: 'paid', balance: 0 });
    expect((await L.profitAndLoss(books, org.seq, { from: '2026-02-01', to: '2026-02-28' })).lines.find((l) => l.code === '7900')?.amount).toBeCloseTo(-8.4, 2);
    await expectTotalsMatchRows(books);
  });
});

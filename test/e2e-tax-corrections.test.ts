// Corrections after a filed return in real Chromium (issue 43): a row of the
// filed quarter changed in the register asks "save as a correction in the
// next return?" (no leaves it as filed, yes makes the correction); the Tax
// screen shows the next return with its corrections apart, each naming the
// row and the return, a box opening them among its lines; a large one
// flagged, and filing asks about it.
import { join } from 'node:path';
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, signedInPage, SCREENSHOTS } from './support/browser';
import { expectTotalsMatchRows } from './support/aggregates';
import { serveDesk } from './support/desk-page';

const q2 = { from: '2026-04-01', to: '2026-06-30' };
let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;
let filed: L.FiledReturn;
const rows: Record<string, L.HandRow> = {};

/** Answers the next dialog (yes or no) and says what it asked. */
const answer = (yes: boolean) =>
  new Promise<string>((resolve) => page.once('dialog', async (d: Dialog) => (resolve(d.message()), void (yes ? await d.accept() : await d.dismiss()))));

async function openRow(description: string) {
  await page.goto(`${app.server.url}/#/transactions?description=${encodeURIComponent(description)}`);
  await page.getByRole('row', { name: new RegExp(description) }).focus();
  await page.keyboard.press('Enter');
}

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-corrections-'));
  const me = L.deskActor();
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.createAccount(books, org.seq, me, { name: 'Checking', type: 'checking' });
  const add = async (key: string, date: string, amount: number, description: string, categoryCode: string) =>
    (rows[key] = await L.addTransaction(books, org.seq, me, { account: 'Checking', date, amount, description, categoryCode, taxCode: 'S' }));
  await add('design', '2026-01-05', 1200, 'DESIGN WORK', '4000');
  await add('contract', '2026-01-20', 120000, 'BIG CONTRACT', '4000');
  await add('paint', '2026-02-10', -120, 'PAINT SUPPLIES', '5100');
  filed = await L.fileTaxReturn(books, org.seq, me, { from: '2026-01-01', to: '2026-03-31' });
  await add('april', '2026-04-10', 600, 'APRIL WORK', '4000');
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a change to a filed row in the register', () => {
  it('asks first: no leaves the row as filed and says why; yes saves it as a correction in the next return', async () => {
    await openRow('PAINT SUPPLIES');
    const form = page.getByRole('form', { name: 'Tax code' });
    await form.getByLabel('Tax code').selectOption('Z');
    const declined = answer(false);
    await form.getByRole('button', { name: 'Apply tax code' }).click();
    expect(await declined).toBe(`This row is in the return for Q1 2026, filed ${filed.filedAt.slice(0, 10)}: save as a correction in the next return?`);
    await page.getByText(/changes only as a correction in the next open return/).waitFor();
    expect((await L.taxReturn(books, org.seq, q2)).corrections).toEqual([]);
    const accepted = answer(true);
    await form.getByRole('button', { name: 'Apply tax code' }).click();
    await accepted;
    await page.getByText('Taxed at Z.').waitFor();
    expect((await L.taxReturn(books, org.seq, q2)).corrections.map((c) => [c.code, c.net, c.tax])).toEqual([
      ['S', -100, -20],
      ['Z', 120, 0],
    ]);
  });

  it('asks the same when a row entered by hand is edited: its new amount is recomputed into the open correction', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const form = page.getByRole('form', { name: 'Edit transaction' });
    await form.getByLabel('Amount (− out, + in)').fill('-150.00');
    const asked = answer(true);
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await asked).toContain('This row is in the return for Q1 2026');
    await page.getByText('Saved PAINT SUPPLIES.').waitFor();
    expect((await L.taxReturn(books, org.seq, q2)).corrections.map((c) => [c.code, c.net, c.tax])).toEqual([
      ['S', -100, -20],
      ['Z', 150, 0],
    ]);
  });
});

describe('the Tax screen', () => {
  it('shows the next return with the corrections of earlier returns apart, each naming its row and the return; a box opens them', async () => {
    await page.getByRole('link', { name: 'Tax', exact: true }).click();
    await page.getByRole('heading', { name: 'Return, 2026-04-01 to 2026-06-30 (accrual basis)' }).waitFor();
    const table = page.getByRole('table', { name: 'Corrections of earlier returns' });
    const filedOn = filed.filedAt.slice(0, 10);
    await table.getByRole('row', { name: new RegExp(`2026-02-10 PAINT SUPPLIES The return for Q1 2026, filed ${filedOn} S purchases -\\$100\\.00 -\\$20\\.00`) }).waitFor();
    await table.getByRole('row', { name: new RegExp(`PAINT SUPPLIES The return for Q1 2026, filed ${filedOn} Z purchases \\$150\\.00 \\$0\\.00`) }).waitFor();
    const box4 = page.getByRole('button', { name: 'Box 4: the lines behind it' });
    expect(await box4.innerText()).toBe('-$20.00');
    await box4.click();
    await page.getByRole('table', { name: 'Tax audit' }).getByText('correction of Q1 2026').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('flags corrections over the threshold, and filing asks about them before it files them', async () => {
    await L.categorizeTransactions(books, org.seq, L.deskActor(), [rows.contract.id], '4000', 'Z', { correction: true });
    await page.reload();
    await page
      .getByRole('alert')
      .getByText(
        /These corrections exceed HMRC's error correction threshold: disclose them separately \(form VAT652\) instead of including them \(net value -\$19,980\.00, threshold \$10,000\.00\)/,
      )
      .waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'tax-corrections.png'), fullPage: true });
    const asked = answer(true);
    await page.getByRole('button', { name: 'File this return' }).click();
    expect(await asked).toContain("These corrections exceed HMRC's error correction threshold");
    await page.getByText(/Filed the return for 2026-04-01 to 2026-06-30/).waitFor();
    const [second] = await L.listTaxReturns(books, org.seq);
    expect([second.to, second.report.corrections.length]).toEqual(['2026-06-30', 4]);
    expect((await L.listTaxReturns(books, org.seq)).find((r) => r.id === filed.id)).toEqual(filed);
    await expectTotalsMatchRows(books);
  });
});

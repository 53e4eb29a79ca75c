// Journals and opening balances in real Chromium (issue 43): a journal written
// by keyboard (the account by type-ahead, debit and credit, a tax code), the
// running difference reaching zero before Save (the reading of the lines typed
// last, whichever answers first), then opened and reversed; the
// opening balances of a takeover typed in, refused while they leave something
// over, saved when the difference is put to Opening balances.
import type { Browser, Page, Request } from 'playwright-core';
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
const shot = (name: string) => screenshot(page, name);

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-journals-'));
  const me = L.deskActor();
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.createAccount(books, org.seq, me, { name: 'Current', type: 'checking' });
  await L.addCategory(books, org.seq, me, { code: '3000', name: 'Share capital', type: 'equity' });
  await L.addContact(books, org.seq, me, { name: 'Acme Ltd', customer: true });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The New journal form with its date and narration typed; `account(n, typed)` picks line n's account by type-ahead. */
async function newJournal(date: string, narration: string) {
  await page.goto(`${app.server.url}/#/journals`);
  const form = page.getByRole('form', { name: 'New journal' });
  await form.getByLabel('Date').fill(date);
  await form.getByLabel('Narration').fill(narration);
  const account = async (line: number, typed: string) => {
    await form.getByRole('button', { name: `Line ${line} account` }).click();
    await page.keyboard.type(typed);
    await page.keyboard.press('Enter');
  };
  return { form, account };
}

describe('journals on screen', () => {
  it('writes a journal by keyboard, saved only once the difference is zero, then reverses it', async () => {
    const { form, account } = await newJournal('2026-03-31', 'Accrued studio rent');
    await account(1, '5200');
    await form.getByLabel('Line 1 debit').fill('500');
    await form.getByLabel('Line 1 tax code').selectOption('S');
    await account(2, 'Current');
    await form.getByLabel('Line 2 credit').fill('500');
    // The tax is worked out by the ledger: 100.00 short, and Save waits.
    await form.getByText('Difference $100.00').waitFor();
    expect(await form.getByRole('button', { name: 'Save journal' }).isDisabled()).toBe(true);
    await form.getByLabel('Line 2 credit').fill('600');
    await form.getByText('Difference $0.00').waitFor();
    await shot('journal-form');
    await form.getByRole('button', { name: 'Save journal' }).click();
    await page.getByText('Entered JNL-0001.').waitFor();
    const detail = page.getByRole('region', { name: 'Journal JNL-0001' });
    await detail.getByRole('cell', { name: 'tax at S' }).waitFor();
    await detail.getByLabel('Reverse on').fill('2026-04-01');
    await detail.getByRole('button', { name: 'Reverse' }).click();
    await page.getByText('JNL-0001 reversed by JNL-0002.').waitFor();
    await page.getByRole('row', { name: /JNL-0001 .*Reversed by JNL-0002 on 2026-04-01/ }).waitFor();
    // The general ledger's line opens its journal.
    await page.goto(`${app.server.url}/#/ledger?account=category:5200&from=2026-03-01&to=2026-03-31`);
    await page.getByRole('link', { name: 'Accrued studio rent' }).click();
    await page.getByRole('region', { name: 'Journal JNL-0001' }).waitFor();
    expect((await L.balancesAt(books, org.seq, '2026-03-31')).accounts[0].balance).toBe(-600);
    expect((await L.balancesAt(books, org.seq, '2026-04-01')).accounts[0].balance).toBe(0);
    await expectTotalsMatchRows(books);
  });

  it('shows the reading of the lines as typed last, whichever reading answers first', async () => {
    const { form, account } = await newJournal('2026-04-30', 'Prepaid insurance');
    await account(1, '5200');
    await form.getByLabel('Line 1 debit').fill('500');
    await account(2, 'Current');
    // The reading of a 400 credit is answered only after the one of the 500 typed over it.
    const credit = (r: Request) => r.url().endsWith('/desk/api/previewJournal') && Math.abs(Number(r.postDataJSON()?.lines?.[1]?.amount));
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/desk/api/previewJournal', async (route) => {
      if (credit(route.request()) === 400) await held;
      await route.continue();
    });
    const asked400 = page.waitForRequest((r) => credit(r) === 400);
    await form.getByLabel('Line 2 credit').fill('400');
    await asked400;
    await form.getByLabel('Line 2 credit').fill('500');
    await form.getByText('Difference $0.00').waitFor();
    const answered400 = page.waitForResponse((r) => credit(r.request()) === 400);
    release();
    await answered400;
    await page.unrouteAll({ behavior: 'wait' });
    await page.evaluate(() => new Promise((done) => setTimeout(done, 200))); // the late answer's turn to be shown, if it were
    expect(await form.getByText('Difference $0.00').count()).toBe(1);
    expect(await form.getByRole('button', { name: 'Save journal' }).isDisabled()).toBe(false);
  });

  it("shows an agent's journal with lines in Approvals, debit and credit with the tax worked out, and approves it", async () => {
    const { info } = await L.createToken(books, org.seq, { name: 'Bookkeeping agent', scopes: ['read', 'propose-write'] });
    const agent = { type: 'token' as const, tokenSeq: 1, tokenId: info.id, tokenName: info.name, channel: 'rest' as const };
    await L.addCategory(books, org.seq, L.deskActor(), { code: '2300', name: 'Accruals', type: 'liability' });
    const p = await L.proposeJournalEntry(books, org.seq, agent, {
      date: '2026-05-31',
      description: 'Accrued audit fee',
      amount: 600,
      lines: [
        { categoryCode: '5000', amount: 500, taxCode: 'S' },
        { categoryCode: '2300', amount: -600 },
      ],
    });
    await page.getByRole('link', { name: 'Approvals' }).click();
    const card = page.locator(`article.proposal[data-id="${p.id}"]`);
    const lines = card.getByRole('table', { name: 'Journal lines' });
    await lines.getByRole('row', { name: /Sales tax control \$100\.00/ }).waitFor();
    await lines.getByRole('row', { name: /2300 Accruals \$600\.00/ }).waitFor();
    await shot('approvals-journal');
    await card
      .getByRole('button', { name: /^Approve/ })
      .first()
      .click();
    await page
      .getByText(/Approved/)
      .first()
      .waitFor();
    // The server's approval, read on another connection (on PostgreSQL) once it has committed.
    const approved = async () => (await L.listJournals(books, org.seq, { dateFrom: '2026-05-31', dateTo: '2026-05-31', limit: 5, offset: 0 })).data[0];
    await expect.poll(approved).toBeDefined();
    expect(await approved()).toMatchObject({
      narration: 'Accrued audit fee',
      total: 600,
    });
  });

  it('takes the opening balances: every balance-sheet account, an open invoice, the difference put to Opening balances', async () => {
    await page.goto(`${app.server.url}/#/opening`);
    const form = page.getByRole('form', { name: 'Opening balances' });
    await form.getByLabel('Conversion date').fill('2026-07-01');
    await form.getByLabel('Current debit').fill('12,000.00');
    await form.getByLabel('3000 Share capital credit').fill('100');
    await form.getByRole('button', { name: 'Add an invoice' }).click();
    await form.getByLabel('invoice 1 number').fill('INV-0412');
    await form.getByLabel('invoice 1 customer').selectOption('Acme Ltd');
    await form.getByLabel('invoice 1 date').fill('2026-06-10');
    await form.getByLabel('invoice 1 outstanding').fill('1,800.00');
    await form.getByText('Difference $13,700.00').waitFor();
    expect(await form.getByRole('button', { name: 'Save opening balances' }).isDisabled()).toBe(true);
    await form.getByLabel('Put the difference to Opening balances').check();
    await shot('opening-balances');
    await form.getByRole('button', { name: 'Save opening balances' }).click();
    // Dated the day before the conversion date (issue 50): the balance sheet of that day holds it.
    await page.getByText('Opening balances saved as at 2026-06-30, the day before the conversion date 2026-07-01.').waitFor();
    // Exact: the saved notice says the same words inside a longer sentence while it shows.
    await page.getByText('As at 2026-06-30, the day before the conversion date 2026-07-01', { exact: true }).waitFor();
    const sheet = await L.balanceSheet(books, org.seq, { date: '2026-06-30' });
    expect(sheet.assets.total).toBe(13800);
    expect(sheet.equity.lines.find((l) => l.ref === 'opening-balances')).toMatchObject({ amount: 13700 });
    expect((await L.aging(books, org.seq, 'receivables', '2026-07-01')).total).toBe(1800);
    // Shown again as saved.
    await page.reload();
    await page.getByRole('form', { name: 'Opening balances' }).getByLabel('invoice 1 number').waitFor();
    expect(await page.getByLabel('Current debit').inputValue()).toBe('12000');
  });
});

// The filing trap on the Tax screen in real Chromium (issue 50): the quarter
// today is in offers no "File this return" but says when it can be filed,
// also right after the quarter before it is filed; the latest filed return
// offers "Undo filing…", which asks the reason, and the period is open again.
// The dates follow the clock: the quarter today falls in, and the one before.
import { join } from 'node:path';
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { periodOf } from '../src/main/ledger/tax/periods';
import { addDays, dayBefore } from '../src/shared/dates';
import { launchChromium, signedInPage, SCREENSHOTS } from './support/browser';
import { serveDesk } from './support/desk-page';

const quarters = { period: 'quarterly', startMonth: 1, basis: 'accrual' } as const;
const now = periodOf(quarters, new Date().toISOString().slice(0, 10));
const before = periodOf(quarters, dayBefore(now.from));
let app: Headless;
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-filing-'));
  const me = L.deskActor();
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.createAccount(books, org.seq, me, { name: 'Checking', type: 'checking' });
  await L.addTransaction(books, org.seq, me, { account: 'Checking', date: before.from, amount: 600, description: 'EARLIER WORK', categoryCode: '4000', taxCode: 'S' });
  await L.addTransaction(books, org.seq, me, { account: 'Checking', date: now.from, amount: 1200, description: 'THIS QUARTER', categoryCode: '4000', taxCode: 'S' });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const notEnded = `This period ends on ${now.to}: its return can be filed from ${addDays(now.to, 1)}.`;

describe('the Tax screen', () => {
  it('offers no filing of the quarter today is in, and says when it can be filed', async () => {
    await page.getByRole('link', { name: 'Tax', exact: true }).click();
    await page.getByRole('heading', { name: `Return, ${now.from} to ${now.to} (accrual basis)` }).waitFor();
    await page.getByText(notEnded).waitFor();
    expect(await page.getByRole('button', { name: 'File this return' }).count()).toBe(0);
  });

  it('files the quarter before, then shows the quarter today is in, still not to be filed', async () => {
    const period = page.getByRole('form', { name: 'Period' });
    await period.getByLabel('From').fill(before.from);
    await period.getByLabel('To').fill(before.to);
    await page.getByRole('heading', { name: `Return, ${before.from} to ${before.to} (accrual basis)` }).waitFor();
    page.once('dialog', (d: Dialog) => void d.accept());
    await page.getByRole('button', { name: 'File this return' }).click();
    await page.getByText(new RegExp(`^Filed the return for ${before.from} to ${before.to}: 1 line\\(s\\), payable`)).waitFor();
    await page.getByRole('heading', { name: `Return, ${now.from} to ${now.to} (accrual basis)` }).waitFor();
    await page.getByText(notEnded).waitFor();
    expect(await page.getByRole('button', { name: 'File this return' }).count()).toBe(0);
  });

  it('undoes the latest filing with a reason: the period is open again, and the Log says why', async () => {
    const filed = page.getByRole('list', { name: 'Filed returns' });
    await filed.getByRole('button', { name: 'Undo filing…' }).click();
    const form = page.getByRole('form', { name: 'Undo filing' });
    expect(await form.getByRole('button', { name: 'Undo filing', exact: true }).isDisabled()).toBe(true);
    await form.getByLabel('Reason').fill('Filed the wrong quarter');
    await page.screenshot({ path: join(SCREENSHOTS, 'tax-undo-filing.png'), fullPage: true });
    await form.getByRole('button', { name: 'Undo filing', exact: true }).click();
    await page.getByText(`Undid the filing of the return for ${before.from} to ${before.to}: it is open again, to file once its period has ended.`).waitFor();
    await page.getByText('No return filed yet.').waitFor();
    // None filed: the period shown is the one today falls in; the quarter before, chosen, can be filed again.
    await page.getByRole('heading', { name: `Return, ${now.from} to ${now.to} (accrual basis)` }).waitFor();
    const period = page.getByRole('form', { name: 'Period' });
    await period.getByLabel('From').fill(before.from);
    await period.getByLabel('To').fill(before.to);
    await page.getByRole('heading', { name: `Return, ${before.from} to ${before.to} (accrual basis)` }).waitFor();
    await page.getByRole('button', { name: 'File this return' }).waitFor();
    const read = async () => (await L.listAudit(books, org.seq, { action: 'tax.return_unfiled', limit: 1, offset: 0 })).entries[0]?.summary;
    await expect.poll(read).toMatch(/: Filed the wrong quarter$/);
    expect(await L.listTaxReturns(books, org.seq)).toEqual([]);
  });
});

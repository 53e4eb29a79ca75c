// Amounts typed in the screens, in real Chromium: every amount field reads
// the same five inputs with one reader and the organization's decimal mark,
// shows what it read, and never saves a silently different number; a
// statement balance typed is never replaced by the one an import suggests.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { headlessBooks, testBooks } from './support/books';
import { deskAs } from './support/desk';
import { rawAll } from './support/sql';
import { builtRenderer, launchChromium } from './support/browser';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let us: L.Organization;
let data: string;
let nl: L.Organization;
const pageErrors: string[] = [];

const INPUTS = ['1,250', '-1,234.56', '1.234,56', '1,25', '(45.00)'];
/** What each input reads as: a decimal point (USD) and a decimal comma (EUR); null where it is refused. */
const READS: Record<string, [number, string][] | [number | null, string][]> = {
  us: [
    [125000, '1,250.00'],
    [-123456, '-1,234.56'],
    [123456, '1,234.56'],
    [125, '1.25'],
    [-4500, '-45.00'],
  ],
  nl: [
    [null, '"1,250" could mean 1.250,00 (a thousands comma), but this organization writes a decimal comma (1.234,56); type 1250 or 1,25'],
    [-123456, '-1.234,56'],
    [123456, '1.234,56'],
    [125, '1,25'],
    [-4500, '-45,00'],
  ],
};

beforeAll(async () => {
  data = tempDir('ldk-e2e-amounts-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: builtRenderer(root), log: () => {} });
  books = await testBooks(app.ledger, data);
  us = (await L.listOrganizations(books))[0];
  nl = await L.createOrganization(books, { slug: 'studio', name: 'Studio Amsterdam', currency: 'EUR', decimalMark: ',' });
  for (const org of [us, nl]) await L.createAccount(books, org.seq, L.deskActor(), { name: 'Bank', type: 'checking' });
  await L.createAccount(books, us.seq, L.deskActor(), { name: 'Card', type: 'credit_card' });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(app.signInUrl);
  await page.waitForURL(`${app.server.url}/`);
}, 120_000);

afterEach(() => expect(pageErrors, 'errors thrown in the page').toEqual([]));

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function useOrg(org: L.Organization) {
  await page.getByLabel('Organization', { exact: true }).selectOption({ label: org.name });
}

const hintOf = (field: ReturnType<Page['getByLabel']>) => field.locator('xpath=following-sibling::small').innerText();

describe.each([
  ['us', () => us],
  ['nl', () => nl],
] as const)('amount fields of an organization writing %s amounts', (key, orgOf) => {
  it('Add a transaction: each input read as the organization writes, saved as read, or refused with what was read', async () => {
    const org = orgOf();
    await useOrg(org);
    await page.goto(`${app.server.url}/#/transactions`);
    await page.getByRole('button', { name: 'Add a transaction' }).click();
    const form = page.getByRole('form', { name: 'New transaction' });
    for (const [i, text] of INPUTS.entries()) {
      const [minor, shown] = READS[key][i];
      await form.getByLabel('Description').fill(`Typed ${text}`);
      const amount = form.getByLabel('Amount (− out, + in)');
      await amount.fill(text);
      // The organization just chosen may still be loading its currency and mark: the hint settles on them.
      await expect.poll(() => hintOf(amount)).toBe(minor === null ? shown : `Reads as ${shown} ${org.currency}`);
      await form.getByRole('button', { name: 'Add transaction' }).click();
      if (minor === null) {
        await form.getByRole('alert').filter({ hasText: 'could mean' }).waitFor();
        continue;
      }
      await page.getByText(`Added Typed ${text}.`).waitFor();
      await page.getByRole('button', { name: 'Add a transaction' }).click();
    }
    const stored = await rawAll(books, "SELECT description, amount_minor FROM transactions WHERE org_seq = ? AND description LIKE 'Typed %' ORDER BY seq", org.seq);
    expect(stored).toEqual(INPUTS.flatMap((text, i) => (READS[key][i][0] === null ? [] : [[`Typed ${text}`, READS[key][i][0]]])));
  });

  it('Edit a transaction: the same reader on the amount it shows and the one typed', async () => {
    const org = orgOf();
    await useOrg(org);
    await page.goto(`${app.server.url}/#/transactions?description=Typed%20(45.00)`);
    await page.locator('tr.row').first().getByText('Typed (45.00)').click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const amount = page.getByRole('form', { name: 'Edit transaction' }).getByLabel('Amount (− out, + in)');
    expect(await amount.inputValue()).toBe(READS[key][4][1]); // shown as the organization writes it
    for (const [i, text] of INPUTS.entries()) {
      await amount.fill(text);
      const [minor, shown] = READS[key][i];
      // The organization just chosen may still be loading its currency and mark: the hint settles on them.
      await expect.poll(() => hintOf(amount)).toBe(minor === null ? shown : `Reads as ${shown} ${org.currency}`);
    }
  });

  it('Opening balance of a new account: read the same way, refused before anything is written', async () => {
    const org = orgOf();
    await useOrg(org);
    await page.goto(`${app.server.url}/#/accounts`);
    const form = page.getByRole('form', { name: 'New account' });
    const opening = form.getByLabel('Opening balance');
    for (const [i, text] of INPUTS.entries()) {
      await opening.fill(text);
      const [minor, shown] = READS[key][i];
      expect(await hintOf(opening)).toBe(minor === null ? shown : `Reads as ${shown} ${org.currency}`);
    }
    await form.getByLabel('Name').fill('Savings');
    await opening.fill(INPUTS[2]);
    await form.getByRole('button', { name: 'Add account' }).click();
    await page.getByText('Added Savings.').waitFor();
    expect((await L.listAccounts(books, org.seq)).find((a) => a.name === 'Savings')).toMatchObject({ openingBalance: 1234.56 });
    await opening.fill(INPUTS[0]);
    await form.getByLabel('Name').fill('Other');
    await form.getByRole('button', { name: 'Add account' }).click();
    if (key === 'nl') {
      await page.getByText('Opening balance "1,250" could mean').waitFor();
      expect((await L.listAccounts(books, org.seq)).some((a) => a.name === 'Other')).toBe(false);
    } else {
      await page.getByText('Added Other.').waitFor();
      expect((await L.listAccounts(books, org.seq)).find((a) => a.name === 'Other')).toMatchObject({ openingBalance: 1250 });
    }
  });

  it('Reconcile: the statement balance read the same way, the difference always a number or the reason it is not', async () => {
    const org = orgOf();
    await useOrg(org);
    await page.goto(`${app.server.url}/#/reconcile`);
    const balance = page.getByLabel('Statement ending balance');
    for (const [i, text] of INPUTS.entries()) {
      await balance.fill(text);
      const [minor, shown] = READS[key][i];
      expect(await hintOf(balance)).toBe(minor === null ? shown : `Reads as ${shown} ${org.currency}`);
      const tile = page.locator('.tile').filter({ hasText: 'Statement balance' });
      expect(await tile.innerText()).toContain(minor === null ? 'Not an amount' : shown.replace(/^-/, ''));
    }
  });
});

describe('a card account', () => {
  it('takes the statement balance as printed (owed, positive) and says how the books sign it', async () => {
    await useOrg(us);
    const card = (await L.listAccounts(books, us.seq)).find((a) => a.name === 'Card')!;
    await L.addTransaction(books, us.seq, L.deskActor(), { account: 'Card', date: '2026-03-02', description: 'Hardware store', amount: -252.14 });
    await page.goto(`${app.server.url}/#/reconcile?account=${card.id}`);
    const owed = page.getByLabel('Statement balance owed, as printed');
    await owed.fill('252.14');
    expect(await hintOf(owed)).toBe('Reads as 252.14 USD (owed: the books hold it as negative)');
    await page.getByLabel('Statement end date (YYYY-MM-DD)').fill('2026-03-31');
    await page.getByRole('button', { name: 'Tick all' }).click();
    await page.getByRole('button', { name: 'Finish reconciliation' }).click();
    await page.getByText('Reconciled Card through 2026-03-31.').waitFor();
    expect((await L.listAccounts(books, us.seq)).find((a) => a.name === 'Card')).toMatchObject({ balance: -252.14, lastReconciliation: { balance: -252.14 } });
  });
});

describe('an imported statement', () => {
  it('suggests its date and balance to reconcile, but never over a balance typed before it arrived', async () => {
    await useOrg(us);
    const reserve = await L.createAccount(books, us.seq, L.deskActor(), { name: 'Reserve', type: 'savings' });
    const ctx = { ledger: app.ledger, dataDir: data, agentUrl: '', mode: 'command' as const, reviewer: L.deskActor() };
    const bytes = readFileSync(join(__dirname, 'fixtures', 'statements', 'bank.qfx'));
    const staged = (await runDesk(ctx, 'stageStatement', { orgId: us.id, fileName: 'bank.qfx', bytes: new Uint8Array(bytes) }, () => {})) as { data: { uploadId: string } };
    await deskAs(ctx, us.id, 'importStatement', { file: staged.data.uploadId, account: reserve.id });
    const date = page.getByLabel('Statement end date (YYYY-MM-DD)');
    const balance = page.getByLabel('Statement ending balance');
    // Nothing typed: the statement's closing balance and date.
    await page.goto(`${app.server.url}/#/reconcile?account=${reserve.id}`);
    await expect.poll(() => balance.inputValue()).toBe('4,142.30');
    expect(await date.inputValue()).toBe('2024-01-31');
    // Typed while the rows are on their way: the balance stays as typed.
    await page.goto(`${app.server.url}/#/dashboard`);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const hold = async (route: Route) => (await held, await route.continue());
    await page.route('**/desk/api/reconcileView', hold);
    await page.goto(`${app.server.url}/#/reconcile?account=${reserve.id}`);
    await balance.fill('4,000.00');
    const answered = page.waitForResponse((r) => r.url().endsWith('/desk/api/reconcileView'));
    release();
    await answered;
    await page.unrouteAll({ behavior: 'wait' });
    await page.getByRole('button', { name: 'Tick all' }).waitFor();
    expect(await balance.inputValue()).toBe('4,000.00');
    expect(await date.inputValue()).toBe('');
  });
});

// The Practice screen in real Chromium (issue 55): a bookkeeper in two of three
// organizations signs in and it is her first screen, two rows and nothing of
// the third; a red figure opens the place in its organization where the work
// is (the organization switched, the filter set); the "needs attention" filter
// and a sort are kept for her across a reload.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operation';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember } from '../src/main/ledger/access/people';
import { today } from '../src/main/ledger/core/clock';
import { addDays } from '../src/shared/dates';
import { headlessBooks, testBooks } from './support/books';
import { builtRenderer, launchChromium, SCREENSHOTS } from './support/browser';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
const PASSWORD = 'Ledgerdesk practice e2e 2026';
const day = today();

let app: Headless;
let browser: Browser;
const orgs: Record<string, L.Organization> = {};

async function desk(ctx: DeskContext, slug: string, name: string, input: Record<string, unknown>): Promise<void> {
  const answer = await runDesk(ctx, name, { orgId: orgs[slug].id, ...input }, () => {});
  if ('error' in answer) throw new Error(`${name}: ${answer.error.message}`);
}

beforeAll(async () => {
  const data = tempDir('ldk-e2e-practice-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: builtRenderer(root), log: () => {} });
  const books = await testBooks(app.ledger, data);
  const ctx: DeskContext = { ledger: app.ledger, dataDir: data, agentUrl: app.server.url, mode: 'browser', reviewer: L.deskActor() };
  for (const [slug, name] of [
    ['acme', 'Acme Ltd'],
    ['beta', 'Beta LLC'],
    ['gamma', 'Gamma Hidden GmbH'],
  ])
    orgs[slug] = await books.forOrg('all', () => L.createOrganization(books, { slug, name, currency: 'GBP' }, L.deskActor()));
  for (const slug of ['acme', 'beta'])
    await books.forOrg(orgs[slug].seq, () =>
      addMember(books, orgs[slug].seq, L.deskActor(), { email: 'dana@firm.example', name: 'Dana Keeper', role: 'bookkeeper', password: PASSWORD }),
    );
  for (const slug of ['acme', 'beta', 'gamma']) await desk(ctx, slug, 'createAccount', { name: 'Current', type: 'checking' });
  await desk(ctx, 'acme', 'addTransaction', { account: 'Current', date: day, amount: '-12.00', description: 'ACME PAPER' });
  await desk(ctx, 'acme', 'addContact', { name: 'Globex', kind: 'customer' });
  await desk(ctx, 'acme', 'createInvoice', { customer: 'Globex', date: addDays(day, -30), dueDate: addDays(day, -3), issue: true, lines: ['Work;1;80;4000'] });
  await desk(ctx, 'beta', 'addTransaction', { account: 'Current', date: day, amount: '-3.00', description: 'BETA STAMPS' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signIn(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${app.server.url}/`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill('dana@firm.example');
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return page;
}

const practiceRows = (page: Page) => page.getByRole('table', { name: /^Practice/ }).locator('tbody tr');

describe('the Practice screen', () => {
  it("is the first screen of a person in several organizations, their rows alone, each figure opening its organization's place", async () => {
    const page = await signIn();
    await page.getByRole('heading', { name: 'Practice' }).waitFor();
    await expect.poll(() => practiceRows(page).count()).toBe(2);
    expect(await practiceRows(page).locator('th').allTextContents()).toEqual([expect.stringContaining('Acme Ltd'), expect.stringContaining('Beta LLC')]);
    expect(await page.content()).not.toContain('Gamma');
    const overdue = page.getByRole('link', { name: 'Acme Ltd, Invoices overdue: 1: 80.00 GBP (needs attention)' });
    expect(await overdue.evaluate((a) => getComputedStyle(a).color)).toBe('rgb(180, 35, 24)');
    await page.screenshot({ path: join(SCREENSHOTS, 'practice.png'), fullPage: true });

    await page.getByRole('link', { name: /^Beta LLC, Rows to review: 1 uncategorized/ }).click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    expect(page.url()).toContain('#/transactions?org=beta&status=uncategorized');
    expect(await page.getByLabel('Organization').inputValue()).toBe(orgs.beta.id);
    expect(await page.getByLabel('Status').inputValue()).toBe('uncategorized');
    await page.getByText('BETA STAMPS').waitFor();
    expect(await page.getByText('ACME PAPER').count()).toBe(0);

    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Practice' }).click();
    await page.getByRole('link', { name: /^Acme Ltd, Invoices overdue/ }).click();
    await page.getByRole('heading', { name: /^Aged receivables/ }).waitFor();
    expect(await page.getByLabel('Organization').inputValue()).toBe(orgs.acme.id);
  });

  it('filters to those needing attention and sorts by a column, and keeps the choice for the person', async () => {
    const page = await signIn();
    await page.goto(`${app.server.url}/#/practice`);
    await expect.poll(() => practiceRows(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Organization' }).click();
    await expect.poll(() => practiceRows(page).locator('th').first().textContent()).toContain('Beta LLC');
    await page.getByLabel('Needs attention only').check();
    await expect.poll(() => practiceRows(page).count()).toBe(1);
    await page.reload();
    await page.getByRole('heading', { name: 'Practice' }).waitFor();
    await expect.poll(() => practiceRows(page).count()).toBe(1);
    expect(await page.getByLabel('Needs attention only').isChecked()).toBe(true);
    expect(await practiceRows(page).locator('th').first().textContent()).toContain('Acme Ltd');
  });
});

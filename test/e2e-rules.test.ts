// Rules in real Chromium: "Approve and remember" on an agent's categorization
// makes a rule that at once suggests the same for a row like it; the Rules
// screen lists it with what it matched, switches it off and on, changes it to
// categorize at once, and runs it; the REST API shows the effect. A
// reverse-charge proposal remembered makes a reverse-charge rule (issue 50).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, SCREENSHOTS } from './support/browser';
import { call } from './support/env';
import { serveDesk } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let token: string;
let rows: L.HandRow[];
let org: L.Organization;

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-rules-'));
  await L.createAccount(books, org.seq, L.deskActor(), { name: 'Operating', type: 'checking' });
  rows = [
    await L.addTransaction(books, org.seq, L.deskActor(), { account: 'Operating', date: '2026-05-02', description: 'ACME HOSTING 1234', amount: -120 }),
    await L.addTransaction(books, org.seq, L.deskActor(), { account: 'Operating', date: '2026-06-02', description: 'ACME HOSTING 9876', amount: -90 }),
  ];
  token = (await L.createToken(books, org.seq, { name: 'Claude', scopes: ['read', 'propose-write'] })).token;
  const made = await call(`${app.server.url}/api/v1`, 'POST', '/proposals/categorization', { token, body: { transactionId: rows[0].id, categoryCode: '5300', confidence: 0.9 } });
  expect(made.status).toBe(201);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(app.signInUrl);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('rules at the desk', () => {
  it("approves and remembers, then the rule suggests the same for the next row, named as the person's rule", async () => {
    const card = page.locator('article.proposal').first();
    await card.getByRole('button', { name: 'Approve and remember…' }).click();
    const form = card.getByRole('form', { name: 'Rule' });
    await expect.poll(() => form.getByLabel('Text').inputValue()).toBe('ACME HOSTING ####');
    expect(await form.getByLabel('In account').locator('option:checked').textContent()).toBe('Operating');
    expect(await form.getByLabel('Money').inputValue()).toBe('outflow');
    await form.getByRole('button', { name: 'Approve and remember' }).click();
    await page.getByText(/remembered as rule 1\. It suggested the same for 1 more row/).waitFor();
    const next = page.locator('article.proposal').first();
    await expect.poll(() => next.textContent()).toContain('ACME HOSTING 9876');
    expect(await next.textContent()).toContain('your rule 1');
    // A rule's own suggestion is not remembered again.
    expect(await next.getByRole('button', { name: 'Approve and remember…' }).count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'approve-and-remember.png'), fullPage: true });
  });

  it('lists the rule, switches it off and on as "categorize at once", runs it, and the API shows the row categorized by the rule', async () => {
    await page.locator('nav a[href="#/rules"]').click();
    const row = page.locator('table.grid tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('ACME HOSTING ####');
    expect(await row.textContent()).toMatch(/Operating, money out.*5300.*suggest.*1/);
    await row.getByRole('button', { name: 'Switch off' }).click();
    await expect.poll(() => row.textContent()).toContain('(off)');
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Rule' });
    await form.getByLabel('Then').selectOption('apply');
    await form.getByLabel('On', { exact: true }).check();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => row.textContent()).toContain('categorize');
    await page.getByRole('button', { name: 'Run rules now' }).click();
    await page.getByText(/Ran the rules over 1 uncategorized row\. It suggested a category for 0 rows .*categorized 1 row/).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'rules.png'), fullPage: true });
    const second = (await call(`${app.server.url}/api/v1`, 'GET', `/transactions/${rows[1].id}`, { token })).json.data.transaction;
    expect(second).toMatchObject({ category: 'Cloud infrastructure', status: 'matched', suggestedBy: expect.stringMatching(/^rule:/) });
    // The register says a rule categorized it.
    await page.goto(`${app.server.url}/#/transactions`);
    await page.getByText('ACME HOSTING 9876').click();
    await page.getByText('Categorized by one of your rules').waitFor();
  });

  it("remembers a reverse-charge proposal with its tax code, not the category's", async () => {
    const me = L.deskActor();
    await L.setupTaxSet(books, org.seq, me, 'uk-vat');
    await L.setCategoryTax(books, org.seq, me, '5300', 'S');
    const [first, second] = [
      await L.addTransaction(books, org.seq, me, { account: 'Operating', date: '2026-07-02', description: 'CLOUDHOST EU 1001', amount: -300 }),
      await L.addTransaction(books, org.seq, me, { account: 'Operating', date: '2026-08-02', description: 'CLOUDHOST EU 1002', amount: -300 }),
    ];
    const made = await call(`${app.server.url}/api/v1`, 'POST', '/proposals/categorization', {
      token,
      body: { transactionId: first.id, categoryCode: '5300', taxCode: 'RC', confidence: 0.9 },
    });
    expect(made.status).toBe(201);
    await page.locator('nav a[href="#/approvals"]').click();
    const card = page.locator('article.proposal', { hasText: 'CLOUDHOST EU 1001' });
    await card.getByRole('button', { name: 'Approve and remember…' }).click();
    const form = card.getByRole('form', { name: 'Rule' });
    await expect.poll(() => form.getByLabel('Text').inputValue()).toBe('CLOUDHOST EU ####');
    expect(await form.getByLabel('Tax code').inputValue()).toBe('RC');
    await form.getByRole('button', { name: 'Approve and remember' }).click();
    await page.getByText(/remembered as rule 2\. It suggested the same for 1 more row/).waitFor();
    expect((await L.listRules(books, org.seq)).find((r) => r.matchText === 'CLOUDHOST EU ####')).toMatchObject({ categoryCode: '5300', taxCode: 'RC' });
    const [suggestion] = (await L.listPendingProposals(books, org.seq, { limit: 10, offset: 0 })).proposals;
    expect(suggestion.payload).toMatchObject({ transactionId: second.id, taxCode: 'RC' });
  });
});

// The whole loop in real Chromium against the headless server: an agent
// proposes over REST, the human signs in, reviews in Approvals, and the REST
// API shows exactly the approved effects. Screenshots land in test-results/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium } from './support/browser';
import { call, rawRequest } from './support/env';
import { textPdf } from './support/pdf';
import { fillDemo } from '../src/main/demo';
import { serveDesk, screenshot } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let agentToken: L.AuthenticatedToken & { raw: string };
let base: string;
const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: agentToken.raw, body });
const shot = (name: string) => screenshot(page, name);

beforeAll(async () => {
  const served = await serveDesk('ldk-e2e-');
  ({ app, books } = served);
  const org = served.org;
  await fillDemo(books, org.seq, org.slug, 300, org.currency);
  const created = await L.createToken(books, org.seq, { name: 'Claude (e2e)', scopes: ['read', 'propose-write'] });
  agentToken = { ...(await L.authenticate(books, created.token)), raw: created.token };
  base = `${app.server.url}/api/v1`;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('browser mode', () => {
  it('keeps every desk route behind the session cookie, which only the one-time link sets', async () => {
    const desk = (headers: Record<string, string>) =>
      rawRequest(`${app.server.url}/desk/api/listOrganizations`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', ...headers } });
    expect((await desk({})).status).toBe(401);
    expect((await desk({ authorization: `Bearer ${agentToken.raw}` })).status).toBe(401);
    const link = await app.newSignInUrl();
    const signIn = await rawRequest(link);
    expect(signIn.status).toBe(303);
    const cookie = String(signIn.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const session = cookie.split(';')[0];
    expect((await desk({ cookie: session })).status).toBe(200);
    expect((await desk({ cookie: session, origin: 'https://evil.example' })).status).toBe(403);
    expect((await rawRequest(link)).status).toBe(401); // one time only
    expect((await desk({ cookie: 'ldk_desk=forged' })).status).toBe(401);
  });

  it('runs the review loop: four proposals, three approved, one rejected, each effect visible over REST', async () => {
    const [txCat, txReceipt, txNote] = (await api('GET', '/transactions?status=uncategorized&limit=3')).json.data as L.Transaction[];
    const receipt = (await api('GET', '/receipts/search?q=invoice')).json.data.find((r: L.Receipt) => r.transactionId === null) as L.Receipt;
    expect(receipt).toBeDefined();
    const proposals = {
      categorization: (
        await api('POST', '/proposals/categorization', {
          transactionId: txCat.id,
          categoryCode: '5300',
          confidence: 0.92,
          reason: 'AWS monthly bill',
          evidence: [{ type: 'counterparty_match', value: 'AWS' }],
        })
      ).json.data,
      journal: (
        await api('POST', '/proposals/journal-entry', {
          date: '2026-06-30',
          description: 'Accrued hosting June',
          amount: -120.5,
          categoryCode: '5300',
          confidence: 0.7,
          reason: 'Month-end accrual',
        })
      ).json.data,
      receipt: (await api('POST', '/proposals/receipt-link', { transactionId: txReceipt.id, receiptId: receipt.id, confidence: 0.8, reason: 'Same amount and date' })).json.data,
      note: (await api('POST', '/notes', { transactionId: txNote.id, content: 'Client says this is a personal expense' })).json.data,
    };
    for (const p of Object.values(proposals)) expect(p.status).toBe('pending');

    await page.goto(app.signInUrl);
    await page.waitForURL(`${app.server.url}/`);
    const cards = page.locator('article.proposal');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(4);
    await expect.poll(() => page.getByText('Accrued hosting June').count()).toBe(1);
    await expect.poll(() => page.getByText('Client says this is a personal expense').count()).toBe(1);
    expect(await cards.first().textContent()).toContain('Claude (e2e)');
    // Each card names the account of the row it would change.
    const orgSeq = (await L.listOrganizations(books))[0].seq;
    const accountOfNote = (await L.accountBySeq(books, (await L.handRow(books, orgSeq, txNote.id)).account_seq)).name;
    expect(await page.locator(`article.proposal[data-id="${proposals.note.id}"]`).textContent()).toContain(` in ${accountOfNote}`);
    await shot('approvals');

    const card = (id: string) => page.locator(`article.proposal[data-id="${id}"]`);
    for (const p of [proposals.categorization, proposals.journal, proposals.receipt]) {
      await card(p.id).getByRole('button', { name: 'Approve', exact: true }).click();
      await card(p.id).waitFor({ state: 'detached' });
    }
    await card(proposals.note.id).getByLabel('Rejection comment (optional)').fill('Not a business expense');
    await card(proposals.note.id).getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByText('Nothing to review.').waitFor();

    const categorized = (await api('GET', `/transactions/${txCat.id}`)).json.data.transaction;
    expect(categorized).toMatchObject({ category: 'Cloud infrastructure', status: 'matched', suggestedBy: `mcp:${agentToken.id}`, confidence: 0.92, reason: 'AWS monthly bill' });
    const created = (await api('GET', '/transactions?description=Accrued%20hosting%20June')).json.data;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ amount: -120.5, status: 'matched', category: 'Cloud infrastructure' });
    expect((await api('GET', `/receipts/${receipt.id}`)).json.data.transactionId).toBe(txReceipt.id);
    const noted = (await api('GET', `/transactions/${txNote.id}`)).json.data;
    expect(noted.notes.map((n: L.Note) => n.content)).not.toContain('Client says this is a personal expense');
    expect(noted.transaction).toEqual(txNote);
    expect((await api('GET', `/proposals/${proposals.note.id}`)).json.data.status).toBe('rejected');
    expect((await api('GET', '/proposals')).json.meta.count).toBe(0);

    await page.getByRole('tab', { name: 'Rejected' }).click();
    await page.getByText('Not a business expense').waitFor();
  });

  it('shows every event in the Log', async () => {
    await page.getByRole('link', { name: 'Log' }).click();
    const rows = page.locator('table.log tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(8);
    const text = (await page.locator('table.log').textContent()) ?? '';
    for (const action of ['proposal.created', 'proposal.approved', 'proposal.rejected', 'token.created']) expect(text).toContain(action);
    expect(text.match(/proposal\.approved/g)).toHaveLength(3);
    expect(text.match(/proposal\.created/g)).toHaveLength(4);
    await page.getByLabel('Action').selectOption('proposal.rejected');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Not a business expense');
    await shot('log');
  });

  it('shows new proposals without a reload, reviews a selection, and works from the keyboard', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('tab', { name: 'Pending' }).click();
    await page.getByText('Nothing to review.').waitFor();
    const txs = (await api('GET', '/transactions?status=uncategorized&limit=3')).json.data as L.Transaction[];
    const ids: string[] = [];
    for (const tx of txs) ids.push((await api('POST', '/notes', { transactionId: tx.id, content: `Follow up on ${tx.description}` })).json.data.id);
    const cards = page.locator('article.proposal');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(3); // arrived by polling, no reload
    const card = (id: string) => page.locator(`article.proposal[data-id="${id}"]`);
    await card(ids[0]).getByRole('checkbox', { name: 'Select' }).check();
    await card(ids[1]).getByRole('checkbox', { name: 'Select' }).check();
    await page.getByRole('button', { name: 'Approve selected (2)' }).click();
    await expect.poll(() => cards.count()).toBe(1);
    await card(ids[2]).focus();
    await page.keyboard.press('r');
    await page.getByText('Nothing to review.').waitFor();
    const statuses = await Promise.all(ids.map(async (id) => (await api('GET', `/proposals/${id}`)).json.data.status));
    expect(statuses).toEqual(['approved', 'approved', 'rejected']);
  });

  it('keeps the keyboard in the queue (a, a, r in a row), wraps long evidence, and names the agent, not its id', async () => {
    const txs = (await api('GET', '/transactions?status=uncategorized&limit=3&offset=3')).json.data as L.Transaction[];
    const long = 'https://example.com/' + 'x'.repeat(1500);
    for (const [i, tx] of txs.entries()) {
      const evidence = i === 0 ? [{ type: 'rule', value: 'pasted link', detail: long }] : [];
      expect((await api('POST', '/proposals/categorization', { transactionId: tx.id, categoryCode: '5300', evidence })).status).toBe(201);
    }
    const cards = page.locator('article.proposal');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await cards.first().locator('header').textContent()).toMatch(/by Claude \(e2e\) via REST/);
    await cards.first().focus();
    await page.keyboard.press('a');
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByRole('status').filter({ hasText: 'Approved 1 proposal.' }).waitFor();
    await page.keyboard.press('a');
    await expect.poll(() => cards.count()).toBe(1);
    await page.keyboard.press('r');
    await page.getByText('Nothing to review.').waitFor();
    const statuses = ((await api('GET', '/proposals?limit=10')).json.data as unknown[]).length;
    expect(statuses).toBe(0);
    await page.getByRole('link', { name: 'Log' }).click();
    await page.getByLabel('Action').selectOption('proposal.approved');
    const summaries = (await page.locator('table.log tbody').textContent()) ?? '';
    expect(summaries).toContain('proposal by "Claude (e2e)" via REST');
    expect(summaries).not.toMatch(/mcp:[0-9a-f]{8}-/);
  });

  it('uploads a PDF in Receipts that agents then find by the words inside it', async () => {
    await page.getByRole('link', { name: 'Receipts' }).click();
    const pdf = textPdf(['INVOICE 8812', 'Zanzibar Widgets Ltd', 'Total 42.00 USD']);
    await page.getByLabel('Upload receipts').setInputFiles({ name: '../../scan of invoice 8812.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByText(/its text is searchable by agents/).waitFor();
    const found = (await api('GET', '/receipts/search?q=zanzibar%20widgets')).json.data as L.Receipt[];
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ fileName: 'scan of invoice 8812.pdf', mimeType: 'application/pdf', sizeBytes: pdf.length });
    await page.getByLabel('Upload receipts').setInputFiles({ name: 'again.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByText(/already stored/).waitFor();
    await page.getByLabel('Upload receipts').setInputFiles({ name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf') });
    await page.getByText(/Only PDF, JPEG, PNG and HEIC/).waitFor();
    // Drag and drop: a PNG dropped on the zone.
    const dropped = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], 'dropped scan.png', { type: 'image/png' }));
      return data;
    });
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: dropped });
    await page.getByText('dropped scan.png: stored.').waitFor();
    expect((await api('GET', '/receipts/search?q=dropped%20scan')).json.data[0]).toMatchObject({ fileName: 'dropped scan.png', mimeType: 'image/png' });
    await shot('receipts');
  });

  it('creates a token shown once with client configurations, and revokes one: the agent then gets 401', async () => {
    await page.getByRole('link', { name: 'Tokens' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Cursor');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = await page.getByLabel('New token', { exact: true }).last().inputValue();
    expect(shown).toMatch(/^ldk_live_/);
    expect((await call(base, 'GET', '/categories', { token: shown })).status).toBe(200);
    await shot('tokens');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('tr', { hasText: 'Claude (e2e)' }).getByRole('button', { name: 'Revoke' }).click();
    await page
      .locator('tr', { hasText: 'Claude (e2e)' })
      .getByText(/^revoked/)
      .waitFor();
    const refused = await api('GET', '/categories');
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('unauthorized');
  });

  it('shows transactions with their notes and receipts, the dashboard chart, and organizations', async () => {
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByLabel('Status').selectOption('matched');
    await page.getByLabel('Description').fill('Accrued hosting');
    await page.getByText('Accrued hosting June').click();
    await page.getByText('Categorized on the suggestion of').waitFor();
    await shot('transactions');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('img', { name: /Revenue and expenses per month/ }).waitFor();
    await shot('dashboard');
    await page.getByRole('link', { name: 'Organizations' }).click();
    const create = page.getByRole('form', { name: 'New organization' });
    await create.getByLabel('Name', { exact: true }).fill('Beta GmbH');
    await create.getByLabel('Slug').fill('beta');
    await create.getByLabel('Currency').fill('EUR');
    await page.getByRole('button', { name: 'Create organization' }).click();
    // Made by the server (another connection to the books on PostgreSQL): read once it is there.
    await expect.poll(async () => (await L.findOrganization(books, 'beta'))?.id).toBeTruthy();
    const beta = (await L.requireOrganization(books, 'beta')).id;
    await expect.poll(() => page.getByLabel('Organization', { exact: true }).inputValue()).toBe(beta);
    await shot('organizations');
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByText('Nothing to review.').waitFor();
  });
});

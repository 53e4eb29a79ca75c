// A UK bookkeeper's daily view in real Chromium at 1366x768 and 1280x800
// (issue 42): no cell breaks a word or a reference (ID:INV-|2312), account
// names stay on one line in the register, the Accounts buttons stay inside the
// table, every amount is written by the one formatter (Tax, the invoice form),
// months read "May 2026", date fields take YYYY-MM-DD whatever the browser's
// locale, and a rule's tax code is shown (screen and `rule list`).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { booksFlags, headlessBooks, openBooksOf } from './support/books';
import { builtRenderer, launchChromium, SCREENSHOTS } from './support/browser';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
const SIZES = [
  [1366, 768],
  [1280, 800],
] as const;
const BANK = 'Barclays Business Premium Current Account';
const MONTH = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/;
let data: string;
let app: Headless;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  data = tempDir('ldk-e2e-screens-');
  const ledger = await openBooksOf(data);
  const org = await L.createOrganization(ledger, { slug: 'hartley', name: 'Hartley Studio', currency: 'GBP' });
  const me = L.deskActor();
  await L.setupTaxSet(ledger, org.seq, me, 'uk-vat');
  await L.createAccount(ledger, org.seq, me, { name: BANK, type: 'checking', maskedNumber: '****7731', openingBalance: 5000, openingDate: '2026-03-31' });
  await L.createAccount(ledger, org.seq, me, { name: 'Company card', type: 'credit_card' });
  await L.createAccount(ledger, org.seq, me, { name: 'Stripe balance', type: 'payment_processor' });
  const add = (account: string, date: string, amount: number, description: string, more: { categoryCode?: string; taxCode?: string } = {}) =>
    L.addTransaction(ledger, org.seq, me, { account, date, amount, description, ...more });
  await add(BANK, '2026-05-20', 17_520, 'FASTER PAYMENT NORTHWIND TRADING ID:INV-2312', { categoryCode: '4000', taxCode: 'S' });
  await add(BANK, '2026-05-21', -2_400, 'CARD PAYMENT OFFICE SUPPLIES ID:PO-7781', { categoryCode: '5200', taxCode: 'S' });
  // References at every position along a line: wherever the column's edge falls, one of them meets it.
  for (let k = 0; k < 18; k++)
    await add(k % 2 ? 'Company card' : BANK, `2026-06-${String(k + 1).padStart(2, '0')}`, -10 - k, `${'AB '.repeat(k)}PAYMENT ID:REF-${4100 + k} 2026-06-01`);
  await L.addContact(ledger, org.seq, me, { name: 'Northwind Trading Ltd', customer: true });
  await L.createRule(ledger, org.seq, me, { matchKind: 'contains', matchText: 'FIGMA', categoryCode: '5100', taxCode: 'S' });
  await ledger.end();
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: builtRenderer(root), log: () => {} });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  page.setDefaultTimeout(20_000);
  await page.goto(app.signInUrl);
  await page.waitForURL(`${app.server.url}/`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Words of up to 32 characters drawn over more than one line in these cells: a break inside a word (a longer one may break, the last resort). */
const brokenWords = (selector: string) =>
  page.locator(selector).evaluateAll((cells) =>
    cells.flatMap((cell) => {
      const broken: string[] = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (const word of node.data.matchAll(/\S{2,32}/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          if (new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1) broken.push(word[0]);
        }
      }
      return broken;
    }),
  );

const at = async (width: number, height: number, screen: string) => {
  await page.setViewportSize({ width, height });
  await page.goto(`${app.server.url}/#/${screen}`);
};
const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

describe('tables a bookkeeper reads', () => {
  it('breaks no word or reference in the register, and writes each account name on one line, whole in its title', async () => {
    for (const [width, height] of SIZES) {
      await at(width, height, 'transactions');
      await page.getByRole('row', { name: /ID:INV-2312/ }).waitFor();
      expect(await brokenWords('table.register td'), `at ${width}px`).toEqual([]);
      const bank = page.getByRole('row', { name: /ID:INV-2312/ }).locator(`td[title="${BANK}"]`);
      const lines = await bank.evaluate((td) => {
        const range = document.createRange();
        range.selectNodeContents(td.querySelector('.clip') ?? td);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      });
      expect(lines, `${BANK} at ${width}px`).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(`screens-register-${width}`);
    }
  });

  it('keeps every Accounts button inside the table, nothing to scroll to', async () => {
    for (const [width, height] of SIZES) {
      await at(width, height, 'accounts');
      const frame = page.locator('.table-frame', { has: page.locator('table.accounts') });
      await frame.getByRole('button', { name: 'Close' }).first().waitFor();
      const box = (await frame.boundingBox())!;
      const outside = await frame
        .locator('td.actions :is(a, button)')
        .evaluateAll((controls, edge) => controls.filter((c) => c.getBoundingClientRect().right > edge).map((c) => c.textContent), box.x + box.width);
      expect(outside, `at ${width}px`).toEqual([]);
      expect(await frame.evaluate((f) => f.scrollWidth - f.clientWidth), `at ${width}px`).toBeLessThanOrEqual(0);
      expect(await brokenWords('table.accounts td')).toEqual([]);
      await shot(`screens-accounts-${width}`);
    }
  });
});

describe('amounts through the one formatter', () => {
  it('writes the Tax screen’s per-code figures and the filed return’s payable as money', async () => {
    // Until the period to file next is known, the period's fields wait for it: a date typed sooner would be replaced.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const hold = async (route: Route) => (await held, await route.continue());
    await page.route(/\/desk\/api\/tax(Settings|Report)$/, hold);
    await at(1366, 768, 'tax');
    const period = page.getByRole('form', { name: 'Period' });
    await expect.poll(() => period.getByLabel('From').isDisabled()).toBe(true);
    expect(await period.getByLabel('To').isDisabled()).toBe(true);
    release();
    // The held requests go on before the routes are gone (unrouting under them would answer them twice).
    await page.unrouteAll({ behavior: 'wait' });
    // The period to file next: today's, nothing being filed yet.
    await expect.poll(() => period.getByLabel('To').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await period.getByLabel('From').isDisabled()).toBe(false);
    expect(await period.getByLabel('From').inputValue()).toMatch(/^\d{4}-\d{2}-01$/);
    await period.getByLabel('From').fill('2026-04-01');
    await period.getByLabel('To').fill('2026-06-30');
    await page.getByRole('heading', { name: 'Return, 2026-04-01 to 2026-06-30 (accrual basis)' }).waitFor();
    const standard = page.getByRole('table', { name: 'By tax code' }).getByRole('row', { name: /^S Standard/ });
    expect(await standard.locator('td.num').allInnerTexts()).toEqual(['20%', '£14,600.00', '£2,920.00', '£2,000.00', '£400.00']);
    expect(await page.getByLabel('From month').locator('option:checked').innerText()).toBe('January');
    await shot('screens-tax');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'File this return' }).click();
    await page.getByText('Filed the return for 2026-04-01 to 2026-06-30: 2 line(s), payable £2,520.00.').waitFor();
    await page
      .getByRole('list', { name: 'Filed returns' })
      .getByText(/^2026-04-01 to 2026-06-30: payable £2,520\.00, 2 line\(s\)/)
      .waitFor();
  });

  it('writes the invoice form’s live totals as money, read with the organization’s decimal mark', async () => {
    await at(1280, 800, 'invoices');
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.getByLabel('Customer').selectOption({ label: 'Northwind Trading Ltd' });
    await form.getByLabel('Line 1 description').fill('Brand workshop');
    await form.getByLabel('Line 1 quantity').fill('2');
    await form.getByLabel('Line 1 unit price').fill('1,250');
    await form.getByLabel('Line 1 category').selectOption('4000');
    await form.getByLabel('Line 1 tax code').selectOption('S');
    await form.getByText('Net £2,500.00 · Tax £500.00 · Total £3,000.00').waitFor();
  });
});

describe('months and dates', () => {
  it('names months "May 2026" in the P&L, its chart and the Dashboard’s', async () => {
    await at(1366, 768, 'reports');
    await page.locator('table.pl tbody').first().waitFor();
    const heads = await page.locator('table.pl thead th.num').allInnerTexts();
    expect(heads.slice(0, -1).length).toBeGreaterThan(1);
    expect(heads.slice(0, -1).filter((h) => !MONTH.test(h))).toEqual([]);
    const labels = await page.locator('figure.chart svg text').allTextContents();
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.filter((l) => !MONTH.test(l))).toEqual([]);
    await at(1366, 768, 'dashboard');
    await page.locator('figure.chart svg text').first().waitFor();
    expect((await page.locator('figure.chart svg text').allTextContents()).filter((l) => !MONTH.test(l))).toEqual([]);
  });

  it('takes and shows the rate’s date as YYYY-MM-DD whatever the browser’s locale', async () => {
    await at(1366, 768, 'rates');
    const form = page.getByRole('form', { name: 'Set a rate' });
    const date = form.getByLabel('Date');
    const d = new Date();
    expect(await date.inputValue()).toBe(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`);
    await date.fill('');
    await date.pressSequentially('2026-09-30');
    expect(await date.inputValue()).toBe('2026-09-30');
    await form.getByLabel('Currency').fill('eur');
    await form.getByLabel(/^Rate/).fill('0.8571');
    await form.getByRole('button', { name: 'Set rate' }).click();
    await page.getByText('1 EUR = 0.8571 GBP on 2026-09-30.').waitFor();
  });
});

describe("a rule's tax code", () => {
  it('is shown in the Rules list, by `rule list` and in its --json', async () => {
    await at(1280, 800, 'rules');
    const row = page.getByRole('row', { name: /FIGMA/ });
    await row.waitFor();
    // The code's name comes with the tax codes, read beside the rules.
    await expect.poll(() => row.locator('td').nth(4).innerText()).toBe('S Standard rate 20%');
    const list = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, 'bin', 'ledgerdesk.mjs'), 'rule', 'list', ...args, '--org', 'hartley', ...booksFlags(data)], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const text = list();
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/containing "FIGMA".*-> 5100 Software & tools {2}tax S {2}suggest/);
    const json = list('--json');
    expect(JSON.parse(json.stdout)).toMatchObject([{ matchText: 'FIGMA', taxCode: 'S' }]);
  });
});

describe('the address', () => {
  it('opens the screen it names when it changed while the page was starting', async () => {
    // The same session in a second tab; the hash moves (no hashchange event) just as the desk starts listening.
    const session = await browser.newContext();
    await session.addCookies(await page.context().cookies());
    const tab = await session.newPage();
    tab.setDefaultTimeout(20_000);
    await tab.addInitScript(() => {
      const listen = window.addEventListener.bind(window);
      window.addEventListener = ((type: string, ...rest: Parameters<typeof listen> extends [unknown, ...infer R] ? R : never) => {
        if (type === 'hashchange') history.replaceState(null, '', '#/tax');
        return listen(type, ...(rest as [EventListener]));
      }) as typeof window.addEventListener;
    });
    await tab.goto(`${app.server.url}/#/accounts`);
    await tab.getByRole('heading', { name: 'Tax', exact: true }).waitFor();
    expect(await tab.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Tax' }).getAttribute('aria-current')).toBe('page');
    await session.close();
  });
});

// Every screen in Chromium over books of 2,000 demo rows (with proposals,
// receipts, tokens, an import and a reconciliation to show), checked by
// axe-core 4: no serious or critical finding. The page's own CSP (no inline
// styles or scripts) must hold too: any violation fails the suite.
import axe from 'axe-core';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDesk } from '../src/main/desk/transport/dispatch';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { SCREENS } from '../src/shared/screens';
import { launchChromium, SCREENSHOTS } from './support/browser';
import { call } from './support/env';
import { fillDemo } from '../src/main/demo';
import { serveDesk } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
const cspViolations: string[] = [];

beforeAll(async () => {
  const served = await serveDesk('ldk-a11y-');
  ({ app, books } = served);
  const org = served.org;
  await fillDemo(books, org.seq, org.slug, 2000, org.currency);
  const { token } = await L.createToken(books, org.seq, { name: 'Claude', scopes: ['read', 'propose-write'] });
  const base = `${app.server.url}/api/v1`;
  const rows = (await L.listTransactions(books, org.seq, { status: 'uncategorized', limit: 3, offset: 0 })).data;
  for (const tx of rows)
    await call(base, 'POST', '/proposals/categorization', {
      token,
      body: { transactionId: tx.id, categoryCode: '5300', confidence: 0.8, reason: 'Cloud bill', evidence: [{ type: 'rule', value: 'AWS' }] },
    });
  await call(base, 'POST', '/proposals/journal-entry', { token, body: { date: '2026-01-05', description: 'Cash for stamps', amount: -12, categoryCode: '5000' } });
  await L.createRule(books, org.seq, L.deskActor(), { matchKind: 'contains', matchText: 'aws', categoryCode: '5300', mode: 'apply' });
  await L.createRule(books, org.seq, L.deskActor(), { matchKind: 'shape', matchText: 'FIGMA.COM ######', categoryCode: '5100', enabled: false });
  const ctx = { ledger: app.ledger, dataDir: served.data, agentUrl: app.server.url, mode: 'command' as const, reviewer: L.deskActor() };
  await runDesk(ctx, 'uploadReceipt', { orgId: org.id, fileName: 'scan.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) }, () => {});
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(app.signInUrl);
  await page.getByRole('heading', { name: 'Approvals' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** axe-core's findings that a person is stopped by: serious and critical. */
async function serious(): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axe.source);
  const results = (await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }))) as axe.AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}: ${v.nodes[0]?.target.join(' ')}`);
}

describe('accessibility', () => {
  it.each(SCREENS.map(([id, label]) => [label, id]))('%s has no serious or critical axe-core finding', async (label, id) => {
    // By address: the Approvals link's name carries its pending count.
    await page.locator(`nav a[href="#/${id}"]`).click();
    await page.waitForFunction((screen) => location.hash.startsWith(`#/${screen}`), id);
    await page.locator('main h2').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await serious(), label).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `a11y-${id}.png`), fullPage: false });
  });

  it('keeps to its content security policy (no inline styles or scripts)', () => {
    expect(cspViolations).toEqual([]);
  });
});

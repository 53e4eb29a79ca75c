// The Tax screen's HMRC panel in real Chromium (issue 54), against the HMRC
// double (test/doubles/hmrc.ts) on a server reached over TLS (its own address is
// where HMRC sends the browser back): connect (the sign-in link followed to the
// double's authorize page, which redirects back with the code), the obligations
// beside Ledgerdesk's periods, the nine boxes, a submission refused without the
// declaration and sent with it, HMRC's receipt read on the screen. The dates
// follow the clock: the quarter before today's is the one that has ended.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { periodOf } from '../src/main/ledger/tax/periods';
import { dayBefore } from '../src/shared/dates';
import { headlessBooks, testBooks } from './support/books';
import { builtRenderer, launchChromium, SCREENSHOTS } from './support/browser';
import { certificate } from './support/certificate';
import { tempDir } from './support/env';
import { startHmrcDouble, type HmrcDouble } from './doubles/hmrc';

const root = join(__dirname, '..');
const VRN = '123456782';
const quarters = { period: 'quarterly', startMonth: 1, basis: 'accrual' } as const;
const now = periodOf(quarters, new Date().toISOString().slice(0, 10));
const ended = periodOf(quarters, dayBefore(now.from));
const HMRC_ENV = ['LEDGERDESK_HMRC_CLIENT_ID', 'LEDGERDESK_HMRC_CLIENT_SECRET', 'LEDGERDESK_HMRC_URL'] as const;
const saved = HMRC_ENV.map((k) => process.env[k]);
let double: HmrcDouble;
let app: Headless;
let books: L.Ledger;
let org: L.Organization;
let browser: Browser;
let page: Page;
const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  double = await startHmrcDouble({
    vrn: VRN,
    obligations: [
      { periodKey: 'E001', start: ended.from, end: ended.to, due: now.to },
      // Six months: not one of Ledgerdesk's quarters, said so beside it.
      { periodKey: 'M001', start: ended.from, end: now.to, due: now.to },
    ],
  });
  Object.assign(process.env, { LEDGERDESK_HMRC_CLIENT_ID: double.clientId, LEDGERDESK_HMRC_CLIENT_SECRET: double.clientSecret, LEDGERDESK_HMRC_URL: double.url });
  const data = tempDir('ldk-e2e-hmrc-');
  const pem = certificate();
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, tls: { cert: pem.cert, key: pem.key }, rendererDir: builtRenderer(root), log: () => {} });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  const me = L.deskActor();
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.createAccount(books, org.seq, me, { name: 'Checking', type: 'checking' });
  await L.addTransaction(books, org.seq, me, { account: 'Checking', date: ended.from, amount: 600.6, description: 'DESIGN WORK', categoryCode: '4000', taxCode: 'S' });
  browser = await launchChromium();
  // The server's certificate is the test's own.
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ignoreHTTPSErrors: true });
  page.setDefaultTimeout(20_000);
  await page.goto(app.signInUrl);
  await page.waitForURL(`${app.server.url}/`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await double?.close();
  HMRC_ENV.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
});

describe("the Tax screen's HMRC panel", () => {
  it('connects through HMRC sign-in, lists the obligations, submits with the declaration and shows the receipt', async () => {
    await page.goto(`${app.server.url}/#/tax`);
    const panel = page.getByRole('region', { name: 'HMRC connection' });
    await panel.getByText('Not connected to HMRC.').waitFor();
    await panel.getByText(/HMRC at http:\/\/127\.0\.0\.1:\d+ \(neither HMRC's sandbox nor production\)/).waitFor();
    const connect = page.getByRole('form', { name: 'Connect to HMRC' });
    await connect.getByLabel('VAT registration number').fill('123456789');
    await connect.getByRole('button', { name: 'Connect to HMRC' }).click();
    await page.getByText(/VAT registration number 123456789 is not a VAT registration number/).waitFor();
    await connect.getByLabel('VAT registration number').fill(`GB ${VRN}`);
    await connect.getByRole('button', { name: 'Connect to HMRC' }).click();
    // HMRC's sign-in (the double's authorize page) sends the browser back to the server, where the panel finishes it.
    await page.getByRole('link', { name: 'Sign in to HMRC' }).click();
    await page.getByText(`Connected to HMRC for VRN ${VRN}.`).waitFor();
    expect(page.url()).not.toContain('code=');
    await panel.getByText(new RegExp(`VRN ${VRN}: connected by .+, HMRC's permission lasts until \\d{4}-\\d\\d-\\d\\d`)).waitFor();

    const obligations = page.getByRole('table', { name: 'HMRC obligations' });
    await obligations.getByRole('row', { name: new RegExp(`${ended.from} to ${ended.to} E001 .* open matches`) }).waitFor();
    await obligations.getByText(`HMRC's period M001 runs ${ended.from} to ${now.to}`, { exact: false }).waitFor();
    expect(await obligations.getByRole('button', { name: 'Submit M001…' }).count()).toBe(0);
    await obligations.getByRole('button', { name: 'Submit E001…' }).click();

    const form = page.getByRole('form', { name: 'Submit E001 to HMRC' });
    const boxes = form.getByRole('table', { name: 'Boxes sent to HMRC for E001' });
    // 600.60 with 20% VAT in it: box 1 in pounds and pence, box 6 cut to the whole pound.
    await boxes.getByRole('row', { name: /Box 1 VAT due on sales.*100\.10/ }).waitFor();
    await boxes.getByRole('row', { name: /Box 6 Total value of sales.* 500$/ }).waitFor();
    await form.getByRole('button', { name: 'Submit to HMRC' }).click();
    await page.getByText(/HMRC's declaration is required/).waitFor();
    expect(double.posts).toEqual([]);
    await form.getByLabel(/When you submit this VAT information you are making a legal declaration/).check();
    await shot('hmrc-submit');
    await form.getByRole('button', { name: 'Submit to HMRC' }).click();

    const receipt = page.getByRole('region', { name: "HMRC's receipt for E001" });
    await receipt.getByText(`HMRC accepted the VAT return for ${ended.from} to ${ended.to} (E001)`).waitFor();
    await receipt.getByText('aCxFaNx0FZsCvyWF', { exact: true }).waitFor();
    await receipt.getByText('BANK', { exact: true }).waitFor();
    const held = (await L.listTaxReturns(books, org.seq)).find((r) => r.from === ended.from);
    const kept = (await L.submissionReceipt(books, org.seq, held!.id))!;
    for (const k of ['formBundleNumber', 'receiptId', 'receiptTimestamp', 'processingDate']) await receipt.getByText(String(kept[k]), { exact: true }).waitFor();
    expect(held).toMatchObject({ submitted: true });
    expect(double.posts).toEqual([{ periodKey: 'E001', scenario: null }]);
    await obligations.getByRole('row', { name: /E001 .* fulfilled/ }).waitFor();
    await shot('hmrc-receipt');
  });
});

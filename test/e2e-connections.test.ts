// The Connections screen in real Chromium (issue 52), on a server reached over
// TLS (its own address is where a bank sends the browser back), against the
// SimpleFIN and Enable Banking doubles (test/doubles/): a SimpleFIN setup token
// pasted, its account mapped to one holding a row entered by hand, the first
// sync's preview then confirmed, the pending row in the account's register, the
// held row (the hand-entered one the bank also sent) decided, a UK bank
// connected through Enable Banking's page and back, and a disconnect. One
// server and one page for every step: each e2e step costs seconds.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium } from './support/browser';
import { certificate } from './support/certificate';
import { serveDesk, screenshot } from './support/desk-page';
import { epoch, SimplefinDouble } from './doubles/simplefin';
import { startEnableBankingDouble, type EnableBankingDouble } from './doubles/enable-banking';

const APP_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const day = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const saved = process.env.LEDGERDESK_ENABLE_BANKING_URL;
let sfin: SimplefinDouble;
let eb: EnableBankingDouble;
let app: Headless;
let books: L.Ledger;
let org: L.Organization;
let checking: L.Account;
let browser: Browser;
let page: Page;
const shot = (name: string) => screenshot(page, name);
const card = (name: string) => page.getByRole('article', { name: `Connector ${name}` });
const notice = (text: string | RegExp) => page.getByText(text).first().waitFor();

beforeAll(async () => {
  sfin = await SimplefinDouble.start();
  eb = await startEnableBankingDouble({ applicationId: APP_ID, publicKey: publicKey as KeyObject });
  process.env.LEDGERDESK_ENABLE_BANKING_URL = eb.url;
  const pem = certificate();
  ({ app, books, org } = await serveDesk('ldk-e2e-connections-', { tls: { cert: pem.cert, key: pem.key } }));
  const me = L.deskActor();
  checking = await L.createAccount(books, org.seq, me, { name: 'Checking', type: 'checking' });
  // Entered by hand before the feed: the bank sends it again under its own id, and the person decides.
  await L.addTransaction(books, org.seq, me, { account: 'Checking', date: day(20), amount: -12.5, description: 'COFFEE ROASTERS' });
  const a = sfin.account('acc-1', 'Everyday Checking', org.currency);
  a.transactions.push(
    { id: 't1', posted: epoch(day(20)), amount: '-12.50', description: 'COFFEE ROASTERS' },
    { id: 't2', posted: epoch(day(10)), amount: '1500.00', description: 'CLIENT PAYMENT' },
    { id: 'p1', posted: 0, transacted_at: epoch(day(1)), amount: '-20.00', description: 'PENDING FUEL', pending: true },
  );
  eb.accounts.push({ uid: 'uk-1', iban: 'GB33BUKB20201555555555', product: 'Business Current Account', currency: org.currency, transactions: [], balances: [] });
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
  await sfin?.close();
  await eb?.close();
  if (saved === undefined) delete process.env.LEDGERDESK_ENABLE_BANKING_URL;
  else process.env.LEDGERDESK_ENABLE_BANKING_URL = saved;
});

describe('the Connections screen', () => {
  it('pastes a SimpleFIN token, maps, previews and confirms the first sync, shows the pending row, decides the held row', async () => {
    await page.goto(`${app.server.url}/#/connections`);
    await page.getByRole('button', { name: 'Add SimpleFIN (US, Canada)' }).click();
    const add = page.getByRole('form', { name: 'Add SimpleFIN' });
    await add.getByLabel('Name').fill('Bank');
    await add.getByLabel('SimpleFIN setup token').fill(sfin.setupToken());
    await add.getByRole('button', { name: 'Connect' }).click();
    await notice('Connected "Bank": 1 account(s) reported.');

    await card('Bank').getByLabel('Ledger account for acc-1').fill('Checking');
    await card('Bank').getByRole('button', { name: 'Map' }).click();
    await notice('Mapped to "Checking".');
    // Checking holds a row already: the first sync waits for its preview, and nothing was written.
    await card('Bank').getByRole('button', { name: 'See the first sync' }).click();
    const preview = page.getByRole('region', { name: /^First sync of .*Everyday Checking$/ });
    await preview.getByText(/1\s+new · 0 already in the books · 1 possible match/).waitFor();
    await preview.getByRole('row', { name: /CLIENT PAYMENT.*new/ }).waitFor();
    await preview.getByRole('row', { name: /COFFEE ROASTERS.*possible match/ }).waitFor();
    expect((await L.listAccounts(books, org.seq)).find((x) => x.id === checking.id)).toMatchObject({ balance: -12.5 });
    await shot('connections-first-sync');
    await preview.getByRole('button', { name: 'Confirm first sync' }).click();
    await notice(/First sync of ".*Everyday Checking": 1 new row\(s\), 0 already in the books\./);

    // The bank's COFFEE ROASTERS may be the one entered by hand: held, both versions shown; kept.
    const held = page.getByRole('table', { name: 'Held rows' });
    await held.getByRole('row', { name: /Checking.*COFFEE ROASTERS.*COFFEE ROASTERS/ }).waitFor();
    await shot('connections-held');
    await held.getByRole('button', { name: "Keep the books' row" }).click();
    await notice("Kept the books' row in Checking; the bank's version is let go.");
    await page.getByRole('table', { name: 'Held rows' }).waitFor({ state: 'detached' });

    // The register: the pending row apart, marked, counted in no total.
    await page.goto(`${app.server.url}/#/transactions?account=${checking.id}`);
    const pending = page.getByRole('table', { name: 'Pending rows' });
    await pending.getByRole('row', { name: /PENDING FUEL.*-?20\.00.*Pending/ }).waitFor();
    await page.getByRole('row', { name: /CLIENT PAYMENT/ }).waitFor();
    expect(await page.locator('table.register').last().getByText('PENDING FUEL').count()).toBe(0);
    expect((await L.listAccounts(books, org.seq)).find((x) => x.id === checking.id)).toMatchObject({ balance: 1487.5 });
    await shot('connections-pending');
  });

  it("connects a UK bank through Enable Banking's page and back, maps it, and disconnects SimpleFIN", async () => {
    await page.goto(`${app.server.url}/#/connections`);
    await page.getByRole('button', { name: 'Connect a bank (UK, EU)' }).click();
    const application = page.getByRole('form', { name: 'Enable Banking application' });
    await application.getByLabel('Enable Banking application id').fill(APP_ID);
    await application.getByLabel('Its private key (.pem)').setInputFiles({ name: `${APP_ID}.pem`, mimeType: 'application/x-pem-file', buffer: Buffer.from(PEM) });
    await application.getByRole('button', { name: 'Find banks' }).click();
    const pick = page.getByRole('group', { name: 'Pick the bank' });
    await pick.getByLabel('Bank').selectOption('Hartley Bank');
    await pick.getByLabel('Name').fill('UK bank');
    await pick.getByRole('button', { name: "Open the bank's page" }).click();
    await page.getByText(`The bank sends you back to ${app.server.url}/enable-banking/callback`).waitFor();
    // The bank's page (the double's) sends the browser back to the server, where the screen finishes it.
    await page.getByRole('link', { name: 'Sign in at Hartley Bank' }).click();
    await notice('Connected "UK bank": 1 account(s) reported. Map each to a ledger account below.');
    expect(page.url()).not.toContain('code=');
    expect(eb.authRequests.at(-1)).toMatchObject({ redirect_url: `${app.server.url}/enable-banking/callback`, aspsp: { name: 'Hartley Bank', country: 'GB' } });
    // The sign-in was used once: nothing of it (the sealed key) is kept.
    expect(Number(await books.forOrg(org.seq, () => books.stmt('SELECT count(*) FROM connector_sign_ins').pluck().get()))).toBe(0);

    await card('UK bank')
      .getByLabel(/Ledger account for uk-1/)
      .fill('Current account');
    await card('UK bank').getByRole('button', { name: 'Map' }).click();
    await card('UK bank')
      .getByText(/Business Current Account \(\w+\) → "Current account"/)
      .waitFor();

    await card('Bank').getByRole('button', { name: 'Disconnect' }).click();
    await notice('Disconnected "Bank": its rows stay.');
    await card('Bank').getByText('Status: disconnected').waitFor();
    await shot('connections-bank');
  });
});

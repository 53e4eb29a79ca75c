// People and roles in real Chromium (issue 45): a person of each role signs in
// through the form (never the one-time link) and sees the screens of their role;
// a client's forbidden call is refused 403; a preparer's categorization becomes
// a proposal that a bookkeeper approves in Approvals; a wrong password is
// refused; an owner adds a person in People and the invitation link sets their
// password and signs them in; an owner requires a second factor, which a person
// sets up before their books open and gives at their next sign-in.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { totpCode } from '../src/main/ledger/access/totp';
import { launchChromium, SCREENSHOTS, signedInPage } from './support/browser';
import { serveDesk } from './support/desk-page';

const PASSWORD = 'Ledgerdesk people e2e 2026';
const PEOPLE = {
  owner: { email: 'olive@example.com', name: 'Olive Owner' },
  accountant: { email: 'ada@example.com', name: 'Ada Accountant' },
  bookkeeper: { email: 'ben@example.com', name: 'Ben Bookkeeper' },
  preparer: { email: 'dana@example.com', name: 'Dana Reyes' },
  client: { email: 'cleo@example.com', name: 'Cleo Client' },
} as const;
type Role = keyof typeof PEOPLE;

let app: Headless;
let books: L.Ledger;
let browser: Browser;
let org: L.Organization;
let rowId: string;
const pages: Page[] = [];
const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** A fresh browser (its own cookies) at the desk's address: the sign-in form. */
async function freshPage(url = `${app.server.url}/`): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  pages.push(page);
  await page.goto(url);
  return page;
}

/** The machine's owner, by a one-time link of its own (each link signs in once). */
async function machinePage(): Promise<Page> {
  const page = await signedInPage(browser, { signInUrl: await app.newSignInUrl(), server: app.server });
  pages.push(page);
  return page;
}

/** Signs a person in through the form, as they would: the desk opens with their name in the header. */
async function signIn(role: Role): Promise<Page> {
  const page = await freshPage();
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(PEOPLE[role].email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  await page.getByText(PEOPLE[role].name, { exact: true }).first().waitFor();
  return page;
}

const navLinks = async (page: Page) => (await page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents()).map((t) => t.replace(/\d+$/, ''));

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-people-'));
  const me = L.deskActor();
  await L.createAccount(books, org.seq, me, { name: 'Current', type: 'checking' });
  rowId = (await L.addTransaction(books, org.seq, me, { account: 'Current', date: '2026-03-02', amount: -1204.5, description: 'AWS EMEA' })).id;
  for (const [role, p] of Object.entries(PEOPLE)) await books.forOrg(org.seq, () => addMember(books, org.seq, me, { ...p, role, password: PASSWORD }));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('signing in', () => {
  it('refuses a wrong password on the form, in the words of the server', async () => {
    const page = await freshPage();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, 'sign-in');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(PEOPLE.owner.email);
    await form.getByLabel('Password').fill('not the password at all');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The email address or the password is wrong.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
  });
});

describe('each role sees its screens', () => {
  it("shows an owner everything of their books, People too; backups stay the machine's owner's", async () => {
    const links = await navLinks(await signIn('owner'));
    expect(links).toEqual(expect.arrayContaining(['Approvals', 'Transactions', 'Import', 'Journals', 'Tokens', 'People', 'Organizations']));
    expect(links).not.toContain('Backups');
    const machine = await machinePage();
    await machine.getByRole('navigation', { name: 'Screens' }).waitFor();
    expect(await navLinks(machine)).toEqual(expect.arrayContaining(['People', 'Backups']));
  });

  it('shows an accountant and a bookkeeper the books but not People', async () => {
    for (const role of ['accountant', 'bookkeeper'] as const) {
      const links = await navLinks(await signIn(role));
      expect(links).toEqual(expect.arrayContaining(['Approvals', 'Transactions', 'Import', 'Journals', 'Reports', 'Tokens']));
      expect(links).not.toContain('People');
      expect(links).not.toContain('Backups');
    }
  });

  it('shows a preparer the register and Approvals, not Import', async () => {
    const links = await navLinks(await signIn('preparer'));
    expect(links).toEqual(expect.arrayContaining(['Approvals', 'Transactions', 'Journals']));
    expect(links).not.toContain('Import');
    expect(links).not.toContain('People');
  });

  it('shows a client the dashboard, reports, invoices, bills, receipts and tokens; the server refuses the rest', async () => {
    const page = await signIn('client');
    const links = await navLinks(page);
    expect(links).toEqual(expect.arrayContaining(['Dashboard', 'Reports', 'Invoices', 'Bills', 'Receipts', 'Tokens']));
    for (const hidden of ['Transactions', 'Approvals', 'Log', 'Import', 'Rules', 'Journals', 'People', 'Backups']) expect(links).not.toContain(hidden);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // Their dashboard has the figures, not the bank's rows (issue 50).
    await page.getByText('Cash position (all accounts)').waitFor();
    expect(await page.getByRole('heading', { name: 'Recent transactions' }).count()).toBe(0);
    expect(await page.getByText('AWS EMEA').count()).toBe(0);
    const answer = await page.evaluate(async (orgId) => {
      const res = await fetch('/desk/api/listTransactions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orgId }) });
      return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
    }, org.id);
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).toBe('forbidden');
    // A client's token only reads.
    await page.getByRole('link', { name: 'Tokens' }).click();
    await page.getByRole('heading', { name: 'Tokens' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'propose-write' }).count()).toBe(0);
  });
});

describe("a preparer's change", () => {
  it('is proposed, shown in Approvals with their name, and approved by a bookkeeper', async () => {
    const preparer = await signIn('preparer');
    await preparer.goto(`${app.server.url}/#/transactions`);
    const row = preparer.locator('tr.row', { hasText: 'AWS EMEA' });
    await row.waitFor();
    await row.focus();
    await preparer.keyboard.press('c');
    await preparer.keyboard.type('5300');
    await preparer.keyboard.press('Enter');
    await preparer.getByText('Proposed: waits in Approvals for a bookkeeper.').waitFor();
    expect((await L.getTransaction(books, org.seq, rowId)).transaction.category).toBeNull();
    // Their own card waits: no Approve for them, a Withdraw.
    await preparer.getByRole('link', { name: /^Approvals/ }).click();
    const own = preparer.getByRole('article', { name: 'Categorization proposal from Dana Reyes (preparer)' });
    await own.getByText('Yours: it waits for a bookkeeper, accountant or owner to approve it.').waitFor();
    expect(await own.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await own.getByRole('button', { name: 'Withdraw' }).count()).toBe(1);

    const bookkeeper = await signIn('bookkeeper');
    await bookkeeper.goto(`${app.server.url}/#/approvals`);
    const card = bookkeeper.getByRole('article', { name: 'Categorization proposal from Dana Reyes (preparer)' });
    await card.getByText('AWS EMEA').waitFor();
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await bookkeeper.getByText('Approved 1 proposal.').waitFor();
    await expect.poll(async () => (await L.getTransaction(books, org.seq, rowId)).transaction.category).toBe('Cloud infrastructure');
  });
});

describe("a preparer's journal (issue 50)", () => {
  // Two steps, one sign-in each (a slow machine signs in slowly): the second withdraws what the first filed.
  let filed = '';
  it("shows a bookkeeper no Approve on a preparer's journal (she may not enter one), only Reject", async () => {
    // Filed at the preparer's desk as her form files it (the form itself is the hand's e2e).
    const dana = (await personByEmail(books, PEOPLE.preparer.email))!;
    const person = { seq: dana.seq, id: dana.id, name: dana.name, email: dana.email, totp: false };
    const ctx = { ledger: app.ledger, dataDir: '', agentUrl: app.server.url, mode: 'browser' as const, reviewer: L.deskActor(), person };
    const input = { orgId: org.id, date: '2026-03-31', narration: 'Accrued audit fee', lines: ['5000=300.00', 'Current=-300.00'] };
    const answer = await runDesk(ctx, 'addJournal', input, () => {});
    filed = ((answer as { data: { proposed: { id: string }[] } }).data ?? { proposed: [] }).proposed[0].id;
    const bookkeeper = await signIn('bookkeeper');
    await bookkeeper.goto(`${app.server.url}/#/approvals`);
    const theirs = bookkeeper.getByRole('article', { name: 'Journal entry proposal from Dana Reyes (preparer)' });
    await theirs.getByText('Only an accountant or owner approves it: approving makes the change.').waitFor();
    expect(await theirs.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    expect(await theirs.getByRole('button', { name: 'Reject' }).count()).toBe(1);
  });

  it('lets its preparer withdraw it from her card, kept as rejected and shown as withdrawn', async () => {
    const preparer = await signIn('preparer');
    await preparer.goto(`${app.server.url}/#/approvals`);
    const own = preparer.getByRole('article', { name: 'Journal entry proposal from Dana Reyes (preparer)' });
    await own.getByLabel('Why withdraw it (optional)').fill('Wrong month');
    await own.getByRole('button', { name: 'Withdraw' }).click();
    await preparer.getByText('Withdrawn: it waits for no one now.').waitFor();
    expect((await L.getProposal(books, org.seq, filed)).status).toBe('rejected');
    await preparer.getByRole('tab', { name: 'Rejected' }).click();
    await preparer
      .getByRole('article', { name: 'Journal entry proposal from Dana Reyes (preparer)' })
      .getByText(/withdrawn by Dana Reyes \(preparer\).*Wrong month/)
      .waitFor();
  });
});

describe('People', () => {
  it('lets an owner add a person, whose invitation link sets a password and signs them in', async () => {
    const owner = await signIn('owner');
    await owner.goto(`${app.server.url}/#/people`);
    const table = owner.getByRole('table', { name: 'People' });
    await table.getByRole('row', { name: /Dana Reyes/ }).waitFor();
    expect(await table.getByLabel('Role of Dana Reyes').inputValue()).toBe('preparer');
    const form = owner.getByRole('form', { name: 'Add a person' });
    await form.getByLabel('Email').fill('nina@example.com');
    await form.getByLabel('Name').fill('Nina New');
    await form.getByRole('combobox', { name: 'Role' }).selectOption('bookkeeper');
    await form.getByRole('button', { name: 'Add person' }).click();
    const link = await owner.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(/\/#\/invitation\/[\w-]+$/);
    await table.getByRole('row', { name: /Nina New .*invited/ }).waitFor();
    await shot(owner, 'people');

    const invited = await freshPage(link);
    // The page says whom the link is for and which books it opens.
    await invited.getByText(/^For nina@example\.com, to keep the books of .+ as bookkeeper\.$/).waitFor();
    const choose = invited.getByRole('form', { name: 'Choose your password' });
    await choose.getByLabel('New password').fill('a garden of ledgers in spring');
    await choose.getByLabel('The same again').fill('a garden of ledgers in spring');
    await choose.getByRole('button', { name: 'Set password and sign in' }).click();
    await invited.getByRole('navigation', { name: 'Screens' }).waitFor();
    await invited.getByText('Nina New', { exact: true }).first().waitFor();
    expect(new URL(invited.url()).hash).toBe('');
    // The link is spent.
    const again = await freshPage(link);
    const retry = again.getByRole('form', { name: 'Choose your password' });
    await retry.getByLabel('New password').fill('another garden of ledgers');
    await retry.getByLabel('The same again').fill('another garden of ledgers');
    await retry.getByRole('button', { name: 'Set password and sign in' }).click();
    await again
      .getByRole('alert')
      .getByText(/already used or has expired/)
      .waitFor();
  });
});

describe('a second factor', () => {
  it('is set up first when the books require one, then asked at every sign-in', async () => {
    const owner = await signIn('owner');
    await owner.goto(`${app.server.url}/#/people`);
    // Clicked, not check(): once it is required, the owner's own screen soon asks for one too (the People list
    // reloads, refused), and the box may be gone before Playwright looks at it again.
    await owner.getByRole('checkbox', { name: /Require a second factor/ }).click();
    await owner
      .getByText('Everyone here now needs a second factor to open these books.')
      .or(owner.getByRole('heading', { name: 'A second factor first' }))
      .first()
      .waitFor();

    const client = await signIn('client');
    await client.getByRole('heading', { name: 'A second factor first' }).waitFor();
    await client.getByRole('button', { name: 'Set up a second factor' }).click();
    const secret = await client.getByRole('textbox', { name: 'Secret key' }).inputValue();
    expect(await client.getByRole('textbox', { name: 'Authenticator address' }).inputValue()).toMatch(/^otpauth:\/\/totp\/Ledgerdesk:cleo%40example\.com\?secret=/);
    // The app scans the address as a QR code, drawn (not a broken image).
    const qr = client.getByRole('img', { name: 'QR code of the authenticator address' });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await client.getByLabel('Code from the app').fill(totpCode(secret));
    await client.getByRole('button', { name: 'Confirm' }).click();
    await client.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // Sign out everywhere from the account menu; the next sign-in asks for the code.
    await client.locator('summary', { hasText: 'Cleo Client' }).click();
    await client.getByRole('button', { name: 'Sign out everywhere' }).click();
    const form = client.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(PEOPLE.client.email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    const code = client.getByRole('form', { name: 'Second factor' });
    const valid = [-1, 0, 1, 2].map((step) => totpCode(secret, Date.now(), step));
    await code.getByLabel('Code').fill(['000000', '111111', '222222'].find((c) => !valid.includes(c))!);
    await code.getByRole('button', { name: 'Continue' }).click();
    await client.getByRole('alert').getByText('That code is not the one your app shows now.').waitFor();
    // The next step's code: a code once used may well be refused again.
    await code.getByLabel('Code').fill(totpCode(secret, Date.now(), 1));
    await code.getByRole('button', { name: 'Continue' }).click();
    await client.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The owner, without one either, is asked for it too; the machine's owner sees who has one.
    await owner.reload();
    await owner.getByRole('heading', { name: 'A second factor first' }).waitFor();
    const machine = await machinePage();
    await machine.goto(`${app.server.url}/#/people`);
    await machine
      .getByRole('table', { name: 'People' })
      .getByRole('row', { name: /Cleo Client .*2FA/ })
      .waitFor();
  });
});

// The books in real Chromium against the headless server: accounts, statement
// import (drop, preview, confirm, duplicates, date format question, undo) and
// the imported rows in Transactions. Screenshots land in test-results/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { onPostgres } from './support/books';
import { launchChromium, signedInPage } from './support/browser';
import { serveDesk, screenshot } from './support/desk-page';

const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;
const shot = (name: string) => screenshot(page, name);

/** Drops a file on the Import screen's zone, as a person drags it from their file manager. */
async function drop(name: string, bytes = readFileSync(fixture(name))) {
  const data = await page.evaluateHandle(
    ({ name, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name));
      return transfer;
    },
    { name, bytes: [...bytes] },
  );
  await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: data });
}

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-books-'));
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('accounts and import', () => {
  it('teaches the first step on empty books, then adds an account', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText('These books are empty.').waitFor();
    await page.getByRole('link', { name: 'add an account' }).click();
    await page.getByText('No accounts yet.').waitFor();
    const form = page.getByRole('form', { name: 'New account' });
    await form.getByLabel('Name').fill('Operating');
    await form.getByLabel('Opening balance').fill('1000');
    await form.getByLabel('On (YYYY-MM-DD)').fill('2023-12-31');
    await form.getByRole('button', { name: 'Add account' }).click();
    await page.getByText('Added Operating. Import its statement next.').waitFor();
    expect(await L.listAccounts(books, org.seq)).toMatchObject([{ name: 'Operating', type: 'checking', balance: 1000, openingDate: '2023-12-31' }]);
  });

  it('drops a CSV, previews it, imports it into the account, and shows the rows in Transactions', async () => {
    await page.getByRole('link', { name: 'Import statement' }).click();
    await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
    await drop('us-bank.csv');
    await page.getByLabel('What the file holds').filter({ hasText: '5 new' }).waitFor();
    expect(await page.getByLabel('Account').first().inputValue()).toBe((await L.listAccounts(books, org.seq))[0].id);
    expect(await page.locator('.import-preview tbody tr').count()).toBe(5);
    await shot('import-preview');
    expect((await L.listTransactions(books, org.seq, { limit: 1, offset: 0 })).meta.totalCount).toBe(0); // a preview writes nothing
    await page.getByRole('button', { name: 'Import 5 new row(s) into Operating' }).click();
    await page.getByText('Imported 5 new row(s) from us-bank.csv').waitFor();
    await page.getByRole('link', { name: 'See the rows in Transactions' }).click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    await expect.poll(() => page.locator('table.grid tbody tr').count()).toBe(5);
    expect(await page.locator('table.grid').textContent()).toContain('PAYROLL ACME CORP');
    await shot('transactions-imported');
  });

  it('imports nothing the second time, asks for an ambiguous date format, and undoes an import', async () => {
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
    await page.getByLabel('Account').first().selectOption({ label: 'Operating (USD)' });
    await drop('us-bank.csv');
    await page.getByLabel('What the file holds').filter({ hasText: '0 new · 5 duplicate' }).waitFor();
    await drop('ambiguous.csv');
    await page.getByText('the dates fit more than one format').waitFor();
    expect(await page.getByRole('button', { name: /Import 0 new/ }).isDisabled()).toBe(true);
    await page.getByLabel('Date format').selectOption('D/M/YYYY');
    await page.getByLabel('What the file holds').filter({ hasText: '3 new' }).waitFor();
    await page.getByRole('button', { name: 'Import 3 new row(s) into Operating' }).click();
    await page.getByText('Imported 3 new row(s) from ambiguous.csv').waitFor();
    expect((await L.listTransactions(books, org.seq, { date: '2024-02-01', limit: 5, offset: 0 })).data.map((t) => t.description)).toEqual(['Coffee']);
    page.once('dialog', (d) => void d.accept());
    // The history reloads after the import: undo the row that names this file, not whichever is first yet.
    await page.locator('table.imports tbody tr').first().filter({ hasText: 'ambiguous.csv' }).getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Undid the import of ambiguous.csv.').waitFor();
    expect((await L.listTransactions(books, org.seq, { limit: 1, offset: 0 })).meta.totalCount).toBe(5);
    await shot('import-history');
  });

  it('creates the accounts an OFX file describes and lists them with their statement balance', async () => {
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a statement' }).waitFor();
    await page.getByLabel('Account').first().selectOption('');
    await drop('ofx1-sgml.ofx');
    await page.getByLabel('What the file holds').filter({ hasText: '6 new' }).waitFor();
    await page.getByRole('button', { name: /Import 6 new row\(s\)/ }).click();
    await page.getByText('Imported 6 new row(s) from ofx1-sgml.ofx').waitFor();
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    const row = page.locator('table.accounts tr', { hasText: 'Checking ****6789' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/4,142\.30/);
    await shot('accounts');
  });
});

describe("the bookkeeper's hand", () => {
  it('categorizes by keyboard alone: c, type-ahead on a code, Enter', async () => {
    const operating = (await L.listAccounts(books, org.seq)).find((a) => a.name === 'Operating')!;
    await page.goto(`${app.server.url}/#/transactions?account=${operating.id}`);
    const first = page.locator('tr.row').first();
    await first.waitFor();
    await first.focus();
    await page.keyboard.press('c');
    await page.keyboard.type('53');
    await page.keyboard.press('Enter');
    await page.getByText('Categorized 1 row(s) as 5300.').waitFor();
    const top = (await L.registerPage(books, org.seq, { accountSeq: (await L.requireAccount(books, org.seq, operating.id)).seq, limit: 1, offset: 0 })).data[0];
    expect(top).toMatchObject({ category: 'Cloud infrastructure', status: 'matched', suggestedBy: null });
    // Focus comes back to the row; j moves on, x selects, and the selection is categorized by name.
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.getByRole('button', { name: 'Categorize selected' }).click();
    await page.keyboard.type('software');
    await page.keyboard.press('Enter');
    await page.getByText('Categorized 2 row(s) as 5100.').waitFor();
    expect((await L.listTransactions(books, org.seq, { category: 'Software & tools', limit: 5, offset: 0 })).meta.totalCount).toBe(2);
    await shot('register');
  });

  it('adds a transaction by hand and corrects it; a bank row says why it is locked', async () => {
    await page.getByRole('button', { name: 'Add a transaction' }).click();
    const form = page.getByRole('form', { name: 'New transaction' });
    await form.getByLabel('Date (YYYY-MM-DD)').fill('2024-01-20');
    await form.getByLabel('Description').fill('Cash for stamps');
    await form.getByLabel('Amount (− out, + in)').fill('-8.40');
    await form.getByLabel('Category').selectOption({ label: '5000 Operating expenses' });
    await form.getByRole('button', { name: 'Add transaction' }).click();
    await page.getByText('Added Cash for stamps.').waitFor();
    const row = page.locator('tr.row', { hasText: 'Cash for stamps' });
    await row.click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit transaction' });
    await edit.getByLabel('Amount (− out, + in)').fill('-9.40');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved Cash for stamps.').waitFor();
    expect((await L.listTransactions(books, org.seq, { description: 'Cash for stamps', limit: 1, offset: 0 })).data[0]).toMatchObject({
      amount: -9.4,
      category: 'Operating expenses',
    });
    await page.locator('tr.row', { hasText: 'PAYROLL ACME CORP' }).click();
    await page.getByText("Locked: it came from the bank: it keeps the bank's date, amount and description").waitFor();
  });

  it('reverses an approval from its history, with a comment', async () => {
    const { info } = await L.createToken(books, org.seq, { name: 'e2e agent', scopes: ['read', 'propose-write'] });
    const agent = { type: 'token' as const, tokenSeq: 1, tokenId: info.id, tokenName: 'e2e agent', channel: 'rest' as const };
    const target = (await L.listTransactions(books, org.seq, { status: 'uncategorized', limit: 1, offset: 0 })).data[0];
    const p = await L.proposeCategorization(books, org.seq, agent, { transactionId: target.id, categoryCode: '4010', confidence: 0.6, reason: 'Looks like a subscription' });
    await L.reviewProposal(books, org.seq, p.id, 'approve', L.deskActor());
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('tab', { name: 'Approved' }).click();
    const card = page.locator(`article.proposal[data-id="${p.id}"]`);
    await card.getByRole('button', { name: 'Reverse…' }).click();
    await card.getByLabel('Why reverse this approval').fill('Not a subscription');
    await card.getByRole('button', { name: 'Reverse approval' }).click();
    await card.getByText('Reversed by').waitFor();
    expect((await L.getTransaction(books, org.seq, target.id)).transaction).toMatchObject({ category: null, status: 'uncategorized', suggestedBy: null });
    expect((await L.listAudit(books, org.seq, { action: 'proposal.reversed', limit: 1, offset: 0 })).entries[0].summary).toContain('(comment: "Not a subscription")');
    await shot('approvals-reversed');
  });

  it('reconciles an imported account to zero, from the balance its statement states', async () => {
    const checking = (await L.listAccounts(books, org.seq)).find((a) => a.name === 'Checking ****6789')!;
    await page.goto(`${app.server.url}/#/reconcile?account=${checking.id}`);
    await expect.poll(() => page.getByLabel('Statement ending balance').inputValue()).toBe('4,142.30');
    expect(await page.getByLabel('Statement end date (YYYY-MM-DD)').inputValue()).toBe('2024-01-31');
    const finish = page.getByRole('button', { name: 'Finish reconciliation' });
    expect(await finish.isDisabled()).toBe(true);
    const rows = page.locator('table.reconcile tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    for (let i = 0; i < 4; i++) {
      await rows.nth(i).focus();
      await page.keyboard.press(' ');
    }
    await expect.poll(() => finish.isDisabled()).toBe(false);
    await shot('reconcile');
    await finish.click();
    await page.getByText('Reconciled Checking ****6789 through 2024-01-31.').waitFor();
    // Cleared by the reconciliation; those never categorized still read uncategorized (work to do).
    const facts = (await books
      .stmt(
        "SELECT reconciled, EXISTS (SELECT 1 FROM lines l WHERE l.transaction_seq = t.seq AND l.kind = 'suspense') AS open, status FROM transactions t WHERE account_seq = (SELECT seq FROM accounts WHERE id = ?)",
      )
      .all(checking.id)) as { reconciled: number; open: number; status: string }[];
    expect(facts.filter((f) => f.reconciled).length).toBe(4);
    expect(facts.every((f) => f.status === (f.open ? 'uncategorized' : 'reconciled'))).toBe(true);
    expect((await L.listAccounts(books, org.seq)).find((a) => a.id === checking.id)).toMatchObject({ lastReconciliation: { date: '2024-01-31', balance: 4142.3 } });
  });

  it('is out of reach of agent tokens: no API route, no desk call with a bearer token', async () => {
    const org0 = (await L.listOrganizations(books))[0];
    const { token } = await L.createToken(books, org0.seq, { name: 'curious agent', scopes: ['read', 'propose-write'] });
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (const name of [
      'addTransaction',
      'editTransaction',
      'deleteTransaction',
      'categorizeTransactions',
      'markReceiptMissing',
      'reverseProposal',
      'addCategory',
      'renameCategory',
      'archiveCategory',
      'reconcileAccount',
      'undoReconciliation',
      'importStatement',
      'undoImport',
      'createAccount',
    ]) {
      const res = await fetch(`${app.server.url}/desk/api/${name}`, { method: 'POST', headers: auth, body: JSON.stringify({ orgId: org0.id }) });
      expect([name, res.status]).toEqual([name, 401]);
    }
    for (const [method, path] of [
      ['POST', '/transactions'],
      ['PUT', '/transactions/00000000-0000-4000-8000-000000000000'],
      ['POST', '/categories'],
      ['POST', '/proposals/00000000-0000-4000-8000-000000000000/reverse'],
    ]) {
      const res = await fetch(`${app.server.url}/api/v1${path}`, { method, headers: auth, body: '{}' });
      expect([path, res.status]).toEqual([path, expect.any(Number)]);
      expect([404, 405]).toContain(res.status);
    }
  });
});

describe('reports, exports and backups', () => {
  it('shows the profit and loss with a chart, opens a category in the general ledger and a line in the register, downloads CSV and an export', async () => {
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: /Profit and loss, / }).waitFor();
    await page.getByRole('img', { name: /Revenue and expenses per month/ }).waitFor();
    const table = page.locator('table.pl');
    expect(await table.textContent()).toContain('5300 Cloud infrastructure');
    await shot('reports');
    const csv = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).first().click();
    expect((await csv).suggestedFilename()).toMatch(/^profit-and-loss-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    await page.getByLabel('Format').selectOption('beancount');
    const exported = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const file = await exported;
    expect(file.suggestedFilename()).toMatch(/\.beancount$/);
    expect(readFileSync((await file.path())!, 'utf8')).toContain('option "operating_currency" "USD"');
    // A category opens its general-ledger lines for the period, which add up to its figure; a line opens its row.
    const figure = (await table.locator('tr', { hasText: '5300 Cloud infrastructure' }).locator('td').last().innerText()).replace(/[^\d.]/g, '');
    await table.getByRole('link', { name: '5300 Cloud infrastructure' }).click();
    await page.getByRole('heading', { name: /5300 Cloud infrastructure, from / }).waitFor();
    expect((await page.getByRole('row', { name: 'Net for the period' }).innerText()).replace(/[^\d.]/g, '')).toBe(figure);
    await page.locator('table.ledger tbody tr').nth(1).getByRole('link').click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    await expect.poll(() => page.locator('tr.row').count()).toBeGreaterThan(0);
  });

  it('backs up now from the Backups screen (books on a server: says its own tools do), and the Log says the chain verifies', async () => {
    await page.getByRole('link', { name: 'Backups' }).click();
    if (onPostgres) {
      await page.getByText(/kept on a PostgreSQL server.*backed up with the server.s own tools/).waitFor();
      expect(await page.getByRole('button', { name: 'Back up now' }).count()).toBe(0);
    } else {
      await page.getByRole('button', { name: 'Back up now' }).click();
      await page.getByText(/Backed up to .*\.backup/).waitFor();
      await expect.poll(() => page.locator('table.grid tbody tr').count()).toBe(1);
    }
    await page.getByRole('link', { name: 'Log' }).click();
    await page.getByText(/Chain verified: \d+ entries/).waitFor();
  });
});

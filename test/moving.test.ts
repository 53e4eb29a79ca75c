// Moving from Xero or QuickBooks Online (issue 50): the chart of accounts and
// the contacts from their own CSV exports, through the desk operations the
// screens and `ledgerdesk chart import` / `contact import` run: a preview that
// writes nothing, then one write with one audit entry; matched, updated, left
// and skipped rows said with their reasons; the commands as child processes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import { stageUpload } from '../src/main/desk/files';
import * as L from '../src/main/ledger';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';
import { booksFlags } from './support/books';

const fixture = (name: string) => join(__dirname, 'fixtures', 'moving', name);
let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const item = <T extends { name: string }>(r: { items: T[] }, name: string) => r.items.find((i) => i.name === name)!;
const audit = async (action: string) => (await L.listAudit(ctx.ledger, org.seq, { action, limit: 50, offset: 0 })).entries;

beforeEach(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'studio', name: 'Hartley Studio', currency: 'GBP' });
  await L.setupTaxSet(ledger, org.seq, L.deskActor(), 'uk-vat');
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

describe("the chart from Xero's export", () => {
  it('previews what is new, matched, a money account or skipped, writing nothing', async () => {
    await desk('addCategory', { code: '400', name: 'Advertising', type: 'expense' });
    await desk('addCategory', { code: '6100', name: 'Cleaning', type: 'expense' });
    const before = await desk<L.DeskCategory[]>('listChart');
    const preview = await desk<L.ChartImport>('importChart', { file: fixture('xero-chart.csv'), dryRun: true });
    expect(preview).toMatchObject({ source: 'xero', dryRun: true, counts: { add: 14, update: 2, leave: 0, account: 1, skip: 5 } });
    expect(item(preview, 'Sales')).toMatchObject({ action: 'add', code: '200', type: 'revenue', taxCode: 'S' });
    expect(item(preview, 'Other Revenue')).toMatchObject({ action: 'add', type: 'revenue', taxCode: 'R' });
    expect(item(preview, 'Cost of Goods Sold')).toMatchObject({ action: 'add', type: 'expense', costOfSales: true, taxCode: 'S' });
    expect(item(preview, 'Bank Fees')).toMatchObject({ taxCode: 'E' });
    expect(item(preview, 'IT Software and Consumables')).toMatchObject({ taxCode: 'RC' });
    expect(item(preview, 'Interest Income')).toMatchObject({ taxCode: 'NV' });
    expect(item(preview, 'Office Equipment')).toMatchObject({ type: 'asset' });
    expect(item(preview, 'Loan')).toMatchObject({ type: 'liability' });
    expect(item(preview, 'EU Sales')).toMatchObject({ action: 'add', taxCode: null, notes: [expect.stringMatching(/Zero Rated EC Goods Income.*left unset/)] });
    expect(item(preview, 'Advertising & Marketing')).toMatchObject({
      action: 'update',
      code: '400',
      matched: '400 Advertising',
      notes: ['renamed from "Advertising"', 'default tax code set to S'],
    });
    expect(item(preview, 'Cleaning')).toMatchObject({
      action: 'update',
      code: '6100',
      notes: [expect.stringMatching(/matches 6100 Cleaning by name/), 'default tax code set to S'],
    });
    expect(item(preview, 'Business Bank Account')).toMatchObject({ action: 'account', accountType: 'checking' });
    const skipped = preview.items.filter((i) => i.action === 'skip').map((i) => [i.name, i.notes[0]]);
    expect(skipped).toEqual([
      ['Accounts Receivable', expect.stringMatching(/what customers owe/)],
      ['Accounts Payable', expect.stringMatching(/owed to vendors/)],
      ['VAT', expect.stringMatching(/tax control account/)],
      ['Retained Earnings', expect.stringMatching(/retained earnings/)],
      ['Rounding', expect.stringMatching(/own workings/)],
    ]);
    expect(await desk('listChart')).toEqual(before);
    expect(await desk('listAccounts')).toEqual([]);
    expect(await audit('chart.imported')).toEqual([]);
  });

  it('applies the plan in one write with one audit entry; the same file again changes nothing', async () => {
    await desk('addCategory', { code: '400', name: 'Advertising', type: 'expense' });
    const done = await desk<L.ChartImport>('importChart', { file: fixture('xero-chart.csv') });
    expect(done.counts).toEqual({ add: 15, update: 1, leave: 0, account: 1, skip: 5 });
    const chart = await desk<L.DeskCategory[]>('listChart');
    const byCode = (code: string) => chart.find((c) => c.code === code);
    expect(byCode('200')).toMatchObject({ name: 'Sales', type: 'revenue', taxCode: 'S' });
    expect(byCode('310')).toMatchObject({ name: 'Cost of Goods Sold', costOfSales: true });
    expect(byCode('400')).toMatchObject({ name: 'Advertising & Marketing', taxCode: 'S' });
    expect(byCode('215')).toMatchObject({ taxCode: null });
    expect(chart.some((c) => ['610', '800', '820', '960'].includes(c.code))).toBe(false);
    expect((await desk<L.Account[]>('listAccounts')).map((a) => [a.name, a.type, a.currency, a.openingBalance])).toEqual([['Business Bank Account', 'checking', 'GBP', 0]]);
    const [entry] = await audit('chart.imported');
    expect(entry.summary).toBe(
      "Chart imported from Xero's chart of accounts export (xero-chart.csv): 15 added, 1 updated, 0 left as they were, 1 money account(s) made, 5 skipped",
    );
    const again = await desk<L.ChartImport>('importChart', { file: fixture('xero-chart.csv') });
    expect(again.counts).toEqual({ add: 0, update: 0, leave: 17, account: 0, skip: 5 });
  });

  it('refuses a file that is no chart export, and one from another program than named', async () => {
    await expect(desk('importChart', { file: fixture('xero-contacts.csv') })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'file', message: expect.stringMatching(/^xero-contacts\.csv is not a chart export: its header is none of/) }],
    });
    await expect(desk('importChart', { file: fixture('xero-chart.csv'), from: 'quickbooks' })).rejects.toMatchObject({ details: [{ field: 'from' }] });
  });

  it('reads an upload staged as statements are (the screens)', async () => {
    const staged = await stageUpload(ctx, org.seq, 'ChartOfAccounts.csv', readFileSync(fixture('xero-chart.csv')));
    const preview = await desk<L.ChartImport>('importChart', { file: staged.uploadId, dryRun: true });
    expect(preview).toMatchObject({ fileName: 'ChartOfAccounts.csv', counts: { add: 16, account: 1 } });
    // The preview keeps the upload; the import that wrote spends it (issue 51).
    expect(await desk<L.ChartImport>('importChart', { file: staged.uploadId })).toMatchObject({ counts: { add: 16 } });
    await expect(desk('importChart', { file: staged.uploadId })).rejects.toMatchObject({ details: [{ field: 'file' }] });
  });
});

describe("the chart from QuickBooks Online's Account List", () => {
  it('places sub-accounts under their parents, gives codes where the file has none, skips what we keep ourselves', async () => {
    const done = await desk<L.ChartImport>('importChart', { file: fixture('quickbooks-accounts.csv') });
    expect(done).toMatchObject({ source: 'quickbooks', counts: { add: 8, account: 3, skip: 6 }, unread: [] });
    expect(item(done, 'Utilities')).toMatchObject({ code: '5010', notes: ['the file gives no code: given 5010'] });
    expect(item(done, 'Electricity')).toMatchObject({ code: '5020', parentCode: '5010', type: 'expense' });
    expect(item(done, 'Accumulated depreciation')).toMatchObject({ code: '1510', parentCode: '1500', type: 'asset' });
    expect(item(done, 'Cost of sales')).toMatchObject({ code: '5100', costOfSales: true, taxCode: null });
    expect(item(done, 'Business Card')).toMatchObject({ action: 'account', accountType: 'credit_card' });
    expect(item(done, 'Savings')).toMatchObject({ action: 'account', accountType: 'savings' });
    expect(done.items.filter((i) => i.action === 'skip').map((i) => i.name)).toEqual([
      'Undeposited Funds',
      'Accounts Receivable (A/R)',
      'Accounts Payable (A/P)',
      'VAT Control',
      'Opening Balance Equity',
      'Retained Earnings',
    ]);
    expect((await desk<L.Account[]>('listAccounts')).map((a) => a.type).sort()).toEqual(['checking', 'credit_card', 'savings']);
  });
});

describe('contacts', () => {
  it("from Xero's export: new ones with their details, a match filled in, bad details left out and said", async () => {
    await desk('addContact', { name: 'Brightwater Supplies', kind: 'vendor', email: 'old@brightwater.example' });
    const preview = await desk<L.ContactImport>('importContacts', { file: fixture('xero-contacts.csv'), dryRun: true });
    expect(preview).toMatchObject({ source: 'xero', counts: { add: 3, update: 1, leave: 0, skip: 1 }, unread: [{ reason: 'no contact name' }] });
    expect(await audit('contacts.imported')).toEqual([]);
    const done = await desk<L.ContactImport>('importContacts', { file: fixture('xero-contacts.csv') });
    expect(done.counts).toEqual(preview.counts);
    expect(item(done, 'Brightwater Supplies')).toMatchObject({
      action: 'update',
      notes: expect.arrayContaining([
        'address added',
        'taxNumber added',
        expect.stringMatching(/keeps its email "old@brightwater.example"/),
        expect.stringMatching(/OFFOLLOWINGMONTH/),
      ]),
    });
    expect(item(done, 'Corner Café').notes).toEqual(['"not-an-email" is not an email address: left out']);
    expect(done.items.find((i) => i.action === 'skip')!.notes[0]).toMatch(/names "hartley studio ltd" twice \(line 2\)/);
    const contacts = await desk<L.Contact[]>('listContacts');
    expect(contacts.find((c) => c.name === 'Hartley Studio Ltd')).toMatchObject({
      customer: true,
      vendor: false,
      email: 'accounts@hartley.example',
      address: 'Accounts, 12 Mill Lane, Leeds, West Yorkshire, LS1 4AB',
      country: 'GB',
      taxNumber: 'GB123456789',
      termsDays: 30,
    });
    expect(contacts.find((c) => c.name === 'Müller GmbH')).toMatchObject({ country: 'DE', customer: true, termsDays: 14 });
    expect(contacts.find((c) => c.name === 'Brightwater Supplies')).toMatchObject({ vendor: true, email: 'old@brightwater.example', taxNumber: 'GB987654321' });
    expect((await audit('contacts.imported'))[0].summary).toBe(
      "Contacts imported from Xero's contacts export (xero-contacts.csv): 3 added, 1 updated, 0 left as they were, 1 skipped",
    );
  });

  it("from QuickBooks Online's customer and vendor lists", async () => {
    const customers = await desk<L.ContactImport>('importContacts', { file: fixture('quickbooks-customers.csv') });
    expect(customers.items.map((i) => [i.name, i.customer, i.vendor, i.country, i.termsDays])).toEqual([
      ["Amy's Bird Sanctuary", true, false, 'US', 30],
      ["Bill's Windsurf Shop", true, false, 'US', 0],
      ['Cool Cars', true, false, 'US', null],
    ]);
    expect(item(customers, 'Cool Cars').notes).toEqual(['its terms "1% 10 Net 30" are not days after the date: left unset']);
    const vendors = await desk<L.ContactImport>('importContacts', { file: fixture('quickbooks-vendors.csv') });
    expect(vendors).toMatchObject({ described: "QuickBooks Online's vendor list", counts: { add: 2 } });
    expect(vendors.items.every((i) => i.vendor && !i.customer)).toBe(true);
  });
});

describe('the commands', () => {
  it('chart import --dry-run previews, then imports; contact import sniffs the source', () => {
    const data = tempDir();
    const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { encoding: 'utf8', timeout: 60_000 });
    const dry = run('chart', 'import', fixture('xero-chart.csv'), '--dry-run');
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Preview of xero-chart\.csv \(Xero's chart of accounts export\): 16 new, 0 to update, 0 left as they are, 1 money account\(s\), 5 skipped\.\n/);
    expect(dry.stdout).toContain("Note: This organization has no tax codes yet (Tax: set up its tax set): the categories' default tax codes are left unset.\n");
    expect(dry.stdout).toContain('  line 3    new      200 Sales (revenue)\n');
    expect(dry.stdout).toContain('  line 14   skip     610 Accounts Receivable [Current Asset]: Ledgerdesk keeps what customers owe');
    expect(dry.stdout).toMatch(/Nothing written \(--dry-run\)\. Run it again without --dry-run to import\.\n$/);
    const done = run('chart', 'import', fixture('xero-chart.csv'), '--from', 'xero', '--json');
    expect(done.status, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).counts).toMatchObject({ add: 16, account: 1 });
    const contacts = run('contact', 'import', fixture('quickbooks-vendors.csv'));
    expect(contacts.status, contacts.stderr).toBe(0);
    expect(contacts.stdout).toMatch(/^Imported quickbooks-vendors\.csv \(QuickBooks Online's vendor list\): 2 new/);
    const wrong = run('contact', 'import', fixture('xero-chart.csv'));
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/validation_failed.*not a contacts export/);
  });
});

// Issue 42: which account a file's rows belong to. A file whose rows are
// already in another account is warned about, naming it; a QIF goes to the
// account of the name it gives; a QIF (or CSV) whose every date reads both
// ways takes its account's date order, else is asked. Desk operations on
// real SQLite files.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { ELSEWHERE_SAMPLE } from '../src/main/ledger/imports/elsewhere';
import { tempDir, tempLedger } from './support/env';
import { deskAs } from './support/desk';

const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const importFile = (file: string, input: Record<string, unknown> = {}) => desk<L.ImportResult>('importStatement', { file, ...input });
const tempFile = (name: string, body: string) => {
  const path = join(tempDir(), name);
  writeFileSync(path, body);
  return path;
};

beforeEach(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'studio', name: 'Hartley Studio', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

describe('rows already in another account', () => {
  it('are warned about in the preview and the result, naming the account', async () => {
    await desk('createAccount', { name: 'Starling' });
    await desk('createAccount', { name: 'Barclays' });
    expect(await importFile(fixture('starling.csv'), { account: 'Starling' })).toMatchObject({ imported: 5, warnings: [] });
    const wrong = await importFile(fixture('starling.csv'), { account: 'Barclays', dryRun: true });
    expect(wrong.warnings).toEqual([
      {
        code: 'rows_in_other_account',
        section: 0,
        account: { id: expect.any(String), name: 'Starling' },
        found: 5,
        checked: 5,
        message: 'These rows are already in "Starling" (5 of 5): is this the right account?',
      },
    ]);
    // Read with another mapping (other descriptions), they are the same rows.
    const remapped = await importFile(fixture('starling.csv'), { account: 'Barclays', columns: 'date=Date,amount=Amount (GBP),description=Type', dryRun: true });
    expect(remapped.warnings.map((w) => ('account' in w ? w.account.name : w.code))).toEqual(['Starling']);
    expect((await importFile(fixture('starling.csv'), { account: 'Barclays' })).warnings).toHaveLength(1);
  });

  it("are read with the columns saved for the file's header when another account is picked", async () => {
    await desk('createAccount', { name: 'Starling' });
    await desk('createAccount', { name: 'Barclays' });
    const columns = 'date=Date,amount=Amount (GBP),description=Counter Party+Reference+Type';
    await importFile(fixture('starling.csv'), { account: 'Starling', columns });
    const picked = await importFile(fixture('starling.csv'), { account: 'Barclays', dryRun: true });
    expect(picked.csv!.columns!.description).toEqual(['Counter Party', 'Reference', 'Type']);
    expect(picked.preview[0].description).toBe('WEWORK - LONDON EC2 - CARD PAYMENT');
  });

  it("are not yet there in next month's file, whose header is another account's saved mapping's", async () => {
    await desk('createAccount', { name: 'Starling' });
    await desk('createAccount', { name: 'Barclays' });
    await importFile(fixture('starling.csv'), { account: 'Starling' });
    const april = tempFile('april.csv', readFileSync(fixture('starling.csv'), 'utf8').replaceAll('/03/2026', '/04/2026'));
    expect((await importFile(april, { dryRun: true })).warnings).toEqual([]); // found by its header: Starling's
    expect((await importFile(april, { account: 'Barclays', dryRun: true })).warnings).toEqual([
      {
        code: 'header_of_other_account',
        section: 0,
        account: { id: expect.any(String), name: 'Starling' },
        message: 'This file\'s columns are those of "Starling"\'s statements (its saved CSV mapping), none of "Barclays"\'s yet: is this the right account?',
      },
    ]);
  });

  it('are not a coincidence of a few rows, nor a transfer seen from its other side', async () => {
    await desk('createAccount', { name: 'Current' });
    await desk('createAccount', { name: 'Savings' });
    await importFile(
      tempFile('current.csv', 'Date,Description,Amount\n2026-03-02,Coffee,-3.50\n2026-03-03,To savings,-500.00\n2026-03-04,To savings,-250.00\n2026-03-05,To savings,-100.00\n'),
      {
        account: 'Current',
      },
    );
    const savings = tempFile(
      'savings.csv',
      'Date,Details,Amount\n2026-03-02,Coffee,-3.50\n2026-03-03,From current,500.00\n2026-03-04,From current,250.00\n2026-03-05,From current,100.00\n',
    );
    expect((await importFile(savings, { account: 'Savings', dryRun: true })).warnings).toEqual([]);
  });

  it('looks at a sample of a large file only', async () => {
    await desk('createAccount', { name: 'Card' });
    await desk('createAccount', { name: 'Current' });
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 400; i++) lines.push(`2026-0${1 + (i % 6)}-${String(1 + (i % 28)).padStart(2, '0')},SHOP ${i},-${i + 1}.00`);
    const file = tempFile('card.csv', lines.join('\n'));
    await importFile(file, { account: 'Card' });
    const warned = await importFile(file, { account: 'Current', dryRun: true });
    expect(warned.warnings[0]).toMatchObject({
      found: ELSEWHERE_SAMPLE,
      checked: ELSEWHERE_SAMPLE,
      message: expect.stringContaining(`(${ELSEWHERE_SAMPLE} of ${ELSEWHERE_SAMPLE} looked at)`),
    });
  });
});

describe('a QIF file', () => {
  it('goes to the account of the name it gives, so importing it again adds nothing', async () => {
    const first = await importFile(fixture('quicken.qif'));
    expect(first.accounts.map((a) => [a.name, a.created, a.imported])).toEqual([
      ['Business Checking', true, 3],
      ['Company Visa', true, 2],
    ]);
    const again = await importFile(fixture('quicken.qif'));
    expect(again.accounts.map((a) => [a.name, a.created, a.imported])).toEqual([
      ['Business Checking', false, 0],
      ['Company Visa', false, 0],
    ]);
    expect((await desk<L.Account[]>('listAccounts')).map((a) => a.name)).toEqual(['Business Checking', 'Company Visa']);
  });

  it("starts a new account from Quicken's opening balance", async () => {
    const r = await importFile(fixture('quicken-2020.qif'));
    expect(r).toMatchObject({ imported: 4, dates: { format: 'M/D/YYYY', from: null } });
    expect((await desk<L.Account[]>('listAccounts'))[0]).toMatchObject({ openingBalance: 0, openingDate: '2020-02-10', balance: 1095.4 });
  });

  it("whose dates read both ways is asked, then read in its account's order; an undone import's order is forgotten", async () => {
    const asked = await importFile(fixture('quicken-uk.qif'));
    expect(asked).toMatchObject({ batchId: null, errors: [{ field: 'D', file: true }], dates: { format: null, formats: ['D/M/YYYY', 'M/D/YYYY'] } });
    const first = await importFile(fixture('quicken-uk.qif'), { dateFormat: 'DD/MM/YYYY' });
    expect(first).toMatchObject({ imported: 3, accounts: [{ name: 'High Street Current', created: true }] });
    const next = tempFile('april.qif', "!Account\nNHigh Street Current\nTBank\n^\n!Type:Bank\nD1/4'2021\nT-3.00\nPNewsagent\n^\nD2/4'2021\nT-9.00\nPLunch\n^\n");
    const settled = await importFile(next, { dryRun: true });
    expect(settled).toMatchObject({ errors: [], dates: { format: 'D/M/YYYY', from: 'High Street Current' }, preview: [{ date: '2021-04-01' }, { date: '2021-04-02' }] });
    await desk('undoImport', { batchId: first.batchId });
    expect((await importFile(next, { dryRun: true })).errors).toMatchObject([{ file: true }]);
  });

  it('named into an account whose CSV statements are day first, reads day first', async () => {
    await desk('createAccount', { name: 'Starling' });
    await importFile(fixture('starling.csv'), { account: 'Starling' });
    const qif = tempFile('starling.qif', "!Type:Bank\nD3/2'2026\nT-12.00\nPNewsagent\n^\nD5/2'2026\nT-4.00\nPCoffee\n^\n");
    expect(await importFile(qif, { account: 'Starling', dryRun: true })).toMatchObject({
      dates: { format: 'D/M/YYYY', from: 'Starling' },
      preview: [{ date: '2026-02-03' }, { date: '2026-02-05' }],
    });
  });
});

// Statement import through the desk operation (what the Import screen and
// `ledgerdesk import` both run), on real SQLite files: accounts found or made,
// duplicates, possible matches, bad rows, batches, undo.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { tempDir, tempLedger } from './support/env';
import { steadyRate } from './support/rates';
import { deskAs } from './support/desk';
import { onPostgres } from './support/books';

const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);
let ctx: DeskContext;
let org: L.Organization;

const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const importFile = (file: string, input: Record<string, unknown> = {}) => desk<L.ImportResult>('importStatement', { file: fixture(file), ...input });
const rowsOf = async (accountId: string) =>
  (await ctx.ledger
    .stmt(
      'SELECT t.date, t.amount_minor AS amount, t.description, t.external_id AS "externalId", t.status, t.source, t.origin FROM transactions t JOIN accounts a ON a.seq = t.account_seq WHERE a.id = ? ORDER BY t.seq',
    )
    .all(accountId)) as { date: string; amount: number; description: string; externalId: string | null; status: string; source: string; origin: string }[];
const audit = async (action: string) => (await L.listAudit(ctx.ledger, org.seq, { action, limit: 50, offset: 0 })).entries;
const tempFile = (name: string, body: string) => {
  const path = join(tempDir(), name);
  writeFileSync(path, body);
  return path;
};

beforeEach(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  await steadyRate(ledger, org.seq, 'EUR', '1.1');
  await steadyRate(ledger, org.seq, 'CHF', '1.13');
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

// Whatever a test did, every maintained total still equals a recount of the rows.
afterEach(() => expectTotalsMatchRows(ctx.ledger));

describe('accounts', () => {
  it('creates, renames, closes and reopens, each audited; names and bank ids are unique', async () => {
    const a = await desk<L.Account>('createAccount', {
      name: 'Operating',
      type: 'checking',
      openingBalance: 1000,
      openingDate: '2024-01-01',
      bankAccountId: 'de89 3704 0044 0532 0130 00',
    });
    expect(a).toMatchObject({
      name: 'Operating',
      currency: 'USD',
      balance: 1000,
      maskedNumber: '****3000',
      bankAccountId: 'DE89370400440532013000',
      transactionCount: 0,
      lastImportAt: null,
    });
    await expect(desk('createAccount', { name: 'operating', type: 'savings' })).rejects.toMatchObject({ code: 'conflict', details: [{ field: 'name', message: 'already taken' }] });
    await expect(desk('createAccount', { name: 'Other', bankAccountId: 'DE89370400440532013000' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(desk('createAccount', { name: 'X', openingBalance: 1.001 })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'openingBalance' }] });
    await expect(desk('createAccount', { name: 'X', openingBalance: 1e12 })).rejects.toMatchObject({
      details: [{ field: 'openingBalance', message: expect.stringContaining('1,000,000,000,000') }],
    });
    const renamed = await desk<L.Account>('updateAccount', { account: 'Operating', name: 'Main checking', openingBalance: 1500 });
    expect(renamed).toMatchObject({ name: 'Main checking', balance: 1500 });
    expect((await audit('account.updated'))[0].summary).toBe('Account "Operating" changed: name "Operating" -> "Main checking"; opening balance 1000.00 -> 1500.00');
    await desk('closeAccount', { account: a.id });
    await expect(desk('updateAccount', { account: a.id, name: 'Y' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('closed') });
    await expect(importFile('us-bank.csv', { account: a.id })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('closed') });
    await desk('reopenAccount', { account: 'main checking' });
    expect(await audit('account.closed')).toHaveLength(1);
    expect(await audit('account.reopened')).toHaveLength(1);
  });
});

describe('importing statements', () => {
  it('imports a CSV into the named account, as uncategorized manual_csv rows, with one batch and one audit entry', async () => {
    const account = await desk<L.Account>('createAccount', { name: 'Operating' });
    const r = await importFile('us-bank.csv', { account: 'Operating' });
    expect(r).toMatchObject({ format: 'csv', rows: 5, imported: 5, duplicates: 0, possibleMatches: 0, skipped: 0, errors: [], account: { id: account.id, created: false } });
    expect(await rowsOf(account.id)).toEqual([
      {
        date: '2024-01-02',
        amount: -123456,
        description: 'AMAZON MKTPLACE PMTS, AMZN.COM/BILL WA',
        externalId: null,
        status: 'uncategorized',
        source: 'manual_csv',
        origin: 'import',
      },
      { date: '2024-01-05', amount: 250000, description: 'PAYROLL ACME CORP', externalId: null, status: 'uncategorized', source: 'manual_csv', origin: 'import' },
      { date: '2024-01-13', amount: -475, description: 'STARBUCKS #1234', externalId: null, status: 'uncategorized', source: 'manual_csv', origin: 'import' },
      { date: '2024-01-13', amount: -475, description: 'STARBUCKS #1234', externalId: null, status: 'uncategorized', source: 'manual_csv', origin: 'import' },
      // Formula-looking text is stored as the bank wrote it: rendering it safely is the exports' job.
      { date: '2024-01-31', amount: -100, description: '=HYPERLINK("http://evil")', externalId: null, status: 'uncategorized', source: 'manual_csv', origin: 'import' },
    ]);
    const [entry] = await audit('statement.imported');
    expect(entry).toMatchObject({ targetId: r.batchId, actor: { type: 'human' }, channel: 'desk' });
    expect(entry.summary).toBe('Imported "us-bank.csv" (csv) into "Operating": 5 row(s), 5 new, 0 duplicate(s)');
    expect((await desk<{ batches: L.ImportBatch[] }>('listImports', {})).batches).toMatchObject([
      { id: r.batchId, fileName: 'us-bank.csv', imported: 5, accounts: [{ name: 'Operating' }] },
    ]);
    expect((await desk<L.Account[]>('listAccounts', {}))[0]).toMatchObject({ balance: 1254.94, transactionCount: 5, lastImportAt: expect.any(String) });
  });

  it('imports nothing the second time, only the new rows of an overlapping statement, and both identical rows of one file', async () => {
    await desk('createAccount', { name: 'Card' });
    expect(await importFile('two-coffees.csv', { account: 'Card' })).toMatchObject({ imported: 3, duplicates: 0 });
    expect(await importFile('two-coffees.csv', { account: 'Card' })).toMatchObject({ imported: 0, duplicates: 3 });
    const overlap = tempFile(
      'overlap.csv',
      'Date,Description,Amount\n2024-03-04,Coffee shop,-3.50\n2024-03-04,Coffee shop,-3.50\n2024-03-04,Coffee shop,-3.50\n2024-03-05,BAKERY,-2.10\n2024-03-06,Books,-12.00\n',
    );
    // A third coffee that day is new; "BAKERY" is the same row re-exported in capitals.
    expect(await desk('importStatement', { file: overlap, account: 'Card' })).toMatchObject({ imported: 2, duplicates: 3 });
  });

  it('finds the duplicates of a statement longer than one lookup (2,000 rows): by bank id and by fingerprint, to its last row', async () => {
    await desk('createAccount', { name: 'Current' });
    const row = (i: number, withId: boolean) => `2024-0${1 + (i % 6)}-${String(1 + (i % 28)).padStart(2, '0')},Shop ${i},-${(1 + (i % 97)).toFixed(2)}${withId ? `,R${i}` : ','}`;
    const file = (rows: number, from = 0) =>
      tempFile(`long-${from}-${rows}.csv`, `Date,Description,Amount,Reference\n${Array.from({ length: rows }, (_, k) => row(from + k, (from + k) % 2 === 0)).join('\n')}\n`);
    const columns = 'date=Date,description=Description,amount=Amount,id=Reference';
    expect(await desk('importStatement', { file: file(4_500), account: 'Current', columns })).toMatchObject({ imported: 4_500, duplicates: 0 });
    // The same rows, and 10 more at the end: the last chunk's old rows are still found, by id (even) and by text (odd).
    expect(await desk('importStatement', { file: file(4_510), account: 'Current', columns })).toMatchObject({ imported: 10, duplicates: 4_500 });
  });

  it('creates the accounts an OFX file describes, finds them by bank id next time, and keeps the ledger balance', async () => {
    const first = await importFile('ofx1-sgml.ofx');
    expect(first.accounts.map((a) => [a.name, a.type, a.created, a.imported, a.closing])).toEqual([
      ['Checking ****6789', 'checking', true, 4, { date: '2024-01-31', balance: 4142.3 }],
      ['Credit card ****1111', 'credit_card', true, 2, { date: '2024-01-31', balance: 0 }],
    ]);
    const accounts = await desk<L.Account[]>('listAccounts', {});
    // A new account starts from the balance the bank states: here the ledger balance less the file's rows.
    expect(accounts.find((a) => a.type === 'checking')).toMatchObject({
      bankAccountId: '000123456789',
      maskedNumber: '****6789',
      openingBalance: 2000,
      openingDate: '2024-01-01',
      balance: 4142.3,
      lastStatement: { date: '2024-01-31', balance: 4142.3 },
    });
    expect(await audit('account.created')).toHaveLength(2);
    const again = await importFile('ofx1-sgml.ofx');
    expect(again.accounts.map((a) => [a.name, a.created, a.imported])).toEqual([
      ['Checking ****6789', false, 0],
      ['Credit card ****1111', false, 0],
    ]);
    expect(again.duplicates).toBe(6);
    // The same account's QFX (same FITIDs) adds nothing either.
    expect(await importFile('bank.qfx')).toMatchObject({ format: 'qfx', imported: 0, duplicates: 4 });
  });

  it('refuses an account of another currency or another bank account, and a CSV with no account', async () => {
    await desk('createAccount', { name: 'Euro', currency: 'EUR' });
    await expect(importFile('ofx1-sgml.ofx', { account: 'Euro' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'account', message: expect.stringContaining('2 accounts') }],
    });
    await expect(importFile('bank.qfx', { account: 'Euro' })).rejects.toMatchObject({ details: [{ field: 'account', message: 'the file is in USD, account "Euro" is in EUR' }] });
    await desk('createAccount', { name: 'Other bank', bankAccountId: '999' });
    await expect(importFile('bank.qfx', { account: 'Other bank' })).rejects.toMatchObject({ details: [{ field: 'account', message: expect.stringContaining('****6789') }] });
    await expect(importFile('us-bank.csv')).rejects.toMatchObject({ details: [{ field: 'account', message: expect.stringContaining('does not say which account') }] });
    await expect(importFile('us-bank.csv', { account: 'Nope' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('records a named account bank id, so its next file is recognised', async () => {
    const a = await desk<L.Account>('createAccount', { name: 'Business' });
    await expect(importFile('camt053-v02.xml', { account: a.id, dryRun: true })).rejects.toMatchObject({
      details: [{ field: 'account', message: 'the file is in EUR, account "Business" is in USD' }],
    });
    const eur = await desk<L.Account>('createAccount', { name: 'Geschaeft', currency: 'EUR' });
    expect(await importFile('camt053-v02.xml', { account: eur.id, dryRun: true })).toMatchObject({ batchId: null, imported: 4 });
    expect((await desk<L.Account[]>('listAccounts', {})).find((x) => x.id === eur.id)!.bankAccountId).toBeNull(); // a dry run writes nothing
    expect(await importFile('camt053-v02.xml', { account: eur.id })).toMatchObject({ imported: 4 });
    expect((await desk<L.Account[]>('listAccounts', {})).find((x) => x.id === eur.id)).toMatchObject({
      bankAccountId: 'DE89370400440532013000',
      lastStatement: { date: '2024-01-31', balance: 1835.5 },
    });
    expect(await importFile('camt053-v02.xml')).toMatchObject({ imported: 0, duplicates: 4, account: { id: eur.id } });
  });

  it('finds an account made by hand by the number its statements print (****6789), before making a new one', async () => {
    const mine = await desk<L.Account>('createAccount', { name: 'Operating', maskedNumber: '****6789', openingBalance: 2000 });
    const preview = await importFile('bank.qfx', { dryRun: true });
    expect(preview.account).toMatchObject({ id: mine.id, name: 'Operating', created: false });
    const done = await importFile('bank.qfx');
    expect(done).toMatchObject({ account: { id: mine.id }, imported: 4 });
    expect((await desk<L.Account[]>('listAccounts', {})).map((a) => [a.name, a.bankAccountId])).toEqual([['Operating', '000123456789']]);
    // Two accounts ending in the same digits: the file does not say which, so none is taken for it.
    await desk('createAccount', { name: 'Card A', maskedNumber: '****1111' });
    await desk('createAccount', { name: 'Card B', maskedNumber: 'xxxx-1111' });
    expect((await importFile('ofx1-sgml.ofx', { dryRun: true })).accounts.map((a) => [a.name, a.created])).toEqual([
      ['Operating', false],
      ['Credit card ****1111', true],
    ]);
  });

  it("reads a card's CSV that shows spending as positive as spending, and remembers it for the card", async () => {
    await desk('createAccount', { name: 'Visa', type: 'credit_card' });
    const card = tempFile('visa.csv', 'Date,Description,Amount\n2026-03-02,HARDWARE STORE,84.20\n2026-03-03,COFFEE,4.50\n2026-03-09,PAYMENT THANK YOU,-252.14\n');
    const preview = await desk<L.ImportResult>('importStatement', { file: card, account: 'Visa', dryRun: true });
    expect(preview.csv?.negated).toBe(true);
    expect(preview.preview.map((r) => r.amount)).toEqual([-84.2, -4.5, 252.14]);
    await desk('importStatement', { file: card, account: 'Visa' });
    const next = tempFile('visa-april.csv', 'Date,Description,Amount\n2026-04-02,BOOKS,12.00\n');
    expect((await desk<L.ImportResult>('importStatement', { file: next, dryRun: true })).preview.map((r) => r.amount)).toEqual([-12]); // found by its header, read as saved
    // Told otherwise, it reads the amounts as they are.
    expect((await desk<L.ImportResult>('importStatement', { file: card, account: 'Visa', negateAmounts: false, dryRun: true })).preview[0].amount).toBe(84.2);
    // A checking account's file is never turned around.
    await desk('createAccount', { name: 'Checking' });
    expect((await desk<L.ImportResult>('importStatement', { file: card, account: 'Checking', dryRun: true })).preview[0].amount).toBe(84.2);
  });

  it('records no batch when nothing is new, and says so', async () => {
    await desk('createAccount', { name: 'Card' });
    await importFile('two-coffees.csv', { account: 'Card' });
    const again = await importFile('two-coffees.csv', { account: 'Card' });
    expect(again).toMatchObject({ batchId: null, nothingNew: true, imported: 0, duplicates: 3 });
    expect((await desk<{ totalCount: number }>('listImports', {})).totalCount).toBe(1);
    expect(await audit('statement.imported')).toHaveLength(1);
  });

  it('reads QIF, MT940 and CAMT version 08 into the accounts they describe', async () => {
    const qif = await importFile('quicken.qif');
    expect(qif.accounts.map((a) => [a.name, a.type, a.imported])).toEqual([
      ['Business Checking', 'checking', 3],
      ['Company Visa', 'credit_card', 2],
    ]);
    const mt = await importFile('mt940-dk.sta');
    expect(mt.accounts).toMatchObject([{ name: 'Checking ****3000', currency: 'EUR', imported: 3, closing: { date: '2024-01-31', balance: 13240.6 } }]);
    expect((await rowsOf(mt.accounts[0].id!))[0]).toMatchObject({
      amount: -125000,
      externalId: 'BR240102001',
      description: 'Müller Immobilien GmbH - Miete Januar Büro Harbourstraße 5',
    });
    expect((await desk<L.Account[]>('listAccounts', {})).find((a) => a.id === mt.accounts[0].id)).toMatchObject({
      openingBalance: 10000,
      openingDate: '2023-12-31',
      balance: 13240.6,
    });
    const camt = await importFile('camt053-v08.xml');
    expect(camt.accounts).toMatchObject([{ currency: 'CHF', imported: 2 }]);
    expect((await desk<L.Account[]>('listAccounts', {})).find((a) => a.id === camt.accounts[0].id)).toMatchObject({ openingBalance: -50, openingDate: '2024-02-01', balance: 250 });
  });

  it('stops at a bad row with its line and field, writing nothing, unless bad rows are skipped and listed', async () => {
    await desk('createAccount', { name: 'Operating' });
    const bad = await importFile('bad-date.csv', { account: 'Operating' });
    expect(bad).toMatchObject({ batchId: null, imported: 0 });
    expect(bad.errors).toEqual([
      { line: 3, field: 'Date', message: '"2024-02-30" is not a date in the format YYYY-MM-DD' },
      { line: 5, field: 'Amount', message: '"abc" is not an amount' },
    ]);
    expect(await ctx.ledger.stmt('SELECT count(*) FROM transactions').pluck().get()).toBe(0);
    expect(await audit('statement.imported')).toHaveLength(0);
    const skipped = await importFile('bad-date.csv', { account: 'Operating', skipBadRows: true });
    expect(skipped).toMatchObject({ imported: 2, skipped: 2, errors: [] });
    expect(skipped.skippedRows.map((e) => e.line)).toEqual([3, 5]);
    const tooBig = tempFile('big.csv', 'Date,Description,Amount\n2024-01-01,Huge,1000000000000.00\n2024-01-02,Cents,1.005\n');
    expect((await desk('importStatement', { file: tooBig, account: 'Operating' })).errors).toEqual([
      { line: 2, field: 'amount', message: "1000000000000 is beyond the ledger's limit (amounts are less than 1,000,000,000,000 in absolute value)" },
      { line: 3, field: 'amount', message: '1.005 has more decimals than USD has (2)' },
    ]);
  });

  it('asks for the date format when a CSV fits two, and remembers the mapping for the account', async () => {
    await desk('createAccount', { name: 'Operating' });
    const asked = await importFile('ambiguous.csv', { account: 'Operating', dryRun: true });
    expect(asked.errors).toEqual([{ line: 2, field: 'Date', message: expect.stringContaining('choose the date format'), file: true }]);
    expect(asked.csv!.dateFormats).toEqual(['D/M/YYYY', 'M/D/YYYY']);
    expect(await importFile('ambiguous.csv', { account: 'Operating', dateFormat: 'DD/MM/YYYY' })).toMatchObject({ imported: 3 });
    const [preset] = await L.listMappings(ctx.ledger, org.seq);
    expect(preset).toMatchObject({ name: 'Operating CSV', accountName: 'Operating', mapping: { dateFormat: 'DD/MM/YYYY', columns: { date: 'Date', amount: 'Amount' } } });
    // Next month's file of that account: its preset reads it (no date format given, account found by the header).
    const next = tempFile('feb.csv', 'Date,Description,Amount\n01/03/2024,Coffee,-3.50\n');
    expect(await desk('importStatement', { file: next })).toMatchObject({ imported: 1, account: { name: 'Operating' } });
    expect((await rowsOf(preset.accountId!)).at(-1)).toMatchObject({ date: '2024-03-01' });
  });

  it("keeps a CSV's running balance as the statement's closing balance, suggested to Reconcile, and balance=<header> with the mapping", async () => {
    await desk('createAccount', { name: 'Current' });
    // Newest first, the last day's two rows listed in the order they happened.
    const body = 'Date,Description,Amount,Running total\n15/03/2026,Coffee,-100.00,1400.00\n15/03/2026,Bank fee,-20.00,1380.00\n12/03/2026,Client,500.00,1500.00\n';
    const file = tempFile('current.csv', body);
    const columns = 'date=Date,amount=Amount,description=Description,balance=Running total';
    const done = await desk<L.ImportResult>('importStatement', { file, account: 'Current', columns });
    expect(done).toMatchObject({ imported: 3, warnings: [], accounts: [{ closing: { date: '2026-03-15', balance: 1380 } }] });
    expect((await desk<L.Account[]>('listAccounts')).find((a) => a.name === 'Current')).toMatchObject({ lastStatement: { date: '2026-03-15', balance: 1380 } });
    expect(await desk<L.ReconcileView>('reconcileView', { account: 'Current' })).toMatchObject({ suggested: { date: '2026-03-15', balance: 1380 } });
    const [preset] = await L.listMappings(ctx.ledger, org.seq);
    expect(preset.mapping.columns).toMatchObject({ balance: 'Running total' });
    // A later file whose balances do not follow from its amounts: said in the preview, and no balance taken from it.
    const wrong = tempFile('wrong.csv', 'Date,Description,Amount,Running total\n16/03/2026,Fee,-5.00,1375.00\n17/03/2026,Fee,-5.00,1360.00\n');
    const said = await desk<L.ImportResult>('importStatement', { file: wrong, dryRun: true });
    expect(said.warnings).toEqual([{ code: 'balance_disagrees', section: 0, line: 3, message: expect.stringContaining('does not follow from the amounts') }]);
    expect(said.accounts[0]).toMatchObject({ name: 'Current', closing: null });
  });

  it('shows a row entered by an approved journal entry as a possible match: held back, merged, or imported', async () => {
    const account = await desk<L.Account>('createAccount', { name: 'Operating' });
    const { info } = await L.createToken(ctx.ledger, org.seq, { name: 'bot', scopes: ['propose-write'] });
    const agent = { type: 'token' as const, tokenSeq: 1, tokenId: info.id, tokenName: 'bot', channel: 'rest' as const };
    const p = await L.proposeJournalEntry(ctx.ledger, org.seq, agent, { date: '2024-01-11', description: 'Coffee with client', amount: -4.75 });
    await L.reviewProposal(ctx.ledger, org.seq, p.id, 'approve', ctx.reviewer, undefined, 'Operating');
    const held = await importFile('us-bank.csv', { account: 'Operating' });
    expect(held).toMatchObject({ imported: 4, possibleMatches: 1, held: 1 });
    const match = held.preview.find((r) => r.kind === 'possible_match')!;
    expect(match).toMatchObject({
      date: '2024-01-13',
      amount: -4.75,
      decision: 'held',
      match: { date: '2024-01-11', description: 'Coffee with client', reason: 'created by an approved journal entry' },
    });
    expect(await rowsOf(account.id)).toHaveLength(5);
    // Again, the held row is still a possible match; merged, it becomes the statement's.
    const merged = await importFile('us-bank.csv', { account: 'Operating', decisions: { [match.n]: 'merge' } });
    expect(merged).toMatchObject({ imported: 0, duplicates: 4, merged: 1 });
    // It keeps its description and takes the bank's date.
    expect((await rowsOf(account.id)).filter((r) => r.description === 'Coffee with client')).toMatchObject([{ date: '2024-01-13', origin: 'agent' }]);
    expect(await rowsOf(account.id)).toHaveLength(5);
    expect(await importFile('us-bank.csv', { account: 'Operating' })).toMatchObject({ duplicates: 5, possibleMatches: 0 });
    // Undoing the merge unlinks the row entered by the journal entry and keeps it.
    await desk('undoImport', { batchId: merged.batchId });
    expect((await rowsOf(account.id)).filter((r) => r.description === 'Coffee with client')).toMatchObject([{ date: '2024-01-11' }]);
    expect(await rowsOf(account.id)).toHaveLength(5);
    expect(await importFile('us-bank.csv', { account: 'Operating', possibleMatches: 'import' })).toMatchObject({ imported: 1, possibleMatches: 1 });
    expect(await rowsOf(account.id)).toHaveLength(6);
    // Once unlinked, the journal entry's row is free: its approval can be reversed (the row removed).
    await desk('reverseProposal', { id: p.id });
    expect(await rowsOf(account.id)).toHaveLength(5);
  });
});

describe('undo', () => {
  it('removes the rows, rejects pending proposals on them, and is refused once work rests on them', async () => {
    await desk('createAccount', { name: 'Operating' });
    const r = await importFile('us-bank.csv', { account: 'Operating' });
    const [first, second] = (await L.listTransactions(ctx.ledger, org.seq, { limit: 5, offset: 0 })).data;
    const { info } = await L.createToken(ctx.ledger, org.seq, { name: 'bot', scopes: ['propose-write'] });
    const agent = { type: 'token' as const, tokenSeq: 1, tokenId: info.id, tokenName: 'bot', channel: 'rest' as const };
    const pending = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: first.id, categoryCode: '5100' });
    const approved = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: second.id, categoryCode: '5100' });
    await L.reviewProposal(ctx.ledger, org.seq, approved.id, 'approve', ctx.reviewer);
    await expect(desk('undoImport', { batchId: r.batchId })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('1 categorized or reviewed'),
      details: { categorized: 1 },
    });
    expect((await L.listTransactions(ctx.ledger, org.seq, { limit: 1, offset: 0 })).meta.totalCount).toBe(5);
    await L.categorizeTransactions(ctx.ledger, org.seq, ctx.reviewer, [second.id], null);
    const undone = await desk<L.ImportBatch>('undoImport', { batchId: r.batchId });
    expect(undone.undoneAt).not.toBeNull();
    expect((await L.listTransactions(ctx.ledger, org.seq, { limit: 1, offset: 0 })).meta.totalCount).toBe(0);
    expect((await L.getProposal(ctx.ledger, org.seq, pending.id)).status).toBe('rejected');
    expect((await audit('statement.import_undone'))[0].summary).toContain('5 row(s) removed, 1 pending proposal(s) on its rows rejected');
    expect((await desk<L.Account[]>('listAccounts', {}))[0]).toMatchObject({ balance: 0, transactionCount: 0, lastImportAt: null });
    await expect(desk('undoImport', { batchId: r.batchId })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already undone') });
    // The same file imports again in full.
    expect(await importFile('us-bank.csv', { account: 'Operating' })).toMatchObject({ imported: 5 });
  });

  it('undoes a bulk import with its aggregates, full-text entries and description counts', async () => {
    await desk('createAccount', { name: 'Big' });
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 3000; i++) lines.push(`2024-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')},SHOP ${i % 17} figma,-${(i % 500) + 1}.25`);
    const r = await desk<L.ImportResult>('importStatement', { file: tempFile('big.csv', lines.join('\n')), account: 'Big' });
    expect(r.imported).toBe(3000);
    const d = await L.dashboardSummary(ctx.ledger, org.seq);
    expect(d.uncategorized).toBe(3000);
    expect((await L.listTransactions(ctx.ledger, org.seq, { description: 'figma', limit: 1, offset: 0 })).meta.totalCount).toBe(3000);
    expect((await L.listTransactions(ctx.ledger, org.seq, { description: 'FIGMA', dateFrom: '2024-02-01', dateTo: '2024-02-29', limit: 1, offset: 0 })).meta.totalCount).toBe(
      await ctx.ledger.stmt("SELECT count(*) FROM transactions WHERE date LIKE '2024-02%'").pluck().get(),
    );
    await desk('undoImport', { batchId: r.batchId });
    expect(await L.dashboardSummary(ctx.ledger, org.seq)).toMatchObject({ uncategorized: 0, cashPosition: 0 });
    expect((await L.listTransactions(ctx.ledger, org.seq, { description: 'figma', limit: 1, offset: 0 })).meta.totalCount).toBe(0);
    // PostgreSQL has no FTS5 table (its full text is pg_trgm, an index on the rows themselves).
    if (!onPostgres) expect(await ctx.ledger.stmt('SELECT count(*) FROM transactions_fts').pluck().get()).toBe(0);
    expect(await ctx.ledger.stmt('SELECT coalesce(sum(n), 0) FROM account_day_totals').pluck().get()).toBe(0);
    expect(await ctx.ledger.stmt('SELECT coalesce(sum(n), 0) FROM description_shapes').pluck().get()).toBe(0);
  });
});

describe('connectors', () => {
  it('shows each account as a file-import connector, stale after 35 days without an import', async () => {
    await desk('createAccount', { name: 'Operating' });
    expect(await L.listConnectors(ctx.ledger, org.seq)).toMatchObject([{ name: 'Operating', provider: 'file_import', status: 'active', lastSyncAt: null, syncStatus: null }]);
    const r = await importFile('us-bank.csv', { account: 'Operating' });
    const at = (await desk<L.Account[]>('listAccounts', {}))[0].lastImportAt!;
    expect((await L.listConnectors(ctx.ledger, org.seq))[0]).toMatchObject({ lastSyncAt: at, syncStatus: 'ok' });
    expect((await L.listConnectors(ctx.ledger, org.seq, Date.parse(at) + 36 * 86_400_000))[0].syncStatus).toBe('stale');
    expect(r.batchId).not.toBeNull();
  });
});

// The owner commands derived from desk operations (account, import), run as a
// person runs them: child processes on a real data folder, exit codes 0/1/2.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { tempDir } from './support/env';
import { booksFlags, openBooksOf } from './support/books';
import { steadyRatesCsv } from './support/rates';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');
const fixture = (name: string) => join(__dirname, 'fixtures', 'statements', name);

function ledgerdesk(data: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('account and import commands', () => {
  it('create an account, import into it with --json, import again, list, undo', async () => {
    const data = tempDir();
    const created = ledgerdesk(data, 'account', 'create', 'Operating', '--type', 'checking', '--opening-balance', '1000', '--opening-date', '2023-12-31');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Created account Operating\s+checking\s+1000\.00 USD/);

    const first = ledgerdesk(data, 'import', fixture('us-bank.csv'), '--account', 'Operating', '--json');
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({
      batchId: expect.any(String),
      account: { name: 'Operating' },
      format: 'csv',
      rows: 5,
      imported: 5,
      duplicates: 0,
      possibleMatches: 0,
      skipped: 0,
      errors: [],
    });

    const again = ledgerdesk(data, 'import', fixture('us-bank.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Nothing new in us-bank.csv: its 5 row(s) are already in "Operating" (5 duplicate(s)). Nothing was recorded.\n');

    const accounts = ledgerdesk(data, 'account', 'list');
    expect(accounts.stdout).toMatch(/Operating\s+checking\s+2254\.94 USD\s+5 rows/);
    const list = ledgerdesk(data, 'import', 'list', '--json');
    expect(JSON.parse(list.stdout).batches.map((b: L.ImportBatch) => b.imported)).toEqual([5]); // nothing new, no empty batch

    const undo = ledgerdesk(data, 'import', 'undo', result.batchId);
    expect(undo.code, undo.stderr).toBe(0);
    const ledger = await openBooksOf(data);
    expect((await L.listAccounts(ledger, 1))[0]).toMatchObject({ balance: 1000, transactionCount: 0 });
    await ledger.end();
    const twice = ledgerdesk(data, 'import', 'undo', result.batchId);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('conflict: Import "us-bank.csv" was already undone');
  });

  it('exits 1 with each bad row named, writes nothing, and imports the rest with --skip-bad-rows', () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Operating');
    const bad = ledgerdesk(data, 'import', fixture('bad-date.csv'), '--account', 'Operating', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      batchId: null,
      imported: 0,
      errors: [
        { line: 3, field: 'Date', message: '"2024-02-30" is not a date in the format YYYY-MM-DD' },
        { line: 5, field: 'Amount', message: '"abc" is not an amount' },
      ],
    });
    const human = ledgerdesk(data, 'import', fixture('bad-date.csv'), '--account', 'Operating');
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('line 3  Date: "2024-02-30" is not a date in the format YYYY-MM-DD');
    const skipped = ledgerdesk(data, 'import', fixture('bad-date.csv'), '--account', 'Operating', '--skip-bad-rows', '--json');
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ imported: 2, skipped: 2, skippedRows: [{ line: 3 }, { line: 5 }] });
  });

  it('requires --date-format for an ambiguous file, takes --columns and --dry-run, finds an OFX file its accounts', () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Euro', '--currency', 'EUR');
    writeFileSync(join(data, 'rates.csv'), steadyRatesCsv('EUR', '1.1'));
    expect(ledgerdesk(data, 'rate', 'import', join(data, 'rates.csv')).code).toBe(0);
    const asked = ledgerdesk(data, 'import', fixture('ambiguous.csv'), '--account', 'Euro');
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('the dates fit more than one format (D/M/YYYY, M/D/YYYY); choose the date format');
    const given = ledgerdesk(data, 'import', fixture('ambiguous.csv'), '--account', 'Euro', '--date-format', 'MM/DD/YYYY', '--dry-run', '--json');
    expect(JSON.parse(given.stdout)).toMatchObject({ batchId: null, dryRun: true, imported: 3, preview: [{ date: '2024-01-02' }, { date: '2024-02-03' }, { date: '2024-03-04' }] });
    const mapped = ledgerdesk(data, 'import', fixture('fr-sens.tsv'), '--account', 'Euro', '--columns', 'date=1,amount=Montant,direction=Sens,description=Libellé', '--json');
    expect(JSON.parse(mapped.stdout)).toMatchObject({ imported: 2, preview: [{ amount: -84.2 }, { amount: 1250 }] });
    const ofx = ledgerdesk(data, 'import', fixture('ofx1-sgml.ofx'), '--json');
    expect(JSON.parse(ofx.stdout).accounts.map((a: { name: string; created: boolean }) => [a.name, a.created])).toEqual([
      ['Checking ****6789', true],
      ['Credit card ****1111', true],
    ]);
  });

  it('refuses misuse with exit 2 and a file that is not a statement with exit 1', () => {
    const data = tempDir();
    const noFile = ledgerdesk(data, 'import');
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('--file: is required');
    const badType = ledgerdesk(data, 'account', 'create', 'X', '--type', 'piggy-bank');
    expect(badType.code).toBe(2);
    expect(badType.stderr).toMatch(/--type: Invalid option/);
    const missing = ledgerdesk(data, 'import', join(data, 'nope.csv'), '--account', 'X');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/validation_failed: No file at .*nope\.csv/);
    const pdf = ledgerdesk(data, 'import', join(__dirname, 'fixtures', 'statements', 'us-bank.csv'), '--format', 'ofx');
    expect(pdf.code).toBe(1);
    expect(pdf.stderr).toContain('This file is CSV, not OFX');
    const help = ledgerdesk(data, 'import', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: ledgerdesk import <file> [flags]');
    expect(help.stdout).toContain('--date-format <string>');
  });

  it('does the bookkeeping by hand: tx, category, proposal reverse, reconcile (exit 1 naming the difference) and undo', async () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Cash', '--type', 'cash', '--opening-balance', '100');
    const added = ledgerdesk(data, 'tx', 'add', '--account', 'Cash', '--date', '2024-03-02', '--amount', '-12.50', '--description', 'Taxi', '--json');
    expect(added.code, added.stderr).toBe(0);
    const id = JSON.parse(added.stdout).id as string;
    const second = JSON.parse(ledgerdesk(data, 'tx', 'add', '--account', 'Cash', '--date', '2024-03-03', '--amount', '-7.5', '--description', 'Lunch', '--json').stdout)
      .id as string;
    expect(ledgerdesk(data, 'tx', 'edit', id, '--amount', '-15').stdout).toMatch(/-15\.00 USD\s+Taxi/);
    const category = ledgerdesk(data, 'category', 'add', '5400', 'Travel costs', '--type', 'expense', '--parent', '5000', '--synonyms', 'Taxi,Train');
    expect(category.code, category.stderr).toBe(0);
    expect(ledgerdesk(data, 'tx', 'categorize', id, second, '--category-code', '5400').stdout.trim().split('\n')).toHaveLength(2);
    expect(ledgerdesk(data, 'category', 'rename', '5400', 'Travel').code).toBe(0);
    const archived = ledgerdesk(data, 'category', 'archive', '5300');
    expect(archived.code).toBe(1);
    expect(archived.stderr).toContain('default codes');
    const off = ledgerdesk(data, 'reconcile', 'Cash', '--date', '2024-03-31', '--balance', '80', '--clear-through', '2024-03-31');
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('Not reconciled: the cleared balance is 77.50 USD, the statement says 80.00: a difference of 2.50.');
    const done = ledgerdesk(data, 'reconcile', 'Cash', '--date', '2024-03-31', '--balance', '77.5', '--clear', `${id},${second}`);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('Reconciled through 2024-03-31 at 77.50: 2 row(s) cleared.');
    const locked = ledgerdesk(data, 'tx', 'delete', id);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('it is reconciled');
    expect(ledgerdesk(data, 'reconcile', 'undo', 'Cash').code).toBe(0);
    expect(ledgerdesk(data, 'tx', 'delete', id).code).toBe(0);
    const ledger = await openBooksOf(data);
    const org = (await L.listOrganizations(ledger))[0];
    expect((await L.listTransactions(ledger, org.seq, { limit: 5, offset: 0 })).data.map((t) => [t.description, t.category])).toEqual([['Lunch', 'Travel']]);
    const { info } = await L.createToken(ledger, org.seq, { name: 'bot', scopes: ['propose-write'] });
    const agent = { type: 'token' as const, tokenSeq: 1, tokenId: info.id, tokenName: 'bot', channel: 'rest' as const };
    const p = await L.proposeNote(ledger, org.seq, agent, { transactionId: second, content: 'Team lunch' });
    await L.reviewProposal(ledger, org.seq, p.id, 'approve', L.deskActor());
    await ledger.end();
    const reversed = ledgerdesk(data, 'proposal', 'reverse', p.id, '--comment', 'Private lunch');
    expect(reversed.code, reversed.stderr).toBe(0);
    const again = await openBooksOf(data);
    expect(await L.listNotes(again, org.seq, second)).toEqual([]);
    await again.end();
  });
});

describe('a closing date and reconciliations (issue 50)', () => {
  it('refuses to undo or redo a reconciliation dated on or before the closing date, as every other change there', async () => {
    const data = tempDir();
    // The books made in-process (each command is a process: slow on a loaded machine); the commands under test run as processes.
    const ledger = await openBooksOf(data);
    const org = await L.createOrganization(ledger, { slug: 'default', name: 'My organization' });
    const me = L.deskActor();
    await L.createAccount(ledger, org.seq, me, { name: 'Cash', type: 'cash', openingBalance: 100, openingDate: '2024-02-29' });
    const taxi = await L.addTransaction(ledger, org.seq, me, { account: 'Cash', date: '2024-03-02', amount: -12.5, description: 'Taxi' });
    await L.addTransaction(ledger, org.seq, me, { account: 'Cash', date: '2024-03-30', amount: -7.5, description: 'Lunch' });
    await L.reconcileAccount(ledger, org.seq, me, { account: 'Cash', statementDate: '2024-03-31', statementBalance: 87.5, clear: [taxi.id] });
    await L.lockPeriod(ledger, org.seq, me, '2024-03-31');
    await ledger.end();

    const undo = ledgerdesk(data, 'reconcile', 'undo', 'Cash');
    expect(undo.code).toBe(1);
    expect(undo.stderr).toContain('period_locked: 2024-03-31 is on or before the closing date 2024-03-31: the books are closed through it, so nothing there can be un-reconciled.');
    const redo = ledgerdesk(data, 'reconcile', 'Cash', '--date', '2024-03-31', '--balance', '80', '--clear-through', '2024-03-31');
    expect(redo.code).toBe(1);
    expect(redo.stderr).toContain('period_locked: 2024-03-31 is on or before the closing date 2024-03-31: the books are closed through it, so nothing there can be reconciled.');
    // April's statement clears March's row still outstanding: a payment cleared after the close.
    const april = ledgerdesk(data, 'reconcile', 'Cash', '--date', '2024-04-30', '--balance', '80', '--clear-through', '2024-04-30');
    expect(april.code, april.stderr).toBe(0);
    expect(april.stdout).toContain('1 row(s) cleared');
  }, 120_000); // three commands, each a process
});

describe('typed amounts, organizations and finding rows', () => {
  it('reads --amount, --opening-balance and --balance with the organization decimal mark, refusing what could be two numbers', () => {
    const data = tempDir();
    expect(ledgerdesk(data, 'org', 'create', 'studio', '--name', 'Studio', '--currency', 'EUR', '--decimal-mark', ',').code).toBe(0);
    expect(ledgerdesk(data, 'org', 'create', 'roaster', '--name', 'Roaster').code).toBe(0);
    const studio = (...args: string[]) => ledgerdesk(data, ...args, '--org', 'studio');
    const roaster = (...args: string[]) => ledgerdesk(data, ...args, '--org', 'roaster');
    expect(studio('account', 'create', 'Bank', '--opening-balance', '1.234,56').stdout).toMatch(/Bank\s+checking\s+1234\.56 EUR/);
    expect(roaster('account', 'create', 'Bank', '--opening-balance', '12,450.00').stdout).toMatch(/Bank\s+checking\s+12450\.00 USD/);
    const add = (run: typeof studio, amount: string) =>
      run('tx', 'add', '--account', 'Bank', '--date', '2026-03-02', '--description', `Typed ${amount}`, '--amount', amount, '--json');
    const amountOf = (r: ReturnType<typeof studio>) => (r.code === 0 ? JSON.parse(r.stdout).amount_minor : JSON.parse(r.stdout).error.message);
    expect(['1,250', '-1,234.56', '1.234,56', '1,25', '(45.00)'].map((a) => amountOf(add(roaster, a)))).toEqual([125000, -123456, 123456, 125, -4500]);
    const studioReads = ['1,250', '-1,234.56', '1.234,56', '1,25', '(45.00)'].map((a) => amountOf(add(studio, a)));
    expect(studioReads.slice(1)).toEqual([-123456, 123456, 125, -4500]);
    expect(studioReads[0]).toBe(
      'Invalid request: amount: "1,250" could mean 1.250,00 (a thousands comma), but this organization writes a decimal comma (1.234,56); type 1250 or 1,25',
    );
    const rows = JSON.parse(studio('tx', 'list', '--description', 'Typed', '--json').stdout);
    expect(rows.meta.totalCount).toBe(4); // the refused one wrote nothing
  });

  it('refuses to change an opening balance under a finished reconciliation, naming it and how to undo it', () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Card', '--type', 'credit_card', '--opening-balance', '0', '--opening-date', '2026-01-31');
    ledgerdesk(data, 'tx', 'add', '--account', 'Card', '--date', '2026-02-03', '--amount', '-252.14', '--description', 'Hardware store');
    const done = ledgerdesk(data, 'reconcile', 'Card', '--date', '2026-02-28', '--balance', '252.14', '--clear-through', '2026-02-28');
    expect(done.code, done.stderr).toBe(0);
    const report = ledgerdesk(data, 'reconcile', 'report', 'Card').stdout.split('\n');
    expect(report.slice(1, 7)).toEqual([
      'Reconciled balance before                     0.00',
      'Cleared deposits (0)                          0.00',
      'Cleared payments (1)                       -252.14',
      'Cleared balance                            -252.14',
      'Statement balance                          -252.14',
      'Difference                                    0.00',
    ]);
    const edit = ledgerdesk(data, 'account', 'edit', 'Card', '--opening-balance', '3,674.44');
    expect(edit.code).toBe(1);
    expect(edit.stderr).toContain('conflict: "Card" is reconciled through 2026-02-28 at -252.14 USD, counted from its opening balance');
    expect(edit.stderr).toContain('undo that reconciliation (Reconcile, Undo; or ledgerdesk reconcile undo "Card")');
    expect(ledgerdesk(data, 'account', 'edit', 'Card', '--name', 'Company card').code).toBe(0); // other changes stay possible
    expect(ledgerdesk(data, 'reconcile', 'undo', 'Company card').code).toBe(0);
    expect(ledgerdesk(data, 'account', 'edit', 'Company card', '--opening-balance', '-100').code).toBe(0);
  });

  it('renames any organization, removes an empty one, and refuses to remove one with books', async () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Bank'); // makes "My organization" (default) with an account
    expect(ledgerdesk(data, 'org', 'rename', 'default', 'Coffee Roaster Ltd').stdout).toMatch(/^Renamed: default\s+Coffee Roaster Ltd\s+USD/);
    expect(ledgerdesk(data, 'org', 'create', 'oops').code).toBe(0);
    const refused = ledgerdesk(data, 'org', 'remove', 'default');
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('"Coffee Roaster Ltd" is not empty (1 account)')]);
    expect(ledgerdesk(data, 'org', 'remove', 'oops').stdout).toMatch(/^Removed oops \(oops\)\./);
    expect(ledgerdesk(data, 'org', 'list').stdout.trim().split('\n')).toHaveLength(1);
    expect(ledgerdesk(data, 'org', 'create', 'oops').code).toBe(0); // its slug is free again
    const ledger = await openBooksOf(data);
    expect((await L.listAudit(ledger, 1, { action: 'organization.updated', limit: 5, offset: 0 })).entries[0].summary).toBe(
      'Organization default changed: name "My organization" -> "Coffee Roaster Ltd"',
    );
    await ledger.end();
  });

  it('lists transactions by account, status, dates and description, with their ids', () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Operating');
    ledgerdesk(data, 'import', fixture('us-bank.csv'), '--account', 'Operating');
    const all = ledgerdesk(data, 'tx', 'list', '--account', 'Operating', '--status', 'uncategorized', '--from', '2024-01-01', '--to', '2024-12-31');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^[0-9a-f-]{36} {2}2024-\d\d-\d\d\s+-?\d+\.\d\d USD {2}Operating/m);
    expect(all.stdout.trim().split('\n').at(-1)).toBe('5 transactions');
    const paged = ledgerdesk(data, 'tx', 'list', '--limit', '2', '--offset', '2');
    expect(paged.stdout.trim().split('\n').at(-1)).toBe('3-4 of 5 transactions (--offset 4 for more)');
    const payroll = JSON.parse(ledgerdesk(data, 'tx', 'list', '--description', 'payroll', '--json').stdout);
    expect(payroll.data.map((t: L.RegisterRow) => t.description)).toEqual(['PAYROLL ACME CORP']);
  });

  it('names an unknown subcommand and lists the commands of its first word', () => {
    const data = tempDir();
    const r = ledgerdesk(data, 'tx', 'splat', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ledgerdesk: Unknown tx command "splat"\. The tx commands:\n\n {2}ledgerdesk tx list .*\n {2}ledgerdesk tx add/);
    expect(r.stderr).not.toContain('Agent commands');
  });

  it('lists the commands two words start when asked for help there (tax return --help), and names an unknown third word', () => {
    const data = tempDir();
    const help = ledgerdesk(data, 'tax', 'return', '--help');
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^The tax return commands:\n {2}ledgerdesk tax return file +file the return/);
    expect(help.stdout).toMatch(/\n {2}ledgerdesk tax return pay <returnId> <transactionId> +match the bank row/);
    expect(help.stdout).not.toMatch(/tax code/);
    const unknown = ledgerdesk(data, 'tax', 'return', 'fly');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ledgerdesk: Unknown tax return command "fly"\. The tax return commands:/);
    // An invoice, not "a invoice" (issue 50), in every summary that names a document's kind.
    const invoices = ledgerdesk(data, 'invoice', '--help');
    expect(invoices.stdout).toMatch(/void an invoice \(its entry reversed/);
    expect(invoices.stdout).toMatch(/pay an invoice with the customer's credit/);
    expect(invoices.stdout).not.toMatch(/\ba invoice/);
  });

  it('split, transfer, lock a period and print the balance sheet, trial balance and ledger', () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Operating', '--opening-balance', '1000', '--opening-date', '2024-12-31');
    ledgerdesk(data, 'account', 'create', 'Reserve', '--type', 'savings');
    const add = (account: string, date: string, amount: string, description: string) =>
      JSON.parse(ledgerdesk(data, 'tx', 'add', '--account', account, '--date', date, '--amount', amount, '--description', description, '--json').stdout).id as string;
    const store = add('Operating', '2025-03-10', '-1,234.50', 'HARDWARE STORE');
    // Parts of the row as positive figures (issue 42); the lines printed the same way.
    const split = ledgerdesk(data, 'tx', 'split', store, '--line', '5100=1,000.00:paint, brushes', '--line', '5200=234.50');
    expect(split.code, split.stderr).toBe(0);
    expect(split.stdout).toMatch(/^Split .* -1234\.50 USD {2}HARDWARE STORE {2}Software & tools {2}\[matched\]\n {2}5100 +1000\.00 {2}paint, brushes\n {2}5200 +234\.50\n$/);
    const off = ledgerdesk(data, 'tx', 'split', store, '--line', '5100=-1000', '--line', '5200=-200', '--json');
    expect(off.code).toBe(1);
    expect(JSON.parse(off.stdout).error.details).toEqual([{ field: 'lines', message: expect.stringContaining('34.50 USD left to assign') }]);

    const out = add('Operating', '2025-04-01', '-300', 'TO RESERVE');
    const inn = add('Reserve', '2025-04-03', '300', 'FROM OPERATING');
    const suggested = JSON.parse(ledgerdesk(data, 'transfer', 'suggest', '--json').stdout);
    expect(suggested.data.map((p: L.PossibleTransfer) => [p.from.id, p.to.id, p.daysApart])).toEqual([[out, inn, 2]]);
    expect(ledgerdesk(data, 'transfer', 'suggest').stdout).toContain(`ledgerdesk transfer match ${out} ${inn}`);
    const made = ledgerdesk(data, 'transfer', out, '--account', 'Reserve');
    expect(made.stdout).toBe(`Transfer ${out} matched with its other side ${inn}.\n`);
    expect(ledgerdesk(data, 'transfer', 'undo', inn).stdout).toBe(`No longer a transfer: ${inn} and ${out} (uncategorized again).\n`);
    expect(ledgerdesk(data, 'transfer', 'match', out, inn).code).toBe(0);

    expect(ledgerdesk(data, 'period', 'lock', '--through', '2025-03-31', '--reason', 'Q1 filed').stdout).toBe('Books closed through 2025-03-31.\n');
    const locked = ledgerdesk(data, 'tx', 'unsplit', store);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('period_locked: 2025-03-10 is on or before the closing date 2025-03-31');

    const bs = JSON.parse(ledgerdesk(data, 'report', 'balance-sheet', '--date', '2025-12-31', '--json').stdout);
    expect(bs).toMatchObject({ date: '2025-12-31', currency: 'USD', retainedEarnings: 0, currentYearEarnings: -1234.5 });
    expect(bs.assets.total).toBe(-234.5);
    expect(bs.assets.total).toBeCloseTo(bs.liabilities.total + bs.equity.total, 6);
    const tb = ledgerdesk(data, 'report', 'trial-balance', '--from', '2025-01-01', '--to', '2025-12-31', '--csv');
    expect(tb.stdout.trim().split('\r\n').at(-1)).toBe('total,,Total,1534.5,1534.5');
    const gl = ledgerdesk(data, 'report', 'ledger', '--account', '5100');
    expect(gl.stdout).toMatch(/2025-03-10 {2}HARDWARE STORE\s+Operating\s+1000\.00\s+1000\.00/);
    expect(ledgerdesk(data, 'period', 'unlock').stdout).toBe('Books open: no closing date.\n');
    expect(ledgerdesk(data, 'tx', 'unsplit', store).code).toBe(0);
  }, 120_000); // some twenty commands, each a process: over 30 s on a loaded 2-core machine
});

describe('organizations: --org, the currency of empty books, pages of lists (issue 42)', () => {
  it('says in words that new books hold no organization yet (org list), and lists them once there are', () => {
    const data = tempDir();
    const empty = ledgerdesk(data, 'org', 'list');
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe('No organizations yet: start one with `ledgerdesk org create <slug> --name <name> --currency <code>`.\n');
    expect(ledgerdesk(data, 'org', 'create', 'studio', '--name', 'Hartley Studio', '--currency', 'GBP').code).toBe(0);
    expect(ledgerdesk(data, 'org', 'list').stdout).toMatch(/^studio\s+Hartley Studio\s+GBP/);
  });

  it('with several organizations refuses a command without --org, naming them; a write names the books it went to', async () => {
    const data = tempDir();
    const first = ledgerdesk(data, 'account', 'create', 'Bank'); // the only organization: used, and named
    expect(first.stderr).toContain('In the books of My organization (default).');
    expect(ledgerdesk(data, 'org', 'create', 'studio', '--name', 'Hartley Studio', '--currency', 'GBP').code).toBe(0);
    expect(ledgerdesk(data, 'org', 'create', 'roaster', '--name', 'Coffee Roaster').code).toBe(0);
    const taxi = ['tx', 'add', '--account', 'Bank', '--date', '2026-03-02', '--amount', '-12.50', '--description', 'Taxi'];
    const refused = ledgerdesk(data, ...taxi);
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toContain(
      'validation_failed: Several organizations: My organization (default), Coffee Roaster (roaster), Hartley Studio (studio); name one with --org <slug>.', // by slug, as typed
    );
    expect(JSON.parse(ledgerdesk(data, ...taxi, '--json').stdout).error).toEqual({
      code: 'validation_failed',
      message: expect.stringContaining('name one with --org <slug>'),
      details: [{ field: 'org', message: 'is required when there are several organizations (default, roaster, studio)' }],
    });
    expect(ledgerdesk(data, 'tx', 'list').code).toBe(1); // reads too: the same rule for every command about one organization
    const misuse = ledgerdesk(data, 'tx', 'add', '--account', 'Bank'); // misuse is said first, whichever the organization
    expect([misuse.code, misuse.stderr]).toEqual([2, expect.stringContaining('--date: is required')]);

    expect(ledgerdesk(data, 'account', 'create', 'Bank', '--org', 'studio').stderr).toContain('In the books of Hartley Studio (studio).');
    const added = ledgerdesk(data, ...taxi, '--org', 'studio');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Added [0-9a-f-]{36} {2}2026-03-02 {2}-12\.50 GBP/); // stdout stays the answer
    expect(added.stderr).toContain('In the books of Hartley Studio (studio).');
    const read = ledgerdesk(data, 'tx', 'list', '--org', 'studio');
    expect([read.code, read.stderr]).toEqual([0, expect.not.stringContaining('In the books of')]);
    expect(ledgerdesk(data, 'org', 'list').code).toBe(0); // about every organization: no --org
    const ledger = await openBooksOf(data);
    const rows = async (slug: string) => (await L.listTransactions(ledger, (await L.requireOrganization(ledger, slug)).seq, { limit: 5, offset: 0 })).meta.totalCount;
    expect([await rows('default'), await rows('studio'), await rows('roaster')]).toEqual([0, 1, 0]);
    await ledger.end();
  }, 90_000); // a dozen commands, each a process

  it("changes an empty organization's currency with its accounts, audited, and refuses once it holds money, saying what", async () => {
    const data = tempDir();
    ledgerdesk(data, 'account', 'create', 'Bank');
    ledgerdesk(data, 'account', 'create', 'Euro account', '--currency', 'EUR');
    const changed = ledgerdesk(data, 'org', 'edit', 'default', '--currency', 'gbp');
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toMatch(/^Now default\s+My organization\s+GBP/);
    expect(ledgerdesk(data, 'account', 'list').stdout).toMatch(/Bank\s+checking\s+0\.00 GBP[^]*Euro account\s+checking\s+0\.00 EUR/);
    const ledger = await openBooksOf(data);
    const log = (await L.listAudit(ledger, 1, { limit: 2, offset: 0 })).entries.map((e) => e.summary);
    expect(log).toEqual([
      'Organization default changed: currency USD -> GBP (accounts moved with it: Bank)',
      `Account "Bank" changed: currency USD -> GBP, with its organization's (it held nothing)`,
    ]);
    await ledger.end();

    ledgerdesk(data, 'tx', 'add', '--account', 'Bank', '--date', '2026-03-02', '--amount', '-12.50', '--description', 'Taxi');
    const refused = ledgerdesk(data, 'org', 'edit', 'default', '--currency', 'EUR', '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toEqual({
      code: 'conflict',
      message:
        'The currency of "My organization" stays GBP: its books hold money in it (1 row). It changes only while they hold none; for books in EUR, start another organization.',
      details: [{ field: 'currency', message: 'fixed while the books hold money (1 row)' }],
    });
    expect(ledgerdesk(data, 'org', 'create', 'opened').code).toBe(0);
    ledgerdesk(data, 'account', 'create', 'Bank', '--opening-balance', '1,000', '--org', 'opened');
    expect(ledgerdesk(data, 'org', 'edit', 'opened', '--currency', 'JPY').stderr).toContain('(1 opening balance)'); // 1,000.00 USD is not 1,000 JPY
    const unknown = ledgerdesk(data, 'org', 'edit', 'opened', '--currency', 'XYZ');
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('XYZ is not an ISO 4217 currency code')]);
  }, 90_000); // a dozen commands, each a process

  it('ends a page of a list saying where it sits in the whole and how to see more (rate list)', () => {
    const data = tempDir();
    const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    writeFileSync(join(data, 'rates.csv'), ['date,currency,rate', ...Array.from({ length: 62 }, (_, i) => `${day(i)},EUR,1.1`)].join('\n'));
    expect(ledgerdesk(data, 'rate', 'import', join(data, 'rates.csv')).code).toBe(0);
    const last = (...args: string[]) =>
      ledgerdesk(data, 'rate', 'list', ...args)
        .stdout.trim()
        .split('\n')
        .at(-1);
    expect(last()).toBe('1-50 of 62 rates (--offset 50 for more)');
    expect(last('--offset', '50')).toBe('51-62 of 62 rates');
    expect(last('--limit', '100')).toBe('62 rates');
    expect(last('--offset', '70')).toBe('None from --offset 70: 62 rates in all.');
    expect(JSON.parse(ledgerdesk(data, 'rate', 'list', '--json').stdout)).toMatchObject({ total: 62, offset: 0, limit: 50 });
  }, 90_000);
});

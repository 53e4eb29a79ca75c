// Issue 42: the rows an import skips stay listed, by line and reason, before
// and after the import, in its result and in the history, and can be written
// out as a CSV to fix (the bank's own lines plus a reason) that imports again.
// Through the desk operations on real SQLite files, and the commands as
// child processes.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { skippedRowsCsv } from '../src/main/statements/skipped-csv';
import { tempDir, tempLedger } from './support/env';
import { booksFlags } from './support/books';
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

const SKIPPED = [
  { line: 3, field: 'Amount', message: '"1.250,00" is not an amount' },
  { line: 6, field: 'Date', message: '"2026-02-30" is not a date in the format YYYY-MM-DD' },
  { line: 7, field: 'Amount', message: '"abc" is not an amount' },
];

beforeEach(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await desk('createAccount', { name: 'Operating' });
});

describe('skipped rows', () => {
  it('are listed before and after the import, kept with the batch, and written out as the bank wrote them to fix and import again', async () => {
    const preview = await importFile(fixture('bad-rows.csv'), { account: 'Operating', skipBadRows: true, dryRun: true });
    expect(preview).toMatchObject({ imported: 4, skipped: 3, errors: [], skippedRows: SKIPPED });
    const done = await importFile(fixture('bad-rows.csv'), { account: 'Operating', skipBadRows: true });
    expect(done).toMatchObject({ imported: 4, skipped: 3, skippedRows: SKIPPED, batchId: expect.any(String) });
    const [batch] = (await desk<{ batches: L.ImportBatch[] }>('listImports')).batches;
    expect(batch).toMatchObject({ id: done.batchId, imported: 4, skipped: 3, skippedRows: SKIPPED });
    expect((await L.listAudit(ctx.ledger, org.seq, { action: 'statement.imported', limit: 5, offset: 0 })).entries[0].summary).toContain('3 bad row(s) skipped');

    const kept = await desk<L.BatchSkippedRows>('importSkippedRows', { batchId: done.batchId });
    expect(kept).toMatchObject({ fileName: 'bad-rows.csv', format: 'csv', skipped: 3, header: { text: 'Date,Description,Amount', delimiter: ',' } });
    expect(kept.rows.map((r) => r.text)).toEqual(['2026-03-03,HARTLEY STUDIO client receipt,"1.250,00"', '2026-02-30,Taxi,-18.00', '2026-03-06,Rent,abc']);
    const csv = skippedRowsCsv(kept);
    expect(csv.split('\r\n')[0]).toBe('Date,Description,Amount,reason');
    // Fixed in the file, the rows import as they are: the reason column is no one's.
    const fixed = tempFile('bad-rows-skipped.csv', csv.replace('"1.250,00"', '1250.00').replace('2026-02-30', '2026-02-28').replace(',abc,', ',-1200.00,'));
    expect(await importFile(fixed, { account: 'Operating' })).toMatchObject({ imported: 3, skipped: 0, errors: [] });
    const receipt = (await L.listTransactions(ctx.ledger, org.seq, { description: 'HARTLEY', limit: 5, offset: 0 })).data;
    expect(receipt.map((t) => [t.date, t.amount, t.description])).toEqual([['2026-03-03', 1250, 'HARTLEY STUDIO client receipt']]);
  });

  it('are recorded when nothing else is new, so that they are not lost', async () => {
    await importFile(fixture('bad-rows.csv'), { account: 'Operating', skipBadRows: true });
    const again = await importFile(fixture('bad-rows.csv'), { account: 'Operating', skipBadRows: true });
    expect(again).toMatchObject({ imported: 0, duplicates: 4, skipped: 3, nothingNew: false, batchId: expect.any(String) });
    expect((await desk<{ totalCount: number }>('listImports')).totalCount).toBe(2);
    // Without skipped rows, nothing new is still nothing recorded.
    const clean = tempFile('clean.csv', 'Date,Description,Amount\n2026-03-02,Bank fee,-15.00\n');
    expect(await importFile(clean, { account: 'Operating' })).toMatchObject({ imported: 0, nothingNew: true, batchId: null });
  });

  it('never takes a question about the whole file for a row to skip', async () => {
    const asked = await importFile(fixture('ambiguous.csv'), { account: 'Operating', skipBadRows: true });
    expect(asked).toMatchObject({ batchId: null, imported: 0, errors: [{ field: 'Date', file: true }] });
    expect((await desk<{ totalCount: number }>('listImports')).totalCount).toBe(0);
  });

  it('keep the rows left out of a closed period, and a QIF record as the file has it', async () => {
    await desk('lockPeriod', { through: '2026-03-03' });
    const r = await importFile(fixture('bad-rows.csv'), { account: 'Operating', skipBadRows: true, skipLocked: true });
    expect(r).toMatchObject({ imported: 3, skipped: 4 });
    const kept = await desk<L.BatchSkippedRows>('importSkippedRows', { batchId: r.batchId });
    expect(kept.rows.find((x) => x.line === 2)).toMatchObject({ field: 'date', message: expect.stringContaining('closing date 2026-03-03'), text: '2026-03-02,Bank fee,-15.00' });
    const qif = tempFile('q.qif', '!Type:Bank\nD03/14/2026\nT-5.00\nPPaper\n^\nD03/15/2026\nTfive\nPInk\n^\n');
    const fromQif = await importFile(qif, { account: 'Operating', skipBadRows: true });
    expect((await desk<L.BatchSkippedRows>('importSkippedRows', { batchId: fromQif.batchId })).rows).toEqual([
      { line: 6, field: 'T', message: '"five" is not an amount', text: 'D03/15/2026\nTfive\nPInk\n^' },
    ]);
  });
});

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
function ledgerdesk(data: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { cwd: join(__dirname, '..'), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the commands', () => {
  it('print the skipped rows, list them with the import, and write them out with import skipped --out', () => {
    const data = tempDir();
    expect(ledgerdesk(data, 'account', 'create', 'Operating').code).toBe(0);
    const done = ledgerdesk(data, 'import', fixture('bad-rows.csv'), '--account', 'Operating', '--skip-bad-rows');
    expect(done.code, done.stderr).toBe(0);
    const id = /Batch (\S+)/.exec(done.stdout)![1];
    expect(done.stdout).toContain('Skipped rows (3):\n  line 3  Amount: "1.250,00" is not an amount\n');
    expect(done.stdout).toContain(`Write them out to fix and import again: ledgerdesk import skipped ${id} --out bad-rows-skipped.csv`);
    expect(ledgerdesk(data, 'import', 'list').stdout).toContain('4 new, 0 dup, 3 skipped\n  line 3  Amount: "1.250,00" is not an amount');
    expect(JSON.parse(ledgerdesk(data, 'import', 'list', '--json').stdout).batches[0].skippedRows).toEqual(SKIPPED);
    const listed = ledgerdesk(data, 'import', 'skipped', id);
    expect(listed.stdout).toContain(
      '3 row(s) of bad-rows.csv were skipped:\n  line 3  Amount: "1.250,00" is not an amount\n      2026-03-03,HARTLEY STUDIO client receipt,"1.250,00"\n',
    );
    const out = join(data, 'fix.csv');
    expect(ledgerdesk(data, 'import', 'skipped', id, '--out', out).stdout).toBe(`Wrote 3 skipped row(s) of bad-rows.csv to ${out}: fix them there and import the file again.\n`);
    expect(readFileSync(out, 'utf8').split('\r\n').slice(0, 2)).toEqual([
      'Date,Description,Amount,reason',
      '2026-03-03,HARTLEY STUDIO client receipt,"1.250,00","line 3, Amount: ""1.250,00"" is not an amount"',
    ]);
    expect(ledgerdesk(data, 'import', 'skipped', id, '--csv').stdout).toBe(readFileSync(out, 'utf8'));
    expect(ledgerdesk(data, 'import', 'skipped', 'nope').code).toBe(2);
  });
});

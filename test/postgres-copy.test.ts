// `ledgerdesk org copy` (issue 44): an organization's books from a desktop's data
// folder to a firm's PostgreSQL server and back to another folder, as the command
// runs them; every report equal after each move, the receipts' files and the
// audit chain with them, the totals made again from the rows.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import { ledgerFile } from '../src/main/paths';
import { sha256Of } from '../src/main/receipts/intake';
import type { DeskContext } from '../src/main/desk/operations';
import { expectTotalsMatchRows } from './support/aggregates';
import { databaseOf } from './support/books';
import { deskAs } from './support/desk';
import { tempDir } from './support/env';
import { textPdf } from './support/pdf';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });

const desktop = tempDir();
const other = tempDir();
let server: string;
let org: L.Organization;
let receiptId: string;
const pdf = textPdf(['Invoice 12', 'Quokka Catering']);

beforeAll(async () => {
  server = databaseOf(tempDir())!;
  const ledger = L.openLedger(ledgerFile(desktop));
  org = await L.createOrganization(ledger, { slug: 'studio', name: 'Studio', currency: 'GBP' });
  await L.setupTaxSet(ledger, org.seq, L.deskActor(), 'uk-vat');
  await fillDemo(ledger, org.seq, org.slug, 600, org.currency, { ...BENCH_SHAPE, tax: true });
  const ctx: DeskContext = { ledger, dataDir: desktop, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  await desk('createAccount', { name: 'Bank', type: 'checking', openingBalance: '1000', openingDate: '2025-12-31' });
  await desk('addContact', { name: 'Client Ltd', customer: true, termsDays: 14 });
  await desk('createInvoice', { customer: 'Client Ltd', date: '2026-01-10', lines: ['Design work;10;85.00;4000;S'] });
  await desk('issueInvoice', { number: 'INV-0001' });
  const paid = await desk<L.Transaction>('addTransaction', { account: 'Bank', date: '2026-02-01', amount: '1020', description: 'Client Ltd INV-0001' });
  await desk('payInvoice', { numbers: ['INV-0001'], transactionId: paid.id });
  await L.addCategory(ledger, org.seq, L.deskActor(), { code: '2300', name: 'Accruals', type: 'liability' });
  await desk('addJournal', { date: '2026-03-31', narration: 'Accrued rent', lines: ['5200=300@S', '2300=-360'], reverseOn: '2026-04-01' });
  await desk('createRule', { rule: { matchKind: 'contains', matchText: 'a', sign: 'outflow', categoryCode: '5000', enabled: true } });
  receiptId = (
    await L.addReceipt(ledger, org.seq, L.deskActor(), {
      fileName: 'q.pdf',
      mimeType: 'application/pdf',
      sizeBytes: pdf.length,
      sha256: sha256Of(pdf),
      ocrText: 'Quokka',
      bytes: pdf,
    })
  ).receipt.id;
  ledger.close();
}, 180_000);

/** What an accountant would compare: the reports of the whole books, and their rows' count. */
async function reports(ledger: L.Ledger, slug: string) {
  const o = await ledger.forOrg('all', () => L.requireOrganization(ledger, slug));
  return ledger.forOrg(o.seq, async () => ({
    trial: await L.trialBalance(ledger, o.seq),
    sheet: await L.balanceSheet(ledger, o.seq, { date: '2027-12-31' }),
    accrual: await L.profitAndLoss(ledger, o.seq, { from: '2000-01-01', to: '2027-12-31', basis: 'accrual' }),
    cash: await L.profitAndLoss(ledger, o.seq, { from: '2000-01-01', to: '2027-12-31', basis: 'cash' }),
    vat: await L.taxReturn(ledger, o.seq, { from: '2026-01-01', to: '2026-03-31' }),
    aging: await L.aging(ledger, o.seq, 'receivables', '2026-01-31'),
    page: await L.listTransactions(ledger, o.seq, { limit: 50, offset: 100 }),
    pending: (await L.listPendingProposals(ledger, o.seq, { limit: 500, offset: 0 })).count,
    receipt: Buffer.from((await L.receiptFileOf(ledger, o.seq, receiptId)).bytes).equals(pdf),
    audit: (await L.verifyAuditChain(ledger, o.seq)).ok,
  }));
}

let before: Awaited<ReturnType<typeof reports>>;

describe('org copy', () => {
  it('copies a data folder\u2019s organization to a server: every report the same, the receipts and the audit chain with it', async () => {
    const ledger = L.openLedger(ledgerFile(desktop));
    before = await reports(ledger, 'studio');
    ledger.close();
    expect(before.audit).toBe(true);
    const copied = run('org', 'copy', 'studio', '--data', desktop, '--to', server);
    expect(copied.status, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/Copied studio to postgres.* as studio \(Studio\)/);
    expect(copied.stdout).toContain('The trial balance is the same in both, to the cent.');
    const onServer = await openPostgres(server, { role: null });
    expect(await reports(onServer, 'studio')).toEqual(before);
    await expectTotalsMatchRows(onServer);
    // Copied again: refused, the server already holds it.
    const again = run('org', 'copy', 'studio', '--data', desktop, '--to', server);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already holds this organization/);
    await onServer.end();
  });

  it('copies it back from the server to another folder, as another slug, the same again', async () => {
    const back = run('org', 'copy', 'studio', '--database', server, '--to', other, '--as', 'studio-2026');
    expect(back.status, back.stderr).toBe(0);
    const ledger = L.openLedger(ledgerFile(other));
    expect(await reports(ledger, 'studio-2026')).toEqual(before);
    await expectTotalsMatchRows(ledger);
    const copiedEntries = await L.listAudit(ledger, (await L.requireOrganization(ledger, 'studio-2026')).seq, { action: 'organization.copied', limit: 5, offset: 0 });
    // One entry per move, each in the books it arrived in (the first came along with the rest of the log).
    expect(copiedEntries.totalCount).toBe(2);
    expect(copiedEntries.entries.map((e) => e.summary)).toEqual([
      expect.stringMatching(/^Organization studio copied here/),
      expect.stringMatching(/^Organization studio copied here/),
    ]);
    ledger.close();
  });

  it('moves it with --move: the source archived only once the copy checks out, kept to read, every change refused', async () => {
    const listed = async (ledger: L.Ledger) => (await ledger.forOrg('all', () => L.listOrganizations(ledger))).map((o) => o.slug);
    // A copy refused (the server holds it already): nothing archived.
    const refused = run('org', 'copy', 'studio', '--data', desktop, '--to', server, '--move');
    expect(refused.status).toBe(1);
    expect(refused.stdout).not.toContain('Archived');
    let ledger = L.openLedger(ledgerFile(desktop));
    expect(await listed(ledger)).toContain('studio');
    ledger.close();
    // Folder to folder.
    const moved = run('org', 'copy', 'studio', '--data', desktop, '--to', tempDir(), '--move');
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('Archived studio here: kept to read (by its slug), out of the list, every change refused');
    ledger = L.openLedger(ledgerFile(desktop));
    expect(await listed(ledger)).not.toContain('studio');
    expect(await reports(ledger, 'studio')).toEqual(before);
    const seq = (await L.requireOrganization(ledger, 'studio')).seq;
    const contacts = async () => (await ledger.stmt('SELECT count(*) FROM counterparties WHERE org_seq = ?').pluck().get(seq)) as number;
    const count = await contacts();
    await expect(L.addContact(ledger, seq, L.deskActor(), { name: 'Late Ltd', customer: true })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('(its books were moved): they are kept to read, not to change'),
    });
    expect(await contacts()).toBe(count);
    expect((await L.listAudit(ledger, seq, { action: 'organization.archived', limit: 5, offset: 0 })).entries.map((e) => e.summary)).toEqual([
      expect.stringMatching(/^Organization "Studio" \(studio\) archived: moved to .* as studio, the trial balance the same in both$/),
    ]);
    ledger.close();
    // From the server: archived there, and brought back by org unarchive.
    const fromServer = run('org', 'copy', 'studio', '--database', server, '--to', tempDir(), '--move');
    expect(fromServer.status, fromServer.stderr).toBe(0);
    const onServer = await openPostgres(server, { role: null });
    expect(await listed(onServer)).not.toContain('studio');
    const serverSeq = (await onServer.forOrg('all', () => L.requireOrganization(onServer, 'studio'))).seq;
    await expect(onServer.forOrg(serverSeq, () => L.addContact(onServer, serverSeq, L.deskActor(), { name: 'Late Ltd', customer: true }))).rejects.toMatchObject({
      code: 'conflict',
    });
    const back = run('org', 'unarchive', 'studio', '--database', server);
    expect(back.status, back.stderr).toBe(0);
    expect(await listed(onServer)).toContain('studio');
    await onServer.end();
  });
});

// A server's books backed up and restored (issue 51): two organizations' books
// on the test cluster, `ledgerdesk backup --database` run as a child process
// as a role that bypasses row-level security, then restored into a NEW cluster
// by following docs/postgres.md's steps as written (the DBA's roles and empty
// database first, the password file, then `ledgerdesk restore`); the audit
// chains verify and every report equals the source's. The refusals (a role
// bound by row-level security, pg_dump missing or older than the server, a
// target that is not empty or lacks the roles) write nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openBooks } from '../src/main/ledger/core/open';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { fillDemo } from '../src/main/demo';
import type { DeskContext } from '../src/main/desk/operations';
import { databaseOf } from './support/books';
import { deskAs } from './support/desk';
import { documentedBlocks, ledgerdeskOnPath, onCluster, runAsDba, runInShell } from './support/documented';
import { tempDir } from './support/env';
import { psqlSync, startPostgres, type ThrowawayPostgres } from './support/postgres';

const PAGE = 'docs/postgres.md';
const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
const BACKUP_ROLE = `ldk_backup_${process.pid}`;
const BOUND_ROLE = `ldk_bound_${process.pid}`;

const work = tempDir('ldk-work-');
const home = tempDir('ldk-home-');
const bin = ledgerdeskOnPath(join(tempDir('ldk-bin-'), 'bin'));
let source: string;
let target: ThrowawayPostgres;

/** An address of the test cluster (the source's, else `url`) as another role (trusted on its socket, as the superuser is). */
const as = (role: string, url = source) => url.replace('postgresql://ledgerdesk@', `postgresql://${role}@`);

function ledgerdesk(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH, HOME: home, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function fillBooks(ledger: L.Ledger): Promise<void> {
  const studio = await L.createOrganization(ledger, { slug: 'studio', name: 'Hartley Studio', currency: 'GBP' });
  await L.setupTaxSet(ledger, studio.seq, L.deskActor(), 'uk-vat');
  await ledger.forOrg(studio.seq, () => fillDemo(ledger, studio.seq, studio.slug, 300, studio.currency, { tax: true }));
  const ctx: DeskContext = { ledger, dataDir: work, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const desk = (name: string, input: Record<string, unknown> = {}) => ledger.forOrg(studio.seq, () => deskAs(ctx, studio.id, name, input));
  await desk('createAccount', { name: 'Bank', type: 'checking', openingBalance: '1000', openingDate: '2025-12-31' });
  await desk('addContact', { name: 'Client Ltd', customer: true, termsDays: 14 });
  await desk('createInvoice', { customer: 'Client Ltd', date: '2026-01-10', lines: ['Design work;10;85.00;4000;S'] });
  await desk('issueInvoice', { number: 'INV-0001' });
  await ledger.forOrg(studio.seq, () => L.addCategory(ledger, studio.seq, L.deskActor(), { code: '2300', name: 'Accruals', type: 'liability' }));
  await desk('addJournal', { date: '2026-03-31', narration: 'Accrued rent', lines: ['5200=300@S', '2300=-360'], reverseOn: '2026-04-01' });
  const roaster = await L.createOrganization(ledger, { slug: 'roaster', name: 'Coffee Roaster', currency: 'EUR' });
  await ledger.forOrg(roaster.seq, () => fillDemo(ledger, roaster.seq, roaster.slug, 120, roaster.currency));
}

/** What an accountant compares: the reports of the whole books, a page of rows, what waits for review, the chain. */
async function reports(ledger: L.Ledger, slug: string) {
  const o = await ledger.forOrg('all', () => L.requireOrganization(ledger, slug));
  return ledger.forOrg(o.seq, async () => ({
    trial: await L.trialBalance(ledger, o.seq),
    sheet: await L.balanceSheet(ledger, o.seq, { date: '2027-12-31' }),
    accrual: await L.profitAndLoss(ledger, o.seq, { from: '2000-01-01', to: '2027-12-31', basis: 'accrual' }),
    vat: await L.taxReturn(ledger, o.seq, { from: '2026-01-01', to: '2026-03-31' }),
    aging: await L.aging(ledger, o.seq, 'receivables', '2026-01-31'),
    page: await L.listTransactions(ledger, o.seq, { limit: 50, offset: 40 }),
    pending: (await L.listPendingProposals(ledger, o.seq, { limit: 500, offset: 0 })).count,
    audit: await L.verifyAuditChain(ledger, o.seq),
  }));
}

let before: Record<string, Awaited<ReturnType<typeof reports>>>;

beforeAll(async () => {
  source = databaseOf(tempDir())!;
  const ledger = await openPostgres(source, { role: null });
  try {
    await fillBooks(ledger);
    before = { studio: await reports(ledger, 'studio'), roaster: await reports(ledger, 'roaster') };
  } finally {
    await ledger.end();
  }
  // Roles belong to the cluster the other suites share: named for this process.
  psqlSync(
    inject('postgres'),
    `CREATE ROLE ${BACKUP_ROLE} LOGIN BYPASSRLS; GRANT pg_read_all_data TO ${BACKUP_ROLE}; CREATE ROLE ${BOUND_ROLE} LOGIN; GRANT pg_read_all_data TO ${BOUND_ROLE}`,
  );
  target = startPostgres({ superuser: 'dba', passwords: true });
}, 240_000);
afterAll(() => target?.stop());

/** The tables a database of the cluster holds in its public schema. */
const tablesIn = (cluster: ThrowawayPostgres, database: string): number =>
  Number(
    execFileSync(
      join(cluster.bin, 'psql'),
      ['-h', cluster.socketDir, '-p', String(cluster.port), '-U', cluster.superuser, '-d', database, '-Atc', "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"],
      {
        encoding: 'utf8',
      },
    ).trim(),
  );

/** Nothing under the name, nor a part of it beside it. */
const nothingWritten = (name: string) => expect(readdirSync(work).filter((f) => f.startsWith(name))).toEqual([]);

describe('ledgerdesk backup --database', () => {
  it('refuses a login role that can neither bypass row-level security nor is a superuser, naming why; nothing is written', () => {
    const r = ledgerdesk(['backup', '--database', as(BOUND_ROLE), '--out', 'bound.dump']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`validation_failed: The role ${BOUND_ROLE} can neither bypass row-level security nor is it a superuser`);
    expect(r.stderr).toContain('"field": "database"');
    expect(r.stderr).toContain('CREATE ROLE ledgerdesk_backup LOGIN BYPASSRLS');
    nothingWritten('bound.dump');
  }, 120_000);

  it('refuses when pg_dump is not on PATH, or is older than the server; nothing is written', () => {
    const empty = tempDir('ldk-path-');
    const missing = ledgerdesk(['backup', '--database', as(BACKUP_ROLE), '--out', 'nopgdump.dump'], { PATH: empty });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('conflict: pg_dump is not on PATH');
    nothingWritten('nopgdump.dump');
    // A client of an older major version, as an older Debian's postgresql-client installs it.
    const old = join(tempDir('ldk-old-'), 'bin');
    mkdirSync(old);
    writeFileSync(join(old, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 14.11 (Debian 14.11-1)"\n', { mode: 0o755 });
    const older = ledgerdesk(['backup', '--database', as(BACKUP_ROLE), '--out', 'old.dump'], { PATH: old });
    expect(older.code).toBe(1);
    expect(older.stderr).toMatch(/conflict: \S+\/pg_dump is of PostgreSQL 14, older than the server \(\d+\)/);
    nothingWritten('old.dump');
  }, 120_000);

  it('backs up both organizations and restores them into a new cluster by the documented steps: the chains verify, every report is equal', async () => {
    const made = ledgerdesk(['backup', '--database', as(BACKUP_ROLE), '--out', 'books.dump']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(
      new RegExp(
        `^Backed up postgresql://${BACKUP_ROLE}@localhost/\\S+ as ${BACKUP_ROLE} to ${work}/books\\.dump \\(\\d+ bytes; 2 organization\\(s\\), \\d+ audit entries; pg_dump \\d+\\.\\d+\\)\\.`,
      ),
    );
    expect(readdirSync(work).filter((f) => f.startsWith('books.dump'))).toEqual(['books.dump']);

    // docs/postgres.md on the new cluster: the roles and an empty database (the DBA), the password file, the restore.
    const [dba, passwordFile] = documentedBlocks(PAGE, 'Setting up the database');
    const [, restore] = documentedBlocks(PAGE, 'Backups and restores');
    runAsDba(dba, target);
    runInShell(passwordFile, target, { home, cwd: work, bin });
    const restored = runInShell(restore, target, { home, cwd: work, bin });
    expect(restored.stdout).toMatch(/^Restored \S+books\.dump into postgres:\/\/ledgerdesk@127\.0\.0\.1:\d+\/books \(pg_restore \d+\.\d+\)\.\n/);
    expect(restored.stdout).toMatch(/ {2}Coffee Roaster \(roaster\): the audit log verifies, \d+ entries\.\n {2}Hartley Studio \(studio\): the audit log verifies, \d+ entries\./);

    // The restored books as the server opens them (row-level security binding it), by the documented address.
    const url = onCluster(/--database (\S+)/.exec(restore.text)![1], target);
    process.env.PGPASSFILE = join(home, '.pgpass');
    const ledger = await openBooks({ ledgerFile: '', database: url });
    try {
      expect(await reports(ledger, 'studio')).toEqual(before.studio);
      expect(await reports(ledger, 'roaster')).toEqual(before.roaster);
      expect(before.studio.audit).toMatchObject({ ok: true, entries: expect.any(Number) });
      expect(before.studio.audit.entries).toBeGreaterThan(5);
    } finally {
      await ledger.end();
      delete process.env.PGPASSFILE;
    }

    // Restored again over the books: refused, the books as they were.
    const again = ledgerdesk(['restore', 'books.dump', '--database', url], { PGPASSFILE: join(home, '.pgpass') });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/validation_failed: \S+ already holds \d+ table\(s\): a backup is restored into a new, empty database/);
  }, 600_000);

  it('refuses a restore before anything is written: the login role not a member of ledgerdesk_app, books of a newer build, a file that is no dump', () => {
    runAsDba({ lang: 'sql', text: "CREATE ROLE stranger LOGIN PASSWORD 'a stranger password';\nCREATE DATABASE other OWNER stranger LOCALE 'C' TEMPLATE template0;\n" }, target);
    const url = `postgres://stranger@127.0.0.1:${target.port}/other`;
    const refused = ledgerdesk(['restore', 'books.dump', '--database', url], { PGPASSWORD: 'a stranger password' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'validation_failed: The roles come first: stranger is not a member of ledgerdesk_app, ledgerdesk_reader. As a superuser: CREATE ROLE ledgerdesk LOGIN',
    );
    expect(tablesIn(target, 'other')).toBe(0);
    // Books a newer build wrote (a migration this build does not have): refused before the target is looked at.
    const newer = databaseOf(tempDir())!;
    execFileSync('psql', [newer, '-v', 'ON_ERROR_STOP=1', '-qc', "INSERT INTO ledgerdesk_migrations (name, hash) VALUES ('9999_future.sql', 'f')"]);
    expect(ledgerdesk(['backup', '--database', as(BACKUP_ROLE, newer), '--out', 'newer.dump']).code).toBe(0);
    const fromNewer = ledgerdesk(['restore', 'newer.dump', '--database', url], { PGPASSWORD: 'a stranger password' });
    expect(fromNewer.code).toBe(1);
    expect(fromNewer.stderr).toContain('it was written by a newer or different Ledgerdesk build (9999_future.sql); update Ledgerdesk first. Nothing was restored.');
    writeFileSync(join(work, 'not-a-dump.dump'), 'hello');
    const notDump = ledgerdesk(['restore', 'not-a-dump.dump', '--database', url], { PGPASSWORD: 'a stranger password' });
    expect(notDump.code).toBe(1);
    expect(notDump.stderr).toContain('it is not a pg_dump archive');
    expect(existsSync(join(work, 'books.dump'))).toBe(true);
  }, 240_000);
});

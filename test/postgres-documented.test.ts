// docs/postgres.md's setup, run as it is written (issue 51): the blocks of
// "Setting up the database" taken from the page, the DBA's SQL typed into psql
// as a superuser of a new cluster, then the app's login role's steps in a shell
// (its password in ~/.pgpass only); the books opened with the documented
// address; the documented backup made. A password given on the command line
// warns, naming where it belongs, and still works.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOrganizations } from '../src/main/ledger/access/organizations';
import { openBooks } from '../src/main/ledger/core/open';
import { certificate } from './support/certificate';
import { documentedBlocks, documentedSection, ledgerdeskOnPath, onCluster, runAsDba, runInShell, type Block } from './support/documented';
import { tempDir } from './support/env';
import { startPostgres, type ThrowawayPostgres } from './support/postgres';

const PAGE = 'docs/postgres.md';
const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');

let cluster: ThrowawayPostgres;
const serverCertificate = certificate();
beforeAll(() => {
  cluster = startPostgres({ superuser: 'dba', passwords: true, tls: serverCertificate });
});
afterAll(() => cluster?.stop());

const home = tempDir('ldk-home-');
const work = tempDir('ldk-work-');
const bin = ledgerdeskOnPath(join(tempDir('ldk-bin-'), 'bin'));
const setup = documentedBlocks(PAGE, 'Setting up the database');

/** What the page's first `sh` block that sets it says LEDGERDESK_DATABASE_URL is, on the test's cluster. */
function documentedUrl(blocks: Block[]): string {
  const m = blocks.map((b) => /LEDGERDESK_DATABASE_URL=(\S+)/.exec(b.text)).find(Boolean);
  if (!m) throw new Error(`${PAGE} sets no LEDGERDESK_DATABASE_URL in its setup`);
  return onCluster(m[1], cluster);
}
const password = /ROLE ledgerdesk LOGIN PASSWORD '([^']+)'/.exec(setup[0]?.text ?? '')?.[1] ?? '';

/** The command as a person runs it, with only the environment given (no password file unless HOME holds one). */
function ledgerdesk(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH, HOME: tempDir('ldk-nohome-'), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the documented setup (docs/postgres.md, "Setting up the database")', () => {
  it('works as written: the DBA makes the roles and the database, the login role migrates it, and the books open with the documented address', async () => {
    expect(setup.map((b) => b.lang)).toEqual(['sql', 'sh', 'sh']);
    runAsDba(setup[0], cluster);
    runInShell(setup[1], cluster, { home, cwd: work, bin });
    expect(statSync(join(home, '.pgpass')).mode & 0o777).toBe(0o600);
    const first = runInShell(setup[2], cluster, { home, cwd: work, bin });
    expect(first.stdout).toContain('No organizations yet: start one with `ledgerdesk org create');
    expect(first.stdout).toMatch(/Created organization studio\s+Hartley Studio\s+GBP/);

    // The documented address holds no password: the one in the password file is what signs in.
    const url = documentedUrl(setup);
    expect(new URL(url).password).toBe('');
    const without = await openBooks({ ledgerFile: '', database: url }).then(
      (l) => l.end().then(() => 'opened'),
      (e: Error) => e.message,
    );
    expect(without).toMatch(/password/);
    process.env.PGPASSFILE = join(home, '.pgpass');
    try {
      const ledger = await openBooks({ ledgerFile: '', database: url });
      try {
        expect((await ledger.forOrg('all', () => listOrganizations(ledger))).map((o) => o.slug)).toEqual(['studio']);
      } finally {
        await ledger.end();
      }
    } finally {
      delete process.env.PGPASSFILE;
    }
  }, 240_000);

  it('makes the documented backup as the backup role, its password in the same file', () => {
    const [backup] = documentedBlocks(PAGE, 'Backups and restores');
    const made = runInShell(backup, cluster, { home, cwd: work, bin });
    expect(made.stdout).toMatch(
      /^Backed up postgres:\/\/ledgerdesk_backup@127\.0\.0\.1:\d+\/books as ledgerdesk_backup to \S+books\.dump \(\d+ bytes; 1 organization\(s\), \d+ audit entries; pg_dump \d+\.\d+\)\./,
    );
    expect(existsSync(join(work, 'books.dump'))).toBe(true);
    expect(readdirSync(work).filter((f) => f.endsWith('.part'))).toEqual([]);
  }, 120_000);
});

describe('TLS to the database, as documented ("The password and TLS")', () => {
  it('opens the books, and backs them up with pg_dump, over TLS with the documented sslmode=verify-full and sslrootcert; another CA is refused', async () => {
    const said = documentedSection(PAGE, 'The password and TLS').join(' ');
    const documented = /`(postgres:\/\/\S+\?sslmode=verify-full&sslrootcert=[^`]+)`/.exec(said)?.[1];
    expect(documented, 'the TLS address in the page').toBeDefined();
    const withCa = (ca: string) => onCluster(documented!, cluster).replace(/sslrootcert=[^&]+/, `sslrootcert=${ca}`);

    process.env.PGPASSFILE = join(home, '.pgpass');
    // As the login role itself: pg_stat_ssl shows a backend's TLS to its own user (the server's role is another).
    const ledger = await openBooks({ ledgerFile: '', database: withCa(serverCertificate.certFile) }, { role: null }).finally(() => delete process.env.PGPASSFILE);
    try {
      expect(await ledger.forOrg('all', () => ledger.stmt('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()').pluck().get())).toBe(1);
    } finally {
      await ledger.end();
    }
    const stranger = certificate();
    const refused = await openBooks({ ledgerFile: '', database: withCa(stranger.certFile) }).then(
      (l) => l.end().then(() => 'opened'),
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/self.signed|unable to verify|certificate/i);

    // pg_dump (libpq) reads the same words in the address: the backup role's, over TLS.
    const backupUrl = withCa(serverCertificate.certFile).replace('//ledgerdesk@', '//ledgerdesk_backup@');
    const made = ledgerdesk(['backup', '--database', backupUrl, '--out', 'tls.dump'], { HOME: home });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('as ledgerdesk_backup to');
    const strangers = ledgerdesk(['backup', '--database', backupUrl.replace(serverCertificate.certFile, stranger.certFile), '--out', 'stranger.dump'], { HOME: home });
    expect(strangers.code).toBe(1);
    expect(existsSync(join(work, 'stranger.dump'))).toBe(false);
  }, 240_000);
});

describe('the database password on the command line (issue 51)', () => {
  it('warns on stderr, naming the other places, and still runs; the variable, PGPASSWORD and a password file do not warn', () => {
    const url = new URL(documentedUrl(setup));
    const bare = url.toString();
    url.password = password;
    const withPassword = url.toString();

    const given = ledgerdesk(['org', 'list', '--database', withPassword]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toMatch(/^studio\s+Hartley Studio/);
    expect(given.stderr).toContain('ledgerdesk: warning: the password in --database is visible to other users of this machine (ps)');
    for (const place of ['LEDGERDESK_DATABASE_URL', 'PGPASSWORD', '~/.pgpass', 'PGPASSFILE']) expect(given.stderr).toContain(place);
    expect(given.stderr).not.toContain(password);

    const copied = ledgerdesk(['org', 'copy', 'studio', '--to', withPassword.replace('/books', '/nothing-here'), '--data', tempDir()]);
    expect(copied.stderr).toContain('the password in --to is visible');

    const quietly: Record<string, string>[] = [
      { LEDGERDESK_DATABASE_URL: withPassword },
      { LEDGERDESK_DATABASE_URL: bare, PGPASSWORD: password },
      { LEDGERDESK_DATABASE_URL: bare, HOME: home },
    ];
    for (const env of quietly) {
      const quiet = ledgerdesk(['org', 'list'], env);
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stdout).toMatch(/^studio\s+Hartley Studio/);
      expect(quiet.stderr).not.toContain('warning: the password');
    }
  }, 300_000);
});

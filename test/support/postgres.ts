// A throwaway PostgreSQL for the tests: a cluster in a temp folder (C collation,
// as the server's databases are made, so orderings match SQLite's), reachable
// only by a Unix socket in that folder, stopped and removed after. As root (CI),
// the server runs as the postgres user, since PostgreSQL refuses to run as root.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayPostgres {
  /** A connection string for the superuser (`ledgerdesk` unless named otherwise) on database `postgres`. */
  url: string;
  superuser: string;
  /** A connection string for another database of the same cluster. */
  urlOf(database: string): string;
  /** Where its socket is, on which port, and its programs (psql, createdb...). */
  socketDir: string;
  port: number;
  bin: string;
  stop(): void;
}

/** Runs one SQL statement on a cluster's `postgres` database with its own psql, synchronously (a test's setup needs no await). */
export function psqlSync(cluster: Pick<ThrowawayPostgres, 'socketDir' | 'port' | 'bin'> & { superuser?: string }, sql: string): string {
  return execFileSync(
    join(cluster.bin, 'psql'),
    ['-h', cluster.socketDir, '-p', String(cluster.port), '-U', cluster.superuser ?? 'ledgerdesk', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-Atc', sql],
    {
      encoding: 'utf8',
    },
  );
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root)
    ? readdirSync(root)
        .sort()
        .reverse()
        .find((v) => existsSync(join(root, v, 'bin', 'initdb')))
    : undefined;
  if (!version) throw new Error('PostgreSQL is not installed: npm test installs it (scripts/test-tools.mjs), or run: sudo apt-get install -y postgresql');
  return join(root, version, 'bin');
}

/** `superuser` names the cluster's superuser (default `ledgerdesk`; another where a test makes a `ledgerdesk` role itself). */
export function startPostgres(superuser = 'ledgerdesk'): ThrowawayPostgres {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'ldk-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
    chmodSync(dir, 0o755);
  }
  const run = (command: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, command), args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', superuser, '--auth=trust', '--locale=C', '-E', 'UTF8', '--no-sync']);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const options = `-k ${dir} -c listen_addresses='' -p ${port} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const urlOf = (database: string) => `postgresql://${superuser}@localhost/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
  return {
    url: urlOf('postgres'),
    superuser,
    urlOf,
    socketDir: dir,
    port,
    bin,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

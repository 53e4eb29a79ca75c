// The PostgreSQL benchmark's server: a PostgreSQL 15 cluster in a folder kept
// between runs (bench/.data-pg, or BENCH_PG_DATA for a small run), so that the
// 1,000,000-transaction database is built once. Unlike the tests' throwaway
// cluster (test/support/postgres.ts: fsync off), it runs with a server's
// durability: fsync and synchronous_commit on, full-page writes, 256 MB of
// shared buffers; every other setting PostgreSQL's default. Reached only by a
// Unix socket in that folder (no TCP port). Started at the beginning of a run,
// stopped (cleanly: a fast shutdown, no recovery at the next start) at its end.
// As root, the server runs as the postgres user, since PostgreSQL refuses to
// run as root.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';
/** Names only the socket's file in the cluster's own folder: there is no TCP listener. */
const PORT = 5432;

export interface BenchCluster {
  folder: string;
  bin: string;
  /** A connection string for the superuser `ledgerdesk` on a database of the cluster. */
  urlOf(database: string): string;
  /** psql's connection arguments for a database (for a command timed from outside). */
  psqlArgs(database: string): string[];
  /** One SQL statement (or several, `;`-separated) through psql, its rows as text. */
  psql(database: string, sql: string): string;
  /** The postmaster's process id (its children are the backends). */
  postmaster(): number;
  stop(): void;
}

export function startCluster(folder: string): BenchCluster {
  if (!existsSync(join(BIN, 'initdb'))) throw new Error(`PostgreSQL 15 is not installed in ${BIN} (sudo apt-get install -y postgresql-15)`);
  const asRoot = userInfo().uid === 0;
  const argv = (command: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', join(BIN, command), ...args]] : [join(BIN, command), args]);
  const run = (command: string, args: string[]) => execFileSync(...argv(command, args), { stdio: 'pipe' });
  const data = join(folder, 'data');
  mkdirSync(folder, { recursive: true });
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(folder, id('-u'), id('-g'));
    chmodSync(folder, 0o755);
  }
  if (!existsSync(join(data, 'PG_VERSION'))) {
    // No cluster yet (or an initdb that did not finish): made with the C collation, as the server's databases are.
    rmSync(data, { recursive: true, force: true });
    run('initdb', ['-D', data, '-U', 'ledgerdesk', '--auth=trust', '--locale=C', '-E', 'UTF8']);
  }
  // A run that died without stopping it left it running: stop it, so that this run's settings apply.
  if (spawnSync(...argv('pg_ctl', ['-D', data, 'status'])).status === 0) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  const options = [
    `-k ${folder} -c listen_addresses='' -p ${PORT}`,
    '-c fsync=on -c synchronous_commit=on -c full_page_writes=on -c shared_buffers=256MB -c max_connections=200',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(folder, 'log'), '-w', '-t', '300', 'start']);
  const psqlArgs = (database: string) => ['-h', folder, '-p', String(PORT), '-U', 'ledgerdesk', '-d', database, '-v', 'ON_ERROR_STOP=1'];
  return {
    folder,
    bin: BIN,
    urlOf: (database) => `postgresql://ledgerdesk@localhost/${database}?host=${encodeURIComponent(folder)}&port=${PORT}`,
    psqlArgs,
    // Its notices (DROP ... IF EXISTS: "does not exist, skipping") are not printed; an error is thrown with them.
    psql: (database, sql) => execFileSync(join(BIN, 'psql'), [...psqlArgs(database), '-Atc', sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim(),
    postmaster: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: () => void run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
  };
}

// A throwaway PostgreSQL for the tests: a cluster in a temp folder (C collation,
// as the server's databases are made, so orderings match SQLite's), reachable
// only by a Unix socket in that folder, stopped and removed after. As root (CI),
// the server runs as the postgres user, since PostgreSQL refuses to run as root.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayPostgres {
  /** A connection string for the superuser (`ledgerdesk` unless told otherwise) on database `postgres`, by its socket. */
  url: string;
  /** A connection string for another database of the same cluster. */
  urlOf(database: string): string;
  /** Where its socket is, on which port, and its programs (psql, createdb...). */
  socketDir: string;
  port: number;
  bin: string;
  superuser: string;
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

const asRoot = userInfo().uid === 0;
const postgresId = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());

/** A temp folder the server's programs may write (as root they run as the postgres user, which PostgreSQL and PgBouncer insist on). */
function serverDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (asRoot) {
    chownSync(dir, postgresId('-u'), postgresId('-g'));
    chmodSync(dir, 0o755);
  }
  return dir;
}

/** Runs one of the server's programs, as the postgres user when the tests run as root. */
const runAsServer = (program: string, args: string[]) =>
  asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', program, ...args], { stdio: 'pipe' }) : execFileSync(program, args, { stdio: 'pipe' });

const freePort = () => 20000 + Math.floor(Math.random() * 20000);

function pgStart(bin: string, dir: string, data: string, port: number, extra = ''): void {
  const options = `-k ${dir} -c listen_addresses='' -p ${port} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400${extra}`;
  runAsServer(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
}

const clusterUrl =
  (dir: string, port: number, user = 'ledgerdesk') =>
  (database: string) =>
    `postgresql://${user}@localhost/${database}?host=${encodeURIComponent(dir)}&port=${port}`;

export interface ClusterOptions {
  /** The superuser initdb makes (default `ledgerdesk`, whom the suites connect as). */
  superuser?: string;
  /** Also listen on 127.0.0.1, where every role signs in with its password (scram-sha-256): a server as a firm runs it. */
  passwords?: boolean;
  /** Offer TLS with this certificate and key (support/certificate.ts). */
  tls?: { certFile: string; keyFile: string };
}

/** The settings a cluster's options add: listening on 127.0.0.1 with passwords, TLS with the files copied where the server reads them. */
function optionSettings(dir: string, options: ClusterOptions): string {
  let settings = options.passwords ? " -c listen_addresses='127.0.0.1'" : '';
  if (options.tls) {
    // The server reads its key only when the key is its own user's and no one else may read it.
    const [cert, key] = [join(dir, 'server.crt'), join(dir, 'server.key')];
    copyFileSync(options.tls.certFile, cert);
    copyFileSync(options.tls.keyFile, key);
    chmodSync(key, 0o600);
    if (asRoot) for (const f of [cert, key]) chownSync(f, postgresId('-u'), postgresId('-g'));
    settings += ` -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
  }
  return settings;
}

export function startPostgres(options: ClusterOptions = {}): ThrowawayPostgres {
  const superuser = options.superuser ?? 'ledgerdesk';
  const bin = binDir();
  const dir = serverDir('ldk-pg-');
  const run = (command: string, args: string[]) => runAsServer(join(bin, command), args);
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', superuser, options.passwords ? '--auth-host=scram-sha-256' : '--auth=trust', '--auth-local=trust', '--locale=C', '-E', 'UTF8', '--no-sync']);
  const port = freePort();
  pgStart(bin, dir, data, port, optionSettings(dir, options));
  const urlOf = clusterUrl(dir, port, superuser);
  return {
    url: urlOf('postgres'),
    urlOf,
    socketDir: dir,
    port,
    bin,
    superuser,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A hot standby of a cluster (a read replica, issue 51): `pg_basebackup -R` from it into a second cluster started
 * as a standby, streaming from it. Its databases are the primary's, read-only.
 */
export function startStandby(primary: ThrowawayPostgres): ThrowawayPostgres {
  const dir = serverDir('ldk-standby-');
  const data = join(dir, 'data');
  runAsServer(join(primary.bin, 'pg_basebackup'), [
    '-h',
    primary.socketDir,
    '-p',
    String(primary.port),
    '-U',
    'ledgerdesk',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  const port = freePort();
  pgStart(primary.bin, dir, data, port);
  const urlOf = clusterUrl(dir, port);
  return {
    url: urlOf('postgres'),
    urlOf,
    socketDir: dir,
    port,
    bin: primary.bin,
    superuser: primary.superuser,
    stop() {
      try {
        runAsServer(join(primary.bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface Pooler {
  /** A connection string for a database of the cluster, through the pooler (as `user`, default ledgerdesk). */
  urlOf(database: string, user?: string): string;
  socketDir: string;
  port: number;
  stop(): void;
}

/**
 * Debian's PgBouncer (1.18: no protocol-level prepared statements) in front of a cluster, in transaction pooling
 * (issue 51): consecutive transactions of one client may run on different server connections, and one server
 * connection serves many clients. `size` server connections per database and user: few, so that clients share them.
 */
export function startPgBouncer(cluster: Pick<ThrowawayPostgres, 'socketDir' | 'port'>, size = 4, users = ['ledgerdesk']): Pooler {
  const dir = serverDir('ldk-pgb-');
  const port = freePort();
  writeFileSync(join(dir, 'users.txt'), users.map((u) => `"${u}" ""\n`).join(''));
  const ini = [
    '[databases]',
    `* = host=${cluster.socketDir} port=${cluster.port}`,
    '[pgbouncer]',
    `listen_port = ${port}`,
    `unix_socket_dir = ${dir}`,
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${size}`,
    'max_client_conn = 1000',
    'server_check_delay = 0',
    `logfile = ${join(dir, 'log')}`,
    `pidfile = ${join(dir, 'pid')}`,
  ];
  writeFileSync(join(dir, 'pgbouncer.ini'), `${ini.join('\n')}\n`);
  // Daemonized (-d): listening when it returns; stopped by its process id.
  runAsServer('/usr/sbin/pgbouncer', ['-d', join(dir, 'pgbouncer.ini')]);
  const socket = join(dir, `.s.PGSQL.${port}`);
  for (let i = 0; i < 400 && !(existsSync(socket) && existsSync(join(dir, 'pid'))); i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
  if (!existsSync(join(dir, 'pid'))) throw new Error(`PgBouncer did not start: ${readFileSync(join(dir, 'log'), 'utf8')}`);
  const pid = Number(readFileSync(join(dir, 'pid'), 'utf8').trim());
  return {
    urlOf: (database, user) => clusterUrl(dir, port, user)(database),
    socketDir: dir,
    port,
    stop() {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

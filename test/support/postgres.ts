// A throwaway PostgreSQL for the tests: a cluster in a temp folder (C collation,
// as the server's databases are made, so orderings match SQLite's), reachable
// only by a Unix socket in that folder, stopped and removed after. As root (CI),
// the server runs as the postgres user, since PostgreSQL refuses to run as root.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

export interface ClusterOptions {
  /** The superuser initdb makes (default `ledgerdesk`, whom the suites connect as). */
  superuser?: string;
  /** Also listen on 127.0.0.1, where every role signs in with its password (scram-sha-256): a server as a firm runs it. */
  passwords?: boolean;
  /** Offer TLS with this certificate and key (support/certificate.ts). */
  tls?: { certFile: string; keyFile: string };
}

export function startPostgres(options: ClusterOptions = {}): ThrowawayPostgres {
  const superuser = options.superuser ?? 'ledgerdesk';
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'ldk-pg-'));
  const asRoot = userInfo().uid === 0;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  if (asRoot) {
    chownSync(dir, id('-u'), id('-g'));
    chmodSync(dir, 0o755);
  }
  const run = (command: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, command), args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', superuser, options.passwords ? '--auth-host=scram-sha-256' : '--auth=trust', '--auth-local=trust', '--locale=C', '-E', 'UTF8', '--no-sync']);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const listen = options.passwords ? '127.0.0.1' : '';
  let settings = `-k ${dir} -c listen_addresses='${listen}' -p ${port} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400`;
  if (options.tls) {
    // The server reads its key only when the key is its own user's and no one else may read it.
    const [cert, key] = [join(dir, 'server.crt'), join(dir, 'server.key')];
    copyFileSync(options.tls.certFile, cert);
    copyFileSync(options.tls.keyFile, key);
    chmodSync(key, 0o600);
    if (asRoot) for (const f of [cert, key]) chownSync(f, id('-u'), id('-g'));
    settings += ` -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
  }
  run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
  const urlOf = (database: string) => `postgresql://${superuser}@localhost/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
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

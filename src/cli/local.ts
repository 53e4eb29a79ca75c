// The owner's local commands: they act on the data folder directly, as the
// desktop's settings screen does (serve, token, demo, restore, sign-in). Agent commands go
// through the REST API instead.
import { parseArgs } from 'node:util';
import { createToken, listTokens, revokeToken } from '../main/ledger/access/tokens';
import type { Ledger } from '../main/ledger/core/storage';
import type { Organization } from '../main/ledger/access/organizations';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backupTo, checkBackup, restoreInto } from '../main/ledger/core/sqlite/backup';
import { LedgerError } from '../main/ledger/core/errors';
import { DEFAULT_PORT, defaultDataDir, ledgerFile, receiptsDir } from '../main/paths';
import { running } from '../main/running';
import { issueCode, SIGN_IN_PATH } from '../main/desk/transport/sessions';
import { databaseOf, orgLabel, pickOrganization, withLedger } from './data';
import { UsageError } from './usage';

type Out = (line: string) => void;

export const LOCAL_USAGE = `Owner commands (act on the data folder, default ${defaultDataDir()}; or on a firm's PostgreSQL
server with --database postgres://... or LEDGERDESK_DATABASE_URL):
  serve [--port <p>] [--data <dir>] [--database <url>] [--read-only]  the agent API and the screens on 127.0.0.1 (port: LEDGERDESK_PORT, else ${DEFAULT_PORT}); --read-only: reads and reports from a read replica, every write refused
  serve --public-url <https://...> [--listen <host:port>] | --listen <host:port> --tls-cert <file> --tls-key <file>  reached by others: behind a TLS proxy at that address (LEDGERDESK_PUBLIC_URL), or over TLS of its own
  serve [--metrics-listen <host:port>] [--shutdown-grace <seconds>] [--sign-in-link]  Prometheus metrics on their own listener; how long a stop waits (20); the owner's link although people sign in
  sign-in [--data <dir>] [--database <url> --url <server>]  a fresh one-time sign-in link for the running server
  token create --name <n> --scopes read,propose-write [--org <slug>] [--data <dir>]
  token list [--org <slug>] [--data <dir>]
  token revoke <id> [--org <slug>] [--data <dir>]
  demo [--org <slug>] [--transactions N] [--data <dir>] fill an organization with demo books (default 500 rows)
  restore <backup> [--data <dir>]                   replace the books with a backup (checked first; the app must be stopped)
  restore <backup.dump> --database <url>            a server's backup (ledgerdesk backup --database) into a new, empty database, with pg_restore; each audit chain verified`;

const common = { data: { type: 'string' }, database: { type: 'string' }, org: { type: 'string' } } as const;

type Flags = Record<string, { type: 'string' } | { type: 'boolean' }>;

function parse(args: string[], options: Flags, usage: string): { values: Record<string, string | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options: { ...common, ...options }, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | undefined>, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

export async function token(args: string[], out: Out): Promise<void> {
  const [sub, ...rest] = args;
  const usage = LOCAL_USAGE.split('\n')
    .filter((l) => l.includes(' token '))
    .join('\n');
  const { values, positionals } = parse(rest, { name: { type: 'string' }, scopes: { type: 'string' } }, usage);
  await withLedger(values, async (ledger) => {
    const org = await pickOrganization(ledger, values.org as string | undefined);
    await ledger.forOrg(org.seq, () => tokenCommand(ledger, org, sub, values, positionals, usage, out));
  });
}

async function tokenCommand(
  ledger: Ledger,
  org: Organization,
  sub: string | undefined,
  values: Record<string, string | undefined>,
  positionals: string[],
  usage: string,
  out: Out,
): Promise<void> {
  if (sub === 'create') {
    if (!values.name || !values.scopes) throw new UsageError('token create needs --name and --scopes', usage);
    const { token: raw, info } = await createToken(ledger, org.seq, {
      name: values.name as string,
      scopes: (values.scopes as string)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    });
    out(`Created token "${info.name}" (${info.id}) for ${orgLabel(org)} with scopes ${info.scopes.join(', ')}.`);
    out('It is shown only this once; store it now:');
    out(raw);
  } else if (sub === 'list') {
    const rows = await listTokens(ledger, org.seq);
    if (rows.length === 0) out(`No tokens for ${orgLabel(org)}.`);
    for (const t of rows) {
      out([t.id, t.name, t.scopes.join(','), `created ${t.createdAt}`, `last used ${t.lastUsedAt ?? 'never'}`, t.revokedAt ? `REVOKED ${t.revokedAt}` : 'active'].join('  '));
    }
  } else if (sub === 'revoke') {
    if (positionals.length !== 1) throw new UsageError('token revoke takes one token id', usage);
    const info = await revokeToken(ledger, org.seq, positionals[0]);
    out(`Revoked token "${info.name}" (${info.id}) of ${orgLabel(org)} at ${info.revokedAt}.`);
  } else {
    throw new UsageError(`Unknown token command "${sub ?? ''}"`, usage);
  }
}

export async function demo(args: string[], out: Out): Promise<void> {
  const usage = 'demo [--org <slug>] [--transactions N] [--data <dir>]';
  const { values } = parse(args, { transactions: { type: 'string' } }, usage);
  const count = values.transactions === undefined ? 500 : Number(values.transactions);
  if (!Number.isInteger(count) || count < 1 || count > 10_000_000) throw new UsageError('--transactions must be 1 to 10000000', usage);
  await withLedger(values, async (ledger) => {
    const org = await pickOrganization(ledger, values.org as string | undefined, true);
    const started = performance.now();
    // The demo's generator (most of the domain) and the server are loaded by their own commands only: `token list` starts without them.
    const { fillDemo } = await import('../main/demo');
    const result = await ledger.forOrg(org.seq, () => fillDemo(ledger, org.seq, org.slug, count, org.currency));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    out(
      `Demo data for ${orgLabel(org)}: ${result.transactions} transactions, ${result.receipts} receipts, ${result.notes} notes, ${result.accounts} new accounts in ${seconds} s.`,
    );
  });
}

/**
 * Restore: refused while a Ledgerdesk server or app runs on the folder; the
 * backup is checked before anything is touched; the books it replaces are
 * kept as a backup in <data>/backups.
 */
export async function restore(args: string[], out: Out): Promise<void> {
  const usage = 'restore <backup> [--data <dir>] | restore <backup.dump> --database <url>';
  const { values, positionals } = parse(args, {}, usage);
  if (positionals.length !== 1) throw new UsageError('restore takes one backup file', usage);
  const database = databaseOf(values);
  // A server's backup goes into a new, empty database with pg_restore (server-backup.ts); nothing is replaced there.
  if (database) {
    const { restoreServerCommand } = await import('./server-backup');
    if ((await restoreServerCommand(positionals[0], database, out)) !== 0) throw new LedgerError('conflict', 'Restored, but an audit chain does not verify: see above.', null);
    return;
  }
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  const server = running(dataDir);
  if (server)
    throw new LedgerError('conflict', `Ledgerdesk is running on ${dataDir} (process ${server.pid}): stop it (close the app or the server), then restore.`, { pid: server.pid });
  const backup = resolve(positionals[0]);
  const checked = checkBackup(backup);
  let kept: string | null = null;
  if (existsSync(ledgerFile(dataDir))) {
    // The backups group (and the domain it reads) loads for a restore only: `token list` starts without it.
    const { backupsDir } = await import('../main/desk/access/backups');
    kept = join(backupsDir(dataDir), `before-restore-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.backup`);
    await withLedger({ data: dataDir }, (ledger) => backupTo(ledger, kept!));
  }
  // A backup from before issue 44 keeps receipts' files apart: written beside the books, moved into them at the open below.
  restoreInto(ledgerFile(dataDir), receiptsDir(dataDir), backup);
  await withLedger({ data: dataDir }, () => undefined); // opens once: migrates a backup from an earlier build
  out(`Restored ${backup} (made ${checked.createdAt}) into ${dataDir}: ${checked.receipts} receipt file(s) in it.`);
  if (kept) out(`The books it replaced are kept in ${kept}.`);
}

/**
 * Prints a new one-time sign-in link for the server running on the folder (the first one is printed at start), or
 * for a server of a PostgreSQL database (--url: where that server is reached; the code is in the database, so any
 * of its processes takes it).
 */
export async function signIn(args: string[], out: Out): Promise<void> {
  const usage = 'sign-in [--data <dir>] [--database <url> --url <server>]';
  const { values, positionals } = parse(args, { url: { type: 'string' } }, usage);
  if (positionals.length) throw new UsageError('sign-in takes no arguments', usage);
  if (databaseOf(values)) {
    if (!values.url) throw new UsageError('sign-in --database needs --url: where the server is reached (http://127.0.0.1:7311, say)', usage);
    const base = values.url.replace(/\/+$/, '');
    out(`${base}${SIGN_IN_PATH}?code=${await withLedger(values, (ledger) => issueCode(ledger))}`);
    return;
  }
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  const server = running(dataDir);
  if (!server) throw new LedgerError('not_found', `No Ledgerdesk server is running on ${dataDir}: start it with npm start (or ledgerdesk serve).`, { dataDir });
  if (!server.url) throw new LedgerError('conflict', 'The desktop app runs on this folder: its window is the desk, no browser sign-in is needed.', { pid: server.pid });
  out(`${server.url}${SIGN_IN_PATH}?code=${await withLedger(values, (ledger) => issueCode(ledger))}`);
}

/** Dispatches one owner command; exit code 0 when it returns. */
export async function runLocal(command: string, args: string[], out: Out): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    const lines = LOCAL_USAGE.split('\n').filter((l) => l.trimStart().startsWith(`${command} `));
    out(`Usage:\n${lines.map((l) => `  ledgerdesk ${l.trim()}`).join('\n')}`);
    return 0;
  }
  if (command === 'serve') await (await import('./serve')).serve(args, out);
  else if (command === 'token') await token(args, out);
  else if (command === 'demo') await demo(args, out);
  else if (command === 'restore') await restore(args, out);
  else await signIn(args, out);
  return 0;
}

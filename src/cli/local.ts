// The owner's local commands: they act on the data folder directly, as the
// desktop's settings screen does (serve, token, demo, restore, sign-in). Agent commands go
// through the REST API instead.
import { parseArgs } from 'node:util';
import { createToken, listTokens, revokeToken, type Ledger, type Organization } from '../main/ledger';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backupsDir } from '../main/desk/access/backups';
import { backupTo, checkBackup, LedgerError, restoreInto } from '../main/ledger';
import { DEFAULT_PORT, defaultDataDir, ledgerFile, receiptsDir } from '../main/paths';
import { running, runningPid } from '../main/running';
import { issueCode, SIGN_IN_PATH } from '../main/desk/transport/sessions';
import { withoutPassword } from '../main/ledger/core/open';
import { databaseOf, orgLabel, pickOrganization, withLedger } from './data';
import { REACH_FLAGS, reachFlags, reachLine } from './reach-flags';
import { UsageError } from './usage';
import { fillDemo } from '../main/demo';

type Out = (line: string) => void;

export const LOCAL_USAGE = `Owner commands (act on the data folder, default ${defaultDataDir()}; or on a firm's PostgreSQL
server with --database postgres://... or LEDGERDESK_DATABASE_URL):
  serve [--port <p>] [--data <dir>] [--database <url>]  the agent API and the screens on 127.0.0.1 (port: LEDGERDESK_PORT, else ${DEFAULT_PORT})
  serve --public-url <https://...> [--listen <host:port>] | --listen <host:port> --tls-cert <file> --tls-key <file>  reached by others: behind a TLS proxy at that address (LEDGERDESK_PUBLIC_URL), or over TLS of its own
  sign-in [--data <dir>] [--database <url> --url <server>]  a fresh one-time sign-in link for the running server
  token create --name <n> --scopes read,propose-write [--org <slug>] [--data <dir>]
  token list [--org <slug>] [--data <dir>]
  token revoke <id> [--org <slug>] [--data <dir>]
  demo [--org <slug>] [--transactions N] [--data <dir>] fill an organization with demo books (default 500 rows)
  restore <backup> [--data <dir>]                   replace the books with a backup (checked first; the app must be stopped)
  restore <backup.dump> --database <url>            a server's backup (ledgerdesk backup --database) into a new, empty database, with pg_restore; each audit chain verified`;

const common = { data: { type: 'string' }, database: { type: 'string' }, org: { type: 'string' } } as const;

type Flags = Record<string, { type: 'string' }>;

function parse(args: string[], options: Flags, usage: string): { values: Record<string, string | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options: { ...common, ...options }, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | undefined>, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

export async function serve(args: string[], out: Out): Promise<void> {
  const usage = 'serve [--port <p>] [--data <dir>] [--database <url>] [--public-url <https://...>] [--listen <host:port>] [--tls-cert <file> --tls-key <file>]';
  const { values } = parse(args, { port: { type: 'string' }, ...REACH_FLAGS }, usage);
  const { options, reach } = reachFlags(values, usage);
  const port = options.port;
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  const database = databaseOf(values);
  // A second start on the same folder's books: say where the first one is and hand out a link to it (a
  // server's database has as many processes in front of it as the firm starts).
  const already = database ? null : running(dataDir);
  if (already) {
    if (!already.url)
      throw new LedgerError('conflict', `The Ledgerdesk desktop app is already running on ${dataDir} (process ${already.pid}): its window is the desk.`, { pid: already.pid });
    out(`Ledgerdesk is already running for ${dataDir} (process ${already.pid}) at ${already.url}.`);
    out(`Screens: open this one-time sign-in link in your browser: ${already.url}${SIGN_IN_PATH}?code=${await withLedger(values, (ledger) => issueCode(ledger))}`);
    out('(Stop that one first to start another; `ledgerdesk sign-in` prints another link.)');
    return;
  }
  // The servers (express, the MCP SDK) load only here: no other command needs them.
  const { startHeadless } = await import('../main/headless');
  const app = await startHeadless(dataDir, { ...options, database }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    throw new LedgerError(
      'conflict',
      `Port ${port} on ${reach.host} is taken by another program (or a Ledgerdesk serving another data folder): start on another one with --port <p> (npm start -- --port <p>) or LEDGERDESK_PORT.`,
      { port },
    );
  });
  // Ctrl-C, a service manager's SIGTERM, a closed terminal's SIGHUP: stop cleanly (the pid file goes too).
  // Listening before the address is printed: whoever reads it may signal at once, and a signal with
  // no listener yet would kill the process outright.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      for (const s of signals) process.off(s, stop);
      void app.stop().then(resolve);
    };
    for (const s of signals) process.on(s, stop);
  });
  out(`Ledgerdesk for ${database ? withoutPassword(database) : dataDir}`);
  const reached = reachLine(reach, app.server.port);
  if (reached) out(reached);
  out(`Screens: open this one-time sign-in link in your browser: ${app.signInUrl}`);
  out(`MCP tool bridge: ${app.server.url}/api/mcp`);
  out(`${app.server.url}/api/v1`);
  await stopped;
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
  const pid = runningPid(dataDir);
  if (pid) throw new LedgerError('conflict', `Ledgerdesk is running on ${dataDir} (process ${pid}): stop it (close the app or the server), then restore.`, { pid });
  const backup = resolve(positionals[0]);
  const checked = checkBackup(backup);
  let kept: string | null = null;
  if (existsSync(ledgerFile(dataDir))) {
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
  if (command === 'serve') await serve(args, out);
  else if (command === 'token') await token(args, out);
  else if (command === 'demo') await demo(args, out);
  else if (command === 'restore') await restore(args, out);
  else await signIn(args, out);
  return 0;
}

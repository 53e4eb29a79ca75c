// `ledgerdesk serve` (and `npm start` without a display): the headless server in
// the foreground, as a service manager runs it (issue 51): JSON log lines on
// stderr (service/log.ts), health checks, metrics when asked for, and a graceful
// stop on SIGTERM/SIGINT/SIGHUP: requests in flight finish within the grace,
// then the books close and the process exits 0. The lines it prints at start
// stay plain text (the command's answer: where it serves, the API's base URL as
// the last line, which scripts and `npm start` read).
import { parseArgs } from 'node:util';
import { LedgerError } from '../main/ledger';
import { anyPerson } from '../main/ledger/access/people';
import { withoutPassword } from '../main/ledger/core/open';
import { issueCode, SIGN_IN_PATH } from '../main/desk/transport/sessions';
import { defaultDataDir } from '../main/paths';
import { running, type Running } from '../main/running';
import type { Headless } from '../main/headless';
import type { ServiceLogger } from '../main/service/log';
import { databaseOf, withLedger } from './data';
import { REACH_FLAGS, reachFlags, reachLine } from './reach-flags';
import { SERVICE_FLAGS, serviceFlags } from './service-flags';
import { UsageError } from './usage';

type Out = (line: string) => void;

export const SERVE_USAGE =
  'serve [--port <p>] [--data <dir>] [--database <url>] [--read-only] [--public-url <https://...>] [--listen <host:port>] [--tls-cert <file> --tls-key <file>] [--metrics-listen <host:port>] [--shutdown-grace <seconds>] [--sign-in-link]';

const FLAGS = {
  data: { type: 'string' },
  database: { type: 'string' },
  org: { type: 'string' },
  port: { type: 'string' },
  'read-only': { type: 'boolean' },
  ...REACH_FLAGS,
  ...SERVICE_FLAGS,
} as const;

const LINK_LINE = 'Screens: open this one-time sign-in link in your browser:';
const PEOPLE_LINE = 'people sign in with their email and password (a one-time owner link: `ledgerdesk sign-in`, or serve --sign-in-link)';

/**
 * The owner's one-time link makes its holder every organization's owner: printed where nobody else signs in (one
 * person's books, a first start) or when asked; a firm's server with N processes would otherwise print N live links.
 */
const printsLink = async (ledger: Headless['ledger'], asked: boolean): Promise<boolean> => asked || !(await ledger.forOrg('all', () => anyPerson(ledger)));

export async function serve(args: string[], out: Out): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args, options: FLAGS, allowPositionals: false, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message, SERVE_USAGE);
  }
  const strings = values as Record<string, string | undefined>;
  const { options, reach } = reachFlags(strings, SERVE_USAGE);
  const service = await serviceFlags(values, SERVE_USAGE);
  const dataDir = strings.data ?? defaultDataDir();
  const database = databaseOf(strings);
  const readOnly = values['read-only'] === true;
  if (readOnly && !database) throw new UsageError('--read-only serves a PostgreSQL read replica: name it with --database (or LEDGERDESK_DATABASE_URL)', SERVE_USAGE);
  // A second start on the same folder's books: say where the first one is (a server's database has as many
  // processes in front of it as the firm starts).
  const already = database ? null : running(dataDir);
  if (already) return pointAtRunning(already, dataDir, strings, service.signInLink, out);
  // The servers (express, the MCP SDK, pino) load only here: no other command needs them.
  const [{ startHeadless }, { createLogger, logTo }] = await Promise.all([import('../main/headless'), import('../main/service/log')]);
  const logger = createLogger(service.log);
  const app = await startHeadless(dataDir, { ...options, database, readOnly, log: logTo(logger), logger, metrics: service.metrics, signInLink: false }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    throw new LedgerError(
      'conflict',
      `Port ${options.port} on ${reach.host} is taken by another program (or a Ledgerdesk serving another data folder): start on another one with --port <p> (npm start -- --port <p>) or LEDGERDESK_PORT.`,
      { port: options.port },
    );
  });
  // Listening before the address is printed: whoever reads it may signal at once, and a signal with no listener
  // yet would kill the process outright.
  const stopped = stopOnSignals(app, service.graceMs, logger);
  out(`Ledgerdesk for ${database ? withoutPassword(database) : dataDir}`);
  const reached = reachLine(reach, app.server.port);
  if (reached) out(reached);
  if (app.ledger.readOnly) out('Read-only (a read replica): the agent API reads and reports; every write, sign-in included, is refused (read_only).');
  else out((await printsLink(app.ledger, service.signInLink)) ? `${LINK_LINE} ${await app.newSignInUrl()}` : `Screens: ${app.server.url}/ (${PEOPLE_LINE})`);
  if (app.metricsUrl) out(`Metrics (Prometheus): ${app.metricsUrl}`);
  out(`MCP tool bridge: ${app.server.url}/api/mcp`);
  out(`${app.server.url}/api/v1`);
  logger.info({ url: app.server.url, metrics: app.metricsUrl ?? null, graceSeconds: service.graceMs / 1000 }, 'serving');
  await stopped;
  // Whatever a request cut by the grace still holds must not keep the process: it goes once the log is written.
  setTimeout(() => process.exit(), 2_000).unref();
}

/**
 * Ctrl-C, a service manager's SIGTERM, a closed terminal's SIGHUP: stop gracefully (the pid file goes too). A
 * person's second Ctrl-C while stopping ends the process at once (exit 130); another SIGTERM changes nothing (a
 * relay may send one twice; a service manager that will not wait longer sends SIGKILL).
 */
function stopOnSignals(app: Headless, graceMs: number, logger: ServiceLogger): Promise<void> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  return new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        if (signal !== 'SIGINT') return;
        logger.warn({ signal }, 'stopping at once: requests still in flight are cut');
        process.exit(130);
      }
      stopping = true;
      // Said once the listener is closed (stop closes it before its first wait): whoever reads the line and connects is refused.
      const stopped = app.stop(graceMs);
      logger.info({ signal, graceSeconds: graceMs / 1000 }, 'stopping: no new requests; those in flight finish');
      void stopped.then((cut) => {
        if (cut > 0) logger.warn({ cut }, 'the grace ran out: requests still in flight were cut');
        logger.info('stopped');
        for (const s of signals) process.off(s, stop);
        resolve();
      });
    };
    for (const s of signals) process.on(s, stop);
  });
}

/** Started again on a folder a Ledgerdesk already serves: where it is, and a link to it where this start may print one. */
async function pointAtRunning(already: Running, dataDir: string, values: Record<string, string | undefined>, asked: boolean, out: Out): Promise<void> {
  const process_ = already.pid ? ` (process ${already.pid})` : '';
  if (!already.url) throw new LedgerError('conflict', `The Ledgerdesk desktop app is already running on ${dataDir}${process_}: its window is the desk.`, { pid: already.pid });
  out(`Ledgerdesk is already running for ${dataDir}${process_} at ${already.url}.`);
  const link = await withLedger(values, async (ledger) => ((await printsLink(ledger, asked)) ? issueCode(ledger) : null));
  out(link ? `${LINK_LINE} ${already.url}${SIGN_IN_PATH}?code=${link}` : `Screens: ${already.url}/ (${PEOPLE_LINE})`);
  out('(Stop that one first to start another; `ledgerdesk sign-in` prints another link.)');
}

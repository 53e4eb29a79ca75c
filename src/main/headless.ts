// The headless entry: the same main-process code as the desktop app, under
// plain Node, with the screens served to a browser behind a one-time sign-in;
// on a data folder's SQLite file, or on a firm's PostgreSQL server (`database`),
// where several such processes serve the same books. Others reach it over TLS
// of its own or behind a TLS reverse proxy at a public URL (api/reach.ts).
import { dirname, join } from 'node:path';
import { planReach, type ReachOptions } from './api/reach';
import { startServer, type RunningServer } from './api/server';
import { scheduleDailyBackups } from './desk/access/backups';
import { scheduleJournalRepeats } from './desk/journals/schedule';
import { stagingLimits, type StagingLimits } from './desk/staged-limits';
import { scheduleStagedSweep } from './desk/staged-sweep';
import { startJobs } from './jobs/runner';
import { JOBS } from './jobs/list';
import { mountDesk, SIGN_IN_PATH } from './desk/transport/http';
import { DeskSessions } from './desk/transport/sessions';
import { deskActor, ensureDefaultOrganization, type Ledger } from './ledger';
import { openBooks } from './ledger/core/open';
import { keepServerSetting, serverSetting } from './ledger/access/server-settings';
import { findShipped } from './ledger/core/paths';
import { DEFAULT_PORT, ledgerFile } from './paths';
import { holdFolder, type Held } from './running';
import type { Log } from './api/errors';
import type { ServiceLogger } from './service/log';
import type { Metrics } from './service/metrics';

export { DEFAULT_PORT };

/** out/renderer of this checkout (built by `npm run build`). */
export const defaultRendererDir = (): string => join(dirname(findShipped('package.json')), 'out', 'renderer');

export interface Headless {
  ledger: Ledger;
  server: RunningServer;
  /** Signs a browser in once ('' when signInLink was false, and on a read replica: nothing signs in there); ask for another with newSignInUrl(). */
  signInUrl: string;
  newSignInUrl(): Promise<string>;
  /** Where Prometheus scrapes this process, when metrics are on. */
  metricsUrl?: string;
  /**
   * Stops: background work first, then the server (gracefully within `graceMs`: requests in flight finish; 0: at
   * once), then the books. Answers how many requests the grace cut.
   */
  stop(graceMs?: number): Promise<number>;
}

/** `listen`, `tls`, `publicUrl`: how others reach the server (api/reach.ts); `port` defaults to DEFAULT_PORT. */
export interface HeadlessOptions extends ReachOptions {
  log?: Log;
  /** The structured log (service/log.ts): an access line per request, each line naming its request. */
  logger?: ServiceLogger;
  /** Prometheus metrics on a listener of their own (service/metrics.ts; prom-client loads only then). */
  metrics?: { listen: { host: string; port: number }; token?: string };
  rendererDir?: string;
  /** A PostgreSQL server's books (postgres://...) instead of the data folder's file. */
  database?: string;
  /** Serve reads only (a read replica's books): every write refused with read_only (issue 51). */
  readOnly?: boolean;
  /** What uploads may stage (default: the settings in the environment, staged-limits.ts). */
  staging?: StagingLimits;
  /** Issue a one-time sign-in link at start (default true); `serve` asks only when it will print it. */
  signInLink?: boolean;
}

/** How long the books may take to close after the server stopped, before the process goes anyway. */
const CLOSE_WITHIN_MS = 5_000;

/** A data folder's books have one server at a time: its lock first (a second start is refused before anything opens). */
async function openHeld(dataDir: string, database: string | undefined, log: Log, readOnly?: boolean): Promise<{ held: Held | null; ledger: Ledger }> {
  const held = database ? null : holdFolder(dataDir);
  const ledger = await openBooks({ ledgerFile: ledgerFile(dataDir), database }, { log, readOnly }).catch((error: unknown) => {
    held?.release();
    throw error;
  });
  return { held, ledger };
}

async function rememberPublicAddress(ledger: Ledger, url: string, log: (m: string) => void): Promise<void> {
  try {
    if ((await serverSetting(ledger, 'public_url')) !== url) await keepServerSetting(ledger, 'public_url', url);
  } catch (error) {
    // A read-only server (a replica) cannot keep it; invitations are made where the books are written.
    log(`The public address ${url} was not kept in the books' database: ${(error as Error).message}`);
  }
}

/**
 * The work a server does on its own: a data folder's daily backup (a PostgreSQL server's books have several processes
 * in front of them, and the firm's own backups: pg_dump), the repeating journals, the sweep of staged files. A read
 * replica writes nothing, so runs none of the last two. Answers how to stop them.
 */
async function startBackground(ledger: Ledger, dataDir: string, log: Log): Promise<() => Promise<void>> {
  const stops = [
    ledger.engine === 'sqlite' ? scheduleDailyBackups(ledger, dataDir, log) : () => undefined,
    ledger.readOnly ? () => undefined : await scheduleJournalRepeats(ledger, log),
    ledger.readOnly ? () => undefined : await scheduleStagedSweep(ledger, dataDir, log),
  ];
  // The jobs (jobs/list.ts: connectors' syncs...): a replica writes nothing, so runs none.
  const jobs = ledger.readOnly ? null : startJobs(ledger, JOBS, { log });
  return async () => {
    stops.forEach((stop) => stop());
    await new Promise((d) => setTimeout(d, 800));
    await jobs?.stop();
  };
}

export async function startHeadless(dataDir: string, options: HeadlessOptions = {}): Promise<Headless> {
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  // Refused (ReachError) before the books open.
  const reach = planReach({ ...options, port: options.port ?? DEFAULT_PORT });
  // A bad setting is refused at start, named, not at the first upload.
  const staging = options.staging ?? stagingLimits();
  const { held, ledger } = await openHeld(dataDir, options.database, log, options.readOnly);
  const sessions = new DeskSessions(ledger);
  const progress = new Map<string, { phase: string; rows: number }>();
  let url = '';
  let metrics: Metrics | undefined;
  try {
    // A read replica (issue 51) writes nothing: no first organization, no repeating journals, no sign-in code (a
    // session is a write: people sign in on a server of the primary).
    if (!ledger.readOnly) await ledger.forOrg('all', () => ensureDefaultOrganization(ledger));
    const reviewer = deskActor();
    if (options.metrics) metrics = await (await import('./service/metrics')).startMetrics({ ledger, ...options.metrics });
    const server = await startServer({
      ledger,
      port: reach.port,
      listen: options.listen,
      tls: options.tls,
      publicUrl: options.publicUrl,
      log,
      logger: options.logger,
      observe: metrics?.observe,
      mount: (app) =>
        mountDesk(app, {
          sessions,
          log,
          secure: reach.secure,
          rendererDir: options.rendererDir ?? defaultRendererDir(),
          // Invitation links name the address others reach (the public URL, or this server's TLS name).
          context: () => ({ ledger, dataDir, agentUrl: url, publicUrl: reach.secure ? url : undefined, mode: 'browser', reviewer, progress, staging }),
        }),
    });
    url = server.url;
    // The address others reach is kept in the books' database, so an invitation printed by a command in another
    // shell (or on another machine, against the same database) links there too (issue 50).
    if (reach.secure && !ledger.readOnly) await rememberPublicAddress(ledger, url, log);
    held?.announce(server.url);
    const stopBackground = await startBackground(ledger, dataDir, log);
    const newSignInUrl = async () => `${server.url}${SIGN_IN_PATH}?code=${await sessions.issueCode()}`;
    return {
      ledger,
      server,
      signInUrl: options.signInLink === false || ledger.readOnly ? '' : await newSignInUrl(),
      newSignInUrl,
      metricsUrl: metrics?.url,
      async stop(graceMs = 0) {
        // The listener closes before any wait (drain and close begin with it): a job's turn still finishing must not
        // leave the port taking connections that are then reset.
        const served = graceMs > 0 ? server.drain(graceMs) : server.close().then(() => 0);
        await stopBackground();
        const cut = await served;
        await metrics?.close();
        // A request the grace cut may still hold a connection: the books close, or the process goes without them.
        await Promise.race([ledger.end(), new Promise((done) => setTimeout(done, CLOSE_WITHIN_MS).unref())]);
        held?.release();
        return cut;
      },
    };
  } catch (error) {
    await metrics?.close();
    await ledger.end();
    held?.release();
    throw error;
  }
}

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
import { mountDesk, SIGN_IN_PATH } from './desk/transport/http';
import { DeskSessions } from './desk/transport/sessions';
import { deskActor, ensureDefaultOrganization, type Ledger } from './ledger';
import { openBooks } from './ledger/core/open';
import { findShipped } from './ledger/core/paths';
import { DEFAULT_PORT, ledgerFile } from './paths';
import { markRunning } from './running';

export { DEFAULT_PORT };

/** out/renderer of this checkout (built by `npm run build`). */
export const defaultRendererDir = (): string => join(dirname(findShipped('package.json')), 'out', 'renderer');

export interface Headless {
  ledger: Ledger;
  server: RunningServer;
  /** Signs a browser in once; ask for another with newSignInUrl(). */
  signInUrl: string;
  newSignInUrl(): Promise<string>;
  stop(): Promise<void>;
}

/** `listen`, `tls`, `publicUrl`: how others reach the server (api/reach.ts); `port` defaults to DEFAULT_PORT. */
export interface HeadlessOptions extends ReachOptions {
  log?: (m: string) => void;
  rendererDir?: string;
  /** A PostgreSQL server's books (postgres://...) instead of the data folder's file. */
  database?: string;
  /** What uploads may stage (default: the settings in the environment, staged-limits.ts). */
  staging?: StagingLimits;
}

export async function startHeadless(dataDir: string, options: HeadlessOptions = {}): Promise<Headless> {
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  // Refused (ReachError) before the books open.
  const reach = planReach({ ...options, port: options.port ?? DEFAULT_PORT });
  // A bad setting is refused at start, named, not at the first upload.
  const staging = options.staging ?? stagingLimits();
  const ledger = await openBooks({ ledgerFile: ledgerFile(dataDir), database: options.database }, { log });
  const sessions = new DeskSessions(ledger);
  const progress = new Map<string, { phase: string; rows: number }>();
  let url = '';
  try {
    await ledger.forOrg('all', () => ensureDefaultOrganization(ledger));
    const reviewer = deskActor();
    const server = await startServer({
      ledger,
      port: reach.port,
      listen: options.listen,
      tls: options.tls,
      publicUrl: options.publicUrl,
      log,
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
    // A data folder's books have one server at a time, and their daily backup; a PostgreSQL server's books have
    // several processes in front of them, and the firm's own backups (pg_dump).
    const onFile = ledger.engine === 'sqlite';
    const unmark = onFile ? markRunning(dataDir, server.url) : () => undefined;
    const stopBackups = onFile ? scheduleDailyBackups(ledger, dataDir, log) : () => undefined;
    const stopRepeats = await scheduleJournalRepeats(ledger, log);
    const stopSweep = await scheduleStagedSweep(ledger, dataDir, log);
    const newSignInUrl = async () => `${server.url}${SIGN_IN_PATH}?code=${await sessions.issueCode()}`;
    return {
      ledger,
      server,
      signInUrl: await newSignInUrl(),
      newSignInUrl,
      async stop() {
        stopBackups();
        stopRepeats();
        stopSweep();
        await server.close();
        await ledger.end();
        unmark();
      },
    };
  } catch (error) {
    await ledger.end();
    throw error;
  }
}

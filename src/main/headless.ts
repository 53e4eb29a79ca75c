// The headless entry: the same main-process code as the desktop app, under
// plain Node, with the screens served to a browser behind a one-time sign-in.
import { dirname, join } from 'node:path';
import { startServer, type RunningServer } from './api/server';
import { scheduleDailyBackups } from './desk/access/backups';
import { scheduleJournalRepeats } from './desk/journals/schedule';
import { mountDesk, SIGN_IN_PATH } from './desk/transport/http';
import { DeskSessions, signInInbox } from './desk/transport/sessions';
import { deskActor, ensureDefaultOrganization, openLedger, type Ledger } from './ledger';
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
  newSignInUrl(): string;
  stop(): Promise<void>;
}

export interface HeadlessOptions {
  port?: number;
  log?: (m: string) => void;
  rendererDir?: string;
}

export async function startHeadless(dataDir: string, options: HeadlessOptions = {}): Promise<Headless> {
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const ledger = openLedger(ledgerFile(dataDir), { log });
  const sessions = new DeskSessions(Date.now, signInInbox(dataDir));
  const progress = new Map<string, { phase: string; rows: number }>();
  let url = '';
  try {
    await ensureDefaultOrganization(ledger);
    const reviewer = deskActor();
    const server = await startServer({
      ledger,
      port: options.port ?? DEFAULT_PORT,
      log,
      mount: (app) =>
        mountDesk(app, {
          sessions,
          log,
          rendererDir: options.rendererDir ?? defaultRendererDir(),
          context: () => ({ ledger, dataDir, agentUrl: url, mode: 'browser', reviewer, progress }),
        }),
    });
    url = server.url;
    const unmark = markRunning(dataDir, server.url);
    const stopBackups = scheduleDailyBackups(ledger, dataDir, log);
    const stopRepeats = await scheduleJournalRepeats(ledger, log);
    const newSignInUrl = () => `${server.url}${SIGN_IN_PATH}?code=${sessions.issueCode()}`;
    return {
      ledger,
      server,
      signInUrl: newSignInUrl(),
      newSignInUrl,
      async stop() {
        stopBackups();
        stopRepeats();
        await server.close();
        ledger.close();
        unmark();
      },
    };
  } catch (error) {
    ledger.close();
    throw error;
  }
}

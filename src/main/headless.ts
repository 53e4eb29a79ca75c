// The headless entry: the same main-process code as the desktop app, under plain Node.
import { ensureDefaultOrganization, openLedger, type Ledger } from './ledger';
import { startServer, type RunningServer } from './api/server';
import { ledgerFile } from './paths';

export const DEFAULT_PORT = 7311;

export interface Headless {
  ledger: Ledger;
  server: RunningServer;
  stop(): Promise<void>;
}

export async function startHeadless(dataDir: string, port = DEFAULT_PORT, log?: (m: string) => void): Promise<Headless> {
  const ledger = openLedger(ledgerFile(dataDir));
  try {
    ensureDefaultOrganization(ledger);
    const server = await startServer({ ledger, port, log });
    return {
      ledger,
      server,
      async stop() {
        await server.close();
        ledger.close();
      },
    };
  } catch (error) {
    ledger.close();
    throw error;
  }
}

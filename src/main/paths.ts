// Where the ledger lives: the per-user app-data folder of the OS, the same
// folder Electron's app.getPath('userData') gives, so desktop and headless share it.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Ledgerdesk';

/** Where the agent API listens unless told otherwise (LEDGERDESK_PORT, --port). */
export const DEFAULT_PORT = 7311;

/** LEDGERDESK_PORT when set, else DEFAULT_PORT: the desktop app and `serve` alike. */
export function configuredPort(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LEDGERDESK_PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || port > 65535) throw new Error(`LEDGERDESK_PORT must be a port number 0 to 65535, not "${raw}"`);
  return port;
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.LEDGERDESK_DATA) return env.LEDGERDESK_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

export const ledgerFile = (dataDir: string): string => join(dataDir, 'ledger.db');
export const receiptsDir = (dataDir: string): string => join(dataDir, 'receipts');

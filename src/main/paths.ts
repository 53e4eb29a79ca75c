// Where the ledger lives: the per-user app-data folder of the OS, the same
// folder Electron's app.getPath('userData') gives, so desktop and headless share it.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Ledgerdesk';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.LEDGERDESK_DATA) return env.LEDGERDESK_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

export const ledgerFile = (dataDir: string): string => join(dataDir, 'ledger.db');
export const receiptsDir = (dataDir: string): string => join(dataDir, 'receipts');

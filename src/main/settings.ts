// The desktop app's own settings, apart from the books: a small JSON file in the
// data folder (today the last firm's server connected to). A missing or broken
// file is no settings; it is rewritten whole, through a temp file.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Settings {
  /** The origin of the last firm's server opened with "Connect to a firm's server". */
  firmServerUrl?: string;
}

export const settingsFile = (dataDir: string): string => join(dataDir, 'settings.json');

export function readSettings(dataDir: string): Settings {
  try {
    const value: unknown = JSON.parse(readFileSync(settingsFile(dataDir), 'utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Settings) : {};
  } catch {
    return {};
  }
}

export function saveSettings(dataDir: string, change: Partial<Settings>): void {
  const temp = `${settingsFile(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...readSettings(dataDir), ...change }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, settingsFile(dataDir));
}

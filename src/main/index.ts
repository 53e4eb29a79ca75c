// The Electron entry: a secure window over the same main-process code that
// runs headless. The ledger uses better-sqlite3 built for Electron's ABI
// (native/electron, see scripts/prepare-electron-sqlite.mjs).
import { app, BrowserWindow, session, shell } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from './api/server';
import { ensureDefaultOrganization, openLedger, type Ledger } from './ledger';
import { DEFAULT_PORT } from './headless';
import { ledgerFile } from './paths';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export function windowOptions(preload: string): Electron.BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    show: false,
    title: 'Ledgerdesk',
    webPreferences: { preload, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, devTools: !app.isPackaged },
  };
}

let ledger: Ledger | undefined;
let server: RunningServer | undefined;

async function createWindow(): Promise<void> {
  const win = new BrowserWindow(windowOptions(join(__dirname, '../preload/index.js')));
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  await win.loadFile(join(__dirname, '../renderer/index.html'));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus());
  app.whenReady().then(async () => {
    const nativeBinding = join(app.getAppPath(), 'native', 'electron', 'better_sqlite3.node');
    ledger = openLedger(ledgerFile(app.getPath('userData')), existsSync(nativeBinding) ? { nativeBinding } : {});
    ensureDefaultOrganization(ledger);
    server = await startServer({ ledger, port: Number(process.env.LEDGERDESK_PORT ?? DEFAULT_PORT) });
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    session.defaultSession.webRequest.onHeadersReceived((details, callback) =>
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } }),
    );
    await createWindow();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => {
    void server?.close();
    ledger?.close();
  });
}

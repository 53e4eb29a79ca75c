// The Electron entry: one window over the same main-process code that runs
// headless. The ledger uses better-sqlite3 built for Electron's ABI
// (native/electron, see scripts/prepare-electron-sqlite.mjs); the desk talks
// to the renderer over IPC only (desk/ipc.ts). The menu's "Connect to a firm's
// server…" opens a firm's server in a window of its own (firm-window.ts).
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer, type RunningServer } from './api/server';
import { scheduleDailyBackups } from './desk/access/backups';
import { scheduleJournalRepeats } from './desk/journals/schedule';
import { scheduleStagedSweep } from './desk/staged-sweep';
import { startJobs, type Runner } from './jobs/runner';
import { JOBS } from './jobs/list';
import { registerDeskIpc } from './desk/transport/ipc';
import { appMenu, connectToFirm } from './firm-connect';
import { deskActor, ensureDefaultOrganization, type Ledger } from './ledger';
import { openBooks } from './ledger/core/open';
import { protectKeysWith } from './ledger/core/secrets/keys';
import { configuredPort, ledgerFile } from './paths';
import { markRunning } from './running';
import { hardenContents, hardenSession, windowOptions } from './window';

const development = !app.isPackaged;
const rendererUrl = process.env.ELECTRON_RENDERER_URL && development ? process.env.ELECTRON_RENDERER_URL : pathToFileURL(join(__dirname, '../renderer/index.html')).href;
const log = (m: string) => console.error(m);

/** A receipt in the computer's own viewer; shell.openPath answers an error text rather than throwing. */
async function openPath(path: string): Promise<void> {
  const problem = await shell.openPath(path);
  if (problem) throw new Error(`Could not open the file: ${problem}`);
}

let ledger: Ledger | undefined;
let server: RunningServer | undefined;
let unmark: (() => void) | undefined;
let stopBackups: (() => void) | undefined;
let stopRepeats: (() => void) | undefined;
let stopSweep: (() => void) | undefined;
let jobs: Runner | undefined;
let mainWindow: BrowserWindow | undefined;

/** LEDGERDESK_PORT, else 7311; a port already taken falls back to a free one (shown in the app). */
async function startAgentServer(open: Ledger): Promise<RunningServer> {
  const port = configuredPort();
  try {
    return await startServer({ ledger: open, port, log });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    log(`port ${port} is taken; the agent API uses a free port instead`);
    return await startServer({ ledger: open, port: 0, log });
  }
}

async function createWindow(): Promise<void> {
  const win = new BrowserWindow(windowOptions(join(__dirname, '../preload/index.js'), development));
  mainWindow = win;
  hardenContents(win.webContents, rendererUrl);
  win.once('ready-to-show', () => win.show());
  await win.loadURL(rendererUrl);
}

async function boot(): Promise<void> {
  const dataDir = app.getPath('userData');
  const nativeBinding = join(app.getAppPath(), 'native', 'electron', 'better_sqlite3.node');
  const binding = existsSync(nativeBinding) ? { nativeBinding } : {};
  // The folder's lock first: a `serve` already on this folder refuses this start, naming it, before the books open.
  unmark = markRunning(dataDir, null, binding);
  // The key that seals the books' secrets is kept in the data folder, protected by the system's keychain.
  if (safeStorage.isEncryptionAvailable()) {
    protectKeysWith({ name: 'safeStorage', protect: (text) => safeStorage.encryptString(text), unprotect: (blob) => safeStorage.decryptString(blob) });
  }
  const open = await openBooks({ ledgerFile: ledgerFile(dataDir) }, { log, ...binding });
  ledger = open;
  await ensureDefaultOrganization(open);
  const running = await startAgentServer(open);
  server = running;
  const reviewer = deskActor();
  const progress = new Map<string, { phase: string; rows: number }>();
  stopBackups = scheduleDailyBackups(open, dataDir, log);
  stopRepeats = await scheduleJournalRepeats(open, log);
  stopSweep = await scheduleStagedSweep(open, dataDir, log);
  jobs = startJobs(open, JOBS, { log });
  registerDeskIpc(ipcMain, {
    rendererUrl,
    log,
    context: () => ({ ledger: open, dataDir, agentUrl: running.url, mode: 'desktop', reviewer, progress, openPath, openExternal: (url) => shell.openExternal(url) }),
  });
  hardenSession(session.defaultSession);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(appMenu(() => void connectToFirm(dataDir, development).catch((e: Error) => dialog.showErrorBox("Could not connect to the firm's server", e.message)))),
  );
  await createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = mainWindow && !mainWindow.isDestroyed() ? mainWindow : BrowserWindow.getAllWindows()[0];
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });
  await app
    .whenReady()
    .then(boot)
    .catch((error: unknown) => {
      dialog.showErrorBox('Ledgerdesk could not start', (error as Error)?.message ?? String(error));
      app.quit();
    });
  app.on('window-all-closed', () => app.quit());
  // Started by `npm start`: quit when that process ends, however it ends (its pipe closes).
  if (process.env.LEDGERDESK_LIFELINE) {
    process.stdin.on('close', () => app.quit());
    process.stdin.on('end', () => app.quit());
    process.stdin.resume();
  }
  app.on('will-quit', () => {
    stopBackups?.();
    stopRepeats?.();
    stopSweep?.();
    // A turn under way (a sync's page) is in its own transaction: stopping between turns is enough.
    void jobs?.stop();
    void server?.close();
    ledger?.close();
    unmark?.();
  });
}

// "Connect to a firm's server" (issue 45): the firm's own screens, served by its
// `ledgerdesk serve`, in a window of their own. A remote site must never reach
// the local books: no preload (so no IPC bridge), a sandbox, a session partition
// of its own (its cookies apart from the app's), and it stays on its origin;
// links elsewhere open in the system browser. The local window is not touched.
import { createHash } from 'node:crypto';
import { hardenedWindow } from './window';
import { BrowserWindow, dialog, session, shell, type BrowserWindowConstructorOptions, type Session, type WebContents } from 'electron';

/** A firm's server as typed: where to open and its origin (what the window is kept to). */
export interface FirmAddress {
  url: string;
  origin: string;
}

const LOCAL_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https only; plain http only for a test server on this computer. A bare name is taken as https. */
export function firmAddress(text: string): FirmAddress {
  const typed = text.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`);
  } catch {
    throw new Error(`"${typed}" is not a server's address: type one like https://books.firm.example`);
  }
  if (url.username || url.password) throw new Error("Leave the name and password out of the address: you sign in on the server's own page.");
  const local = url.protocol === 'http:' && LOCAL_NAMES.has(url.hostname);
  if (url.protocol !== 'https:' && !local)
    throw new Error(
      `Only https:// addresses: your password and session would cross the network readable (plain http is for a test server on this computer, http://127.0.0.1:<port>).`,
    );
  return { url: url.href, origin: url.origin };
}

/** One persistent partition per server: its cookies survive a restart and stay apart from the app's and other firms'. */
export const firmPartition = (origin: string): string => `persist:firm-${createHash('sha256').update(origin).digest('hex').slice(0, 16)}`;

export const firmTitle = (origin: string): string => `Ledgerdesk: ${new URL(origin).host} (a firm's server)`;

export function firmWindowOptions(origin: string, development: boolean): BrowserWindowConstructorOptions {
  const base = hardenedWindow(firmTitle(origin), development);
  // No preload: the page gets no bridge to this computer's books.
  return { ...base, webPreferences: { ...base.webPreferences, partition: firmPartition(origin), safeDialogs: true } };
}

export function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** Another site's link: to the system browser, and only a web address (never file:, a custom scheme...). */
function openOutside(url: string): void {
  if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
}

/** The window stays on the firm's origin; its own new windows (a receipt in a tab) get the same options, others go outside. */
export function hardenFirmContents(contents: WebContents, origin: string, development: boolean): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (sameOrigin(url, origin)) return { action: 'allow', overrideBrowserWindowOptions: firmWindowOptions(origin, development) };
    openOutside(url);
    return { action: 'deny' };
  });
  contents.on('did-create-window', (child) => {
    child.on('page-title-updated', (event) => event.preventDefault());
    hardenFirmContents(child.webContents, origin, development);
  });
  for (const name of ['will-navigate', 'will-redirect'] as const) {
    contents.on(name as 'will-navigate', (event, url) => {
      if (sameOrigin(url, origin)) return;
      event.preventDefault();
      openOutside(url);
    });
  }
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Clipboard writes (the Tokens screen's Copy) and nothing else; the server sends its own CSP. */
export function hardenFirmSession(firm: Session): void {
  const allowed = (permission: string) => permission === 'clipboard-sanitized-write';
  firm.setPermissionRequestHandler((_contents, permission, callback) => callback(allowed(permission)));
  firm.setPermissionCheckHandler((_contents, permission) => allowed(permission));
}

const windows = new Map<string, BrowserWindow>();
const hardened = new Set<string>();

/** Opens (or brings forward) the firm's window at the address; the page's own title never replaces ours. */
export function openFirmWindow(address: FirmAddress, development: boolean): BrowserWindow {
  const open = windows.get(address.origin);
  if (open && !open.isDestroyed()) {
    open.focus();
    if (address.url !== `${address.origin}/`) open.loadURL(address.url).catch(() => undefined); // did-fail-load says why
    return open;
  }
  const partition = firmPartition(address.origin);
  if (!hardened.has(partition)) {
    hardenFirmSession(session.fromPartition(partition));
    hardened.add(partition);
  }
  const win = new BrowserWindow(firmWindowOptions(address.origin, development));
  windows.set(address.origin, win);
  win.on('closed', () => windows.delete(address.origin));
  win.on('page-title-updated', (event) => event.preventDefault());
  hardenFirmContents(win.webContents, address.origin, development);
  win.once('ready-to-show', () => win.show());
  // Unreachable, or a certificate Chromium refuses (never overridden): say so rather than leave a blank window.
  win.webContents.on('did-fail-load', (_event, code, description, url, mainFrame) => {
    if (!mainFrame || code === -3) return; // -3: a navigation this window refused
    dialog.showErrorBox(`Could not open ${address.origin}`, `${description} (${url})`);
    if (!win.isVisible()) win.close();
  });
  win.loadURL(address.url).catch(() => undefined);
  return win;
}

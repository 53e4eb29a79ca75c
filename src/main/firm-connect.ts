// The menu's "Connect to a firm's server…": a small local page asks for the
// address (no script, no preload: its form's submission is read by the main
// process as a navigation it refuses), the last one remembered in the app's
// settings, then the firm's window (firm-window.ts). No desk operation is involved.
import { createHash } from 'node:crypto';
import { BrowserWindow, type BrowserWindowConstructorOptions, type MenuItemConstructorOptions } from 'electron';
import { firmAddress, openFirmWindow, type FirmAddress } from './firm-window';
import { readSettings, saveSettings } from './settings';

export const CONNECT_LABEL = "Connect to a firm's server…";

/** Where the prompt's form "goes": never loaded, only read (an .invalid name resolves nowhere). */
const ANSWER_ORIGIN = 'https://connect.ledgerdesk.invalid';

const STYLE =
  'body{font:14px system-ui,sans-serif;margin:18px;color:#1d2433}label{display:block;font-weight:600;margin-bottom:6px}' +
  'input{box-sizing:border-box;width:100%;padding:6px 8px;font:inherit}p{color:#4a5568;margin:10px 0}.problem{color:#b42318}' +
  '.buttons{display:flex;gap:8px;justify-content:flex-end}button{font:inherit;padding:5px 14px}';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The prompt as a data: URL; its policy allows its one stylesheet (by hash) and a submission to ANSWER_ORIGIN, nothing else. */
export function promptPage(last = '', problem?: string): string {
  const styleHash = createHash('sha256').update(STYLE).digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${styleHash}'; form-action ${ANSWER_ORIGIN}`;
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Connect to a firm's server</title><style>${STYLE}</style>
<form method="get" action="${ANSWER_ORIGIN}/">
<label for="url">The firm's server</label>
<input id="url" name="url" type="text" required autofocus spellcheck="false" placeholder="https://books.firm.example" value="${escape(last)}">
${problem ? `<p class="problem" role="alert">${escape(problem)}</p>` : ''}
<p>Its screens open in a window of their own, where you sign in. The books on this computer stay open as they are.</p>
<div class="buttons"><button name="do" value="cancel" formnovalidate>Cancel</button><button name="do" value="connect">Connect</button></div>
</form></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

/** What a navigation of the prompt says: an address typed, cancel, or nothing of ours (refused all the same). */
export function promptAnswer(url: string): { url: string } | 'cancel' | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== ANSWER_ORIGIN) return null;
  return parsed.searchParams.get('do') === 'cancel' ? 'cancel' : { url: parsed.searchParams.get('url') ?? '' };
}

function promptWindowOptions(parent: BrowserWindow | null): BrowserWindowConstructorOptions {
  return {
    ...(parent ? { parent, modal: true } : {}),
    width: 520,
    height: 250,
    resizable: false,
    minimizable: false,
    maximizable: false,
    show: false,
    title: "Connect to a firm's server",
    webPreferences: {
      partition: 'ledgerdesk-connect', // in memory: the prompt keeps nothing
      javascript: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      devTools: false,
    },
  };
}

/** Asks for the address until it is one (the reason shown under the field) or the prompt is cancelled or closed. */
export function askFirmAddress(parent: BrowserWindow | null, last: string): Promise<FirmAddress | null> {
  const win = new BrowserWindow(promptWindowOptions(parent));
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: FirmAddress | null) => {
      if (done) return;
      done = true;
      resolve(answer);
      if (!win.isDestroyed()) win.close();
    };
    win.setMenu(null);
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    win.webContents.on('will-navigate', (event, url) => {
      event.preventDefault();
      const answer = promptAnswer(url);
      if (answer === 'cancel') return finish(null);
      if (answer === null) return;
      try {
        finish(firmAddress(answer.url));
      } catch (error) {
        win.loadURL(promptPage(answer.url, (error as Error).message)).catch(() => undefined);
      }
    });
    win.on('closed', () => finish(null));
    win.once('ready-to-show', () => win.show());
    win.loadURL(promptPage(last)).catch(() => finish(null));
  });
}

/** The menu item's action: ask, remember the server's origin in the settings, open its window. */
export async function connectToFirm(dataDir: string, development: boolean): Promise<void> {
  const address = await askFirmAddress(BrowserWindow.getFocusedWindow(), readSettings(dataDir).firmServerUrl ?? '');
  if (!address) return;
  saveSettings(dataDir, { firmServerUrl: address.origin });
  openFirmWindow(address, development);
}

/** The app menu: the platform's usual menus, with "Connect to a firm's server…" in File. */
export function appMenu(connect: () => void, platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    { label: 'File', submenu: [{ label: CONNECT_LABEL, click: () => connect() }, { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}

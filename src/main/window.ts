// Electron's security checklist, in one place: window options, the CSP, what
// the page may open or navigate to, and permissions. Pure functions of their
// inputs so the wiring test can check them with `electron` stubbed.
import { shell, type BrowserWindowConstructorOptions, type Session, type WebContents, type WebPreferences } from 'electron';
import { CONTENT_SECURITY_POLICY, isExternalLink } from '../shared/web';
import { isRendererPage } from './renderer-url';

export { CONTENT_SECURITY_POLICY };

/** What every window of the app is: its size, and the checklist's web preferences (no preload: the caller adds one). */
export function hardenedWindow(title: string, development: boolean): BrowserWindowConstructorOptions & { webPreferences: WebPreferences } {
  return {
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title,
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: development,
    },
  };
}

export function windowOptions(preload: string, development: boolean): BrowserWindowConstructorOptions {
  const base = hardenedWindow('Ledgerdesk', development);
  return { ...base, webPreferences: { preload, ...base.webPreferences } };
}

/** No new windows (the app's own links go to the system browser, nothing else), no navigation away from the app, no webviews. */
export function hardenContents(contents: WebContents, rendererUrl: string): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (!isRendererPage(url, rendererUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isRendererPage(url, rendererUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Writing to the clipboard (the Tokens screen's Copy buttons) is the one permission granted. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/** Every other permission request is denied; every response carries the CSP. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
  session.webRequest.onHeadersReceived((details, callback) => callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } }));
}

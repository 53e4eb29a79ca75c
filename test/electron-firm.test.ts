// "Connect to a firm's server" with `electron` stubbed (issue 45): the firm's window has no preload, a sandbox and a
// partition of its own, stays on its origin (others go to the system browser), and the prompt's answer, the
// remembered address and the menu item are wired as the desktop runs them.
import { writeFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from './support/env';

type Handler = (...args: any[]) => any;

const electron = vi.hoisted(() => {
  class BrowserWindow {
    static created: BrowserWindow[] = [];
    static getFocusedWindow = () => null;
    handlers: Record<string, Handler> = {};
    contents: Record<string, Handler> = {};
    openHandler: Handler = () => ({ action: 'allow' });
    loaded: string[] = [];
    destroyed = false;
    webContents = { on: (name: string, h: Handler) => void (this.contents[name] = h), setWindowOpenHandler: (h: Handler) => void (this.openHandler = h) };
    constructor(readonly options: any) {
      BrowserWindow.created.push(this);
    }
    on(name: string, h: Handler) {
      this.handlers[name] = h;
      return this;
    }
    once(name: string, h: Handler) {
      return this.on(name, h);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    setMenu() {}
    show() {}
    focus() {}
    isVisible = () => false;
    isDestroyed = () => this.destroyed;
    close() {
      this.destroyed = true;
      this.handlers.closed?.();
    }
  }
  return {
    BrowserWindow,
    shell: { openExternal: vi.fn(async () => {}) },
    dialog: { showErrorBox: vi.fn() },
    session: { fromPartition: vi.fn(() => ({ setPermissionRequestHandler: () => {}, setPermissionCheckHandler: () => {} })) },
  };
});
vi.mock('electron', () => electron);

const { firmAddress, firmPartition, firmWindowOptions, hardenFirmContents, hardenFirmSession } = await import('../src/main/firm-window');
const { appMenu, askFirmAddress, CONNECT_LABEL, connectToFirm, promptAnswer, promptPage } = await import('../src/main/firm-connect');
const { readSettings, saveSettings, settingsFile } = await import('../src/main/settings');

const FIRM = 'https://books.firm.example';
const prevented = () => ({ preventDefault: vi.fn() });

beforeEach(() => {
  electron.shell.openExternal.mockClear();
  electron.BrowserWindow.created.length = 0;
});

describe("a firm's server window", () => {
  it('has no preload, a sandbox, no Node, and a persistent partition of its own per server', () => {
    const options = firmWindowOptions(FIRM, false);
    const prefs = options.webPreferences!;
    expect('preload' in prefs).toBe(false);
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      devTools: false,
    });
    expect(prefs.partition).toMatch(/^persist:firm-[0-9a-f]{16}$/);
    expect(prefs.partition).toBe(firmPartition(FIRM));
    expect(firmPartition('https://other.example')).not.toBe(prefs.partition);
    expect(options.title).toContain('books.firm.example');
  });

  it('takes https addresses, and plain http only on this computer', () => {
    expect(firmAddress(' https://books.firm.example/desk/sign-in?code=x ')).toEqual({ url: `${FIRM}/desk/sign-in?code=x`, origin: FIRM });
    expect(firmAddress('books.firm.example').origin).toBe(FIRM);
    expect(firmAddress('http://127.0.0.1:7311').origin).toBe('http://127.0.0.1:7311');
    expect(firmAddress('http://localhost:7311/').origin).toBe('http://localhost:7311');
    expect(() => firmAddress('http://books.firm.example')).toThrow(/Only https:\/\//);
    expect(() => firmAddress('file:///etc/passwd')).toThrow(/Only https:\/\//);
    expect(() => firmAddress('https://me:secret@books.firm.example')).toThrow(/name and password/);
    expect(() => firmAddress('https://')).toThrow(/not a server's address/);
  });

  it('stays on its origin: its own new windows alike, any other site in the system browser, no webviews', () => {
    const handlers: Record<string, Handler> = {};
    let open: Handler = () => undefined;
    hardenFirmContents({ setWindowOpenHandler: (h: Handler) => (open = h), on: (n: string, h: Handler) => (handlers[n] = h) } as never, FIRM, false);
    const tab = open({ url: `${FIRM}/desk/api/receipts/1?orgId=2` });
    expect(tab.action).toBe('allow');
    expect('preload' in tab.overrideBrowserWindowOptions.webPreferences).toBe(false);
    expect(tab.overrideBrowserWindowOptions.webPreferences.partition).toBe(firmPartition(FIRM));
    expect(open({ url: 'https://hledger.org/' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open({ url: 'https://books.firm.example.evil.example/' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal.mock.calls).toEqual([['https://hledger.org/'], ['https://books.firm.example.evil.example/']]);
    for (const [name, url, blocked] of [
      ['will-navigate', `${FIRM}/#/approvals`, false],
      ['will-navigate', 'https://evil.example/', true],
      ['will-navigate', 'http://books.firm.example/', true],
      ['will-redirect', `${FIRM}/`, false],
      ['will-redirect', 'file:///etc/passwd', true],
    ] as const) {
      const event = prevented();
      handlers[name](event, url);
      expect(event.preventDefault, `${name} ${url}`).toHaveBeenCalledTimes(blocked ? 1 : 0);
    }
    const webview = prevented();
    handlers['will-attach-webview'](webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission but clipboard writes', () => {
    let request: Handler = () => {};
    let check: Handler = () => true;
    hardenFirmSession({ setPermissionRequestHandler: (h: Handler) => (request = h), setPermissionCheckHandler: (h: Handler) => (check = h) } as never);
    for (const permission of ['media', 'notifications', 'clipboard-read', 'openExternal']) {
      const answer = vi.fn();
      request(null, permission, answer);
      expect(answer, permission).toHaveBeenCalledWith(false);
      expect(check(null, permission)).toBe(false);
    }
    expect(check(null, 'clipboard-sanitized-write')).toBe(true);
  });
});

describe("the prompt for a firm's server", () => {
  it('is a local page without script, its answer read from a navigation', () => {
    const page = decodeURIComponent(promptPage('https://x.example/"><script>', 'Only https:// addresses'));
    expect(page).toMatch(/^data:text\/html/);
    expect(page).toContain("default-src 'none'");
    expect(page).not.toContain('<script>');
    expect(page).toContain('Only https:// addresses');
    expect(promptAnswer('https://connect.ledgerdesk.invalid/?url=https%3A%2F%2Fbooks.firm.example&do=connect')).toEqual({ url: FIRM });
    expect(promptAnswer('https://connect.ledgerdesk.invalid/?url=&do=cancel')).toBe('cancel');
    expect(promptAnswer('https://evil.example/?url=x')).toBeNull();
  });

  it('asks again with the reason, then answers the address; closing it answers nothing', async () => {
    const asked = askFirmAddress(null, FIRM);
    const prompt = electron.BrowserWindow.created[0];
    expect(prompt.options.webPreferences).toMatchObject({ javascript: false, sandbox: true });
    expect('preload' in prompt.options.webPreferences).toBe(false);
    const submit = (url: string) => {
      const event = prevented();
      prompt.contents['will-navigate'](event, `https://connect.ledgerdesk.invalid/?url=${encodeURIComponent(url)}&do=connect`);
      expect(event.preventDefault).toHaveBeenCalled();
    };
    submit('http://books.firm.example');
    expect(decodeURIComponent(prompt.loaded.at(-1)!)).toContain('Only https://');
    submit('books.firm.example');
    expect(await asked).toEqual({ url: `${FIRM}/`, origin: FIRM });
    expect(prompt.destroyed).toBe(true);

    const closed = askFirmAddress(null, '');
    electron.BrowserWindow.created.at(-1)!.close();
    expect(await closed).toBeNull();
  });

  it('remembers the server in the settings and opens its window, the menu offering it', async () => {
    const data = tempDir();
    saveSettings(data, { firmServerUrl: 'https://old.firm.example' });
    const connecting = connectToFirm(data, false);
    const prompt = electron.BrowserWindow.created[0];
    expect(decodeURIComponent(prompt.loaded[0])).toContain('value="https://old.firm.example"');
    prompt.contents['will-navigate'](prevented(), `https://connect.ledgerdesk.invalid/?url=${encodeURIComponent(`${FIRM}/desk/sign-in?code=abc`)}&do=connect`);
    await connecting;
    expect(readSettings(data)).toEqual({ firmServerUrl: FIRM });
    const firm = electron.BrowserWindow.created[1];
    expect('preload' in firm.options.webPreferences).toBe(false);
    expect(firm.options.webPreferences.partition).toBe(firmPartition(FIRM));
    expect(firm.loaded).toEqual([`${FIRM}/desk/sign-in?code=abc`]);
    expect(electron.session.fromPartition).toHaveBeenCalledWith(firmPartition(FIRM));

    const connect = vi.fn();
    const file = appMenu(connect, 'linux').find((m) => m.label === 'File')!;
    const item = (file.submenu as { label?: string; click?: () => void }[]).find((i) => i.label === CONNECT_LABEL)!;
    item.click!();
    expect(connect).toHaveBeenCalledTimes(1);
    expect(appMenu(connect, 'darwin')[0]).toEqual({ role: 'appMenu' });
  });

  it('reads a missing or broken settings file as no settings', () => {
    const data = tempDir();
    expect(readSettings(data)).toEqual({});
    writeFileSync(settingsFile(data), '{not json');
    expect(readSettings(data)).toEqual({});
  });
});

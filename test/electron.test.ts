// Main-process wiring with `electron` stubbed: window options, CSP, navigation
// and window-open handlers, permissions, every IPC channel, the sender check,
// input validation, and the preload's single exposed object.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DESK_OPERATIONS, deskChannel } from '../src/shared/desk';
import { EXTERNAL_LINKS } from '../src/shared/web';
import { createOrganization, deskActor } from '../src/main/ledger';
import { tempDir, tempLedger } from './support/env';
import { fillDemo } from '../src/main/demo';

const electron = vi.hoisted(() => ({
  shell: { openExternal: vi.fn(async (..._args: unknown[]) => {}) },
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(async (..._args: unknown[]) => ({ data: 'ok' })) },
}));
vi.mock('electron', () => electron);

const { CONTENT_SECURITY_POLICY, hardenContents, hardenSession, windowOptions } = await import('../src/main/window');
const { registerDeskIpc } = await import('../src/main/desk/transport/ipc');

const RENDERER = 'file:///opt/ledgerdesk/out/renderer/index.html';

describe('window', () => {
  it('isolates the renderer: contextIsolation, sandbox, no Node, no webviews, DevTools only in development', () => {
    const prefs = windowOptions('/app/preload.js', false).webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/preload.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      devTools: false,
    });
    expect(windowOptions('/p', true).webPreferences!.devTools).toBe(true);
  });

  it('has a strict CSP: own scripts and stylesheets only, no eval, no inline code, no plugins, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'self'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/style-src 'self';/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self';/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/object-src 'none'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/frame-ancestors 'none'/);
  });

  it("denies new windows (the app's own links go to the system browser, no other) and navigation away from the app", () => {
    const handlers: Record<string, (event: { preventDefault: () => void }, url: string) => void> = {};
    let openHandler: (d: { url: string }) => { action: string } = () => ({ action: 'allow' });
    const contents = { setWindowOpenHandler: (h: typeof openHandler) => (openHandler = h), on: (name: string, h: (typeof handlers)[string]) => (handlers[name] = h) };
    hardenContents(contents as never, RENDERER);
    expect(openHandler({ url: EXTERNAL_LINKS.hledger })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledWith(EXTERNAL_LINKS.hledger);
    for (const url of ['https://evil.example/phish', 'https://hledger.org.evil.example/', 'file:///etc/passwd', `${EXTERNAL_LINKS.hledger}?x=1`]) {
      expect(openHandler({ url })).toEqual({ action: 'deny' });
    }
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);
    for (const [name, url, blocked] of [
      ['will-navigate', 'https://evil.example/', true],
      ['will-navigate', 'file:///etc/passwd', true],
      ['will-navigate', `${RENDERER}#/log`, false],
      ['will-redirect', 'http://127.0.0.1:7311/', true],
    ] as const) {
      const event = { preventDefault: vi.fn() };
      handlers[name](event, url);
      expect(event.preventDefault, `${name} ${url}`).toHaveBeenCalledTimes(blocked ? 1 : 0);
    }
    const webview = { preventDefault: vi.fn() };
    handlers['will-attach-webview'](webview, '');
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission but clipboard writes, and sends the CSP with every response', () => {
    let request: (wc: unknown, permission: string, callback: (ok: boolean) => void) => void = () => {};
    let check: (wc: unknown, permission: string) => boolean = () => true;
    let headers: (details: { responseHeaders: Record<string, string[]> }, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void = () => {};
    hardenSession({
      setPermissionRequestHandler: (h: typeof request) => (request = h),
      setPermissionCheckHandler: (h: typeof check) => (check = h),
      webRequest: { onHeadersReceived: (h: typeof headers) => (headers = h) },
    } as never);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const answer = vi.fn();
      request(null, permission, answer);
      expect(answer, permission).toHaveBeenCalledWith(false);
      expect(check(null, permission)).toBe(false);
    }
    const copy = vi.fn();
    request(null, 'clipboard-sanitized-write', copy);
    expect(copy).toHaveBeenCalledWith(true);
    expect(check(null, 'clipboard-sanitized-write')).toBe(true);
    headers({ responseHeaders: { 'X-Test': ['1'] } }, (r) => expect(r.responseHeaders).toEqual({ 'X-Test': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] }));
  });
});

describe('desk IPC', () => {
  const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>();
  let orgId: string;
  beforeAll(async () => {
    const { ledger } = await tempLedger();
    const acme = await createOrganization(ledger, { slug: 'acme', name: 'Acme' });
    await fillDemo(ledger, acme.seq, acme.slug, 50, acme.currency);
    orgId = acme.id;
    registerDeskIpc({ handle: (channel: string, h: never) => handlers.set(channel, h) } as never, {
      rendererUrl: RENDERER,
      log: () => {},
      context: () => ({ ledger, dataDir: tempDir(), agentUrl: 'http://127.0.0.1:7311', mode: 'desktop', reviewer: deskActor() }),
    });
  });
  const frame = (url: string, parent: unknown = null) => ({ senderFrame: { url, parent } });

  it('registers one handler per desk operation, and nothing else', () => {
    expect([...handlers.keys()].sort()).toEqual(DESK_OPERATIONS.map(deskChannel).sort());
  });

  it('answers the app window and refuses other senders', async () => {
    const ok = (await handlers.get('desk:listOrganizations')!(frame(`${RENDERER}#/approvals`), {})) as { data: { slug: string }[] };
    expect(ok.data.map((o) => o.slug)).toContain('acme');
    for (const event of [frame('https://evil.example/index.html'), frame('file:///tmp/other.html'), frame(RENDERER, { url: RENDERER }), { senderFrame: null }]) {
      expect(await handlers.get('desk:listOrganizations')!(event, {})).toEqual({ error: expect.objectContaining({ code: 'forbidden_origin' }) });
    }
  });

  it('parses every input with the operation schema', async () => {
    const bad = (await handlers.get('desk:reviewProposals')!(frame(RENDERER), { orgId, ids: ['nope'], decision: 'maybe', extra: 1 })) as {
      error: { code: string; details: { field: string }[] };
    };
    expect(bad.error.code).toBe('validation_failed');
    expect(bad.error.details.map((d) => d.field).sort()).toEqual(['decision', 'extra', 'ids[0]']);
    const page = (await handlers.get('desk:listTransactions')!(frame(RENDERER), { orgId, limit: 5 })) as { data: { data: unknown[] } };
    expect(page.data.data).toHaveLength(5);
  });
});

describe("the sign-in link, opened in the computer's browser", () => {
  const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>();
  const opened: string[] = [];
  beforeAll(async () => {
    const { ledger } = await tempLedger();
    registerDeskIpc({ handle: (channel: string, h: never) => handlers.set(channel, h) } as never, {
      rendererUrl: RENDERER,
      log: () => {},
      // As src/main/index.ts wires it: Electron's shell.openExternal (stubbed).
      context: () => ({
        ledger,
        dataDir: tempDir(),
        agentUrl: '',
        mode: 'desktop',
        reviewer: deskActor(),
        openExternal: async (url) => {
          opened.push(url);
          await electron.shell.openExternal(url);
        },
      }),
    });
  });
  const open = (url: string, senderUrl = RENDERER) => handlers.get('desk:openSignInLink')!({ senderFrame: { url: senderUrl, parent: null } }, { url });

  it("opens HMRC's and Enable Banking's https sign-in pages, and nothing else", async () => {
    const hmrc = 'https://www.tax.service.gov.uk/oauth/authorize?response_type=code&client_id=abc&scope=read%3Avat+write%3Avat&state=s';
    const sandbox = 'https://test-www.tax.service.gov.uk/oauth/authorize?client_id=abc';
    const bank = 'https://tilisy.enablebanking.com/welcome?sessionid=123';
    for (const url of [hmrc, sandbox, bank]) expect(await open(url)).toEqual({ data: { opened: true } });
    expect(opened).toEqual([hmrc, sandbox, bank]);
    const refused = [
      'http://www.tax.service.gov.uk/oauth/authorize?client_id=abc',
      'https://www.tax.service.gov.uk/account/sign-out',
      'https://www.tax.service.gov.uk.evil.example/oauth/authorize',
      'https://evil.example/oauth/authorize',
      'https://user:pw@www.tax.service.gov.uk/oauth/authorize',
      'https://enablebanking.com.evil.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a link',
    ];
    for (const url of refused)
      expect(await open(url), url).toEqual({ error: expect.objectContaining({ code: 'validation_failed', details: [expect.objectContaining({ field: 'url' })] }) });
    // Another frame never reaches it.
    expect(await open(hmrc, 'https://evil.example/index.html')).toEqual({ error: expect.objectContaining({ code: 'forbidden_origin' }) });
    expect(opened).toHaveLength(3);
  });

  it('is refused where no computer browser is at hand (a browser on a server follows the link itself)', async () => {
    const { runDesk } = await import('../src/main/desk/transport/dispatch');
    const { ledger } = await tempLedger();
    const answer = await runDesk(
      { ledger, dataDir: tempDir(), agentUrl: '', mode: 'browser', reviewer: deskActor() },
      'openSignInLink',
      { url: 'https://www.tax.service.gov.uk/oauth/authorize' },
      () => {},
    );
    expect(answer).toEqual({ error: expect.objectContaining({ code: 'conflict', details: { reason: 'not_desktop' } }) });
  });
});

describe('preload', () => {
  it('exposes exactly one object whose functions invoke their own channel with the input only', async () => {
    await import('../src/preload/index');
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, bridge] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as unknown as [string, Record<string, (input: unknown) => Promise<unknown>>];
    expect(name).toBe('ledgerdesk');
    expect(Object.keys(bridge).sort()).toEqual([...DESK_OPERATIONS].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(await bridge.listProposals({ orgId: 'x' })).toEqual({ data: 'ok' });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('desk:listProposals', { orgId: 'x' });
  });
});

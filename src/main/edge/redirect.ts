// A desktop OAuth client's way back (RFC 8252, section 7.3): a listener on a
// loopback address that waits for the service to send the person's browser to
// it with `code` and `state`. Used by commands run without a server (`hmrc
// connect`, `connector add enable-banking`); with a server, the server's own
// address takes the redirect. The state is checked here, in constant time; the
// code is handed to the caller and never printed.
import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface Redirected {
  /** The authorization code (or Enable Banking's `code`): the caller exchanges it, once. */
  code: string;
  /** Every query parameter the service sent back, `code` and `state` included. */
  params: URLSearchParams;
}

export interface RedirectListener {
  /** Where the service must send the browser: http://127.0.0.1:<port><path>. */
  url: string;
  /** Settles on the first request to the path: the code when the state matches, else an error in words. */
  received: Promise<Redirected>;
  close(): void;
}

/** The port asked for is held by another program (EADDRINUSE): the caller says why it needs that one. */
export class PortTakenError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} on 127.0.0.1 is taken by another program.`);
  }
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const page = (title: string, words: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${words}</p></body>`;

/**
 * Listens on 127.0.0.1 (`port` 0: any free port; a service that registers its redirect, as HMRC does, is given the
 * registered one) for `path`, and waits at most `timeoutMs` for the browser to come back with `state`.
 */
export async function listenForRedirect(options: { state: string; path?: string; port?: number; timeoutMs?: number; service: string }): Promise<RedirectListener> {
  const path = options.path ?? '/callback';
  let settle!: { ok: (r: Redirected) => void; fail: (e: Error) => void };
  const received = new Promise<Redirected>((ok, fail) => (settle = { ok, fail }));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) return void res.writeHead(404).end();
    const p = url.searchParams;
    const fail = (words: string) => {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(page('Not connected', words));
      settle.fail(new Error(words));
    };
    if (p.get('error')) return fail(`${options.service} did not connect: ${p.get('error_description') ?? p.get('error')}.`);
    if (!same(p.get('state') ?? '', options.state)) return fail(`The answer from ${options.service} is not the one this sign-in asked for (its state differs): start again.`);
    const code = p.get('code');
    if (!code) return fail(`${options.service} sent no code back.`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Connected', 'You can close this window and go back to Ledgerdesk.'));
    settle.ok({ code, params: p });
  });
  await new Promise<void>((ok, fail) =>
    server
      .once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' && options.port ? new PortTakenError(options.port) : error))
      .listen(options.port ?? 0, '127.0.0.1', ok),
  );
  const timer = setTimeout(
    () => settle.fail(new Error(`Nobody came back from ${options.service} within ${Math.round((options.timeoutMs ?? 600_000) / 60_000)} minutes.`)),
    options.timeoutMs ?? 600_000,
  );
  timer.unref();
  const close = () => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  };
  received.then(close, close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, received, close };
}

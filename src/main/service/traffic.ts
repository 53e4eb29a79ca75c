// Every request the server answers passes here first (issue 51): it gets its id
// (api/request-id.ts), HSTS when the server is reached over HTTPS, its access log
// line and its metrics when it ends; and while the server stops (drain), the
// requests already in flight finish within the grace while any new one on a
// kept-alive connection is answered 503 with `Connection: close`, never half.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { LedgerError } from '../ledger/core/errors';
import { REQUEST_ID_HEADER, requestIdOf, withRequestId } from '../api/request-id';
import { sendJson } from '../api/http';
import { routeOf } from './routes';
import type { ServiceLogger } from './log';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A year; no includeSubDomains or preload: the firm's other names are not ours to bind to HTTPS. */
export const HSTS = 'max-age=31536000';

export interface TrafficOptions {
  /** Served over HTTPS (TLS here, or an https public URL): every answer carries Strict-Transport-Security. */
  secure: boolean;
  logger?: ServiceLogger;
  observe?: (method: string, route: string, status: number, seconds: number) => void;
}

const pathOnly = (url: string | undefined): string => (url ?? '').split('?')[0];

export class Traffic {
  /** Answers not yet finished (or abandoned): what a stop waits for. */
  readonly #open = new Set<ServerResponse>();
  #idle: (() => void) | null = null;
  draining = false;

  constructor(private readonly options: TrafficOptions) {}

  wrap(handler: Handler): Handler {
    return (req, res) => {
      const started = process.hrtime.bigint();
      // Read now: routers rewrite req.url (without their mount path) while the request runs.
      const path = pathOnly(req.url);
      const id = requestIdOf(req.headers['x-request-id']);
      res.setHeader(REQUEST_ID_HEADER, id);
      if (this.options.secure) res.setHeader('Strict-Transport-Security', HSTS);
      this.#open.add(res);
      res.once('close', () => this.#ended(req, res, { requestId: id, path, started }));
      if (this.draining) return this.#refuse(res);
      this.options.logger?.debug({ requestId: id, method: req.method, path }, 'request received');
      withRequestId(id, () => handler(req, res));
    };
  }

  #refuse(res: ServerResponse): void {
    res.shouldKeepAlive = false;
    sendJson(res, 503, new LedgerError('unavailable', 'The server is stopping: retry in a moment.', null).toBody());
  }

  /** The access line: no query string (a sign-in link's code rides there) and no header but the id. */
  #ended(req: IncomingMessage, res: ServerResponse, { requestId, path, started }: { requestId: string; path: string; started: bigint }): void {
    this.#open.delete(res);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = routeOf(path);
    const status = res.writableFinished ? res.statusCode : 0; // 0: the connection ended before the answer did
    this.options.logger?.info({ requestId, method: req.method, route, path, status, ms: Math.round(seconds * 10_000) / 10, remote: req.socket.remoteAddress }, 'request');
    this.options.observe?.(req.method ?? '', route, status, seconds);
    if (this.#open.size === 0) this.#idle?.();
  }

  /**
   * Stops taking requests (new ones answer 503, closing their connection) and waits up to `graceMs` for those in
   * flight; answers how many were still running when the grace ran out (0: all answered).
   */
  async drain(graceMs: number): Promise<number> {
    this.draining = true;
    // An answer not begun yet closes its connection when done: the client's next request goes elsewhere.
    for (const res of this.#open) if (!res.headersSent) res.shouldKeepAlive = false;
    if (this.#open.size === 0) return 0;
    const idle = new Promise<void>((resolve) => (this.#idle = resolve));
    const timer = new AbortController();
    await Promise.race([idle, sleep(graceMs, undefined, { signal: timer.signal }).catch(() => undefined)]);
    timer.abort();
    return this.#open.size;
  }
}

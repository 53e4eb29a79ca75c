// The agent server: /api/v1 (REST) and /api/mcp, on 127.0.0.1 unless told how
// others reach it (reach.ts), behind the Host/Origin guard; other mounts (the
// browser desk) go to an express app.
//
// The agent API runs on express's Router called straight from node:http, not
// through the express application: the application swaps the prototypes of
// every request and response (to add req.query, res.json...), which cost
// ~90 µs per request here, a third of a cheap read. The API needs none of it.
import express, { type Express, type NextFunction, type Request, type Response, Router } from 'express';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Ledger } from '../ledger/core/sqlite/open';
import { LedgerError } from '../ledger/core/errors';
import { migrationsCurrent } from '../ledger/core/readiness';
import { answerHealth } from '../service/health';
import { Traffic, type TrafficOptions } from '../service/traffic';
import { errorHandler, sendError, toLedgerError, type Log } from './errors';
import { guardNames, loopbackGuard, originRefusal } from './guards';
import { pathOf } from './http';
import { MCP_PATH, mcpErrors, mcpRouter } from './mcp';
import { mcpAuthRouter, noteAgentOrigin } from './mcp-auth';
import { baseUrl, planReach, reachNames, type Reach, type ReachOptions } from './reach';
import { restRouter } from './rest';
import { stripeWebhookRouter } from './webhooks';

export { HOST } from './reach';

/** `listen`, `tls` and `publicUrl`: see reach.ts (a non-loopback listen needs TLS or a public URL). */
export interface ServerOptions extends ReachOptions, Partial<Pick<TrafficOptions, 'logger' | 'observe'>> {
  ledger: Ledger;
  log?: Log;
  /** Extra mounts (the desk) on the express app, before its final 404. */
  mount?: (app: Express, port: () => number) => void;
}

export interface RunningServer {
  /** Where people and agents reach it: the public URL, else http(s)://<this server>:<port>. */
  url: string;
  port: number;
  /** Stops at once: connections, and the requests on them, are cut. */
  close(): Promise<void>;
  /**
   * Stops gracefully: no new connection; requests in flight finish within `graceMs` (new ones on open connections
   * answer 503); then every connection closes. Answers how many requests the grace cut (0: none).
   */
  drain(graceMs: number): Promise<number>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function createHandler(options: ServerOptions, port: () => number, reach: Reach = planReach(options), stopping = () => false): Handler {
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const api = Router({ strict: false, caseSensitive: true });
  api.use(loopbackGuard(port, reachNames(reach)));
  const names = guardNames(port, reachNames(reach));
  // Behind a proxy the Host may be the proxy's upstream name: agents are told the public URL.
  if (reach.secure) api.use(noteAgentOrigin((req) => reach.publicUrl ?? `https://${req.headers.host}`));
  api.use('/api/v1', restRouter(options.ledger));
  api.use(stripeWebhookRouter(options.ledger));
  api.use(MCP_PATH, mcpRouter(options.ledger, log));
  api.use(mcpAuthRouter());
  // The tool bridge answers its refusals (the guard's too) as JSON-RPC errors; the REST API in its Error envelope.
  const restErrors = errorHandler(log);
  const toolErrors = mcpErrors(log);
  api.use((error: unknown, req: Request, res: Response, next: NextFunction) =>
    (pathOf(req) === MCP_PATH || pathOf(req).startsWith(`${MCP_PATH}/`) ? toolErrors : restErrors)(error, req, res, next),
  );

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  // req.secure from the proxy's X-Forwarded-Proto, only where a public URL says a proxy is in front.
  if (reach.trustProxy) app.set('trust proxy', reach.trustProxy);
  options.mount?.(app, port);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new LedgerError('not_found', `No route ${req.method} ${pathOf(req)}.`, { path: pathOf(req) }));
  });
  app.use(errorHandler(log));

  // Ready: not stopping, and the books answer with this build's migrations.
  const ready = async () => !stopping() && (await migrationsCurrent(options.ledger));
  // Health checks first (before the Host guard, keeping the Origin one: service/health.ts). Whatever the API does not answer (guard passed)
  // goes on to the app. The API's errorHandler answers every error, so `error` is set only if it failed itself.
  return (req, res) => {
    if (answerHealth(req, res, ready, (origin) => originRefusal(origin, names().origins))) return;
    (api as unknown as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void)(req, res, (error) => {
      if (error && error !== 'router') sendError(res, toLedgerError(error));
      else app(req as Request, res as Response);
    });
  };
}

/** Refuses (ReachError) a listen beyond loopback without TLS or a public URL, before anything listens. */
export function startServer(options: ServerOptions): Promise<RunningServer> {
  const reach = planReach(options);
  let boundPort = reach.port;
  const traffic = new Traffic({ secure: reach.secure, logger: options.logger, observe: options.observe });
  const handler = traffic.wrap(
    createHandler(
      options,
      () => boundPort,
      reach,
      () => traffic.draining,
    ),
  );
  const server = reach.tls ? createTlsServer({ cert: reach.tls.cert, key: reach.tls.key }, handler) : createServer(handler);
  const closed = new Promise<void>((done) => server.once('close', () => done()));
  return new Promise((resolve, reject) => {
    server.listen(reach.port, reach.host);
    server.once('error', reject);
    server.once('listening', () => {
      boundPort = (server.address() as AddressInfo).port;
      server.keepAliveTimeout = 5_000;
      resolve({
        url: baseUrl(reach, boundPort),
        port: boundPort,
        close: async () => {
          server.close();
          server.closeAllConnections();
          await closed;
        },
        async drain(graceMs) {
          // No new connection; idle kept-alive ones close now, busy ones once their answer is written.
          server.close();
          server.closeIdleConnections();
          const cut = await traffic.drain(graceMs);
          server.closeAllConnections();
          await closed;
          return cut;
        },
      });
    });
  });
}

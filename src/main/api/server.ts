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
import { errorHandler, sendError, toLedgerError } from './errors';
import { loopbackGuard } from './guards';
import { pathOf } from './http';
import { MCP_PATH, mcpErrors, mcpRouter } from './mcp';
import { mcpAuthRouter, noteAgentOrigin } from './mcp-auth';
import { baseUrl, planReach, reachNames, type Reach, type ReachOptions } from './reach';
import { restRouter } from './rest';

export { HOST } from './reach';

/** `listen`, `tls` and `publicUrl`: see reach.ts (a non-loopback listen needs TLS or a public URL). */
export interface ServerOptions extends ReachOptions {
  ledger: Ledger;
  log?: (message: string) => void;
  /** Extra mounts (the desk) on the express app, before its final 404. */
  mount?: (app: Express, port: () => number) => void;
}

export interface RunningServer {
  /** Where people and agents reach it: the public URL, else http(s)://<this server>:<port>. */
  url: string;
  port: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function createHandler(options: ServerOptions, port: () => number, reach: Reach = planReach(options)): Handler {
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const api = Router({ strict: false, caseSensitive: true });
  api.use(loopbackGuard(port, reachNames(reach)));
  // Behind a proxy the Host may be the proxy's upstream name: agents are told the public URL.
  if (reach.secure) api.use(noteAgentOrigin((req) => reach.publicUrl ?? `https://${req.headers.host}`));
  api.use('/api/v1', restRouter(options.ledger));
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

  // Whatever the API does not answer (guard passed) goes on to the app. The API's
  // errorHandler answers every error, so `error` is set only if it failed itself.
  return (req, res) =>
    (api as unknown as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void)(req, res, (error) => {
      if (error && error !== 'router') sendError(res, toLedgerError(error));
      else app(req as Request, res as Response);
    });
}

/** Refuses (ReachError) a listen beyond loopback without TLS or a public URL, before anything listens. */
export function startServer(options: ServerOptions): Promise<RunningServer> {
  const reach = planReach(options);
  let boundPort = reach.port;
  const handler = createHandler(options, () => boundPort, reach);
  const server = reach.tls ? createTlsServer({ cert: reach.tls.cert, key: reach.tls.key }, handler) : createServer(handler);
  return new Promise((resolve, reject) => {
    server.listen(reach.port, reach.host);
    server.once('error', reject);
    server.once('listening', () => {
      boundPort = (server.address() as AddressInfo).port;
      server.keepAliveTimeout = 5_000;
      resolve({
        url: baseUrl(reach, boundPort),
        port: boundPort,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

// The local agent server: /api/v1 (REST) on 127.0.0.1 only, behind the
// loopback guard; other mounts (MCP, the browser desk) plug into the same app.
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { AddressInfo } from 'node:net';
import type { Ledger } from '../ledger/db';
import { LedgerError } from '../ledger/errors';
import { errorHandler } from './errors';
import { loopbackGuard } from './guards';
import { MCP_PATH, mcpRouter } from './mcp';
import { restRouter } from './rest';

export const HOST = '127.0.0.1';

export interface ServerOptions {
  ledger: Ledger;
  port?: number;
  log?: (message: string) => void;
  /** Extra mounts (MCP bridge, desk) added before the final 404. */
  mount?: (app: Express, port: () => number) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function createApp(options: ServerOptions, port: () => number): Express {
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  app.use(loopbackGuard(port));
  app.use('/api/v1', restRouter(options.ledger));
  app.use(MCP_PATH, mcpRouter(options.ledger, log));
  options.mount?.(app, port);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new LedgerError('not_found', `No route ${req.method} ${req.path}.`, { path: req.path }));
  });
  app.use(errorHandler(log));
  return app;
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  let boundPort = options.port ?? 0;
  const app = createApp(options, () => boundPort);
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port ?? 0, HOST);
    server.once('error', reject);
    server.once('listening', () => {
      boundPort = (server.address() as AddressInfo).port;
      server.keepAliveTimeout = 5_000;
      resolve({
        url: `http://${HOST}:${boundPort}`,
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

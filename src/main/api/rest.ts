// /api/v1: one express route per registry operation, then 405s for known
// paths with another method and a 404 for everything else under the prefix.
import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import type { Ledger } from '../ledger/db';
import { LedgerError } from '../ledger/errors';
import { authenticateRequest, requireScope } from './auth';
import { jsonBody, methodNotAllowed, requireJson } from './http';
import { openApiDocument } from './openapi';
import { operations, type Operation } from './registry';
import { NoInput } from './schemas';
import { parsePart } from './validation';

/** create_note is deprecated since API 1.0.0 (RFC 9745 structured date). */
const DEPRECATED_SINCE = '@1735689600';

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

function handler(op: Operation, ledger: Ledger): RequestHandler[] {
  const authenticate: RequestHandler = (req, res, next) => {
    if (op.scope === null) return next();
    const token = authenticateRequest(ledger, req);
    requireScope(token, op.scope);
    res.locals.token = token;
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  const run: RequestHandler = (req, res) => {
    const input = {
      ...(op.params ? parsePart(op.params, req.params, 'path') : {}),
      ...parsePart(op.query ?? NoInput, req.query, 'query'),
      ...(op.body ? parsePart(op.body, req.body, 'body') : {}),
    };
    const result = op.run({ ledger, token: res.locals.token ?? null, channel: 'rest' }, input);
    if (op.deprecated) {
      res.setHeader('Deprecation', DEPRECATED_SINCE);
      res.setHeader('Link', '</api/v1/notes>; rel="successor-version"');
    }
    // Written directly: express's send() adds nothing for a JSON body but time on every read.
    const body = JSON.stringify(result);
    res.writeHead(op.successStatus, { 'Content-Type': `${op.contentType ?? 'application/json'}; charset=utf-8`, 'Content-Length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  return op.body ? [authenticate, requireJson, jsonBody, run] : [authenticate, run];
}

export function restRouter(ledger: Ledger): Router {
  const router = Router({ strict: false, caseSensitive: true });
  router.get('/openapi.json', (req, res) => {
    parsePart(NoInput, req.query, 'query');
    res.json(openApiDocument());
  });
  const byPath = new Map<string, Operation[]>();
  for (const op of operations) byPath.set(expressPath(op.path), [...(byPath.get(expressPath(op.path)) ?? []), op]);
  // Literal paths first, so /proposals/categorization is never taken for /proposals/{id}.
  const paths = [...byPath.keys()].sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
  for (const path of paths) {
    const ops = byPath.get(path)!;
    for (const op of ops) router[op.method.toLowerCase() as 'get' | 'post' | 'put'](path, ...handler(op, ledger));
    const methods = ops.flatMap((op) => (op.method === 'GET' ? ['GET', 'HEAD'] : [op.method]));
    router.all(path, methodNotAllowed(methods));
  }
  router.all('/openapi.json', methodNotAllowed(['GET', 'HEAD']));
  router.use((req: Request, _res: Response, next: NextFunction) => {
    next(new LedgerError('not_found', `No route ${req.method} ${req.baseUrl}${req.path}.`, { path: `${req.baseUrl}${req.path}` }));
  });
  return router;
}

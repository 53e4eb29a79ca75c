// /api/v1: one express route per registry operation, then 405s for known
// paths with another method and a 404 for everything else under the prefix.
import express, { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import type { Ledger } from '../ledger/db';
import { LedgerError } from '../ledger/errors';
import { authenticateRequest, requireScope } from './auth';
import { openApiDocument } from './openapi';
import { operations, type Operation } from './registry';
import { parsePart } from './validation';

export const BODY_LIMIT = '1mb'; // 1 MiB
/** create_note is deprecated since API 1.0.0 (RFC 9745 structured date). */
const DEPRECATED_SINCE = '@1735689600';

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

const jsonBody = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });

const requireJson: RequestHandler = (req, _res, next) => {
  const type = req.headers['content-type'];
  if (type !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    return next(new LedgerError('unsupported_media_type', `Send the body as application/json, not ${type}.`, { contentType: type }));
  }
  next();
};

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
      ...(op.query ? parsePart(op.query, req.query, 'query') : rejectQuery(req)),
      ...(op.body ? parsePart(op.body, req.body, 'body') : {}),
    };
    const result = op.run({ ledger, token: res.locals.token ?? null, channel: 'rest' }, input);
    if (op.deprecated) {
      res.setHeader('Deprecation', DEPRECATED_SINCE);
      res.setHeader('Link', '</api/v1/notes>; rel="successor-version"');
    }
    res.status(op.successStatus);
    if (op.contentType) res.type(op.contentType).send(JSON.stringify(result));
    else res.json(result);
  };
  return op.body ? [authenticate, requireJson, jsonBody, run] : [authenticate, run];
}

/** Operations without query parameters refuse any (strict input), except none at all. */
function rejectQuery(req: Request): Record<string, never> {
  const keys = Object.keys(req.query as object);
  if (keys.length > 0) {
    throw new LedgerError(
      'validation_failed',
      `Unknown query parameter(s): ${keys.join(', ')}.`,
      keys.map((field) => ({ field, message: 'is not a known parameter' })),
    );
  }
  return {};
}

function methodNotAllowed(methods: string[]): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Allow', methods.join(', '));
    next(new LedgerError('method_not_allowed', `${req.method} is not allowed on ${req.baseUrl}${req.path}; use ${methods.join(' or ')}.`, { allow: methods }));
  };
}

export function restRouter(ledger: Ledger): Router {
  const router = Router({ strict: false, caseSensitive: true });
  router.get('/openapi.json', (req, res) => {
    rejectQuery(req);
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

// /api/v1: one express route per registry operation, then 405s for known
// paths with another method and a 404 for everything else under the prefix.
import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import type { Ledger } from '../ledger/core/sqlite/open';
import { LedgerError } from '../ledger/core/errors';
import { bindToken, requireAccess, tokenOf } from './auth';
import { jsonBody, methodNotAllowed, pathOf, queryOf, requireJson, sendJson } from './http';
import { claimIdempotencyKey, withIdempotency } from './idempotency';
import { openApiDocument } from './openapi';
import { Answer, operations, type Operation } from './registry';
import { NoInput } from './schemas';
import { parsePart } from './validation';

/** create_note is deprecated since API 1.0.0 (RFC 9745 structured date). */
const DEPRECATED_SINCE = '@1735689600';

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

function handler(op: Operation, ledger: Ledger): RequestHandler[] {
  const authenticate: RequestHandler = async (req, res, next) => {
    if (op.scope === null) return next();
    const token = await bindToken(ledger, req);
    requireAccess(token, op);
    res.setHeader('Cache-Control', 'no-store');
    // Everything after runs for the token's organization (row-level security on a server's database).
    await ledger.forOrg(token.orgSeq, () => next());
  };
  const run: RequestHandler = async (req, res) => {
    const input = {
      ...(op.params ? parsePart(op.params, req.params, 'path') : {}),
      ...parsePart(op.query ?? NoInput, queryOf(req), 'query'),
      ...(op.body ? parsePart(op.body, req.body, 'body') : {}),
    };
    const execute = async () => {
      const result = await op.run({ ledger, token: tokenOf(req), channel: 'rest' }, input);
      return result instanceof Answer ? { status: result.status, body: result.body } : { status: op.successStatus, body: result };
    };
    const answer = op.method === 'GET' ? await execute() : await withIdempotency(ledger, req, res, op.operationId, execute);
    if (!answer) return; // a kept answer was replayed
    if (op.deprecated) {
      res.setHeader('Deprecation', DEPRECATED_SINCE);
      res.setHeader('Link', '</api/v1/notes>; rel="successor-version"');
    }
    sendJson(res, answer.status, answer.body, op.contentType, req.method === 'HEAD');
  };
  return op.body ? [authenticate, claimIdempotencyKey(ledger), requireJson, jsonBody, run] : [authenticate, run];
}

export function restRouter(ledger: Ledger): Router {
  const router = Router({ strict: false, caseSensitive: true });
  router.get('/openapi.json', (req, res) => {
    parsePart(NoInput, queryOf(req), 'query');
    sendJson(res, 200, openApiDocument(), 'application/json', req.method === 'HEAD');
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
    next(new LedgerError('not_found', `No route ${req.method} ${pathOf(req)}.`, { path: pathOf(req) }));
  });
  return router;
}

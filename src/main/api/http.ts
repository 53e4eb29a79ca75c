// Plain node:http pieces shared by /api/v1, /api/mcp and the desk routes.
// The agent API runs on express's Router without the express application (see
// server.ts), so it reads the query and writes answers itself.
import express, { type RequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { LedgerError } from '../ledger/core/errors';

export const BODY_LIMIT = '1mb'; // 1 MiB

/** Parses any body as strict JSON (the media type is checked by requireJson first). */
export const jsonBody: RequestHandler = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** A body whose type is said must be JSON (the agent API: a token, never a cookie, so an untyped body is read too). */
export const requireJson: RequestHandler = (req, _res, next) => {
  const type = req.headers['content-type'];
  if (type !== undefined && !JSON_TYPE.test(type)) {
    return next(new LedgerError('unsupported_media_type', `Send the body as application/json, not ${type}.`, { contentType: type }));
  }
  next();
};

/**
 * The desk (issue 51), where a browser's cookie rides along: a POST must say its type, JSON (or `octet-stream` for
 * an upload's bytes). A page elsewhere can make a browser post a body with no type or text/plain without asking
 * first (no CORS preflight); a JSON type it cannot send without one, which this server never grants.
 */
export const requireType =
  (type: 'json' | 'octet-stream'): RequestHandler =>
  (req, _res, next) => {
    const said = req.headers['content-type'];
    const ok = said !== undefined && (type === 'json' ? JSON_TYPE.test(said) : /^application\/octet-stream\s*(;|$)/i.test(said));
    if (ok) return next();
    const want = `application/${type}`;
    next(
      new LedgerError('unsupported_media_type', `Send the body as ${want}${said === undefined ? ' (the request said no Content-Type)' : `, not ${said}`}.`, {
        contentType: said ?? null,
        expected: want,
      }),
    );
  };

/** The query string as express's "simple" parser reads it: a repeated name becomes an array. */
export function queryOf(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return at < 0 ? {} : parseQueryString(url.slice(at + 1));
}

/** The full path of a request inside a Router (baseUrl + the rest), without the query. */
export function pathOf(req: IncomingMessage & { baseUrl?: string }): string {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return `${req.baseUrl ?? ''}${at < 0 ? url : url.slice(0, at)}`;
}

/** Writes a JSON answer in one go, with its length. */
export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json', head = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': `${contentType}; charset=utf-8`, 'Content-Length': Buffer.byteLength(text) });
  res.end(head ? undefined : text);
}

export function methodNotAllowed(methods: string[]): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Allow', methods.join(', '));
    next(new LedgerError('method_not_allowed', `${req.method} is not allowed on ${pathOf(req)}; use ${methods.join(' or ')}.`, { allow: methods }));
  };
}

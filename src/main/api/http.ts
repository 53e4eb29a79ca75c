// Express pieces shared by /api/v1, /api/mcp and the desk route.
import express, { type RequestHandler } from 'express';
import { LedgerError } from '../ledger/errors';

export const BODY_LIMIT = '1mb'; // 1 MiB

/** Parses any body as strict JSON (the media type is checked by requireJson first). */
export const jsonBody: RequestHandler = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });

export const requireJson: RequestHandler = (req, _res, next) => {
  const type = req.headers['content-type'];
  if (type !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    return next(new LedgerError('unsupported_media_type', `Send the body as application/json, not ${type}.`, { contentType: type }));
  }
  next();
};

export function methodNotAllowed(methods: string[]): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Allow', methods.join(', '));
    next(new LedgerError('method_not_allowed', `${req.method} is not allowed on ${req.baseUrl}${req.path}; use ${methods.join(' or ')}.`, { allow: methods }));
  };
}

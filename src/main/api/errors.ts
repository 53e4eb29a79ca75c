// Errors are raised as LedgerError anywhere and rendered here, once.
// Nothing else reaches a client: no stack trace, no library message.
import type { NextFunction, Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import { LedgerError } from '../ledger/core/errors';
import { challenge } from './auth';
import { sendJson } from './http';
import { currentRequestId } from './request-id';

/** How the server tells its log something: info by default; an unexpected failure is an error. */
export type Log = (message: string, level?: 'info' | 'warn' | 'error') => void;

const MIB = 1024 * 1024;
const sizeText = (bytes: number): string => (bytes === MIB ? '1 MiB' : `${Math.round(bytes / MIB)} MB`);

/** Body-parser and unknown failures -> LedgerError. */
export function toLedgerError(error: unknown): LedgerError {
  if (error instanceof LedgerError) return error;
  const e = error as { type?: string; status?: number; limit?: number } | undefined;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new LedgerError('invalid_json', 'The request body is not valid JSON.', null);
    case 'entity.too.large':
      return new LedgerError('payload_too_large', `The request body is over the ${sizeText(e.limit ?? MIB)} limit.`, { limitBytes: e.limit ?? MIB });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new LedgerError('unsupported_media_type', 'Send the body as UTF-8 application/json.', null);
  }
  if (error instanceof URIError) {
    // The router could not decode a path segment (e.g. /transactions/%zz).
    return new LedgerError('validation_failed', 'The path holds malformed percent-encoding.', [{ field: 'path', message: 'is not valid percent-encoding' }]);
  }
  if (e?.status === 400) return new LedgerError('validation_failed', 'The request could not be read.', [{ field: 'request', message: 'could not be read' }]);
  if ((error as { code?: string })?.code === 'SQLITE_BUSY') return internal('The ledger is busy; try again.');
  return internal('Something went wrong on our side; the server log has the details.');
}

/**
 * A 500 names the request's id (issue 51), in its message and as details.requestId, so that whoever holds the
 * answer can find the log line; details stays the spec's "any" (it was null), so v1 clients read it as before.
 */
function internal(message: string): LedgerError {
  const id = currentRequestId();
  if (!id) return new LedgerError('internal_error', message, null);
  return new LedgerError('internal_error', `${message.replace(/\.$/, '')} (request id ${id}).`, { requestId: id });
}

/** An unexpected failure, with its stack, to the log (never to the client): `where` says what was running. */
export function logInternal(log: Log, where: string, error: unknown): void {
  log(`internal error${where ? ` in ${where}` : ''}: ${(error as Error)?.stack ?? String(error)}`, 'error');
}

export function sendError(res: ServerResponse, error: LedgerError): void {
  const www = challenge(error);
  if (www) res.setHeader('WWW-Authenticate', www);
  sendJson(res, error.status, error.toBody());
}

export function errorHandler(log: Log) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const ledgerError = toLedgerError(error);
    if (ledgerError.code === 'internal_error') logInternal(log, '', error);
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, ledgerError);
  };
}

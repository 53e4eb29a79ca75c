// Browser mode: the renderer at `/` and the desk operations at /desk/api/<name>,
// behind a session cookie that only the one-time sign-in link sets. Agent
// tokens open nothing here. Foreign Host/Origin are refused before this (guards.ts).
import express, { type Express, type RequestHandler, Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { jsonBody, methodNotAllowed, queryOf, requireType } from '../../api/http';
import { Uuid } from '../../api/fields';
import { parsePart } from '../../api/validation';
import { ERROR_CODES, type ErrorCode } from '../../ledger/core/errors';
import { MAX_RECEIPT_BYTES } from '../../receipts/intake';
import { DESK_HTTP_PREFIX, type DeskAnswer } from '../../../shared/desk';
import { CONTENT_SECURITY_POLICY } from '../../../shared/web';
import { forOrgOf, runDesk } from './dispatch';
import { receiptFile } from '../transactions/receipts';
import { exportFile } from '../reports/reports';
import { deskOperations, type DeskContext } from '../operations';
import type { DeskPerson } from '../operation';
import { asPerson } from '../scope';
import { DeskSessions, SESSION_COOKIE, SIGN_IN_PATH } from './sessions';
import { cookieOptions, peopleRouter, sessionOf, sessionPerson, type PeopleHttpOptions } from './people-http';
import { CALLBACK_PATH } from '../../connectors/enable-banking/command';
import { seenRequest } from '../../api/seen';

export { SIGN_IN_PATH };

/** The renderer's policy in a browser: our own files only, no framing. */
export const BROWSER_CSP = CONTENT_SECURITY_POLICY;

export interface DeskHttpOptions {
  context: () => DeskContext;
  sessions: DeskSessions;
  /** Served over HTTPS (TLS here, or an https public address): cookies Secure, plain HTTP refused. */
  secure?: boolean;
  /** Built renderer (index.html + assets); see `npm run build`. */
  rendererDir: string;
  log: (m: string) => void;
}

const statusOf = (code: string): number => ERROR_CODES[code as ErrorCode]?.status ?? 500;

const ReceiptFileQuery = z.strictObject({ orgId: Uuid, download: z.literal('1').optional() });

export function mountDesk(app: Express, options: DeskHttpOptions): void {
  const peopleOptions = { ledger: options.context().ledger, sessions: options.sessions, secure: options.secure ?? false };
  if (peopleOptions.ledger.readOnly) app.all(SIGN_IN_PATH, readOnlySignIn);
  app.get(SIGN_IN_PATH, signIn(options.sessions, peopleOptions.secure));
  app.use('/desk', peopleRouter(peopleOptions));
  app.use(DESK_HTTP_PREFIX, deskRouter(options, peopleOptions));
  serveRenderer(app, options.rendererDir);
}

/** The rest of a request's body, read and dropped. */
const drained = (req: express.Request): Promise<void> =>
  new Promise((done) => {
    for (const event of ['end', 'close', 'error']) req.once(event, () => done());
    req.resume();
  });

const send = (res: express.Response, result: DeskAnswer<unknown>) => res.status('error' in result ? statusOf(result.error.code) : 200).json(result);

/** A read replica's server (issue 51) signs no one in, by link or password: a session is a write. */
const readOnlySignIn: RequestHandler = (req, res) => {
  const message = 'This server serves reads only (a read replica of the database): sign in on a server of the primary database.';
  res.setHeader('Cache-Control', 'no-store');
  if (req.method === 'GET') res.status(503).type('html').send(page(message));
  else res.status(503).json({ error: { code: 'read_only', message, details: null } });
};

/** The one-time link: a code becomes a session cookie (the machine's owner), once. */
function signIn(sessions: DeskSessions, secure: boolean): RequestHandler {
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // Over HTTPS only when served so: a code sent in the clear is spent by nobody.
    if (secure && !req.secure) {
      res.status(401).type('html').send(page('This server is reached over HTTPS only: open the link with https://.'));
      return;
    }
    const code = typeof req.query.code === 'string' ? req.query.code : '';
    const id = code ? await sessions.exchange(code) : null;
    if (!id) {
      res.status(401).type('html').send(page('This sign-in link was already used or has expired. Get a new one with: npm run -s ledgerdesk -- sign-in'));
      return;
    }
    await sessions.end(sessionOf(req));
    res.cookie(SESSION_COOKIE, id, cookieOptions(secure));
    res.redirect(303, '/');
  };
}

/** The person of each request (null: the machine's owner), kept by requireSession for the handlers after it. */
const people = new WeakMap<express.Request, DeskPerson | null>();

function deskRouter(options: DeskHttpOptions, peopleOptions: PeopleHttpOptions): Router {
  const { sessions } = options;
  const requireSession: RequestHandler = async (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      people.set(req, await sessionPerson(peopleOptions, req));
      next();
    } catch (error) {
      next(error);
    }
  };
  // Each request's context names its person (their role is checked against every operation they run: scope.ts) and
  // where the request came from (HMRC's fraud prevention headers).
  const context = (req: express.Request): DeskContext => ({ ...options.context(), person: people.get(req) ?? null, seen: seenRequest(req) });
  const api = Router({ strict: false, caseSensitive: true });
  api.post('/sign-out', requireSession, requireType('json'), async (req, res) => {
    await sessions.end(sessionOf(req));
    res.clearCookie(SESSION_COOKIE, cookieOptions(peopleOptions.secure));
    res.json({ data: null });
  });
  // Receipts arrive as raw bytes (up to 20 MB), the rest as JSON.
  api.post('/uploadReceipt', requireSession, requireType('octet-stream'), express.raw({ type: () => true, limit: MAX_RECEIPT_BYTES }), async (req, res) => {
    const bytes = Buffer.isBuffer(req.body) ? new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.length) : undefined;
    send(res, await runDesk(context(req), 'uploadReceipt', { orgId: req.query.orgId, fileName: req.query.fileName, bytes }, options.log));
  });
  // Statements are streamed to where they are staged as they arrive (they can be large), not held in memory.
  api.post('/stageStatement', requireSession, requireType('octet-stream'), async (req, res) => {
    const answer = await runDesk(context(req), 'stageStatement', { orgId: req.query.orgId, fileName: req.query.fileName, bytes: req }, options.log);
    // Refused before its end (a limit, a quota, a role): the rest is read and dropped before the answer, so that a
    // client still sending reads it (an answer sent mid-body would close on bytes still coming: a reset, no answer).
    // The server's request timeout bounds how long that may take.
    if ('error' in answer && !req.readableEnded) await drained(req);
    send(res, answer);
  });
  api.get('/download/:exportId', requireSession, sendExport(context, options));
  api.get('/receipts/:id', requireSession, sendReceipt(context));
  api.post('/:name', requireSession, requireType('json'), jsonBody, async (req, res) => {
    send(res, await runDesk(context(req), req.params.name as string, req.body, options.log));
  });
  api.all('/download/:exportId', methodNotAllowed(['GET']));
  api.all('/receipts/:id', methodNotAllowed(['GET']));
  api.all('/:name', methodNotAllowed(['POST']));
  return api;
}

/** An export's file, as a download (the desktop app reads it over IPC instead): for whom downloadExport allows. */
function sendExport(context: (req: express.Request) => DeskContext, options: Pick<DeskHttpOptions, 'log'>): RequestHandler {
  return async (req, res, next) => {
    try {
      const { orgId } = parsePart(z.strictObject({ orgId: Uuid }), queryOf(req), 'query');
      const base = context(req);
      const { name, path, done } = await forOrgOf(base.ledger, { orgId }, async (org) => {
        const file = await exportFile(await asPerson(base, 'downloadExport', deskOperations.downloadExport.roles, org, orgId), orgId, String(req.params.exportId));
        // Removed in the organization's scope (a server's row-level security), once served whole.
        return { ...file, done: () => base.ledger.forOrg(org!.seq, file.done) };
      });
      res.download(path, name, (error) => {
        // Served: nothing of it stays (issue 51). Cut short: it stays for another try, until its day is out.
        if (!error) done().catch((e: unknown) => options.log(`removing a downloaded export failed: ${(e as Error)?.message ?? String(e)}`));
        else if (!res.headersSent) next(error);
      });
    } catch (error) {
      next(error);
    }
  };
}

/**
 * A receipt's file, to look at in a new tab (inline) or to keep (download=1). Only
 * PDF, JPEG, PNG and HEIC are ever stored (checked by their bytes), sent as what they are. For whom receiptBytes allows,
 * as receiptBytes reads it (a client: their own uploads).
 */
function sendReceipt(context: (req: express.Request) => DeskContext): RequestHandler {
  return async (req, res, next) => {
    try {
      const { id } = parsePart(z.strictObject({ id: Uuid }), req.params, 'path');
      const { orgId, download } = parsePart(ReceiptFileQuery, queryOf(req), 'query');
      const base = context(req);
      const file = await forOrgOf(base.ledger, { orgId }, async (org) =>
        receiptFile(await asPerson(base, 'receiptBytes', deskOperations.receiptBytes.roles, org, orgId), orgId, id),
      );
      const inline = !download && file.mimeType !== 'image/heic'; // no browser shows HEIC: it downloads
      res.setHeader('Content-Type', file.mimeType);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'");
      res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
      res.end(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.length));
    } catch (error) {
      next(error);
    }
  };
}

/** The built screens: index.html under our policy, hashed assets cached for a year. */
function serveRenderer(app: Express, rendererDir: string): void {
  app.get(['/', '/index.html'], (_req, res) => {
    const index = join(rendererDir, 'index.html');
    res.setHeader('Content-Security-Policy', BROWSER_CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    if (!existsSync(index)) {
      res.status(503).type('html').send(page('The screens are not built yet: run "npm run build", then reload.'));
      return;
    }
    res.type('html').send(readFileSync(index));
  });
  // A bank's sign-in comes back here (Enable Banking): its ?code&state go on to the screens at the root, which finish it.
  app.get(CALLBACK_PATH, (req, res) => res.redirect(303, `/${new URL(req.originalUrl, 'http://callback').search}`));
  app.get('/favicon.svg', (_req, res) => res.type('image/svg+xml').sendFile(join(rendererDir, 'favicon.svg')));
  app.use('/assets', express.static(join(rendererDir, 'assets'), { index: false, fallthrough: true, immutable: true, maxAge: '1y' }));
}

function page(message: string): string {
  const text = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>Ledgerdesk</title><body style="font-family:system-ui;margin:3rem"><h1>Ledgerdesk</h1><p>${text}</p>`;
}

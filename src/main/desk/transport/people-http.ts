// People signing in to the browser desk (issue 45): `POST /desk/sign-in` with
// JSON { email, password } (200 and a session cookie, or the API's error
// envelope: 401 the same for an unknown address and a wrong password, 429 while
// the account is locked; each recent failure slows the answer), the invitation
// link's password (`POST /desk/invitation`), the second factor (`POST
// /desk/totp`: TOTP_TRIES wrong codes end the pending sign-in, and the person's
// own limit is in ledger/access/second-factor.ts), and sign-out everywhere. Only JSON is read (a cross-site form
// cannot send it), a new session id is made at every sign-in, and over HTTPS the
// cookie is Secure and a session is refused over plain HTTP.
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { setTimeout as pause } from 'node:timers/promises';
import * as z from 'zod';
import { jsonBody, requireType, sendJson } from '../../api/http';
import { parsePart } from '../../api/validation';
import { toLedgerError } from '../../api/errors';
import { LedgerError } from '../../ledger/core/errors';
import { personBySeq } from '../../ledger/access/people';
import { acceptInvitation, invitationAbout } from '../../ledger/access/invitations';
import { checkTotp } from '../../ledger/access/second-factor';
import { signIn } from '../../ledger/access/sign-in';
import type { Ledger } from '../../ledger/core/sqlite/open';
import type { DeskPerson } from '../operation';
import { cookieValue, SESSION_COOKIE, type DeskSessions } from './sessions';

/** Codes a pending sign-in may try: the 5th wrong one ends it (sign in again; the person's own limit counts on). */
export const TOTP_TRIES = 5;

export interface PeopleHttpOptions {
  ledger: Ledger;
  sessions: DeskSessions;
  /** Served over HTTPS (TLS here, or behind a proxy at an https public address): cookies Secure, plain HTTP refused. */
  secure: boolean;
}

const SignInBody = z.strictObject({ email: z.string().max(254), password: z.string().max(1024) });
const InvitationBody = z.strictObject({ code: z.string().min(1).max(100), password: z.string().max(1024) });
const TotpBody = z.strictObject({ code: z.string().max(10) });
const AboutBody = z.strictObject({ code: z.string().min(1).max(100) });

export const sessionOf = (req: Request): string | undefined => cookieValue(req.headers.cookie, SESSION_COOKIE);

/** The session cookie: HttpOnly, SameSite=Strict, Secure over HTTPS. */
export const cookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'strict' as const, path: '/', secure });

const fail = (res: Response, error: unknown) => {
  const failure = toLedgerError(error);
  sendJson(res, failure.status, failure.toBody());
};

/** Refused over plain HTTP when served over HTTPS: a cookie seen there may have been read on the way. */
export function assertSecure(options: PeopleHttpOptions, req: Request): void {
  if (options.secure && !req.secure) throw new LedgerError('unauthorized', 'This server is reached over HTTPS only.', { reason: 'insecure' });
}

/** The person a live session names (null: the machine's owner); refused when the session is none, insecure, or waits for its second factor. */
export async function sessionPerson(options: PeopleHttpOptions, req: Request, allowTotpDue = false): Promise<DeskPerson | null> {
  assertSecure(options, req);
  const session = await options.sessions.check(sessionOf(req));
  if (!session) throw new LedgerError('unauthorized', 'Sign in first.', { reason: 'no_session' });
  if (session.totpDue && !allowTotpDue) throw new LedgerError('unauthorized', 'Enter the code of your second factor first.', { reason: 'totp_due' });
  if (session.userSeq === null) return null;
  const row = await personBySeq(options.ledger, session.userSeq);
  if (!row || row.removed_at) throw new LedgerError('unauthorized', 'Sign in first.', { reason: 'no_session' });
  return { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: row.totp_secret !== null };
}

async function startSession(options: PeopleHttpOptions, req: Request, res: Response, userSeq: number, totpDue: boolean): Promise<void> {
  // Whatever session id came with the request is ended: the one signed in is always new (no fixation).
  await options.sessions.end(sessionOf(req));
  res.cookie(SESSION_COOKIE, await options.sessions.start(userSeq, totpDue), cookieOptions(options.secure));
}

type Handler = (req: Request, res: Response) => Promise<void>;

/** Email and password: a session (its second factor still due when the person has one), slowed after failures. */
const signInWith =
  (options: PeopleHttpOptions): Handler =>
  async (req, res) => {
    const { email, password } = parsePart(SignInBody, req.body, 'body');
    const { person, totpDue } = await signIn(options.ledger, email, password, Date.now(), pause);
    await startSession(options, req, res, person.seq, totpDue);
    sendJson(res, 200, { data: { name: person.name, email: person.email, totpDue } });
  };

/** An invitation link's code and a new password: the password set, and a session. */
const invited =
  (options: PeopleHttpOptions): Handler =>
  async (req, res) => {
    const { code, password } = parsePart(InvitationBody, req.body, 'body');
    const person = await acceptInvitation(options.ledger, code, password);
    await startSession(options, req, res, person.seq, false);
    sendJson(res, 200, { data: { name: person.name, email: person.email, totpDue: false } });
  };

/** What an invitation link is for (the address, the organizations and roles), for its page; nothing spent. */
const aboutInvitation =
  (options: PeopleHttpOptions): Handler =>
  async (req, res) => {
    const { code } = parsePart(AboutBody, req.body, 'body');
    sendJson(res, 200, { data: await invitationAbout(options.ledger, code) });
  };

/** The second factor's code for a session that waits for it. */
const secondFactor =
  (options: PeopleHttpOptions): Handler =>
  async (req, res) => {
    const { code } = parsePart(TotpBody, req.body, 'body');
    const person = await sessionPerson(options, req, true);
    const session = sessionOf(req)!;
    // Counted on the session before it is checked: codes sent at once are numbered in turn, past the limit unchecked.
    const wrong = (triesLeft?: number) => new LedgerError('unauthorized', 'That code is not the one your app shows now.', { reason: 'totp', ...(triesLeft ? { triesLeft } : {}) });
    if (!person) throw wrong();
    const tries = await options.sessions.countTotpTry(session);
    // Null: the pending sign-in ended meanwhile (another code was its 5th wrong one).
    if (tries === null || tries > TOTP_TRIES) throw await totpEnded(options, session);
    if (!(await checkTotp(options.ledger, person.seq, code))) {
      if (tries === TOTP_TRIES) throw await totpEnded(options, session);
      throw wrong(TOTP_TRIES - tries);
    }
    await options.sessions.passed(session);
    sendJson(res, 200, { data: { name: person.name, email: person.email, totpDue: false } });
  };

/** Too many wrong codes on a pending sign-in: it ends (the cookie opens nothing), and the person signs in again. */
async function totpEnded(options: PeopleHttpOptions, session: string): Promise<LedgerError> {
  await options.sessions.end(session);
  return new LedgerError('unauthorized', `${TOTP_TRIES} wrong codes: sign in again.`, { reason: 'totp_ended' });
}

/** Every session of the person ends. */
const everywhere =
  (options: PeopleHttpOptions): Handler =>
  async (req, res) => {
    const person = await sessionPerson(options, req);
    if (!person) throw new LedgerError('conflict', "The machine's owner signs in by its one-time link: sign out ends that session.", null);
    const ended = await options.sessions.endAll(person.seq);
    res.clearCookie(SESSION_COOKIE, cookieOptions(options.secure));
    sendJson(res, 200, { data: { ended } });
  };

export function peopleRouter(options: PeopleHttpOptions): Router {
  const router = Router({ strict: false, caseSensitive: true });
  const handle =
    (fn: Handler): RequestHandler =>
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      try {
        assertSecure(options, req);
        await fn(req, res);
      } catch (error) {
        fail(res, error);
      }
    };
  // Only JSON, said so (415 otherwise: api/http.ts requireType), before anything is read.
  const json = [requireType('json'), jsonBody];
  router.post('/sign-in', ...json, handle(signInWith(options)));
  router.post('/invitation/about', ...json, handle(aboutInvitation(options)));
  router.post('/invitation', ...json, handle(invited(options)));
  router.post('/totp', ...json, handle(secondFactor(options)));
  router.post('/api/sign-out-everywhere', requireType('json'), express.json({ limit: 1024 }), handle(everywhere(options)));
  return router;
}

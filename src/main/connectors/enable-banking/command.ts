// `ledgerdesk connector add enable-banking --country GB --bank "<name>"
// --application-id ID --private-key-file key.pem`: prints the link to the
// bank and waits for the way back. Against a running server, the server's own
// address takes the redirect and this returns what the server needs to finish;
// alone, a loopback listener of the command's own does (RFC 8252), or, where
// the redirect registered is an https address that leads nowhere, the person
// pastes the address their browser ended on. The state is checked each way.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { OutsideError } from '../../edge/http';
import { listenForRedirect } from '../../edge/redirect';
import { isLoopback } from '../../api/reach';
import type { CallContext, CallTuning } from './client';
import { beginConnect, completeConnect, type Connected } from './connect';
import { SERVICE } from './jwt';

/** The loopback redirect registered by default in the application (port fixed: Enable Banking checks the address). */
export const DEFAULT_REDIRECT = 'http://127.0.0.1:7391/enable-banking/callback';

/** The path on a server's own address where the bank sends the browser back (the Connections screen finishes it). */
export const CALLBACK_PATH = '/enable-banking/callback';

export interface CommandConnect {
  bank: string;
  country: string;
  /** The redirect URL registered in the application; default DEFAULT_REDIRECT. */
  redirectUrl?: string;
  /** A running server's redirect address (its public URL and route): the server completes, this only begins. */
  serverRedirectUrl?: string;
  psuType?: 'personal' | 'business';
  /** Where the link and instructions go (stderr for a command printing JSON). */
  print: (line: string) => void;
  /** The paste route's answer: one line the person types. */
  readLine?: () => Promise<string>;
  /** How long to wait for the person; default 10 minutes. */
  waitMs?: number;
  tuning?: CallTuning;
}

export type CommandConnected =
  | ({ kind: 'connected' } & Connected)
  /** The server receives the redirect: it keeps `state` to check it, then calls completeConnect with the code. */
  | { kind: 'server'; url: string; state: string; redirectUrl: string; validUntil: string };

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The code from the address the browser ended on, its state checked; an error in words otherwise. */
export function codeFromPasted(pasted: string, state: string): string {
  let url: URL;
  try {
    url = new URL(pasted.trim());
  } catch {
    throw new OutsideError(SERVICE, 'refused', `That is not an address: paste the whole address from the browser's address bar.`);
  }
  const p = url.searchParams;
  if (p.get('error')) throw new OutsideError(SERVICE, 'refused', `${SERVICE} did not connect: ${(p.get('error_description') ?? p.get('error') ?? '').slice(0, 200)}.`);
  if (!sameText(p.get('state') ?? '', state)) throw new OutsideError(SERVICE, 'refused', `That address is not the answer to this connection (its state differs): start again.`);
  const code = p.get('code');
  if (!code) throw new OutsideError(SERVICE, 'refused', `${SERVICE} sent no code back in that address.`);
  return code;
}

const loopbackListener = (redirectUrl: string) => {
  const url = new URL(redirectUrl);
  return url.protocol === 'http:' && isLoopback(url.hostname) ? url : null;
};

async function waitForCode(o: CommandConnect, redirectUrl: string, state: string, open: (redirect: string) => Promise<string>): Promise<string> {
  const loopback = loopbackListener(redirectUrl);
  if (loopback) {
    const port = Number(loopback.port || 80);
    const listener = await listenForRedirect({ state, path: loopback.pathname, port, timeoutMs: o.waitMs, service: SERVICE });
    try {
      o.print(`Open this link to sign in at ${o.bank} and consent (waiting for the bank to send you back):\n${await open(redirectUrl)}`);
      return (await listener.received).code;
    } finally {
      listener.close();
    }
  }
  if (!o.readLine)
    throw new OutsideError(SERVICE, 'refused', `${SERVICE}: the redirect ${redirectUrl} is not this computer's loopback address, and no one can paste the answer here.`);
  o.print(`Open this link to sign in at ${o.bank} and consent:\n${await open(redirectUrl)}`);
  o.print(`Then paste here the whole address your browser ends on (it starts ${redirectUrl}):`);
  return codeFromPasted(await o.readLine(), state);
}

/** The command's connection: the link printed, the bank's answer awaited (or handed to the server), the session made. */
export async function connectFromCommand(ctx: CallContext, o: CommandConnect): Promise<CommandConnected> {
  const state = randomBytes(24).toString('base64url');
  const begin = (redirectUrl: string) => beginConnect(ctx, { bank: o.bank, country: o.country, redirectUrl, state, psuType: o.psuType }, o.tuning);
  if (o.serverRedirectUrl) {
    const started = await begin(o.serverRedirectUrl);
    o.print(`Open this link to sign in at ${started.bank.name} and consent; the server finishes the connection:\n${started.url}`);
    return { kind: 'server', url: started.url, state, redirectUrl: o.serverRedirectUrl, validUntil: started.validUntil };
  }
  const code = await waitForCode(o, o.redirectUrl ?? DEFAULT_REDIRECT, state, async (redirect) => (await begin(redirect)).url);
  return { kind: 'connected', ...(await completeConnect(ctx, code, o.tuning)) };
}

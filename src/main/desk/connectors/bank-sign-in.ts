// A bank's sign-in from a window (issue 52): begun with the link to the bank's
// page and the state it carries, kept in the books (ledger/feeds/sign-ins.ts)
// until the bank sends the browser back. On a server the bank sends it to the
// server's own address (CALLBACK_PATH, which hands ?code&state to the
// Connections screen); on the desktop to the loopback listener this process
// opens, as the command does. Either way the state is checked in constant time
// and used once, and the code made into the session here.
import { randomBytes } from 'node:crypto';
import { isLoopback } from '../../api/reach';
import { addConnector } from '../../connectors/connect';
import {
  beginConnect,
  CALLBACK_PATH,
  completeConnect,
  DEFAULT_REDIRECT,
  enableBankingBase,
  SERVICE,
  type ApplicationCredentials,
  type Connected,
} from '../../connectors/enable-banking';
import { answeringFor } from '../../connectors/outcome';
import { OutsideError } from '../../edge/http';
import { listenForRedirect, type RedirectListener } from '../../edge/redirect';
import * as L from '../../ledger';
import { LedgerError } from '../../ledger/core/errors';
import { beginSignIn, takeSignIn } from '../../ledger/feeds/sign-ins';
import type { ConnectorView } from '../../ledger/feeds/view';
import type { DeskContext } from '../operation';

export interface BankSignIn {
  /** The bank's page, for the person to open. */
  link: string;
  /** Sent to the bank and back: the screen keeps it to finish this sign-in. */
  state: string;
  /** Where the bank sends the browser back (registered in the application). */
  redirectUrl: string;
  bank: string;
  /** How long the consent asked for lasts. */
  validUntil: string;
}

/** A session made: saved as the connector `name` (a connector of that name reconnected), its one account mapped to `account`. */
export const saveBank = (ctx: DeskContext, seq: number, connected: Connected, name: string, account: string | undefined): Promise<ConnectorView> =>
  addConnector(ctx.ledger, seq, ctx.reviewer, { provider: 'enable-banking', name, credentials: connected.credentials, account, now: new Date() });

/** The desktop's loopback listener, one at a time (its port is the one registered): the sign-in it waits for. */
let listening: { state: string; listener: RedirectListener } | null = null;

function serverRedirect(ctx: DeskContext): string {
  if (!ctx.publicUrl)
    throw new LedgerError('conflict', 'This server has no public address (serve --public-url) for the bank to send the browser back to.', { reason: 'no_public_url' });
  return `${ctx.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;
}

async function desktopListener(state: string, redirectUrl: string): Promise<RedirectListener> {
  const url = new URL(redirectUrl);
  if (url.protocol !== 'http:' || !isLoopback(url.hostname))
    throw L.invalid([{ field: 'redirectUrl', message: "must be this computer's loopback address (http://127.0.0.1:<port>/...) for the desktop app" }]);
  listening?.listener.close();
  listening = null;
  const listener = await listenForRedirect({ state, path: url.pathname, port: Number(url.port || 80), service: SERVICE });
  listening = { state, listener };
  return listener;
}

interface Begin {
  name: string;
  bank: string;
  country: string;
  redirectUrl?: string;
  account?: string;
}

/** The sign-in begun: the link to the bank's page, the sign-in kept (the key sealed) until the bank answers. */
export async function beginBankSignIn(ctx: DeskContext, seq: number, call: { credentials: ApplicationCredentials; baseUrl: string; now: Date }, input: Begin): Promise<BankSignIn> {
  const state = randomBytes(24).toString('base64url');
  const redirectUrl = ctx.mode === 'browser' ? serverRedirect(ctx) : (input.redirectUrl ?? DEFAULT_REDIRECT);
  const listener = ctx.mode === 'desktop' ? await desktopListener(state, redirectUrl) : null;
  try {
    const started = await beginConnect(call, { bank: input.bank, country: input.country, redirectUrl, state });
    await beginSignIn(
      ctx.ledger,
      seq,
      state,
      { provider: 'enable-banking', name: input.name, account: input.account ?? null, redirectUrl, credentials: call.credentials },
      call.now,
    );
    return { link: started.url, state, redirectUrl, bank: started.bank.name, validUntil: started.validUntil };
  } catch (error) {
    listener?.close();
    throw error;
  }
}

/** The code the bank sent back: given (a server's browser came back with it), or awaited from the desktop's listener. */
async function codeOf(input: { state: string; code?: string; error?: string }): Promise<string> {
  if (input.error) throw new OutsideError(SERVICE, 'refused', `${SERVICE} did not connect: ${input.error.slice(0, 200)}.`);
  if (input.code) return input.code;
  if (listening?.state !== input.state) throw L.invalid([{ field: 'code', message: 'is required: the address the bank sent you back to holds it' }]);
  try {
    return (await listening.listener.received).code;
  } catch (error) {
    throw new OutsideError(SERVICE, 'refused', (error as Error).message);
  }
}

/** The bank answered: the state checked and used up, the code made into the session, the connector saved. */
export async function finishBankSignIn(ctx: DeskContext, seq: number, input: { state: string; code?: string; error?: string }): Promise<ConnectorView> {
  return answeringFor(async () => {
    const code = await codeOf(input);
    const signIn = await takeSignIn<ApplicationCredentials>(ctx.ledger, seq, input.state, new Date());
    const connected = await completeConnect({ credentials: signIn.credentials, baseUrl: enableBankingBase(), now: new Date() }, code);
    return saveBank(ctx, seq, connected, signIn.name, signIn.account ?? undefined);
  });
}

// Who Ledgerdesk is to HMRC for one organization (issue 54): the access token,
// refreshed on demand when it lapses within five minutes (and by the
// refreshHmrcTokens pass a job runner may run), the sign-in begun and
// completed, and the device id this data folder keeps for the fraud headers.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Human } from '../ledger/access/audit';
import { LedgerError } from '../ledger/core/errors';
import type { Ledger } from '../ledger/core/storage';
import * as H from '../ledger/hmrc/connection';
import { authorizeUrl, exchangeCode, newState, refreshAccess, refreshExpiry } from './oauth';
import { hmrcError } from './vat';
import type { HmrcSettings } from './settings';

/** Refreshed when it lapses within this. */
const EARLY_MS = 5 * 60_000;

/** The access token for a call now, refreshed first when near its end (a second process's refresh taken as it is). */
export async function accessFor(ledger: Ledger, orgSeq: number, settings: HmrcSettings, now = new Date()): Promise<H.OpenTokens> {
  const tokens = await H.hmrcTokens(ledger, orgSeq);
  if (Date.parse(tokens.refreshExpiresAt) <= now.getTime()) {
    throw new LedgerError('conflict', H.refreshWarning(tokens.refreshExpiresAt, now)!, { reason: 'not_connected' });
  }
  if (Date.parse(tokens.accessExpiresAt) - now.getTime() > EARLY_MS) return tokens;
  try {
    const fresh = await refreshAccess(settings, tokens.refreshToken, now);
    if (await H.storeRefreshedTokens(ledger, orgSeq, tokens, fresh)) return { ...tokens, ...fresh };
  } catch (error) {
    // Another process may have used the refresh token first: its tokens stand.
    const again = await H.hmrcTokens(ledger, orgSeq);
    if (again.accessExpiresAt !== tokens.accessExpiresAt) return again;
    throw hmrcError(error);
  }
  return H.hmrcTokens(ledger, orgSeq);
}

/** The refresh pass (for the job runner): every connected organization's access token refreshed when near its end. */
export async function refreshHmrcTokens(ledger: Ledger, settings: HmrcSettings, now = new Date()): Promise<number> {
  let refreshed = 0;
  for (const org of await H.connectedOrganizations(ledger)) {
    await ledger.forOrg(org, async () => {
      const c = await H.hmrcConnection(ledger, org, now);
      if (!c?.connected || (c.refreshExpiresAt ?? '') <= now.toISOString()) return;
      const before = (await H.hmrcTokens(ledger, org)).accessExpiresAt;
      const after = (await accessFor(ledger, org, settings, now)).accessExpiresAt;
      if (after !== before) refreshed++;
    });
  }
  return refreshed;
}

/** A sign-in to HMRC begins: the link to open (its state kept, hashed, for whichever process takes the redirect). */
export async function beginConnect(
  ledger: Ledger,
  orgSeq: number,
  settings: HmrcSettings,
  input: { vrn: string; redirectUri: string; state?: string },
): Promise<{ url: string; state: string }> {
  const state = input.state ?? newState();
  await H.beginHmrcConnection(ledger, orgSeq, { vrn: input.vrn, state, redirectUri: input.redirectUri });
  return { url: authorizeUrl(settings, input.redirectUri, state), state };
}

/** The browser came back with a code and the state: checked, exchanged, the tokens sealed. */
export async function finishConnect(ledger: Ledger, orgSeq: number, actor: Human, settings: HmrcSettings, input: { code: string; state: string }, now = new Date()) {
  const { redirectUri } = await H.pendingHmrcConnection(ledger, orgSeq, input.state, now);
  let tokens;
  try {
    tokens = await exchangeCode(settings, input.code, redirectUri, now);
  } catch (error) {
    throw hmrcError(error);
  }
  return H.completeHmrcConnection(ledger, orgSeq, actor, input.state, { ...tokens, refreshExpiresAt: refreshExpiry(now) });
}

/** This data folder's device id for HMRC (Gov-Client-Device-ID): made once, kept, never expires. */
export function deviceId(dataDir: string): string {
  const file = join(dataDir, 'hmrc-device-id');
  if (existsSync(file)) {
    const id = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f-]{36}$/i.test(id)) return id;
  }
  const id = randomUUID();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}

// HMRC's OAuth 2.0 authorization code grant (issue 54): the sign-in link with
// the scopes and a state, the code exchanged for tokens, the access token (4
// hours) refreshed with the refresh token (18 months from the sign-in). Tokens
// are handed to the ledger to seal at once; none is printed or logged.
import { randomBytes } from 'node:crypto';
import { callService, OutsideError } from '../edge/http';
import { HMRC, HMRC_SCOPES, REFRESH_MONTHS, type HmrcSettings } from './settings';

export interface HmrcTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token lapses (ISO). */
  accessExpiresAt: string;
}

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/** A state no one can guess, sent with the sign-in and checked when the browser comes back. */
export const newState = (): string => randomBytes(24).toString('base64url');

/** Where the person signs in to HMRC and grants Ledgerdesk read:vat and write:vat. */
export function authorizeUrl(settings: HmrcSettings, redirectUri: string, state: string): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: settings.clientId, scope: HMRC_SCOPES, state, redirect_uri: redirectUri });
  return `${settings.authBase}/oauth/authorize?${q}`;
}

/** When a refresh token granted at `from` lapses: 18 months later. */
export function refreshExpiry(from: Date): string {
  const at = new Date(from);
  at.setUTCMonth(at.getUTCMonth() + REFRESH_MONTHS);
  return at.toISOString();
}

async function tokens(settings: HmrcSettings, form: Record<string, string>, now: Date): Promise<HmrcTokens> {
  const answer = await callService<TokenAnswer>(`${settings.apiBase}/oauth/token`, {
    service: HMRC,
    body: new URLSearchParams({ client_id: settings.clientId, client_secret: settings.clientSecret, ...form }),
    // A code is exchanged once: a retry after a lost answer would be refused anyway.
    attempts: form.grant_type === 'authorization_code' ? 1 : 3,
  });
  const b = answer.body ?? {};
  if (typeof b.access_token !== 'string' || typeof b.refresh_token !== 'string' || typeof b.expires_in !== 'number') {
    throw new OutsideError(HMRC, 'malformed', `${HMRC} answered the token request without the tokens it promises.`);
  }
  return { accessToken: b.access_token, refreshToken: b.refresh_token, accessExpiresAt: new Date(now.getTime() + b.expires_in * 1000).toISOString() };
}

/** The code the browser brought back, exchanged for tokens (with the redirect it was sent to). */
export const exchangeCode = (settings: HmrcSettings, code: string, redirectUri: string, now = new Date()): Promise<HmrcTokens> =>
  tokens(settings, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, now);

/** A new access token (and refresh token: HMRC issues a new one each time) from the refresh token. */
export const refreshAccess = (settings: HmrcSettings, refreshToken: string, now = new Date()): Promise<HmrcTokens> =>
  tokens(settings, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);

// HMRC's side of the connection (issue 54): the firm's own application on HMRC's
// Developer Hub (its client id and secret, from settings: each firm registers
// its own, as open-source MTD tools do) and HMRC's addresses, the sandbox
// until production is set. Where only LEDGERDESK_HMRC_URL is set, sign-in uses
// it too (a test double serves both).
import { OutsideError, serviceBase } from '../edge/http';

export const HMRC = 'HMRC';
/** HMRC's sandbox: the API, and the sign-in pages (another host). */
export const SANDBOX_API = 'https://test-api.service.hmrc.gov.uk';
export const SANDBOX_AUTH = 'https://test-www.tax.service.gov.uk';
/** What Ledgerdesk asks HMRC to let it do: read obligations, liabilities, payments; submit returns. */
export const HMRC_SCOPES = 'read:vat write:vat';
/** The version of HMRC's VAT API this client speaks. */
export const HMRC_ACCEPT = 'application/vnd.hmrc.1.0+json';
/** HMRC's refresh token lasts 18 months from the person's sign-in (HMRC's authorisation docs). */
export const REFRESH_MONTHS = 18;
/** Warn this many days before the refresh token lapses: the person must sign in to HMRC again. */
export const REFRESH_WARNING_DAYS = 30;

export interface HmrcSettings {
  clientId: string;
  clientSecret: string;
  /** The VAT API and the token endpoint. */
  apiBase: string;
  /** Where the person's browser signs in to HMRC (`{auth}/oauth/authorize`). */
  authBase: string;
  /** Whether these are HMRC's sandbox addresses (the Tax screen says so). */
  sandbox: boolean;
}

/** Where the person signs in to HMRC: LEDGERDESK_HMRC_AUTH_URL, else LEDGERDESK_HMRC_URL where only it is set, else the sandbox's. */
export const hmrcAuthBase = (env: NodeJS.ProcessEnv = process.env): string =>
  serviceBase('LEDGERDESK_HMRC_AUTH_URL', env.LEDGERDESK_HMRC_URL ? serviceBase('LEDGERDESK_HMRC_URL', SANDBOX_API, env) : SANDBOX_AUTH, env);

export function hmrcSettings(env: NodeJS.ProcessEnv = process.env): HmrcSettings {
  const clientId = env.LEDGERDESK_HMRC_CLIENT_ID?.trim() ?? '';
  const clientSecret = env.LEDGERDESK_HMRC_CLIENT_SECRET?.trim() ?? '';
  if (!clientId || !clientSecret) {
    throw new OutsideError(
      HMRC,
      'refused',
      "This Ledgerdesk has no HMRC application: register one on HMRC's Developer Hub and set LEDGERDESK_HMRC_CLIENT_ID and LEDGERDESK_HMRC_CLIENT_SECRET (docs/hmrc.md).",
    );
  }
  const apiBase = serviceBase('LEDGERDESK_HMRC_URL', SANDBOX_API, env);
  const authBase = hmrcAuthBase(env);
  return { clientId, clientSecret, apiBase, authBase, sandbox: apiBase === SANDBOX_API };
}

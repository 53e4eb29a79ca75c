// The sign-in links the desktop app opens in the computer's browser (issue 54):
// HMRC's sign-in page (production's, the sandbox's, or the one
// LEDGERDESK_HMRC_AUTH_URL names) and Enable Banking's pages. https only, and
// the host one of those: a page (or anything that reached it) may not have the
// app open an arbitrary address, a file or another scheme.
import { hmrcAuthBase } from '../hmrc/settings';

/** HMRC's sign-in hosts: production's and the sandbox's. */
export const HMRC_SIGN_IN_HOSTS = ['www.tax.service.gov.uk', 'test-www.tax.service.gov.uk'];
/** Enable Banking's domain: its own pages, on it or a host under it (tilisy.enablebanking.com). */
export const ENABLE_BANKING_DOMAIN = 'enablebanking.com';

/** HMRC's sign-in page's path (`{auth}/oauth/authorize`: hmrc/oauth.ts). */
const HMRC_AUTHORIZE = '/oauth/authorize';

function configuredHmrcHost(env: NodeJS.ProcessEnv): string | null {
  try {
    const url = new URL(hmrcAuthBase(env));
    return url.protocol === 'https:' ? url.host : null;
  } catch {
    return null; // a setting that is not an address names no host
  }
}

/** Why a link is not one the desktop opens (null: it is a sign-in link of HMRC's or Enable Banking's). */
export function signInLinkRefusal(text: string, env: NodeJS.ProcessEnv = process.env): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an address';
  }
  if (url.protocol !== 'https:') return 'is not an https address';
  if (url.username || url.password) return 'carries credentials';
  const host = url.host.toLowerCase();
  const hmrc = [...HMRC_SIGN_IN_HOSTS, configuredHmrcHost(env)].includes(host);
  if (hmrc) return url.pathname === HMRC_AUTHORIZE ? null : `is not HMRC's sign-in page (${HMRC_AUTHORIZE})`;
  if (url.port === '' && (host === ENABLE_BANKING_DOMAIN || host.endsWith(`.${ENABLE_BANKING_DOMAIN}`))) return null;
  return "is not HMRC's or Enable Banking's sign-in page";
}

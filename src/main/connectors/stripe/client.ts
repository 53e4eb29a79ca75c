// The one way to Stripe (issue 52): the official `stripe` client pointed at
// serviceBase's address (LEDGERDESK_STRIPE_URL for a test double or a local
// sandbox), with a timeout and retries of its own, and its errors told in
// words as OutsideError. The key is a parameter: never logged, never in a
// message (Stripe's own messages are scrubbed of anything that looks like one).
import type Stripe from 'stripe';
import { OutsideError, serviceBase } from '../../edge/http';

export const SERVICE = 'Stripe';

/** Stripe's address: its default, or LEDGERDESK_STRIPE_URL (https, or http to a loopback address). */
export const stripeBase = (env: NodeJS.ProcessEnv = process.env): string => serviceBase('LEDGERDESK_STRIPE_URL', 'https://api.stripe.com', env);

/**
 * A client for one key at one address: 20 s per attempt, two retries of what may pass (Stripe's idempotency keys
 * make them safe). The package is loaded on the first call: every command and server start goes without it.
 */
export async function stripeClient(key: string, baseUrl: string): Promise<Stripe> {
  const { default: StripeClient } = await import('stripe');
  const url = new URL(baseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new StripeClient(key, {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    timeout: 20_000,
    maxNetworkRetries: 2,
    telemetry: false,
  });
}

/** Anything that looks like a Stripe key or secret, out of a text that may be shown. */
export const scrubbed = (text: string): string => text.replace(/\b(sk|rk|pk|whsec)_[A-Za-z0-9_]+/g, '$1_…');

/** A failed Stripe call as an OutsideError in words: a bad key is `unauthorized`, a limit `rate_limited`, no answer `unavailable`. */
export function stripeFailure(error: unknown): OutsideError {
  if (error instanceof OutsideError) return error;
  const e = error as { type?: string; statusCode?: number; message?: string; headers?: Record<string, string> };
  const said = scrubbed(String(e.message ?? '')).slice(0, 300);
  const status = e.statusCode;
  switch (e.type) {
    case 'StripeAuthenticationError':
      return new OutsideError(SERVICE, 'unauthorized', 'Stripe refused the key (401): it is wrong, rolled or deleted. Make a new restricted key (docs/connectors-stripe.md).', {
        status,
      });
    case 'StripePermissionError':
      return new OutsideError(SERVICE, 'unauthorized', `Stripe says the key may not do this (403): give the restricted key the permissions docs/connectors-stripe.md lists.`, {
        status,
      });
    case 'StripeRateLimitError': {
      const seconds = Number(e.headers?.['retry-after'] ?? 60) || 60;
      return new OutsideError(SERVICE, 'rate_limited', `Stripe asks to wait ${seconds} s before the next call (its rate limit).`, { status, retryAfterSeconds: seconds });
    }
    case 'StripeConnectionError':
      return new OutsideError(SERVICE, 'unavailable', 'Stripe could not be reached (no answer, or the connection dropped).');
    case 'StripeAPIError':
      return new OutsideError(SERVICE, status && status < 500 ? 'malformed' : 'unavailable', `Stripe answered ${status ?? 'an error'}${said ? `: ${said}` : ''}.`, { status });
    case 'StripeInvalidRequestError':
    case 'StripeCardError':
    case 'StripeIdempotencyError':
      return new OutsideError(SERVICE, 'refused', `Stripe refused the request (${status ?? 400})${said ? `: ${said}` : ''}.`, { status });
    default:
      return new OutsideError(SERVICE, 'unavailable', `Stripe could not be used (${said || 'an unexpected failure'}).`);
  }
}

/** A Stripe call, its failure an OutsideError. */
export async function calling<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeFailure(error);
  }
}

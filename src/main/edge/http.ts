// Every call to an outside service (bank feeds, Stripe's webhooks aside, HMRC)
// goes through callService: a timeout on each attempt, a few retries of what
// may pass (a 5xx, a timeout, a dropped connection) with a growing pause, 429's
// Retry-After honoured, and a failure told in words as an OutsideError whose
// `reason` the caller maps to its own answer. The books are never touched
// here: a caller writes only after a call succeeded.
import { isLoopback } from '../api/reach';

export type OutsideReason =
  /** 429: the service's limit; `retryAfterSeconds` says when to try again. */
  | 'rate_limited'
  /** 5xx, a timeout, a refused or dropped connection, after the retries. */
  | 'unavailable'
  /** An answer that is not the JSON (or shape) the contract promises. */
  | 'malformed'
  /** 401/403: the credentials or consent no longer hold. */
  | 'unauthorized'
  /** Any other 4xx: the service refused the request; `status` and the service's own message say why. */
  | 'refused';

export class OutsideError extends Error {
  constructor(
    readonly service: string,
    readonly reason: OutsideReason,
    message: string,
    readonly extra: { status?: number; retryAfterSeconds?: number; body?: unknown } = {},
  ) {
    super(message);
  }
}

export interface CallOptions {
  /** The service as a person names it ("Enable Banking"): every error message starts with it. */
  service: string;
  method?: string;
  headers?: Record<string, string>;
  /** A JSON body (sent as application/json), or a form (URLSearchParams). */
  body?: unknown;
  /** Per attempt; default 20 s. */
  timeoutMs?: number;
  /** Attempts in all for what may pass on its own (5xx, timeouts); default 3. A POST that is not idempotent sets 1. */
  attempts?: number;
  /** How the answer is read: JSON (the default) or plain text (SimpleFIN's claim answers its access URL as text). */
  answer?: 'json' | 'text';
  /** The longest Retry-After waited for within the call; a longer one is thrown for the scheduler to honour. Default 10 s. */
  waitAtMostSeconds?: number;
}

export interface ServiceAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds a Retry-After header asks for (delta-seconds or an HTTP date); 60 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (!header) return 60;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? 60 : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A service's base address from its setting (LEDGERDESK_ENABLE_BANKING_URL...) or default: https, or http only to
 * a loopback address (a test double, a local sandbox). Anything else is refused, naming the setting.
 */
export function serviceBase(setting: string, fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  const text = (env[setting] || fallback).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutsideError(setting, 'refused', `${setting} (${text}) is not an address.`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) return text;
  throw new OutsideError(setting, 'refused', `${setting} must be an https address (http only to a loopback address, as a test double is): ${url.origin} is neither.`);
}

function describe(service: string, status: number, body: unknown): string {
  const said =
    typeof body === 'object' && body !== null
      ? ((body as Record<string, unknown>).message ?? (body as Record<string, unknown>).error_description ?? (body as Record<string, unknown>).error)
      : null;
  const words =
    typeof said === 'string'
      ? said
      : typeof said === 'object' && said !== null && typeof (said as { message?: unknown }).message === 'string'
        ? (said as { message: string }).message
        : null;
  return `${service} answered ${status}${words ? `: ${words.slice(0, 300)}` : ''}.`;
}

async function attempt<T>(url: string, o: CallOptions): Promise<ServiceAnswer<T>> {
  const form = o.body instanceof URLSearchParams;
  const res = await fetch(url, {
    method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
    headers: { accept: 'application/json', ...(o.body === undefined ? {} : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }), ...o.headers },
    body: o.body === undefined ? undefined : form ? String(o.body) : JSON.stringify(o.body),
    signal: AbortSignal.timeout(o.timeoutMs ?? 20_000),
    redirect: 'error',
  });
  const text = await res.text();
  let body: unknown = null;
  if (o.answer === 'text') body = res.ok ? text : null;
  else if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      if (res.ok) throw new OutsideError(o.service, 'malformed', `${o.service} answered ${res.status} with something that is not JSON.`, { status: res.status });
    }
  }
  if (res.ok) return { status: res.status, headers: res.headers, body: body as T };
  const extra = { status: res.status, body };
  if (res.status === 429) {
    const seconds = retryAfterSeconds(res.headers.get('retry-after'));
    throw new OutsideError(o.service, 'rate_limited', `${o.service} asks to wait ${seconds} s before the next call (its rate limit).`, { ...extra, retryAfterSeconds: seconds });
  }
  if (res.status >= 500) throw new OutsideError(o.service, 'unavailable', describe(o.service, res.status, body), extra);
  if (res.status === 401 || res.status === 403) throw new OutsideError(o.service, 'unauthorized', describe(o.service, res.status, body), extra);
  throw new OutsideError(o.service, 'refused', describe(o.service, res.status, body), extra);
}

/** A JSON call to an outside service, retried where that may help; an OutsideError in words otherwise. */
export async function callService<T = unknown>(url: string, o: CallOptions): Promise<ServiceAnswer<T>> {
  const attempts = Math.max(1, o.attempts ?? 3);
  for (let n = 1; ; n++) {
    try {
      return await attempt<T>(url, o);
    } catch (error) {
      const e = asOutside(o.service, error);
      const wait = e.reason === 'rate_limited' ? (e.extra.retryAfterSeconds ?? 60) : e.reason === 'unavailable' ? 0.25 * 4 ** (n - 1) : Infinity;
      if (n >= attempts || wait > (o.waitAtMostSeconds ?? 10)) throw e;
      await pause(wait * 1000);
    }
  }
}

/** Any failure of a call as an OutsideError: a timeout or a dropped connection is `unavailable`, in words. */
export function asOutside(service: string, error: unknown): OutsideError {
  if (error instanceof OutsideError) return error;
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return new OutsideError(service, 'unavailable', `${service} did not answer in time.`);
  const cause = e.cause?.code ?? e.cause?.message ?? e.message;
  return new OutsideError(service, 'unavailable', `${service} could not be reached (${cause}).`);
}

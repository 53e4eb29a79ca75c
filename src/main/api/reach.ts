// Who reaches the server, and how (issue 45): the address it listens on, TLS of
// its own, or the https address of a reverse proxy in front (the public URL).
// A server reachable beyond this computer without TLS is refused before
// anything opens: session cookies and tokens would cross the network in clear.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

export const HOST = '127.0.0.1';

/** PEM bytes of a certificate (chain) and its private key. */
export interface TlsPair {
  cert: string | Buffer;
  key: string | Buffer;
}

export interface ReachOptions {
  /** Where to listen (default 127.0.0.1); its port, else `port`. */
  listen?: { host: string; port?: number };
  port?: number;
  tls?: TlsPair;
  /** https://host[:port] of a TLS reverse proxy in front; a bare origin. */
  publicUrl?: string;
}

export interface Reach {
  host: string;
  port: number;
  tls?: TlsPair;
  publicUrl?: string;
  /** The certificate's subjectAltName hosts (TLS without a public URL): the Hosts it answers beyond loopback. */
  certNames: string[];
  /** Cookies Secure, a session over plain HTTP refused. */
  secure: boolean;
  /** express's `trust proxy`: X-Forwarded-Proto read only behind a public URL's proxy. */
  trustProxy: false | 'loopback' | true;
}

/** A refused way of serving; its message names the flags that fix it. */
export class ReachError extends Error {}

const FIX = 'give --tls-cert <file> --tls-key <file>, or --public-url https://... for a TLS reverse proxy in front of it, or listen on 127.0.0.1';

const bare = (host: string): string => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

export function isLoopback(host: string): boolean {
  const h = bare(host);
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

/** A host as it appears in a URL or Host header: IPv6 in brackets, compressed. */
function urlHost(host: string): string {
  const h = bare(host);
  return isIP(h) === 6 ? new URL(`http://[${h}]`).hostname : h;
}

/** `host`, `host:port`, `[v6]:port` (serve --listen). */
export function parseListen(text: string): { host: string; port?: number } {
  const t = text.trim();
  // A bare IPv6 address (::) has no port; with one it is written in brackets.
  const match = isIP(t) === 6 ? [t, t] : /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(t);
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || (port !== undefined && port > 65535)) throw new ReachError(`--listen takes host:port (0.0.0.0:7311, [::]:7311, 127.0.0.1), not "${text}"`);
  return { host: bare(match[1]), ...(port === undefined ? {} : { port }) };
}

/** The public URL as its origin: https only, no path, query or credentials. */
function publicOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ReachError(`--public-url is not a URL: "${text}" (give https://books.firm.example)`);
  }
  if (url.protocol !== 'https:')
    throw new ReachError(`--public-url must be an https:// address (the proxy's TLS; cookies are Secure), not "${text}"; a plain-HTTP server stays on 127.0.0.1`);
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash)
    throw new ReachError(`--public-url is the server's bare origin (https://books.firm.example), without a path, query or credentials, not "${text}"`);
  return url.origin;
}

/** The DNS names and IP addresses a certificate is for (its subjectAltName); checks the key is its own. */
function certificateNames(tls: TlsPair): string[] {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(tls.cert);
  } catch (error) {
    throw new ReachError(`--tls-cert is not a PEM certificate (${(error as Error).message})`);
  }
  try {
    if (!cert.checkPrivateKey(createPrivateKey(tls.key))) throw new Error('it belongs to another certificate');
  } catch (error) {
    throw new ReachError(`--tls-key is not the private key of --tls-cert: ${(error as Error).message}`);
  }
  // Wildcards (*.firm.example) are left out: name the one host with --public-url.
  return (cert.subjectAltName ?? '')
    .split(', ')
    .map((entry) => /^(?:DNS|IP Address):([0-9A-Za-z.:-]+)$/.exec(entry)?.[1])
    .filter((name): name is string => name !== undefined)
    .map(urlHost);
}

export function planReach(options: ReachOptions): Reach {
  const host = options.listen?.host ?? HOST;
  const port = options.listen?.port ?? options.port ?? 0;
  const publicUrl = options.publicUrl === undefined ? undefined : publicOrigin(options.publicUrl);
  const certNames = options.tls ? certificateNames(options.tls) : [];
  const loopback = isLoopback(host);
  if (!loopback && !options.tls && !publicUrl) throw new ReachError(`Listening on ${host} reaches beyond this computer, and without TLS nothing would be encrypted: ${FIX}.`);
  if (!loopback && options.tls && !publicUrl && certNames.length === 0)
    throw new ReachError(
      '--tls-cert names no host in its subjectAltName (DNS:books.firm.example), so no browser would accept it: use another certificate, or name the host with --public-url.',
    );
  return {
    host,
    port,
    tls: options.tls,
    publicUrl,
    certNames: publicUrl ? [] : certNames,
    secure: Boolean(options.tls || publicUrl),
    trustProxy: publicUrl ? (loopback ? 'loopback' : true) : false,
  };
}

/** The address people and agents are given: the public URL, else this server's own. */
export function baseUrl(reach: Reach, port: number): string {
  if (reach.publicUrl) return reach.publicUrl;
  if (!reach.tls) return `http://${urlHost(isLoopback(reach.host) ? reach.host : HOST)}:${port}`;
  const own = urlHost(reach.host);
  const name = reach.certNames.includes(own) ? own : (reach.certNames.find((n) => !isIP(bare(n))) ?? reach.certNames[0] ?? own);
  return `https://${name}:${port}`;
}

/** The Hosts and Origins this server answers (guards.ts), for its bound port. */
export function reachNames(reach: Reach): (port: number) => { hosts: Set<string>; origins: Set<string>; base: string } {
  return (port) => {
    const scheme = reach.tls ? 'https' : 'http';
    const loopback = ['127.0.0.1', 'localhost', '[::1]', ...(isLoopback(reach.host) ? [urlHost(reach.host)] : [])];
    const hosts = new Set(loopback.map((h) => `${h}:${port}`));
    const origins = new Set(loopback.map((h) => `${scheme}://${h}:${port}`));
    for (const name of reach.certNames) {
      hosts.add(`${name}:${port}`);
      origins.add(`https://${name}:${port}`);
    }
    if (reach.publicUrl) {
      const url = new URL(reach.publicUrl);
      hosts.add(url.host);
      if (!url.port) hosts.add(`${url.hostname}:443`); // a proxy may pass the default port
      origins.add(url.origin);
    }
    return { hosts, origins, base: baseUrl(reach, port) };
  };
}

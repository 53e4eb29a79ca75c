// Where a browser's request came from, as the server saw it (issue 54: HMRC's
// fraud prevention headers for a web app via a server): the address and port
// that connected, or, behind the reverse proxy the server trusts (serve
// --public-url: api/reach.ts sets express's `trust proxy` once), the addresses
// the proxy says it forwarded for, from RFC 7239 `Forwarded` or else
// `X-Forwarded-For`. Only what a trusted proxy says is believed: walking back
// from the connection, the first address not trusted is the client, and what
// it claims about anyone before it is dropped (express's own rule for req.ip).
import { isIP } from 'node:net';
import type { Request } from 'express';

/** One hop of a request: who sent it (`for`, and from which port where known) and the address it was received on (`by`). */
export interface Hop {
  for: string;
  port?: number;
  by?: string;
}

/** A request as the server saw it: when it arrived, and its hops, the client's first, the connection to this server last. */
export interface SeenRequest {
  at: string;
  hops: Hop[];
}

/** IPv4 written as IPv6 (::ffff:10.0.0.1, how a dual-stack socket reports it) as plain IPv4. */
export const plainIp = (address: string): string => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/** A node as a proxy writes it: `ip`, `ip:port`, `[v6]`, `[v6]:port`, a bare v6; null for `unknown`, an obfuscated one or junk. */
export function parseNode(text: string): { address: string; port?: number } | null {
  const t = text.trim().replace(/^"(.*)"$/, '$1');
  const m = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(t) ?? /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(t);
  const [address, port] = m ? [m[1], m[2]] : [t, undefined];
  if (!isIP(address)) return null;
  const n = port === undefined ? undefined : Number(port);
  return { address: plainIp(address), ...(n && n <= 65535 ? { port: n } : {}) };
}

const header = (req: Request, name: string): string => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : (v ?? '');
};

/** The hops a proxy wrote, the client's first: RFC 7239 `Forwarded` (for, by), else `X-Forwarded-For`. */
export function forwardedHops(forwarded: string, xForwardedFor: string): (Hop | null)[] {
  if (forwarded.trim()) {
    return forwarded.split(',').map((element) => {
      const pairs = new Map(element.split(';').map((p) => [p.split('=')[0].trim().toLowerCase(), p.slice(p.indexOf('=') + 1)] as const));
      const sender = parseNode(pairs.get('for') ?? '');
      const by = parseNode(pairs.get('by') ?? '');
      return sender ? { for: sender.address, ...(sender.port ? { port: sender.port } : {}), ...(by ? { by: by.address } : {}) } : null;
    });
  }
  return xForwardedFor.trim()
    ? xForwardedFor.split(',').map((entry) => {
        const node = parseNode(entry);
        return node ? { for: node.address, ...(node.port ? { port: node.port } : {}) } : null;
      })
    : [];
}

/**
 * The request's hops as far as the proxies the server trusts vouch for them. `trust` is express's compiled `trust
 * proxy` (none: nothing but the connection is believed).
 */
export function seenRequest(req: Request, at = new Date()): SeenRequest {
  const socket = req.socket;
  const connection: Hop = { for: plainIp(socket.remoteAddress ?? ''), ...(socket.remotePort ? { port: socket.remotePort } : {}), by: plainIp(socket.localAddress ?? '') };
  const trust = req.app.get('trust proxy fn') as ((address: string, i: number) => boolean) | undefined;
  const hops: Hop[] = [connection];
  if (!trust || !trust(connection.for, 0)) return { at: at.toISOString(), hops };
  const said = forwardedHops(header(req, 'forwarded'), header(req, 'x-forwarded-for'));
  for (let i = said.length - 1; i >= 0; i--) {
    const hop = said[i];
    if (!hop) break; // `unknown` or junk: nothing before it can be placed
    hops.unshift(hop);
    if (!trust(hop.for, hops.length - 1)) break;
  }
  return { at: at.toISOString(), hops };
}

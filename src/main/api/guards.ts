// DNS-rebinding and cross-origin guards for every route of the server: the Host
// must name this server (on loopback, or by its public URL or its certificate:
// reach.ts), and a browser Origin, when sent, must be this server's own.
import type { NextFunction, Request, Response } from 'express';
import { LedgerError } from '../ledger/core/errors';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function allowedHosts(port: number): Set<string> {
  return new Set(LOOPBACK_NAMES.map((h) => `${h}:${port}`));
}

export function allowedOrigins(port: number): Set<string> {
  return new Set(LOOPBACK_NAMES.map((h) => `http://${h}:${port}`));
}

/** What a server on `port` answers: its Hosts, its Origins, and the address a refusal names. */
export type GuardNames = (port: number) => { hosts: Set<string>; origins: Set<string>; base: string };

const loopbackNames: GuardNames = (port) => ({ hosts: allowedHosts(port), origins: allowedOrigins(port), base: `http://127.0.0.1:${port}` });

/** The names of a server on `port`, read per request (it may have been started on port 0), worked out once a port. */
export function guardNames(port: () => number, names: GuardNames = loopbackNames): () => ReturnType<GuardNames> {
  let known = { port: -1, ...names(-1) };
  return () => {
    const p = port();
    if (known.port !== p) known = { port: p, ...names(p) };
    return known;
  };
}

/** A browser's Origin, when sent, must be one of this server's own: the refusal, or null. */
export function originRefusal(origin: string | undefined, origins: Set<string>): LedgerError | null {
  if (origin === undefined || origins.has(origin.toLowerCase())) return null;
  return new LedgerError('forbidden_origin', `Requests from origin "${origin}" are not allowed.`, { origin });
}

/** Also sets the headers every answer carries. */
export function loopbackGuard(port: () => number, names: GuardNames = loopbackNames) {
  const known = guardNames(port, names);
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const { hosts, origins, base } = known();
    const host = req.headers.host?.toLowerCase();
    if (!host || !hosts.has(host)) {
      return next(new LedgerError('forbidden_host', `Host "${req.headers.host ?? ''}" is not this server; use ${base}.`, { host: req.headers.host ?? null }));
    }
    next(originRefusal(req.headers.origin, origins) ?? undefined);
  };
}

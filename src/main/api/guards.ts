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

/** `port` is read per request: the server may have been started on port 0. Also sets the headers every answer carries. */
export function loopbackGuard(port: () => number, names: GuardNames = loopbackNames) {
  let known = { port: -1, ...names(-1) };
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const p = port();
    if (known.port !== p) known = { port: p, ...names(p) };
    const host = req.headers.host?.toLowerCase();
    if (!host || !known.hosts.has(host)) {
      return next(new LedgerError('forbidden_host', `Host "${req.headers.host ?? ''}" is not this server; use ${known.base}.`, { host: req.headers.host ?? null }));
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !known.origins.has(origin.toLowerCase())) {
      return next(new LedgerError('forbidden_origin', `Requests from origin "${origin}" are not allowed.`, { origin }));
    }
    next();
  };
}

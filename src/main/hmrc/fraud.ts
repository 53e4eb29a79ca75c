// HMRC's fraud prevention headers (issue 54; hmrc/txm-fph-specification),
// gathered honestly for the connection method that applies: the desktop app
// (DESKTOP_APP_DIRECT: this machine, and the window that sent the submission),
// a person in a browser on a firm's server (WEB_APP_VIA_SERVER: what the
// browser sent with the submission, the address it came from), or a command in
// a terminal (OTHER_DIRECT: no screen or window to report). A header that
// cannot be gathered is sent empty only where the specification says a value
// may be missing (multi-factor, public IP and port, licence ids); otherwise the
// call is refused, naming what is missing.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { networkInterfaces, release, type as osType, userInfo } from 'node:os';
import { invalid } from '../ledger/core/errors';

export const CONNECTION_METHODS = ['DESKTOP_APP_DIRECT', 'WEB_APP_VIA_SERVER', 'OTHER_DIRECT'] as const;
export type ConnectionMethod = (typeof CONNECTION_METHODS)[number];

/** What the screen that sends a submission reports of itself (window.screen, innerWidth, the browser's clock). */
export interface ClientFacts {
  /** The browser's own device id (a UUID it keeps: WEB_APP_VIA_SERVER). */
  deviceId?: string;
  screens?: { width: number; height: number; scalingFactor: number; colourDepth: number }[];
  windowSize?: { width: number; height: number };
  /** Minutes east of UTC (-new Date().getTimezoneOffset()). */
  timezoneOffsetMinutes?: number;
  /** navigator.userAgent. */
  userAgent?: string;
}

/** Who acts: their Ledgerdesk id, and the second factor they signed in with (where they did). */
export interface Acting {
  userId: string;
  secondFactor?: { type: 'TOTP'; at: string; reference: string } | null;
}

export interface FraudInput {
  method: ConnectionMethod;
  /** The machine's persistent device id (the data folder's; a browser's comes in `client`). */
  deviceId?: string;
  client?: ClientFacts;
  acting: Acting;
  /** WEB_APP_VIA_SERVER: the browser's public address and port, as the server received the request, and when. */
  request?: { publicIp?: string; publicPort?: number; at: string };
  /** The server's public address, where known (the proxy's, serve --public-url resolved, or its own: public-ip.ts). */
  vendorPublicIp?: string;
  /** Each hop over the internet, the client's first: received `by`, sent `for` (public-ip.ts); none: the one hop vendor for client. */
  forwarded?: { by: string; for: string }[];
  product: { name: string; version: string };
}

/** Percent-encoding as HMRC's specification asks (RFC 3986: everything but unreserved characters). */
export const enc = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const pairs = (o: Record<string, string | number>) =>
  Object.entries(o)
    .map(([k, v]) => `${enc(k)}=${enc(String(v))}`)
    .join('&');

/** UTC±hh:mm of an offset in minutes east of UTC. */
export function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** This machine's addresses and MAC addresses, read from its network interfaces just before a call. */
export function machineNetwork(): { ips: string[]; macs: string[] } {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const outside = all.filter((i) => !i.internal);
  const ips = [...new Set((outside.length ? outside : all).map((i) => i.address))];
  const macs = [...new Set(all.map((i) => i.mac).filter((m) => m && m !== '00:00:00:00:00:00'))];
  return { ips, macs };
}

const readDmi = (name: string): string => {
  try {
    return readFileSync(`/sys/class/dmi/id/${name}`, 'utf8').trim();
  } catch {
    return '';
  }
};

/** The operating system and device (where the system says; a key with an empty value where it does not, as HMRC allows). */
export function machineUserAgent(): string {
  const family = { Windows_NT: 'Windows', Darwin: 'MacOS', Linux: 'Linux' }[osType()] ?? osType();
  return pairs({ 'os-family': family, 'os-version': release(), 'device-manufacturer': readDmi('sys_vendor'), 'device-model': readDmi('product_name') });
}

/** A factor's reference HMRC can recognise across calls: a hash of the person and the factor, never the secret. */
export const factorReference = (userId: string, type: string): string => createHash('sha256').update(`ledgerdesk/${type}/${userId}`).digest('hex');

const multiFactor = (a: Acting): string =>
  a.secondFactor ? pairs({ type: a.secondFactor.type, timestamp: a.secondFactor.at.slice(0, 16) + 'Z', 'unique-reference': a.secondFactor.reference }) : '';

function clientHeaders(c: ClientFacts | undefined, missing: string[]): Record<string, string> {
  if (!c?.screens?.length) missing.push('client.screens');
  if (!c?.windowSize) missing.push('client.windowSize');
  if (c?.timezoneOffsetMinutes === undefined) missing.push('client.timezoneOffsetMinutes');
  return {
    'Gov-Client-Screens': (c?.screens ?? []).map((s) => pairs({ width: s.width, height: s.height, 'scaling-factor': s.scalingFactor, 'colour-depth': s.colourDepth })).join(','),
    'Gov-Client-Window-Size': c?.windowSize ? pairs(c.windowSize) : '',
    'Gov-Client-Timezone': c?.timezoneOffsetMinutes === undefined ? '' : utcOffset(c.timezoneOffsetMinutes),
  };
}

function directHeaders(i: FraudInput, missing: string[], now: Date): Record<string, string> {
  const { ips, macs } = machineNetwork();
  if (!ips.length) missing.push('local IP addresses');
  if (!macs.length) missing.push('MAC addresses');
  if (!i.deviceId) missing.push('deviceId');
  const os = userInfo().username;
  return {
    'Gov-Client-Device-ID': i.deviceId ?? '',
    'Gov-Client-Local-IPs': ips.map(enc).join(','),
    'Gov-Client-Local-IPs-Timestamp': now.toISOString(),
    'Gov-Client-MAC-Addresses': macs.map(enc).join(','),
    'Gov-Client-User-Agent': machineUserAgent(),
    'Gov-Client-User-IDs': pairs({ os, ledgerdesk: i.acting.userId }),
    'Gov-Client-Timezone': utcOffset(-now.getTimezoneOffset()),
  };
}

function webHeaders(i: FraudInput, missing: string[]): Record<string, string> {
  if (!i.client?.deviceId) missing.push('client.deviceId');
  if (!i.client?.userAgent) missing.push('client.userAgent');
  const ip = i.request?.publicIp ?? '';
  return {
    'Gov-Client-Browser-JS-User-Agent': i.client?.userAgent ?? '',
    'Gov-Client-Device-ID': i.client?.deviceId ?? '',
    'Gov-Client-User-IDs': pairs({ ledgerdesk: i.acting.userId }),
    // Where the browser reached the server over a private network, there is no public address to tell (HMRC: may be empty);
    // its timestamp and port go with it.
    'Gov-Client-Public-IP': ip,
    'Gov-Client-Public-IP-Timestamp': ip ? (i.request?.at ?? '') : '',
    'Gov-Client-Public-Port': ip && i.request?.publicPort ? String(i.request.publicPort) : '',
    'Gov-Vendor-Public-IP': i.vendorPublicIp ?? '',
    'Gov-Vendor-Forwarded': i.forwarded ? i.forwarded.map((hop) => pairs(hop)).join(',') : ip && i.vendorPublicIp ? pairs({ by: i.vendorPublicIp, for: ip }) : '',
  };
}

/**
 * The headers for one call, gathered now. Refused (validation_failed, each missing fact named) where a header the
 * method requires cannot be gathered and the specification does not allow it empty.
 */
export function fraudHeaders(i: FraudInput, now = new Date()): Record<string, string> {
  const missing: string[] = [];
  const common = {
    'Gov-Client-Connection-Method': i.method,
    'Gov-Client-Multi-Factor': multiFactor(i.acting),
    'Gov-Vendor-License-IDs': '',
    'Gov-Vendor-Product-Name': enc(i.product.name),
    'Gov-Vendor-Version': pairs(
      i.method === 'WEB_APP_VIA_SERVER' ? { 'ledgerdesk-web': i.product.version, 'ledgerdesk-server': i.product.version } : { ledgerdesk: i.product.version },
    ),
  };
  const headers =
    i.method === 'WEB_APP_VIA_SERVER'
      ? { ...common, ...clientHeaders(i.client, missing), ...webHeaders(i, missing) }
      : i.method === 'DESKTOP_APP_DIRECT'
        ? { ...common, ...directHeaders(i, missing, now), ...clientHeaders(i.client, missing) }
        : { ...common, ...directHeaders(i, missing, now) };
  if (missing.length) {
    throw invalid(
      missing.map((field) => ({ field, message: `HMRC requires it with every call made as ${i.method} (its fraud prevention headers), and it could not be gathered` })),
    );
  }
  return headers;
}

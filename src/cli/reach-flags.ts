// serve's flags for how others reach the server: --listen, --tls-cert/--tls-key,
// --public-url (or LEDGERDESK_PUBLIC_URL). Checked here, before the books open,
// so a refusal is a usage error (exit 2) naming the flags that fix it.
import { readFileSync } from 'node:fs';
import { parseListen, planReach, ReachError, type Reach, type ReachOptions } from '../main/api/reach';
import { configuredPort } from '../main/paths';
import { UsageError } from './usage';

export const REACH_FLAGS = { listen: { type: 'string' }, 'tls-cert': { type: 'string' }, 'tls-key': { type: 'string' }, 'public-url': { type: 'string' } } as const;

type Values = Record<string, string | undefined>;

function readPem(flag: string, file: string, usage: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new UsageError(`--${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, usage);
  }
}

function port(values: Values, listenPort: number | undefined, usage: string): number {
  if (listenPort !== undefined) {
    if (values.port !== undefined) throw new UsageError('--listen names the port already: drop --port', usage);
    return listenPort;
  }
  let p: number;
  try {
    p = values.port === undefined ? configuredPort() : Number(values.port);
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
  if (!/^\d{1,5}$/.test(String(values.port ?? p)) || p > 65535) throw new UsageError(`--port must be 0 to 65535, not ${values.port}`, usage);
  return p;
}

/** The serve options the flags name, and the plan they make (refused as a UsageError). */
export function reachFlags(values: Values, usage: string, env: NodeJS.ProcessEnv = process.env): { options: ReachOptions & { port: number }; reach: Reach } {
  try {
    const listen = values.listen === undefined ? undefined : parseListen(values.listen);
    if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) throw new UsageError('--tls-cert and --tls-key go together', usage);
    const tls = values['tls-cert'] === undefined ? undefined : { cert: readPem('tls-cert', values['tls-cert'], usage), key: readPem('tls-key', values['tls-key']!, usage) };
    const publicUrl = values['public-url'] ?? (env.LEDGERDESK_PUBLIC_URL || undefined);
    const options = { port: port(values, listen?.port, usage), listen: listen && { host: listen.host }, tls, publicUrl };
    return { options, reach: planReach(options) };
  } catch (error) {
    if (error instanceof ReachError) throw new UsageError(error.message, usage);
    throw error;
  }
}

/** A line saying how others reach the server, or none for the plain loopback default. */
export function reachLine(reach: Reach, port: number): string | null {
  if (!reach.secure) return reach.host === '127.0.0.1' ? null : `Listening on ${reach.host}:${port}.`;
  const how = reach.tls ? 'over TLS' : 'over plain HTTP: only the TLS reverse proxy in front should reach this port';
  return `Listening on ${reach.host}:${port} ${how}${reach.publicUrl ? `; people and agents reach it at ${reach.publicUrl}` : ''}.`;
}

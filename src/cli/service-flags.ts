// serve's settings for running as a service (issue 51): how long a stop waits for
// requests in flight, where Prometheus scrapes, the log's level and format, and
// whether the one-time owner link is printed although people sign in here.
// Checked before anything opens: a wrong value is a usage error (exit 2).
import { parseListen, ReachError } from '../main/api/reach';
import type { LogSettings } from '../main/service/log';
import { UsageError } from './usage';

export const SERVICE_FLAGS = {
  'shutdown-grace': { type: 'string' },
  'metrics-listen': { type: 'string' },
  'sign-in-link': { type: 'boolean' },
} as const;

/** Exporters' customary port (OpenTelemetry's Prometheus exporter): `--metrics-listen 0.0.0.0` alone takes it. */
export const METRICS_PORT = 9464;
export const DEFAULT_GRACE_SECONDS = 20;

export interface ServiceSettings {
  graceMs: number;
  metrics?: { listen: { host: string; port: number }; token?: string };
  log: LogSettings;
  /** Print the owner's one-time link even where people sign in (serve --sign-in-link). */
  signInLink: boolean;
}

type Values = Record<string, string | boolean | undefined>;

function graceMs(values: Values, env: NodeJS.ProcessEnv, usage: string): number {
  const flag = values['shutdown-grace'] as string | undefined;
  const raw = flag ?? (env.LEDGERDESK_SHUTDOWN_GRACE || String(DEFAULT_GRACE_SECONDS));
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > 3600)
    throw new UsageError(`${flag === undefined ? 'LEDGERDESK_SHUTDOWN_GRACE' : '--shutdown-grace'} is seconds, 0 to 3600, not "${raw}"`, usage);
  return Math.round(Number(raw) * 1000);
}

function metrics(values: Values, env: NodeJS.ProcessEnv, usage: string): ServiceSettings['metrics'] {
  const flag = values['metrics-listen'] as string | undefined;
  const raw = flag ?? (env.LEDGERDESK_METRICS_LISTEN || undefined);
  if (raw === undefined) return undefined;
  try {
    const listen = parseListen(raw);
    return { listen: { host: listen.host, port: listen.port ?? METRICS_PORT }, ...(env.LEDGERDESK_METRICS_TOKEN ? { token: env.LEDGERDESK_METRICS_TOKEN } : {}) };
  } catch (error) {
    if (!(error instanceof ReachError)) throw error;
    throw new UsageError(error.message.replace('--listen', flag === undefined ? 'LEDGERDESK_METRICS_LISTEN' : '--metrics-listen'), usage);
  }
}

export async function serviceFlags(values: Values, usage: string, env: NodeJS.ProcessEnv = process.env): Promise<ServiceSettings> {
  const { logSettings } = await import('../main/service/log');
  let log: LogSettings;
  try {
    log = logSettings(env);
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
  return { graceMs: graceMs(values, env, usage), metrics: metrics(values, env, usage), log, signInLink: values['sign-in-link'] === true };
}

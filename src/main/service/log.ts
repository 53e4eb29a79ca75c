// The server's log (issue 51): one JSON line an event on stderr (pino), at the
// level LEDGERDESK_LOG_LEVEL sets; on a terminal, short text lines instead, for
// the person who ran `npm start` by hand. Every line a request causes names its
// id (a mixin reads it from the request's context). What must never be in a
// line (a password, token, cookie, sign-in or invitation code, Authorization) is
// never put in one (the access log has no query string and no headers); the
// redaction below is the net under that, for a field someone adds later.
import pino from 'pino';
import { currentRequestId } from '../api/request-id';
import type { Log } from '../api/errors';

export type ServiceLogger = pino.Logger;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogSettings {
  level: LogLevel;
  format: 'json' | 'text';
}

/** Field names whose values never reach a line, at the top and one level down. */
const SECRET_FIELDS = ['authorization', 'cookie', 'password', 'token', 'secret', 'code', 'totp', 'invitation', 'signInUrl', 'link'];
export const REDACTED = '[redacted]';

/**
 * LEDGERDESK_LOG_LEVEL (default info; on a terminal warn, so a person's terminal is not filled with every request)
 * and LEDGERDESK_LOG_FORMAT (json, or text; default text on a terminal, json elsewhere). A wrong value is refused.
 */
export function logSettings(env: NodeJS.ProcessEnv = process.env, terminal = Boolean(process.stderr.isTTY)): LogSettings {
  const level = (env.LEDGERDESK_LOG_LEVEL || (terminal ? 'warn' : 'info')).toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`LEDGERDESK_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.LEDGERDESK_LOG_LEVEL}"`);
  const format = (env.LEDGERDESK_LOG_FORMAT || (terminal ? 'text' : 'json')).toLowerCase();
  if (format !== 'json' && format !== 'text') throw new Error(`LEDGERDESK_LOG_FORMAT must be json or text, not "${env.LEDGERDESK_LOG_FORMAT}"`);
  return { level: level as LogLevel, format };
}

/** A JSON line as a person reads it: time, level, message, then the other fields as key=value. */
export function textLine(json: string): string {
  const { time, level, msg, pid: _pid, hostname: _host, ...rest } = JSON.parse(json) as Record<string, unknown>;
  const fields = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${String(time).slice(11, 19)} ${String(level).toUpperCase().padEnd(5)} ${String(msg ?? '')}${fields.length ? ` ${fields.join(' ')}` : ''}\n`;
}

/** On stderr: stdout keeps what the command answers (the addresses, the API's last), as every command's does. */
export function createLogger(settings: LogSettings, out: NodeJS.WritableStream = process.stderr): ServiceLogger {
  // Written at once (not buffered): a line is never lost when the process stops.
  const json = out === process.stderr ? pino.destination({ dest: 2, sync: true }) : out;
  const destination = settings.format === 'text' ? { write: (line: string) => out.write(textLine(line)) } : json;
  return pino(
    {
      level: settings.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const id = currentRequestId();
        return id ? { requestId: id } : {};
      },
      redact: { paths: SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]), censor: REDACTED },
    },
    destination,
  );
}

/** The `log(message, level)` the server's parts are handed, writing to the logger. */
export const logTo =
  (logger: ServiceLogger): Log =>
  (message, level = 'info') =>
    logger[level](message);

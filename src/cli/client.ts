// The agent side of `ledgerdesk`: where the API is, which token to send, and
// one HTTP call. It talks to the REST API only; the token goes in the
// Authorization header, never in a URL, and is never printed.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { defaultDataDir } from '../main/paths';
import { UsageError } from './usage';

export const DEFAULT_URL = 'http://127.0.0.1:7311';

export interface Connection {
  url: string;
  token: string | undefined;
}

interface SavedLogin {
  url?: string;
  token?: string;
}

/** LEDGERDESK_CONFIG, else cli.json in the app's per-user folder (the one the desktop app uses). */
export const configFile = (): string => process.env.LEDGERDESK_CONFIG ?? join(defaultDataDir(), 'cli.json');

function readSaved(): SavedLogin {
  const file = configFile();
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SavedLogin;
  } catch {
    throw new UsageError(`The config file ${file} is not valid JSON; run "ledgerdesk login" again or delete it.`);
  }
}

/** Written atomically, readable by its owner only (0600 in a 0700 folder). */
export function saveLogin(login: { url: string; token: string }): string {
  const file = configFile();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
  return file;
}

export function forgetLogin(): string {
  const file = configFile();
  rmSync(file, { force: true });
  return file;
}

/** Flags first, then LEDGERDESK_TOKEN / LEDGERDESK_URL, then the file written by `login`. */
export function resolveConnection(flags: { token?: string; url?: string }): Connection {
  const saved = flags.token && flags.url ? {} : readSaved();
  const url = (flags.url ?? process.env.LEDGERDESK_URL ?? saved.url ?? DEFAULT_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(url)) throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_URL}, not "${url}".`);
  return { url, token: flags.token ?? process.env.LEDGERDESK_TOKEN ?? saved.token };
}

/** The server is not there: say which URL was tried and how to start it. */
export class ServerDownError extends Error {
  constructor(url: string, reason: string) {
    super(
      `Could not reach Ledgerdesk at ${url} (${reason}).\n` +
        'Start it with "npm start" (the desktop app, or the headless server where the app cannot run)\n' +
        'or "npm run -s ledgerdesk -- serve", or point to another address with --url or LEDGERDESK_URL.',
    );
  }
}

export interface ApiAnswer {
  status: number;
  text: string;
  /** The server replayed its kept answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/**
 * One request with node:http: `fetch` (undici) costs ~50 ms to load and warm up in
 * a fresh process, more than a whole agent command should take.
 */
export function send(connection: Connection, method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<ApiAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  if (connection.token) headers.authorization = `Bearer ${connection.token}`;
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(payload.length) });
  const url = new URL(`${connection.url}/api/v1${path}`);
  return new Promise((resolve, reject) => {
    // The server listens on 127.0.0.1 over plain HTTP only.
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), replayed: res.headers['idempotent-replayed'] === 'true' }));
      res.on('error', (error) => reject(new ServerDownError(connection.url, error.message)));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(new ServerDownError(connection.url, error.code === 'ECONNREFUSED' ? 'connection refused' : (error.code ?? error.message))),
    );
    req.end(payload);
  });
}

// `ledgerdesk login`: checks a token against the running API and keeps it, with
// the URL, in the per-user config file (0600). `logout` forgets it.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { reportApiError } from './agent';
import { configFile, DEFAULT_URL, forgetLogin, resolveConnection, saveLogin, send } from './client';
import { UsageError } from './usage';

type Out = (line: string) => void;

export const LOGIN_USAGE = `Usage: ledgerdesk login [--url <u>] [--token <t>]

Checks the token against the API at --url (default ${DEFAULT_URL}) and saves both in
${configFile()} (readable only by you; LEDGERDESK_CONFIG overrides the path).
Without --token, the token is read from standard input, so it stays out of your shell history.`;

async function readToken(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  if (process.stdin.isTTY) process.stderr.write('Token: ');
  for await (const line of rl) {
    rl.close();
    return line.trim();
  }
  return '';
}

export async function login(args: string[], out: Out, err: Out): Promise<number> {
  let values: { url?: string; token?: string; help?: boolean };
  try {
    values = parseArgs({ args, options: { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
  } catch (error) {
    throw new UsageError((error as Error).message, LOGIN_USAGE);
  }
  if (values.help) {
    out(LOGIN_USAGE);
    return 0;
  }
  const token = values.token ?? (await readToken());
  if (!token) throw new UsageError('No token given.', LOGIN_USAGE);
  const connection = resolveConnection({ url: values.url ?? process.env.LEDGERDESK_URL ?? DEFAULT_URL, token });
  // Any token route proves the token: 200, or 403 for a token without `read`.
  const answer = await send(connection, 'GET', '/proposals');
  if (answer.status === 401) {
    reportApiError(answer.status, answer.text, err);
    return 1;
  }
  const file = saveLogin({ url: connection.url, token });
  out(`Token accepted by ${connection.url}; saved in ${file} (mode 0600).`);
  return 0;
}

export function logout(out: Out): number {
  out(`Forgot the saved token (${forgetLogin()}).`);
  return 0;
}

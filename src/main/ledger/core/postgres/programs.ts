// PostgreSQL's own client programs (pg_dump, pg_restore), which back up and
// restore a server's books: found on PATH, their version read, run with the
// address's password handed over in PGPASSWORD rather than on their command
// line, where `ps` shows it to every local user.
import { spawn, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { LedgerError } from '../errors';

export type ClientProgramName = 'pg_dump' | 'pg_restore';

export interface ClientProgram {
  name: ClientProgramName;
  path: string;
  /** "15.18", as `--version` says it. */
  version: string;
  major: number;
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The program on PATH with its version; refused (conflict) when it is not there or does not say its version. */
export function findClientProgram(name: ClientProgramName, env: NodeJS.ProcessEnv = process.env): ClientProgram {
  const path = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(executable);
  const install = "install PostgreSQL's client programs of the server's major version or newer (Debian: apt-get install postgresql-client)";
  if (!path) throw new LedgerError('conflict', `${name} is not on PATH: ${install}.`, { program: name, found: null });
  let said = '';
  try {
    said = execFileSync(path, ['--version'], { encoding: 'utf8', env, timeout: 30_000 });
  } catch {
    // Said below: a program that does not answer --version is not one to trust with the books.
  }
  const m = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(said);
  if (!m) throw new LedgerError('conflict', `${path} did not say its version (${JSON.stringify(said.trim())}): ${install}.`, { program: name, found: path });
  return { name, path, version: m[2] === undefined ? m[1] : `${m[1]}.${m[2]}`, major: Number(m[1]) };
}

/** The address for a libpq program (its password left out) and the environment that carries the password. */
export function libpqTarget(url: string, env: NodeJS.ProcessEnv = process.env): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = '';
  return { dbname: u.toString(), env: password === undefined ? { ...env } : { ...env, PGPASSWORD: password } };
}

/** Runs a client program to its end: its exit code and what it wrote on stderr (the last 8 KiB). */
export function runClientProgram(program: ClientProgram, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program.path, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8192);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stderr: stderr.trim() }));
  });
}

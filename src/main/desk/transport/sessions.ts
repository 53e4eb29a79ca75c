// Browser mode's sign-in: `serve` prints a one-time link; following it trades
// the code for a session cookie. Codes and sessions live in memory (a restart
// signs everyone out) and are kept only as SHA-256 hashes, so looking one up
// reveals nothing about the secret (no timing side channel worth having).
// `ledgerdesk sign-in` hands out a link for the running server from another
// process: it leaves the code's hash in <data>/sign-in/, which only the
// folder's owner can write, and the server spends it from there once.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SESSION_COOKIE = 'ldk_desk';
export const SIGN_IN_PATH = '/desk/sign-in';
const CODE_TTL_MS = 15 * 60 * 1000;
const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;

const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const secret = (): string => randomBytes(32).toString('base64url');

export const signInInbox = (dataDir: string): string => join(dataDir, 'sign-in');

/** A one-time code for the server running on dataDir (written to its inbox); the link's `code`. */
export function issueCodeFor(dataDir: string, now = Date.now()): string {
  const code = secret();
  const inbox = signInInbox(dataDir);
  mkdirSync(inbox, { recursive: true, mode: 0o700 });
  writeFileSync(join(inbox, hash(code)), String(now + CODE_TTL_MS), { mode: 0o600 });
  return code;
}

export class DeskSessions {
  private readonly codes = new Map<string, number>(); // hash -> expires at
  private readonly sessions = new Map<string, number>(); // hash -> last seen

  constructor(
    private readonly now: () => number = Date.now,
    /** Where `ledgerdesk sign-in` leaves codes for this server (none: memory only). */
    private readonly inbox: string | null = null,
  ) {}

  /** A new one-time sign-in code (the link's `code`). */
  issueCode(): string {
    const code = secret();
    this.codes.set(hash(code), this.now() + CODE_TTL_MS);
    return code;
  }

  /** Spends a code: a session id, or null for an unknown, used or expired code. */
  exchange(code: string): string | null {
    const key = hash(code);
    const expires = this.codes.get(key) ?? this.fromInbox(key);
    this.codes.delete(key);
    if (expires === undefined || expires < this.now()) return null;
    const session = secret();
    this.sessions.set(hash(session), this.now());
    return session;
  }

  /** A code left by `ledgerdesk sign-in`: claimed by renaming (so it is spent once), read, removed. */
  private fromInbox(key: string): number | undefined {
    if (!this.inbox || !/^[0-9a-f]{64}$/.test(key)) return undefined;
    const claimed = join(this.inbox, `${key}.spent`);
    try {
      renameSync(join(this.inbox, key), claimed);
    } catch {
      return undefined;
    }
    try {
      return Number(readFileSync(claimed, 'utf8'));
    } finally {
      rmSync(claimed, { force: true });
    }
  }

  /** True for a live session (and keeps it alive). */
  check(session: string | undefined): boolean {
    if (!session) return false;
    const key = hash(session);
    const seen = this.sessions.get(key);
    if (seen === undefined) return false;
    if (this.now() - seen > SESSION_IDLE_MS) {
      this.sessions.delete(key);
      return false;
    }
    this.sessions.set(key, this.now());
    return true;
  }

  end(session: string | undefined): void {
    if (session) this.sessions.delete(hash(session));
  }
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

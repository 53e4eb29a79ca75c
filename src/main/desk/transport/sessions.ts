// Browser mode's sign-in: `serve` prints a one-time link; following it trades
// the code for a session cookie. Codes and sessions live in the database
// (issue 44: any server process knows them, and they outlive a restart), kept
// only as SHA-256 hashes, so reading them reveals nothing of the secrets.
// `ledgerdesk sign-in` hands out a link for a running server from another
// process by writing a code into the same database.
import { createHash, randomBytes } from 'node:crypto';
import type { Ledger } from '../../ledger/core/db';

export const SESSION_COOKIE = 'ldk_desk';
export const SIGN_IN_PATH = '/desk/sign-in';
const CODE_TTL_MS = 15 * 60 * 1000;
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** A session's last-seen time is written at most this often (a read per request, a write a minute). */
const SEEN_EVERY_MS = 60 * 1000;

const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const secret = (): string => randomBytes(32).toString('base64url');

/** A new one-time sign-in code for the books (the link's `code`), from any process that opens them. */
export async function issueCode(ledger: Ledger, now = Date.now()): Promise<string> {
  const code = secret();
  await ledger.write(async () => {
    await ledger.stmt('DELETE FROM sign_in_codes WHERE expires_at < ?').run(now);
    await ledger.stmt('INSERT INTO sign_in_codes (hash, expires_at) VALUES (?, ?)').run(hash(code), now + CODE_TTL_MS);
  });
  return code;
}

export class DeskSessions {
  constructor(
    private readonly ledger: Ledger,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new one-time sign-in code (the link's `code`). */
  issueCode(): Promise<string> {
    return issueCode(this.ledger, this.now());
  }

  /** Spends a code (once: whoever deletes it has it): a session id, or null for an unknown, used or expired code. */
  async exchange(code: string): Promise<string | null> {
    const now = this.now();
    return this.ledger.write(async () => {
      const { changes } = await this.ledger.stmt('DELETE FROM sign_in_codes WHERE hash = ? AND expires_at >= ?').run(hash(code), now);
      if (changes !== 1) return null;
      const session = secret();
      await this.ledger.stmt('DELETE FROM desk_sessions WHERE seen_at < ?').run(now - SESSION_IDLE_MS);
      await this.ledger.stmt('INSERT INTO desk_sessions (hash, created_at, seen_at) VALUES (?, ?, ?)').run(hash(session), now, now);
      return session;
    });
  }

  /** True for a live session (and keeps it alive). */
  async check(session: string | undefined): Promise<boolean> {
    if (!session) return false;
    const key = hash(session);
    const now = this.now();
    const seen = (await this.ledger.stmt('SELECT seen_at FROM desk_sessions WHERE hash = ?').pluck().get(key)) as number | undefined;
    if (seen === undefined) return false;
    if (now - seen > SESSION_IDLE_MS) {
      await this.end(session);
      return false;
    }
    if (now - seen > SEEN_EVERY_MS) await this.ledger.stmt('UPDATE desk_sessions SET seen_at = ? WHERE hash = ?').run(now, key);
    return true;
  }

  async end(session: string | undefined): Promise<void> {
    if (session) await this.ledger.stmt('DELETE FROM desk_sessions WHERE hash = ?').run(hash(session));
  }
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

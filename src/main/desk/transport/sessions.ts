// Browser mode's sign-in: `serve` prints a one-time link; following it trades
// the code for a session cookie (the machine's owner). People sign in with their
// email and password (issue 45): a session of theirs names them, and one whose
// second factor is still due opens nothing else. Codes and sessions live in the
// database (issue 44: any server process knows them, and they outlive a restart),
// kept only as SHA-256 hashes, so reading them reveals nothing of the secrets.
// `ledgerdesk sign-in` hands out a link for a running server from another
// process by writing a code into the same database.
import { createHash, randomBytes } from 'node:crypto';
import type { Ledger } from '../../ledger/core/sqlite/open';
import { inPassing } from '../../ledger/core/errors';

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

  /** Spends a code (once: whoever deletes it has it): a session id (the machine's owner), or null for an unknown, used or expired code. */
  async exchange(code: string): Promise<string | null> {
    const now = this.now();
    return this.ledger.write(async () => {
      const { changes } = await this.ledger.stmt('DELETE FROM sign_in_codes WHERE hash = ? AND expires_at >= ?').run(hash(code), now);
      return changes === 1 ? this.start(null, false) : null;
    });
  }

  /** A new session (a new id at every sign-in: a session id set before it is never the one signed in) for a person, or the machine's owner. */
  async start(userSeq: number | null, totpDue: boolean): Promise<string> {
    const now = this.now();
    const session = secret();
    await this.ledger.stmt('DELETE FROM desk_sessions WHERE seen_at < ?').run(now - SESSION_IDLE_MS);
    await this.ledger
      .stmt('INSERT INTO desk_sessions (hash, created_at, seen_at, user_seq, totp_due) VALUES (?, ?, ?, ?, ?)')
      .run(hash(session), now, now, userSeq, totpDue ? 1 : 0);
    return session;
  }

  /** A live session (kept alive): whose it is (null: the machine's owner) and whether its second factor is still due; null when none. */
  async check(session: string | undefined): Promise<{ userSeq: number | null; totpDue: boolean } | null> {
    if (!session) return null;
    const key = hash(session);
    const now = this.now();
    const row = (await this.ledger.stmt('SELECT seen_at, user_seq, totp_due FROM desk_sessions WHERE hash = ?').get(key)) as
      { seen_at: number; user_seq: number | null; totp_due: number } | undefined;
    if (!row) return null;
    // On a read replica (issue 51) a session is read, never written: not ended, nor kept alive, there.
    if (now - row.seen_at > SESSION_IDLE_MS) {
      if (!this.ledger.readOnly) await this.end(session);
      return null;
    }
    if (now - row.seen_at > SEEN_EVERY_MS && !this.ledger.readOnly) await inPassing(this.ledger.stmt('UPDATE desk_sessions SET seen_at = ? WHERE hash = ?').run(now, key));
    return { userSeq: row.user_seq, totpDue: row.totp_due === 1 };
  }

  /**
   * Counts a second-factor code tried on a pending session, before it is checked (one statement: codes sent at once
   * are numbered in turn). Answers its number, or null when the session is not waiting for a code.
   */
  async countTotpTry(session: string): Promise<number | null> {
    const row = (await this.ledger.write(() =>
      this.ledger.stmt('UPDATE desk_sessions SET totp_tries = totp_tries + 1 WHERE hash = ? AND totp_due = 1 RETURNING totp_tries').get(hash(session)),
    )) as { totp_tries: number } | undefined;
    return row ? Number(row.totp_tries) : null;
  }

  /** The second factor was right: the session opens the desk. */
  async passed(session: string): Promise<void> {
    await this.ledger.stmt('UPDATE desk_sessions SET totp_due = 0 WHERE hash = ?').run(hash(session));
  }

  async end(session: string | undefined): Promise<void> {
    if (session) await this.ledger.stmt('DELETE FROM desk_sessions WHERE hash = ?').run(hash(session));
  }

  /** Sign out everywhere: every session of the person ends. */
  async endAll(userSeq: number): Promise<number> {
    return (await this.ledger.stmt('DELETE FROM desk_sessions WHERE user_seq = ?').run(userSeq)).changes;
  }
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

// A bank's sign-in begun from a screen (issue 52: Enable Banking from the
// Connections screen). What the connection will be and the application's
// credentials (sealed) wait here, under the SHA-256 of the state sent to the
// bank, until the bank sends the browser back: to the server's own address,
// where any process may take it, or to the desktop's loopback listener. The
// state is compared in constant time and used once; a sign-in lapses after
// SIGN_IN_MINUTES.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ConnectorSignInRecord } from '../../../../db/rows';
import { newId } from '../core/clock';
import { LedgerError } from '../core/errors';
import { openSecret, sealSecret } from '../core/secrets/sealed';
import type { Ledger } from '../core/storage';

/** How long the person has to sign in at the bank and come back. */
export const SIGN_IN_MINUTES = 30;

export interface SignIn<C> {
  provider: string;
  /** The connector's name (an existing one of that name is reconnected). */
  name: string;
  account: string | null;
  redirectUrl: string;
  credentials: C;
}

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The sign-in kept until the bank answers (lapsed ones of the organization let go). */
export async function beginSignIn<C>(ledger: Ledger, orgSeq: number, state: string, input: SignIn<C>, now: Date): Promise<void> {
  const id = newId();
  const sealed = sealSecret(ledger, 'connectorSignIn', id, JSON.stringify(input.credentials));
  const until = new Date(now.getTime() + SIGN_IN_MINUTES * 60_000).toISOString();
  await ledger.write(async () => {
    await ledger.stmt('DELETE FROM connector_sign_ins WHERE org_seq = ? AND expires_at < ?').run(orgSeq, now.toISOString());
    await ledger
      .stmt('INSERT INTO connector_sign_ins (id, org_seq, state_hash, provider, name, account, redirect_url, credentials, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, orgSeq, hashState(state), input.provider, input.name, input.account, input.redirectUrl, sealed, until);
  });
}

const refused = (words: string) => new LedgerError('conflict', words, { reason: 'state' });

/** The sign-in `state` answers, taken (used once): refused when no sign-in of the organization sent that state, or it lapsed. */
export async function takeSignIn<C>(ledger: Ledger, orgSeq: number, state: string, now: Date): Promise<SignIn<C>> {
  const got = hashState(state);
  const row = await ledger.write(async () => {
    const rows = await ledger.rows<ConnectorSignInRecord>('SELECT * FROM connector_sign_ins WHERE org_seq = ? ORDER BY seq', orgSeq);
    // Every row compared, in constant time each: which one matched is not told by when the answer comes.
    const found = rows.filter((r) => sameHash(r.state_hash, got))[0];
    if (!found) return null;
    await ledger.stmt('DELETE FROM connector_sign_ins WHERE seq = ?').run(found.seq);
    return found;
  });
  if (!row) throw refused("The bank's answer is not the one this sign-in asked for (its state differs, or it was already used): connect again.");
  if (row.expires_at < now.toISOString()) throw refused(`The sign-in at the bank took longer than ${SIGN_IN_MINUTES} minutes: connect again.`);
  return {
    provider: row.provider,
    name: row.name,
    account: row.account,
    redirectUrl: row.redirect_url,
    credentials: JSON.parse(openSecret(ledger, 'connectorSignIn', row.id, row.credentials)) as C,
  };
}

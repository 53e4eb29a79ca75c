// Every credential the books keep, sealed (issue 51): the one place that
// reads or writes one. SEALED lists each column that holds a secret (a
// person's second factor today; bank feeds', mail's and HMRC's credentials
// join it as one line each); sealSecret and openSecret are how the domain
// writes and reads them; sealStoredSecrets runs when the books open: it seals a
// value an earlier build kept in clear, seals again one sealed with an older
// key (rotation), and refuses to open books whose secrets it has no key for.
import { LedgerError } from '../errors';
import type { Ledger } from '../storage';
import { HOW_TO_MAKE_A_KEY, keyringFor } from './keys';
import { isSealed, seal, SecretError, sealedWith, unseal, type Keyring, type SecretContext } from './seal';

interface SealedColumn {
  table: string;
  column: string;
  /** What the secret is (bound to the sealed value). */
  purpose: string;
  /** Whose it is, from the row's stable id (bound to the sealed value: it does not open on another row). */
  owner: (id: string) => string;
  /** An organization's table (org_seq, row-level security): walked one organization at a time at open. */
  perOrganization?: true;
}

/** Each table has a `seq` and a stable `id`; a global one is read without an organization, an organization's one per organization. */
export const SEALED = {
  totp: { table: 'users', column: 'totp_secret', purpose: 'totp', owner: (id) => `users/${id}` },
  mail: { table: 'mail_settings', column: 'password', purpose: 'smtp', owner: (id) => `mail_settings/${id}`, perOrganization: true },
  /** A feed connector's credentials (issue 52): one JSON per connector (a SimpleFIN access URL, a key, tokens). */
  connector: { table: 'connectors', column: 'credentials', purpose: 'connector', owner: (id) => `connectors/${id}`, perOrganization: true },
  /** A bank's sign-in under way from a screen (issue 52): the application's id and key until the session is made. */
  connectorSignIn: {
    table: 'connector_sign_ins',
    column: 'credentials',
    purpose: 'connector-sign-in',
    owner: (id) => `connector_sign_ins/${id}`,
    perOrganization: true,
  },
  hmrcAccess: { table: 'hmrc_connections', column: 'access_token', purpose: 'hmrc-access-token', owner: (id) => `hmrc_connections/${id}`, perOrganization: true },
  hmrcRefresh: { table: 'hmrc_connections', column: 'refresh_token', purpose: 'hmrc-refresh-token', owner: (id) => `hmrc_connections/${id}`, perOrganization: true },
} as const satisfies Record<string, SealedColumn>;

export type SecretKind = keyof typeof SEALED;

const contextOf = (kind: SecretKind, rowId: string): SecretContext => ({ purpose: SEALED[kind].purpose, owner: SEALED[kind].owner(rowId) });

function requireKeyring(ledger: Ledger): Keyring {
  let ring: Keyring | null;
  try {
    ring = keyringFor(ledger, true);
  } catch (error) {
    if (error instanceof SecretError) throw new LedgerError('conflict', error.message, { reason: 'secret_key' });
    throw error;
  }
  if (!ring) throw new LedgerError('conflict', `This server has no secret key, so it cannot keep a credential. ${HOW_TO_MAKE_A_KEY}`, { reason: 'no_secret_key' });
  return ring;
}

/** A secret as it is stored: sealed for its row. */
export const sealSecret = (ledger: Ledger, kind: SecretKind, rowId: string, secret: string): string => seal(requireKeyring(ledger), secret, contextOf(kind, rowId));

/** The secret a stored value holds (refused when it was moved from another row or changed). */
export const openSecret = (ledger: Ledger, kind: SecretKind, rowId: string, stored: string): string => unseal(requireKeyring(ledger), stored, contextOf(kind, rowId));

/**
 * The secret, or 409 `conflict` (`details.reason: "secret_key"`) saying what the person does about it (`remedy`) when it
 * does not open here: books restored on another computer without their key file are asked to reconnect, not failed.
 */
export function openSecretOrAsk(ledger: Ledger, kind: SecretKind, rowId: string, stored: string, what: string, remedy: string): string {
  try {
    return openSecret(ledger, kind, rowId, stored);
  } catch (error) {
    if (!(error instanceof SecretError)) throw error;
    throw new LedgerError(
      'conflict',
      `${what} cannot be opened on these books: it was sealed with a key they are not given here (as on books restored without their key). ${remedy}`,
      { reason: 'secret_key' },
    );
  }
}

interface Stored {
  seq: number;
  id: string;
  value: string;
}

/** A column's stored values: a global table's all, an organization's table's of that organization (SQLite has no row-level security to narrow it). */
const storedValues = (ledger: Ledger, c: SealedColumn, org?: number): Promise<Stored[]> =>
  org === undefined
    ? ledger.rows<Stored>(`SELECT seq, id, ${c.column} AS value FROM ${c.table} WHERE ${c.column} IS NOT NULL ORDER BY seq`)
    : ledger.rows<Stored>(`SELECT seq, id, ${c.column} AS value FROM ${c.table} WHERE org_seq = ? AND ${c.column} IS NOT NULL ORDER BY seq`, org);

/**
 * At open: every stored secret sealed with the current key. Values in clear (an earlier build) are sealed, values
 * sealed with an older key sealed again; nothing to do needs no key. Refused, naming why, where secrets exist and no
 * key opens them (a database server without its configured key, or with a key that is not the one they were sealed with).
 */
export async function sealStoredSecrets(ledger: Ledger, log: (message: string) => void = () => undefined): Promise<number> {
  const columns = Object.values(SEALED) as SealedColumn[];
  // Row-level security shows an organization's table only to its organization: each is walked in turn.
  const orgs = (await ledger.forOrg('all', () => ledger.stmt('SELECT seq FROM organizations ORDER BY seq').pluck().all())) as number[];
  let changed = await ledger.forOrg('all', () =>
    sealColumns(
      ledger,
      columns.filter((c) => !c.perOrganization),
    ),
  );
  for (const org of orgs)
    changed += await ledger.forOrg(org, () =>
      sealColumns(
        ledger,
        columns.filter((c) => c.perOrganization),
        org,
      ),
    );
  if (changed) log(`sealed ${changed} stored secret(s) with key ${keyringFor(ledger, false)!.current.id}`);
  return changed;
}

async function sealColumns(ledger: Ledger, columns: SealedColumn[], org?: number): Promise<number> {
  let changed = 0;
  for (const c of columns) {
    const stored = await storedValues(ledger, c, org);
    if (!stored.length) continue;
    const ring = keyringFor(
      ledger,
      stored.some((s) => !isSealed(s.value)),
    );
    if (!ring) throw new SecretError(`These books keep ${stored.length} sealed ${c.purpose} secret(s) and this process has no key to open them. ${HOW_TO_MAKE_A_KEY}`);
    const unknown = [...new Set(stored.map((s) => sealedWith(s.value)).filter((id): id is string => id !== null && !ring.all.some((k) => k.id === id)))];
    if (unknown.length) throw new SecretError(`Some ${c.purpose} secrets are sealed with key(s) ${unknown.join(', ')}, which this process is not given. ${HOW_TO_MAKE_A_KEY}`);
    const due = stored.filter((s) => sealedWith(s.value) !== ring.current.id);
    if (!due.length) continue;
    await ledger.write(async () => {
      for (const s of due) {
        const context = { purpose: c.purpose, owner: c.owner(s.id) };
        const secret = isSealed(s.value) ? unseal(ring, s.value, context) : s.value;
        // Only if unchanged meanwhile (another process sealing at the same time, or a person enrolling).
        changed += (await ledger.stmt(`UPDATE ${c.table} SET ${c.column} = ? WHERE seq = ? AND ${c.column} = ?`).run(seal(ring, secret, context), s.seq, s.value)).changes;
      }
    });
  }
  return changed;
}

// A feed connector's rows (issue 52): the connector (its provider, sealed
// credentials, consent, schedule and last outcome) and the provider accounts it
// reports, each mapped to a ledger account or not yet. Adding, reconnecting,
// mapping and disconnecting are written here with their audit entries; what
// is fetched and when belongs to src/main/connectors/. The credentials are
// sealed before they are written and opened only for a call: no answer, log or
// audit entry holds them.
import type { ConnectorAccountRecord, ConnectorRecord } from '../../../../db/rows';
import { appendAudit, type Actor } from '../access/audit';
import { insertAccount, requireOpenAccount, type AccountRow } from '../accounts/accounts';
import { newId, nowIso } from '../core/clock';
import { LedgerError, notFound } from '../core/errors';
import { openSecretOrAsk, sealSecret } from '../core/secrets/sealed';
import type { Ledger } from '../core/storage';
import { excerpt } from '../core/text';
import { mapInOrder } from '../core/in-order';
import { bySql } from '../core/dialect';

/** connector_accounts' unique key on each engine (PostgreSQL's keys lead with the organization). */
const FEED_KEY = { sqlite: '(connector_seq, feed_id)', postgres: '(org_seq, connector_seq, feed_id)' };

export type ConnectorRow = ConnectorRecord;
export type FeedAccountRow = ConnectorAccountRecord;

/** An account as a provider reports it (connectors/provider.ts FeedAccount, restated here: the ledger points at nothing above it). */
export interface ReportedAccount {
  id: string;
  name: string;
  currency: string;
  iban?: string | null;
  last4?: string | null;
}

export interface NewConnector {
  name: string;
  provider: string;
  /** The provider's credentials as one JSON-able value: sealed here, for this connector's row alone. */
  credentials: unknown;
  consentExpiresAt: string | null;
  accounts: readonly ReportedAccount[];
}

/** The syncs the schedule makes without a person (jobs/): who the audit log names. */
export const SCHEDULE_ACTOR: Actor = { type: 'human', userId: 'ledgerdesk', name: 'Scheduled sync', channel: 'desk' };

export async function connectorRows(ledger: Ledger, orgSeq: number): Promise<ConnectorRow[]> {
  return ledger.rows<ConnectorRow>('SELECT * FROM connectors WHERE org_seq = ? ORDER BY lower(name), seq', orgSeq);
}

/** By id or name (any case); a 404 naming the connectors otherwise. */
export async function requireConnector(ledger: Ledger, orgSeq: number, ref: string): Promise<ConnectorRow> {
  const row = (await ledger.stmt('SELECT * FROM connectors WHERE org_seq = ? AND (id = ? OR lower(name) = lower(?)) ORDER BY seq LIMIT 1').get(orgSeq, ref.trim(), ref.trim())) as
    ConnectorRow | undefined;
  if (row) return row;
  const known = (await connectorRows(ledger, orgSeq)).map((c) => `"${c.name}"`).join(', ') || 'none yet';
  throw new LedgerError('not_found', `No connector "${ref}" in this organization (connectors: ${known}).`, { resource: 'connector', id: ref });
}

export const feedAccounts = (ledger: Ledger, connectorSeq: number): Promise<FeedAccountRow[]> =>
  ledger.rows<FeedAccountRow>('SELECT * FROM connector_accounts WHERE connector_seq = ? ORDER BY seq', connectorSeq);

/** The credentials a connector keeps, opened for one call; `reconnect` says how, should they not open here (no key). */
export function openCredentials<C>(ledger: Ledger, row: ConnectorRow, reconnect = 'Reconnect it with new credentials: its history stays.'): C {
  if (!row.credentials) throw new LedgerError('conflict', `Connector "${row.name}" is disconnected: connect it again to sync.`, { connector: row.id, reason: 'disconnected' });
  return JSON.parse(openSecretOrAsk(ledger, 'connector', row.id, row.credentials, `The credentials of "${row.name}"`, reconnect)) as C;
}

/**
 * A new connector, or new credentials for one of the same name and provider (reconnecting: its accounts, their
 * mapping and cursors, and every row it brought stay). Answers its row.
 */
export async function saveConnector(ledger: Ledger, orgSeq: number, actor: Actor, input: NewConnector): Promise<ConnectorRow> {
  return ledger.write(async () => {
    const name = input.name.trim();
    if (!name || name.length > 100)
      throw new LedgerError('validation_failed', 'A connector name is 1 to 100 characters.', [{ field: 'name', message: 'must be 1 to 100 characters' }]);
    const same = (await ledger.stmt('SELECT * FROM connectors WHERE org_seq = ? AND lower(name) = lower(?)').get(orgSeq, name)) as ConnectorRow | undefined;
    if (same && same.provider !== input.provider)
      throw new LedgerError('conflict', `A connector named "${name}" already exists for ${same.provider}: choose another name.`, [{ field: 'name', message: 'already taken' }]);
    const id = same?.id ?? newId();
    const sealed = sealSecret(ledger, 'connector', id, JSON.stringify(input.credentials));
    if (same)
      await ledger
        .stmt(
          "UPDATE connectors SET credentials = ?, consent_expires_at = ?, status = 'active', sync_status = NULL, sync_error = NULL, failures = 0, next_sync_at = NULL WHERE seq = ?",
        )
        .run(sealed, input.consentExpiresAt, same.seq);
    else
      await ledger
        .stmt("INSERT INTO connectors (id, org_seq, name, provider, status, credentials, consent_expires_at, created_at) VALUES (?, ?, ?, ?, 'active', ?, ?, ?)")
        .run(id, orgSeq, name, input.provider, sealed, input.consentExpiresAt, nowIso());
    const row = (await ledger.stmt('SELECT * FROM connectors WHERE org_seq = ? AND id = ?').get(orgSeq, id)) as ConnectorRow;
    await mapInOrder(input.accounts, (a) =>
      ledger
        .stmt(
          `INSERT INTO connector_accounts (org_seq, connector_seq, feed_id, name, currency, iban, last4) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT ${bySql(ledger, FEED_KEY)} DO UPDATE SET name = excluded.name, currency = excluded.currency`,
        )
        .run(orgSeq, row.seq, a.id, excerpt(a.name, 100), a.currency.toUpperCase(), a.iban ?? null, a.last4 ?? null),
    );
    await appendAudit(ledger, orgSeq, actor, {
      action: same ? 'connector.reconnected' : 'connector.added',
      targetType: 'connector',
      targetId: id,
      summary: `${same ? 'Reconnected' : 'Connected'} "${name}" (${input.provider}): ${input.accounts.length} account(s) reported`,
    });
    return row;
  });
}

export interface MapInput {
  /** The provider's account id, or its name as reported; may be left out when the connector reports one account. */
  feedAccount?: string;
  /** A ledger account (id, name or bank id), or a new one's name when none has it. */
  account: string;
}

/** The ledger account a ledger account reference names, made (a checking account in the feed's currency) when none is called so. */
async function accountFor(ledger: Ledger, orgSeq: number, actor: Actor, ref: string, feed: FeedAccountRow): Promise<AccountRow> {
  try {
    return await requireOpenAccount(ledger, orgSeq, ref);
  } catch (error) {
    if (!(error instanceof LedgerError) || error.code !== 'not_found') throw error;
    return insertAccount(ledger, orgSeq, actor, { name: ref, type: 'checking', currency: feed.currency });
  }
}

/**
 * Maps a provider's account to a ledger account. An account that already holds rows (from files) has its first sync
 * wait at the import preview for the person (awaiting_preview); an empty one syncs directly.
 */
export async function mapFeedAccount(ledger: Ledger, orgSeq: number, actor: Actor, connectorRef: string, input: MapInput): Promise<FeedAccountRow> {
  return ledger.write(async () => {
    const connector = await requireConnector(ledger, orgSeq, connectorRef);
    const feeds = await feedAccounts(ledger, connector.seq);
    const wanted = input.feedAccount?.trim().toLowerCase();
    const feed = wanted
      ? feeds.find((f) => f.feed_id.toLowerCase() === wanted || f.name.toLowerCase() === wanted || f.last4 === wanted)
      : feeds.length === 1
        ? feeds[0]
        : undefined;
    if (!feed)
      throw new LedgerError(wanted ? 'not_found' : 'validation_failed', `Name the provider's account to map (${feeds.map((f) => `"${f.name}"`).join(', ') || 'none reported'}).`, [
        { field: 'feedAccount', message: wanted ? 'not reported by this connector' : 'required: the connector reports several accounts' },
      ]);
    const account = await accountFor(ledger, orgSeq, actor, input.account, feed);
    if (account.currency !== feed.currency)
      throw new LedgerError('validation_failed', `"${feed.name}" is in ${feed.currency} and "${account.name}" in ${account.currency}: map it to an account in ${feed.currency}.`, [
        { field: 'account', message: `must be in ${feed.currency}` },
      ]);
    const taken = (await ledger.stmt('SELECT seq FROM connector_accounts WHERE org_seq = ? AND account_seq = ? AND seq <> ?').get(orgSeq, account.seq, feed.seq)) as unknown;
    if (taken) throw new LedgerError('conflict', `"${account.name}" is already fed by another connector's account.`, [{ field: 'account', message: 'already fed' }]);
    const holdsRows = Boolean(await ledger.stmt('SELECT 1 FROM transactions WHERE account_seq = ? LIMIT 1').get(account.seq));
    const awaiting = holdsRows && feed.cursor === null ? 1 : 0;
    await ledger.stmt('UPDATE connector_accounts SET account_seq = ?, awaiting_preview = ? WHERE seq = ?').run(account.seq, awaiting, feed.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'connector.mapped',
      targetType: 'connector',
      targetId: connector.id,
      summary: `"${connector.name}": "${feed.name}" feeds "${account.name}"${awaiting ? ' (it holds rows: its first sync waits for the preview)' : ''}`,
    });
    return (await ledger.stmt('SELECT * FROM connector_accounts WHERE seq = ?').get(feed.seq)) as FeedAccountRow;
  });
}

/** Disconnects a connector: its credentials are forgotten, its pending and held rows let go; the rows it brought stay in the books. */
export async function removeConnector(ledger: Ledger, orgSeq: number, actor: Actor, ref: string): Promise<ConnectorRow> {
  return ledger.write(async () => {
    const c = await requireConnector(ledger, orgSeq, ref);
    for (const table of ['feed_pending', 'feed_held'])
      await ledger.stmt(`DELETE FROM ${table} WHERE connector_account_seq IN (SELECT seq FROM connector_accounts WHERE connector_seq = ?)`).run(c.seq);
    await ledger.stmt('DELETE FROM connector_accounts WHERE connector_seq = ?').run(c.seq);
    await ledger.stmt("UPDATE connectors SET credentials = NULL, status = 'disconnected', next_sync_at = NULL, sync_status = NULL, sync_error = NULL WHERE seq = ?").run(c.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'connector.removed',
      targetType: 'connector',
      targetId: c.id,
      summary: `Disconnected "${c.name}" (${c.provider}): its rows stay`,
    });
    return (await ledger.stmt('SELECT * FROM connectors WHERE seq = ?').get(c.seq)) as ConnectorRow;
  });
}

/** A connector's `id` when the caller holds its seq; a 404 otherwise (removed meanwhile). */
export async function connectorBySeq(ledger: Ledger, seq: number): Promise<ConnectorRow> {
  const row = (await ledger.stmt('SELECT * FROM connectors WHERE seq = ?').get(seq)) as ConnectorRow | undefined;
  if (!row) throw notFound('connector', String(seq));
  return row;
}

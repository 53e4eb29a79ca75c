// A connector's sync (issue 52), once for every provider: under the
// connector's lease (one process at a time, whatever the number of servers),
// each mapped account is paged through from its cursor and each page written
// with its cursor in one transaction (ledger/feeds/page.ts), so a sync killed
// midway resumes where the last page committed. An account mapped onto rows
// from files waits at the preview for the person (preview.ts). A provider's
// failure leaves the books as the committed pages left them and is recorded in
// words with when to try again (outcome.ts). The clock is passed in.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../ledger/access/audit';
import { addDays } from '../../shared/dates';
import type { Ledger } from '../ledger/core/storage';
import { releaseLease, takeLease } from '../ledger/core/leases';
import { feedAccounts, openCredentials, requireConnector, type ConnectorRow, type FeedAccountRow } from '../ledger/feeds/connectors';
import { writePage } from '../ledger/feeds/page';
import { countCall, recordOutcome, type SyncOutcome } from '../ledger/feeds/schedule';
import { AllowanceSpent, consentLapsed, failedOutcome, needsReconnect } from './outcome';
import type { FeedAccount, FeedPage, FeedRow, ProviderContext } from './provider';
import { providerEntry, type ProviderEntry } from './providers';

/** How far back a first sync reaches. */
export const FIRST_SYNC_DAYS = 90;
/** The schedule's default interval: LEDGERDESK_SYNC_EVERY_HOURS overrides it. */
export const DEFAULT_SYNC_HOURS = 6;
/** How long a connector's lease lasts without being extended (each page extends it): a dead process's lease frees itself. */
export const SYNC_LEASE_MS = 10 * 60_000;
/** Pages one sync of one account may take (a provider that never ends its paging is stopped). */
const MAX_PAGES = 1000;

/** This process, as a lease's holder. */
export const PROCESS_HOLDER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export function syncEveryMs(env: NodeJS.ProcessEnv = process.env): number {
  const hours = Number(env.LEDGERDESK_SYNC_EVERY_HOURS ?? DEFAULT_SYNC_HOURS);
  return (Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_SYNC_HOURS) * 3_600_000;
}

export interface SyncOptions {
  now: Date;
  actor: Actor;
  holder?: string;
  everyMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface AccountReport {
  name: string;
  /** synced; waiting_preview: mapped onto rows from files, waiting for the person; unmapped. */
  state: 'synced' | 'waiting_preview' | 'unmapped';
  imported: number;
  duplicates: number;
  held: number;
  pending: number;
}

export interface SyncReport {
  connector: string;
  /** busy: another process holds this connector's sync right now (it syncs once). */
  outcome: 'ok' | 'error' | 'busy';
  error: string | null;
  nextSyncAt: string | null;
  accounts: AccountReport[];
}

const feedAccountOf = (f: FeedAccountRow): FeedAccount => ({ id: f.feed_id, name: f.name, currency: f.currency, iban: f.iban, last4: f.last4 });

/** One connection to the provider for a sync: its context, and a call counted against its daily allowance. */
export class Session {
  constructor(
    readonly ledger: Ledger,
    readonly row: ConnectorRow,
    readonly entry: ProviderEntry,
    readonly ctx: ProviderContext<unknown>,
  ) {}

  static open(ledger: Ledger, row: ConnectorRow, o: SyncOptions): Session {
    const entry = providerEntry(row.provider);
    const credentials = openCredentials(ledger, row, needsReconnect(entry.provider.label, row.name));
    return new Session(ledger, row, entry, { credentials, baseUrl: entry.baseUrl(credentials, o.env ?? process.env), now: o.now });
  }

  async page(feed: FeedAccountRow, cursor: string | null): Promise<FeedPage> {
    const limit = this.entry.callsPerDay;
    if (limit && !(await countCall(this.ledger, this.row.seq, this.ctx.now.toISOString().slice(0, 10), limit))) throw new AllowanceSpent(this.entry.provider.label, limit);
    return this.entry.provider.rows(this.ctx, feedAccountOf(feed), cursor, addDays(this.ctx.now.toISOString().slice(0, 10), -FIRST_SYNC_DAYS));
  }
}

/** Syncs one connector now (a person's "sync now", or the schedule's turn): each mapped account, page by page. */
export async function syncConnector(ledger: Ledger, orgSeq: number, ref: string, o: SyncOptions): Promise<SyncReport> {
  const row = await requireConnector(ledger, orgSeq, ref);
  const holder = o.holder ?? PROCESS_HOLDER;
  const lease = `connector:${row.id}`;
  const now = o.now.getTime();
  if (!(await takeLease(ledger, lease, holder, now, now + SYNC_LEASE_MS))) return { connector: row.name, outcome: 'busy', error: null, nextSyncAt: row.next_sync_at, accounts: [] };
  const everyMs = o.everyMs ?? syncEveryMs(o.env);
  const label = providerEntry(row.provider).provider.label;
  const accounts: AccountReport[] = [];
  let released = false;
  // The outcome and the lease's release in one transaction: a scheduled pass with nothing new is a few writes a
  // connector, and each commit is most of its cost (docs/benchmarks.md, "Connectors").
  const finish = (outcome: SyncOutcome) =>
    ledger.write(async () => {
      await recordOutcome(ledger, row.seq, outcome);
      await releaseLease(ledger, lease, holder);
      released = true;
    });
  try {
    if (row.consent_expires_at && row.consent_expires_at <= o.now.toISOString()) {
      const lapsed = consentLapsed({ label, name: row.name, expiresAt: row.consent_expires_at, failures: row.failures });
      await finish(lapsed);
      return { connector: row.name, outcome: 'error', error: lapsed.error, nextSyncAt: null, accounts };
    }
    const session = Session.open(ledger, row, o);
    let leased = Date.now();
    for (const feed of await feedAccounts(ledger, row.seq)) {
      // Renewed between accounts once half the lease has gone by (not a write per account: most syncs are short).
      if (Date.now() - leased > SYNC_LEASE_MS / 2) await takeLease(ledger, lease, holder, (leased = Date.now()), leased + SYNC_LEASE_MS);
      accounts.push(await syncAccount(session, orgSeq, feed, o.actor));
    }
    const nextSyncAt = new Date(now + everyMs).toISOString();
    await session.entry.provider
      .afterSync?.(ledger, orgSeq, o.actor, session.ctx)
      .catch((error: Error) => console.error(`${label} after the sync of "${row.name}": ${error.message}`));
    await finish({ syncStatus: 'ok', error: null, lastSyncAt: o.now.toISOString(), nextSyncAt, failures: 0 });
    return { connector: row.name, outcome: 'ok', error: null, nextSyncAt, accounts };
  } catch (error) {
    const failed = failedOutcome(error, { label, name: row.name, now: o.now, everyMs, failures: row.failures });
    await finish(failed);
    if (failed.error?.startsWith('The sync failed unexpectedly')) console.error(error);
    return { connector: row.name, outcome: 'error', error: failed.error, nextSyncAt: failed.nextSyncAt, accounts };
  } finally {
    if (!released) await releaseLease(ledger, lease, holder);
  }
}

/** One account's pages from its cursor, each written with the cursor after it; pending rows gathered over the sync replace the account's at its last page. */
async function syncAccount(session: Session, orgSeq: number, feed: FeedAccountRow, actor: Actor): Promise<AccountReport> {
  const report: AccountReport = { name: feed.name, state: 'unmapped', imported: 0, duplicates: 0, held: 0, pending: 0 };
  if (feed.account_seq === null) return report;
  if (feed.awaiting_preview) return { ...report, state: 'waiting_preview' };
  const { provider } = session.entry;
  let cursor = feed.cursor;
  const pending: FeedRow[] = [];
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await session.page(feed, cursor);
    pending.push(...page.rows.filter((r) => r.pending));
    const last = page.next === null || n === MAX_PAGES - 1;
    const next = page.next ?? page.resume ?? cursor;
    const written = await writePage(session.ledger, orgSeq, actor, {
      connector: session.row,
      feed,
      label: provider.label,
      source: provider.source,
      rows: page.rows,
      cursor: next,
      pending: last ? pending : null,
      settle: provider.settle ? (imported) => provider.settle!(session.ledger, orgSeq, actor, imported) : undefined,
    });
    report.imported += written.imported;
    report.duplicates += written.duplicates;
    report.held += written.held;
    report.pending = written.pending;
    cursor = next;
    if (last) break;
  }
  return { ...report, state: 'synced' };
}

// One page of a feed written into the books (issue 52), in ONE transaction
// with its cursor: booked rows take the same plan and apply as a file's rows
// (imports/import.ts: dedupe by the bank's id, the preview, one batch and its
// audit entry, undo, the person's rules), with `source` the provider's. What
// may not be written silently is held for the person instead (held.ts): a
// booked row whose bank id comes again with other figures, and a row the
// import calls a possible match (the same row under another id: a day the bank
// renumbered). Pending rows are not transactions: they replace the account's
// pending rows (pending.ts). A sync killed between two pages resumes from the
// last cursor committed, so nothing is missed or written twice.
import { createHash } from 'node:crypto';
import type { TransactionSource } from '../../../../db/values';
import type { Actor } from '../access/audit';
import { accountBySeq } from '../accounts/accounts';
import { nowIso } from '../core/clock';
import { LedgerError } from '../core/errors';
import { decimalToMinor } from '../core/money';
import type { Ledger } from '../core/storage';
import { importStatement, type ImportResult } from '../imports/import';
import type { ConnectorRow, FeedAccountRow } from './connectors';
import { holdChanged, holdPossibleMatches } from './held';
import { replacePending } from './pending';
import { feedStatement, type FeedRowInput } from './rows';

export type { FeedRowInput } from './rows';
export { feedStatement } from './rows';

export interface PageInput<Row extends FeedRowInput = FeedRowInput> {
  connector: ConnectorRow;
  feed: FeedAccountRow;
  /** The provider's label, for the batch's name ("SimpleFIN"). */
  label: string;
  source: TransactionSource;
  rows: readonly Row[];
  /** The cursor to resume from after this page: written with it. */
  cursor: string | null;
  /** The last page of the sync: the pending rows gathered over the sync replace the account's. */
  pending: readonly Row[] | null;
  /** Inside the same write, with the rows just imported and their transactions (a processor's fee posted, an invoice paid). */
  settle?: (imported: { transactionId: string; accountId: string; row: Row }[]) => Promise<void>;
  dryRun?: boolean;
}

export interface PageOutcome {
  batchId: string | null;
  imported: number;
  duplicates: number;
  held: number;
  pending: number;
  /** The import's answer (the preview of a first sync that waits for the person). */
  result: ImportResult;
}

/** What the batch is called in the imports' history and the audit log: the provider, the connector, the account. */
const batchName = (input: Pick<PageInput, 'label' | 'connector' | 'feed'>): string => `${input.label} "${input.connector.name}": ${input.feed.name}`;

/** Plans and (unless a dry run) writes one page with its cursor; refused whole, naming the rows, when a row cannot be read. */
export async function writePage<Row extends FeedRowInput>(ledger: Ledger, orgSeq: number, actor: Actor, input: PageInput<Row>): Promise<PageOutcome> {
  const run = async (): Promise<PageOutcome> => {
    const account = await accountBySeq(ledger, input.feed.account_seq!);
    const bad = input.rows.find((r) => typeof decimalToMinor(r.amount, account.currency) === 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(r.date));
    if (bad)
      throw new LedgerError('conflict', `${input.label} sent a row that cannot be read (${bad.externalId}: ${bad.amount} on ${bad.date}); nothing was written.`, {
        reason: 'feed_row',
      });
    const booked = input.rows.filter((r) => !r.pending);
    const { changed, held: newlyHeld } = input.dryRun ? { changed: new Set<Row>(), held: 0 } : await holdChanged(ledger, orgSeq, input.feed, account, booked);
    const toPlan = booked.filter((r) => !changed.has(r));
    const result = await importStatement(ledger, orgSeq, actor, {
      statement: feedStatement(toPlan, account.currency),
      fileName: batchName(input),
      fileSha256: createHash('sha256')
        .update(JSON.stringify(toPlan.map((r) => [r.externalId, r.date, r.amount])))
        .digest('hex'),
      readOptions: { format: 'feed' },
      account: account.id,
      possibleMatches: 'ask',
      source: input.source,
      dryRun: input.dryRun,
    });
    if (result.errors.length)
      throw new LedgerError('conflict', `${input.label}'s rows were refused: ${result.errors[0].message}; nothing was written.`, { reason: 'feed_row', errors: result.errors });
    if (input.dryRun) return { batchId: null, imported: result.imported, duplicates: result.duplicates, held: result.held, pending: 0, result };
    const held = newlyHeld + (await holdPossibleMatches(ledger, orgSeq, input.feed, result));
    const pending = await replacePending(ledger, orgSeq, input.feed, account, booked, input.pending);
    if (result.batchId && input.settle) await input.settle(await importedRows(ledger, result.batchId, account.id, toPlan));
    await ledger.stmt('UPDATE connector_accounts SET cursor = ?, last_sync_at = ? WHERE seq = ?').run(input.cursor, nowIso(), input.feed.seq);
    return { batchId: result.batchId, imported: result.imported, duplicates: result.duplicates, held, pending, result };
  };
  return input.dryRun ? run() : ledger.write(run);
}

/** The rows a batch just wrote, each with the feed row it came from (by the bank's id). */
async function importedRows<Row extends FeedRowInput>(ledger: Ledger, batchId: string, accountId: string, rows: readonly Row[]) {
  const byId = new Map(rows.map((r) => [r.externalId, r]));
  const written = await ledger.rows<{ id: string; external_id: string }>(
    "SELECT t.id, t.external_id FROM transactions t JOIN import_batches b ON b.seq = t.import_batch_seq WHERE b.id = ? AND t.origin = 'import' ORDER BY t.seq",
    batchId,
  );
  return written.filter((t) => byId.has(t.external_id)).map((t) => ({ transactionId: t.id, accountId, row: byId.get(t.external_id)! }));
}

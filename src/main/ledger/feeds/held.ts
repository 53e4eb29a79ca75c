// A feed's rows held for the person (issue 52): nothing already booked changes
// silently. Held: a booked row whose bank id comes again with another date or
// amount (the bank changed it), and a row the import calls a possible match
// (the same date, amount and description under another bank id: a day the
// bank renumbered; or a row entered by hand it may be). Both versions are kept
// until the person decides: keep the books' version (the feed's is let go and
// never held again), or import the feed's as a row of its own.
import type { FeedHeldRecord } from '../../../../db/rows';
import { appendAudit, type Actor } from '../access/audit';
import { accountBySeq, type AccountRow } from '../accounts/accounts';
import { newId, nowIso } from '../core/clock';
import { inList } from '../core/dialect';
import { LedgerError, notFound } from '../core/errors';
import { decimalToMinor, fromMinor, minorDigits } from '../core/money';
import { writeAmount } from '../../../shared/amounts';
import type { TransactionSource } from '../../../../db/values';
import type { Ledger } from '../core/storage';
import { importStatement, type ImportResult } from '../imports/import';
import type { FeedAccountRow } from './connectors';
import { feedStatement, type FeedRowInput } from './rows';

export interface HeldRow {
  id: string;
  /** The ledger account (its currency the amounts'). */
  account: { id: string; name: string; currency: string };
  reason: string;
  /** The feed's version. */
  feed: { externalId: string; date: string; amount: number; description: string };
  /** The books' version (null when that row was since removed, by an undo). */
  books: { id: string; date: string; amount: number; description: string; externalId: string | null } | null;
  heldAt: string;
  decision: 'kept' | 'imported' | null;
}

const HOLD = `INSERT INTO feed_held (id, org_seq, connector_account_seq, account_seq, transaction_seq, external_id, date, amount_minor, description, reason, held_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;

/** Booked rows whose bank id the account holds with another date or amount: held (once per version), answered to leave out of the import, with how many are newly held. */
export async function holdChanged<Row extends FeedRowInput>(
  ledger: Ledger,
  orgSeq: number,
  feed: FeedAccountRow,
  account: AccountRow,
  booked: readonly Row[],
): Promise<{ changed: Set<Row>; held: number }> {
  const changed = new Set<Row>();
  let held = 0;
  // The account's rows of the page's bank ids, in one read: a statement per row made a first sync of 10,000 rows
  // 10,000 more round trips than the same rows' import on PostgreSQL (docs/benchmarks.md, "Connectors").
  const known = new Map<string, { seq: number; date: string; amount_minor: number }[]>();
  const rows = booked.length
    ? await ledger.rows<{ seq: number; external_id: string; date: string; amount_minor: number }>(
        `SELECT seq, external_id, date, amount_minor FROM transactions WHERE account_seq = ? AND ${inList(ledger, 'external_id')} ORDER BY seq`,
        account.seq,
        [...new Set(booked.map((r) => r.externalId))],
      )
    : [];
  for (const k of rows) known.set(k.external_id, [...(known.get(k.external_id) ?? []), k]);
  for (const r of booked) {
    const minor = decimalToMinor(r.amount, account.currency) as number;
    const same = known.get(r.externalId) ?? [];
    if (!same.length || same.some((k) => k.date === r.date && k.amount_minor === minor)) continue;
    const was = same[same.length - 1];
    changed.add(r);
    const reason = `the bank sent row ${r.externalId} again with other figures (booked as ${fromMinor(was.amount_minor, account.currency).toFixed(2)} on ${was.date})`;
    held += (await ledger.stmt(HOLD).run(newId(), orgSeq, feed.seq, account.seq, was.seq, r.externalId, r.date, minor, r.description, reason, nowIso())).changes;
  }
  return { changed, held };
}

/** The import's possible matches, held back by it ('ask'), kept for the person: answers how many are newly held. */
export async function holdPossibleMatches(ledger: Ledger, orgSeq: number, feed: FeedAccountRow, result: ImportResult): Promise<number> {
  let held = 0;
  for (const p of result.preview) {
    if (p.decision !== 'held' || !p.externalId || !p.match) continue;
    const seq = (await ledger.stmt('SELECT seq FROM transactions WHERE id = ?').pluck().get(p.match.id)) as number;
    const minor = Math.round(p.amount * 10 ** minorDigits(p.currency));
    const reason = p.match.reason.includes('another bank id') ? `the books hold this row under bank id ${await bankIdOf(ledger, seq)} (the bank renumbered it?)` : p.match.reason;
    held += (await ledger.stmt(HOLD).run(newId(), orgSeq, feed.seq, feed.account_seq, seq, p.externalId, p.date, minor, p.description, reason, nowIso())).changes;
  }
  return held;
}

const bankIdOf = async (ledger: Ledger, seq: number): Promise<string> =>
  ((await ledger.stmt('SELECT external_id FROM transactions WHERE seq = ?').pluck().get(seq)) as string | null) ?? '(none)';

/** The rows held for the person in the organization (undecided first), or one account's. */
export async function listHeld(ledger: Ledger, orgSeq: number, options: { undecided?: boolean } = {}): Promise<HeldRow[]> {
  const rows = await ledger.rows<FeedHeldRecord & { account_id: string; account_name: string; currency: string }>(
    `SELECT h.*, a.id AS account_id, a.name AS account_name, a.currency FROM feed_held h JOIN accounts a ON a.seq = h.account_seq
     WHERE h.org_seq = ? ${options.undecided ? 'AND h.decided_at IS NULL' : ''} ORDER BY h.decided_at IS NOT NULL, h.seq LIMIT 500`,
    orgSeq,
  );
  const out: HeldRow[] = [];
  for (const r of rows) {
    const t = (await ledger.stmt('SELECT id, date, amount_minor, description, external_id FROM transactions WHERE seq = ?').get(r.transaction_seq)) as
      { id: string; date: string; amount_minor: number; description: string; external_id: string | null } | undefined;
    out.push({
      id: r.id,
      account: { id: r.account_id, name: r.account_name, currency: r.currency },
      reason: r.reason,
      feed: { externalId: r.external_id, date: r.date, amount: fromMinor(r.amount_minor, r.currency), description: r.description },
      books: t ? { id: t.id, date: t.date, amount: fromMinor(t.amount_minor, r.currency), description: t.description, externalId: t.external_id } : null,
      heldAt: r.held_at,
      decision: (r.decision as HeldRow['decision']) ?? null,
    });
  }
  return out;
}

/** The person's decision on a held row: keep the books' version, or import the feed's as a row of its own (one batch, undoable). */
export async function decideHeld(ledger: Ledger, orgSeq: number, actor: Actor, id: string, decision: 'keep' | 'import'): Promise<HeldRow> {
  await ledger.write(async () => {
    const h = (await ledger.stmt('SELECT * FROM feed_held WHERE org_seq = ? AND id = ?').get(orgSeq, id)) as FeedHeldRecord | undefined;
    if (!h) throw notFound('held row', id);
    if (h.decided_at) throw new LedgerError('conflict', `This row was already decided (${h.decision}).`, { decision: h.decision });
    const account = await accountBySeq(ledger, h.account_seq);
    if (decision === 'import') await importHeld(ledger, orgSeq, actor, h, account);
    await ledger.stmt('UPDATE feed_held SET decided_at = ?, decision = ? WHERE seq = ?').run(nowIso(), decision === 'keep' ? 'kept' : 'imported', h.seq);
    if (decision === 'keep')
      await appendAudit(ledger, orgSeq, actor, {
        action: 'feed.held_kept',
        targetType: 'account',
        targetId: account.id,
        summary: `Kept the books' version of row ${h.external_id} in "${account.name}"; the feed's (${fromMinor(h.amount_minor, account.currency).toFixed(2)} on ${h.date}) let go`,
      });
  });
  return (await listHeld(ledger, orgSeq)).find((h) => h.id === id)!;
}

async function importHeld(ledger: Ledger, orgSeq: number, actor: Actor, h: FeedHeldRecord, account: AccountRow): Promise<void> {
  // The source of the row it was held against: the same feed's.
  const source = ((await ledger.stmt('SELECT source FROM transactions WHERE seq = ?').pluck().get(h.transaction_seq)) ?? 'bankfeed') as TransactionSource;
  const row: FeedRowInput = {
    externalId: h.external_id,
    date: h.date,
    amount: writeAmount(h.amount_minor, account.currency, '.').replace(/,/g, ''),
    description: h.description,
    pending: false,
  };
  // Imported as a row of its own: the same bank id with another amount is a possible match the person just decided on.
  await importStatement(ledger, orgSeq, actor, {
    statement: feedStatement([row], account.currency),
    fileName: `Held row ${h.external_id}`,
    fileSha256: h.id,
    readOptions: { format: 'feed' },
    account: account.id,
    possibleMatches: 'import',
    source,
  });
}

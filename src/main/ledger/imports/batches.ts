// The history of imports, and undoing one. Undo removes the rows the import
// added and unlinks the rows entered by hand that it matched, in one
// transaction with one audit entry. It is refused, with what stands in the way
// counted, when a person's or an approved agent's work rests on those rows:
// a category, a note, a linked receipt, a reconciliation. Rows it merged with
// a statement line get back their own date and bank id. Pending proposals on
// them do not block it: they are rejected with the reason, as they could no
// longer be approved.
import { jsonField } from '../core/dialect';
import { appendAudit, actorName, type Human } from '../access/audit';
import { deleteInBulk } from '../totals/bulk';
import { assertOpen } from '../access/closing';
import { replaceLines, type LineInput } from '../transactions/lines';
import { ownValue } from '../transfers/value';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../transactions/transactions';
import { nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError, notFound } from '../core/errors';
import { excerpt } from '../core/text';
import type { ImportBatchRecord } from '../../../../db/rows';
import type { RowIssue } from '../../statements/types';
import { skippedIssues } from './skipped';
import { mapInOrder } from '../core/in-order';

/** Skipped rows listed with each batch (all of them: `import skipped`). */
const SKIPPED_LISTED = 500;

export interface ImportBatch {
  id: string;
  createdAt: string;
  format: string;
  fileName: string;
  accounts: { id: string; name: string }[];
  rows: number;
  imported: number;
  duplicates: number;
  merged: number;
  skipped: number;
  /** The rows it skipped, by line (the first 500), with why: `import skipped` writes them all out with their text. */
  skippedRows: RowIssue[];
  undoneAt: string | null;
}

type BatchRow = ImportBatchRecord;

async function toBatch(ledger: Ledger, r: BatchRow): Promise<ImportBatch> {
  const accounts = await ledger.rows<{ id: string; name: string }>(
    'SELECT a.id, a.name FROM statements s JOIN accounts a ON a.seq = s.account_seq WHERE s.batch_seq = ? ORDER BY s.seq',
    r.seq,
  );
  return {
    id: r.id,
    createdAt: r.created_at,
    format: r.format,
    fileName: r.file_name,
    accounts,
    rows: r.rows,
    imported: r.imported,
    duplicates: r.duplicates,
    merged: r.merged,
    skipped: r.skipped,
    skippedRows: r.skipped ? await skippedIssues(ledger, r.seq, SKIPPED_LISTED) : [],
    undoneAt: r.undone_at,
  };
}

/** Newest first; optionally only the imports into one account. */
export async function listImports(
  ledger: Ledger,
  orgSeq: number,
  page: { limit: number; offset: number; accountSeq?: number },
): Promise<{ batches: ImportBatch[]; totalCount: number }> {
  const filter = page.accountSeq === undefined ? '' : ' AND seq IN (SELECT batch_seq FROM statements WHERE account_seq = ?)';
  const params = page.accountSeq === undefined ? [orgSeq] : [orgSeq, page.accountSeq];
  const rows = await ledger.rows<BatchRow>(`SELECT * FROM import_batches WHERE org_seq = ?${filter} ORDER BY seq DESC LIMIT ? OFFSET ?`, ...params, page.limit, page.offset);
  const { n } = (await ledger.stmt(`SELECT count(*) AS n FROM import_batches WHERE org_seq = ?${filter}`).get(...params)) as { n: number };
  return { batches: await mapInOrder(rows, (r) => toBatch(ledger, r)), totalCount: n };
}

async function requireBatch(ledger: Ledger, orgSeq: number, id: string): Promise<BatchRow> {
  const row = (await ledger.stmt('SELECT * FROM import_batches WHERE id = ? AND org_seq = ?').get(id.toLowerCase(), orgSeq)) as BatchRow | undefined;
  if (!row) throw notFound('import', id);
  return row;
}

const ROWS = "FROM transactions WHERE import_batch_seq = ? AND origin = 'import'";

export async function undoImport(ledger: Ledger, orgSeq: number, actor: Human, id: string): Promise<ImportBatch> {
  return ledger.write(async () => {
    const batch = await requireBatch(ledger, orgSeq, id);
    if (batch.undone_at) throw new LedgerError('conflict', `Import "${batch.file_name}" was already undone at ${batch.undone_at}.`, { id: batch.id, undoneAt: batch.undone_at });
    const closed = (await ledger
      .stmt('SELECT a.name FROM statements s JOIN accounts a ON a.seq = s.account_seq WHERE s.batch_seq = ? AND a.closed_at IS NOT NULL')
      .get(batch.seq)) as { name: string } | undefined;
    if (closed) throw new LedgerError('conflict', `Account "${closed.name}" is closed (read-only); reopen it to undo this import.`, { id: batch.id });
    await refuseIfWorkRests(ledger, batch);
    const { first } = (await ledger.stmt(`SELECT min(date) AS first ${ROWS}`).get(batch.seq)) as { first: string | null };
    if (first) await assertOpen(ledger, orgSeq, [first], 'deleted (undoing the import)');
    const reviewedAt = nowIso();
    const rejected = (
      await ledger
        .stmt(
          `UPDATE proposals SET status = 'rejected', reviewed_at = ?, reviewed_by = ?, review_comment = ?
         WHERE org_seq = ? AND status = 'pending' AND ${jsonField(ledger, 'payload', 'transactionId')} IN (SELECT id ${ROWS})`,
        )
        .run(reviewedAt, actorName(actor), `The transaction was removed: its import "${excerpt(batch.file_name, 60)}" was undone.`, orgSeq, batch.seq)
    ).changes;
    const payments = (
      (await ledger
        .stmt(`SELECT count(DISTINCT l.transaction_seq) AS n FROM lines l WHERE l.settles_seq IS NOT NULL AND l.transaction_seq IN (SELECT seq ${ROWS})`)
        .get(batch.seq)) as {
        n: number;
      }
    ).n;
    const changed = await restoreLines(ledger, batch.seq);
    const removed = await deleteInBulk(ledger, "import_batch_seq = ? AND origin = 'import'", batch.seq);
    const merges = await ledger.rows<{ transaction_seq: number; previous_date: string; previous_external_id: string | null }>(
      'SELECT * FROM import_merges WHERE batch_seq = ?',
      batch.seq,
    );
    for (const m of merges) {
      await ledger
        .stmt('UPDATE transactions SET import_batch_seq = NULL, fingerprint = NULL, date = ?, external_id = ? WHERE seq = ?')
        .run(m.previous_date, m.previous_external_id, m.transaction_seq);
    }
    await ledger.stmt('DELETE FROM import_merges WHERE batch_seq = ?').run(batch.seq);
    await ledger.stmt('UPDATE import_batches SET undone_at = ? WHERE seq = ?').run(reviewedAt, batch.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'statement.import_undone',
      targetType: 'import_batch',
      targetId: batch.id,
      summary:
        `Undid import "${excerpt(batch.file_name, 60)}" of ${batch.created_at.slice(0, 10)}: ${removed} row(s) removed` +
        `${merges.length ? `, ${merges.length} row(s) entered by hand unlinked from it` : ''}${rejected ? `, ${rejected} pending proposal(s) on its rows rejected` : ''}` +
        `${changed ? `, ${changed} transfer(s) it had matched back as they were` : ''}${payments ? `, ${payments} payment(s) it had matched undone (their documents open again)` : ''}`,
    });
    return toBatch(ledger, await requireBatch(ledger, orgSeq, batch.id));
  });
}

/** The batch's rows that are still only its own work (import_batch_seq: the row's batch, in the query around it). */
const OWN_ROWS = `SELECT c.transaction_seq FROM import_line_changes c WHERE c.batch_seq = import_batch_seq AND c.previous_lines = '[]'
  AND NOT EXISTS (SELECT 1 FROM lines l WHERE l.transaction_seq = c.transaction_seq AND l.kind IN ('category', 'tax') AND l.amount_minor <> 0)`;

/** Refuses the undo, counting what stands in the way, when a person's (or an approved agent's) work rests on the rows. */
async function refuseIfWorkRests(ledger: Ledger, batch: BatchRow): Promise<void> {
  const count = async (sql: string) => ((await ledger.stmt(sql).get(batch.seq)) as { n: number }).n;
  const blockers = {
    reconciled: await count(`SELECT count(*) AS n ${ROWS} AND reconciled = 1`),
    // Rows the import itself made transfers or payments are its own work, not a person's, while no category
    // line says a person has categorized them since (an exchange gain's line has no amount of its own).
    categorized: await count(`SELECT count(*) AS n ${ROWS} AND reconciled = 0 AND (status <> 'uncategorized' OR receipt_needed = 1) AND seq NOT IN (${OWN_ROWS})`),
    withNotes: await count(`SELECT count(DISTINCT n.transaction_seq) AS n FROM notes n WHERE n.transaction_seq IN (SELECT seq ${ROWS})`),
    withReceipts: await count(`SELECT count(DISTINCT r.transaction_seq) AS n FROM receipts r WHERE r.transaction_seq IN (SELECT seq ${ROWS})`),
  };
  if (Object.values(blockers).every((n) => n === 0)) return;
  const said = [
    blockers.reconciled && `${blockers.reconciled} reconciled`,
    blockers.categorized && `${blockers.categorized} categorized or reviewed`,
    blockers.withNotes && `${blockers.withNotes} with notes`,
    blockers.withReceipts && `${blockers.withReceipts} with receipts linked`,
  ].filter(Boolean);
  throw new LedgerError('conflict', `This import cannot be undone: of its rows, ${said.join(', ')}. Undo that work first (or keep the import and delete single rows by hand).`, {
    id: batch.id,
    ...blockers,
  });
}

/** The rows of the books the import's lines were matched with as transfers get their lines back (before its rows go); answers how many. */
async function restoreLines(ledger: Ledger, batchSeq: number): Promise<number> {
  const changed = await ledger.rows<{ transaction_seq: number; previous_lines: string }>(
    "SELECT transaction_seq, previous_lines FROM import_line_changes WHERE batch_seq = ? AND previous_lines <> '[]'",
    batchSeq,
  );
  for (const c of changed) {
    const row = (await ledger.stmt(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE seq = ?`).get(c.transaction_seq)) as TransactionRow;
    await replaceLines(ledger, row, JSON.parse(c.previous_lines) as LineInput[], false);
    await ownValue(ledger, row); // no longer carrying a transfer's value (issue 30)
  }
  await ledger.stmt('DELETE FROM import_line_changes WHERE batch_seq = ?').run(batchSeq);
  return changed.length;
}

// The rows an import skipped (bad rows with --skip-bad-rows, rows in the
// closed period with --skip-locked), kept with its batch in the import's own
// transaction: by line, field and reason, with the row's text as the file has
// it, so that they stay listed in the history and can be written out to fix
// (statements/skipped-csv.ts). Batches made before issue 42 kept only a count.
import type { SkippedRow, SkippedRows } from '../../statements/skipped-csv';
import type { RowIssue } from '../../statements/types';
import type { Ledger } from '../core/sqlite/open';
import { notFound } from '../core/errors';

/** What a batch keeps to write its skipped rows out as the bank wrote them: a CSV's header line and delimiter. */
export interface SkippedHeader {
  text: string;
  delimiter: string;
}

export async function recordSkipped(ledger: Ledger, batchSeq: number, issues: readonly RowIssue[], texts: ReadonlyMap<number, string>): Promise<void> {
  const insert = ledger.stmt('INSERT INTO import_skipped_rows (org_seq, batch_seq, line, field, message, text) SELECT org_seq, seq, ?, ?, ?, ? FROM import_batches WHERE seq = ?');
  for (const i of issues) await insert.run(i.line, i.field, i.message, texts.get(i.line) ?? null, batchSeq);
}

/** The first `limit` skipped rows of a batch, in line order, without their text (the history's list). */
export async function skippedIssues(ledger: Ledger, batchSeq: number, limit: number): Promise<RowIssue[]> {
  return ledger.rows<RowIssue>('SELECT line, field, message FROM import_skipped_rows WHERE batch_seq = ? ORDER BY line, seq LIMIT ?', batchSeq, limit);
}

export interface BatchSkippedRows extends SkippedRows {
  batchId: string;
  /** How many rows the import skipped (a batch made before issue 42 counts rows it did not keep). */
  skipped: number;
}

/** Every skipped row of an import, with its text: what `import skipped` prints or writes and the screen downloads. */
export async function listSkippedRows(ledger: Ledger, orgSeq: number, batchId: string): Promise<BatchSkippedRows> {
  const batch = (await ledger.stmt('SELECT seq, id, file_name, format, skipped, options FROM import_batches WHERE id = ? AND org_seq = ?').get(batchId.toLowerCase(), orgSeq)) as
    { seq: number; id: string; file_name: string; format: string; skipped: number; options: string } | undefined;
  if (!batch) throw notFound('import', batchId);
  const { header } = JSON.parse(batch.options) as { header?: SkippedHeader };
  return {
    batchId: batch.id,
    fileName: batch.file_name,
    format: batch.format,
    skipped: batch.skipped,
    header: header ?? null,
    rows: await ledger.rows<SkippedRow>('SELECT line, field, message, text FROM import_skipped_rows WHERE batch_seq = ? ORDER BY line, seq', batch.seq),
  };
}

// A planned import written in the caller's transaction: the accounts it makes,
// its batch, every new row through the one insert path (a big batch with the
// row triggers lifted and the totals kept set-wise: totals/bulk.ts), the rows
// entered by hand that statement lines merge into, each section's statement
// and saved CSV mapping, and one audit entry with its counts.
import { maskOf, insertAccount, type AccountRow } from '../accounts/accounts';
import { appendAudit, type Actor } from '../access/audit';
import { newId, newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/db';
import { LedgerError } from '../core/errors';
import { excerpt } from '../core/text';
import { BULK_ROWS, insertInBulk, type BulkRow } from '../totals/bulk';
import { insertTransaction } from '../transactions/transactions';
import { saveMappingFor } from './mappings';
import type { ImportPlan } from './plan';
import { newAccountInput } from './sections';

/** Writes a plan; answers the batch's id and seq and the accounts the rows went to (by section). */
export function applyImport(ledger: Ledger, orgSeq: number, actor: Actor, plan: ImportPlan): { batchId: string; batchSeq: number; accounts: AccountRow[] } {
  const { rows, sections, bySection } = plan;
  const accounts = sections.map(
    (s, i) =>
      s.row ??
      insertAccount(
        ledger,
        orgSeq,
        actor,
        newAccountInput(
          s,
          bySection[i].reduce((sum, at) => sum + rows.amountMinor[at], 0),
        ),
      ),
  );
  const closed = accounts.find((a) => a.closed_at);
  if (closed) throw new LedgerError('conflict', `Account "${closed.name}" is closed (read-only); reopen it to import into it.`, { account: closed.id });
  const batchId = newId();
  const createdAt = nowIso();
  const { counts, input } = plan;
  const { lastInsertRowid } = ledger
    .stmt(
      `INSERT INTO import_batches (id, org_seq, format, file_name, file_sha256, created_at, rows, imported, duplicates, merged, skipped, options)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      batchId,
      orgSeq,
      input.statement.format,
      input.fileName,
      input.fileSha256,
      createdAt,
      plan.rowCount,
      counts.imported,
      counts.duplicates,
      counts.merged,
      counts.skipped,
      JSON.stringify(input.readOptions),
    );
  const batchSeq = Number(lastInsertRowid);
  insertRows(ledger, orgSeq, plan, accounts, batchSeq, createdAt);
  mergeRows(ledger, plan, batchSeq);
  recordStatements(ledger, orgSeq, plan, accounts, batchSeq);
  appendAudit(ledger, orgSeq, actor, {
    action: 'statement.imported',
    targetType: 'import_batch',
    targetId: batchId,
    summary:
      `Imported "${excerpt(input.fileName, 60)}" (${input.statement.format}) into ${accounts.map((a) => `"${a.name}"`).join(', ')}: ${plan.rowCount} row(s), ${counts.imported} new, ${counts.duplicates} duplicate(s)` +
      `${counts.merged ? `, ${counts.merged} matched to rows entered by hand` : ''}${counts.held ? `, ${counts.held} possible match(es) held back` : ''}${counts.skipped ? `, ${counts.skipped} bad row(s) skipped` : ''}`,
  });
  return { batchId, batchSeq, accounts };
}

function insertRows(ledger: Ledger, orgSeq: number, plan: ImportPlan, accounts: AccountRow[], batchSeq: number, createdAt: string): void {
  const { rows: L, toImport } = plan;
  const { rows } = L;
  const insert = (track: (row: BulkRow) => void) => {
    for (const i of toImport) {
      const { seq: accountSeq, currency } = accounts[rows.section[i]];
      const date = rows.date[i];
      const amountMinor = L.amountMinor[i];
      const description = rows.description[i];
      // Time-ordered ids: a million new rows append to the id index instead of landing all over it.
      insertTransaction(ledger, orgSeq, {
        id: newTimeOrderedId(),
        accountSeq,
        origin: 'import',
        date,
        amountMinor,
        currency,
        description,
        category: null,
        source: 'manual_csv',
        externalId: rows.externalId[i],
        createdAt,
        importBatchSeq: batchSeq,
        fingerprint: L.fingerprint[i],
      });
      track({ orgSeq, accountSeq, date, status: 'uncategorized', reconciled: 0, source: 'manual_csv', currency, amountMinor, description, category: null });
    }
  };
  if (toImport.length >= BULK_ROWS) insertInBulk(ledger, insert);
  else insert(() => {}); // the row triggers keep the totals
}

/** A statement line and a row entered by hand are one transaction: the row stays the person's (description, category, notes) and takes the bank's date and id. */
function mergeRows(ledger: Ledger, plan: ImportPlan, batchSeq: number): void {
  const { rows: L } = plan;
  for (const { i, c } of plan.toMerge) {
    const seq = c.match!.seq;
    const previous = ledger.stmt('SELECT date, external_id FROM transactions WHERE seq = ?').get(seq) as { date: string; external_id: string | null };
    ledger
      .stmt('INSERT INTO import_merges (batch_seq, transaction_seq, previous_date, previous_external_id) VALUES (?, ?, ?, ?)')
      .run(batchSeq, seq, previous.date, previous.external_id);
    ledger
      .stmt('UPDATE transactions SET import_batch_seq = ?, fingerprint = ?, date = ?, external_id = coalesce(?, external_id) WHERE seq = ?')
      .run(batchSeq, L.fingerprint[i], L.rows.date[i], L.rows.externalId[i], seq);
  }
}

/** Each section's statement (its stated balances, for reconciliation), the bank id an account takes, the account's CSV mapping. */
function recordStatements(ledger: Ledger, orgSeq: number, plan: ImportPlan, accounts: AccountRow[], batchSeq: number): void {
  const { input, sections, rows: L } = plan;
  accounts.forEach((a, i) => {
    const p = sections[i];
    const s = input.statement.sections[i];
    const imported = plan.toImport.filter((at) => L.rows.section[at] === i).length;
    if (p.adoptBankId)
      ledger.stmt('UPDATE accounts SET bank_account_id = ?, masked_number = coalesce(masked_number, ?) WHERE seq = ?').run(p.adoptBankId, maskOf(p.adoptBankId), a.seq);
    ledger
      .stmt(
        `INSERT INTO statements (batch_seq, account_seq, period_from, period_to, opening_date, opening_minor, closing_date, closing_minor, rows, imported)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(batchSeq, a.seq, s.from, s.to, p.opening?.date ?? null, p.opening?.minor ?? null, p.closing?.date ?? null, p.closing?.minor ?? null, L.rows.count(i), imported);
    if (input.statement.csv) saveMappingFor(ledger, orgSeq, a, input.statement.csv, input.readOptions.mapping?.negate === true);
  });
}

// A planned import written in the caller's transaction: the accounts it makes,
// its batch, every new row through the one insert path (a big batch with the
// row triggers lifted and the totals kept set-wise: totals/bulk.ts), the rows
// entered by hand that statement lines merge into, the rows it skipped (with
// their text, to fix), each section's statement and saved CSV mapping, and
// one audit entry with its counts.
import { maskOf, insertAccount, type AccountRow } from '../accounts/accounts';
import { appendAudit, type Actor } from '../access/audit';
import { newId, newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { excerpt } from '../core/text';
import { BULK_ROWS, insertInBulk, type Track } from '../totals/bulk';
import { openEntryWriter } from '../transactions/entries';
import { Valuer } from '../rates/valuer';
import { carryTransferValue } from '../transfers/value';
import { shownSide } from '../transfers/candidates';
import { handRow } from '../transactions/hand';
import { asInput, linesOf, replaceLines } from '../transactions/lines';
import { transferLine } from '../transfers/transfers';
import { saveMappingFor } from './mappings';
import { importedIn, type ImportPlan } from './plan';
import { newAccountInput } from './sections';
import { recordSkipped, type SkippedHeader } from './skipped';
import { mapInOrder } from '../core/in-order';

/** Writes a plan; answers the batch's id and seq and the accounts the rows went to (by section). */
export async function applyImport(ledger: Ledger, orgSeq: number, actor: Actor, plan: ImportPlan): Promise<{ batchId: string; batchSeq: number; accounts: AccountRow[] }> {
  const { rows, sections, bySection } = plan;
  const accounts = await mapInOrder(
    sections,
    async (s, i) =>
      s.row ??
      (await insertAccount(
        ledger,
        orgSeq,
        actor,
        newAccountInput(
          s,
          bySection[i].reduce((sum, at) => sum + rows.amountMinor[at], 0),
        ),
      )),
  );
  const closed = accounts.find((a) => a.closed_at);
  if (closed) throw new LedgerError('conflict', `Account "${closed.name}" is closed (read-only); reopen it to import into it.`, { account: closed.id });
  const batchId = newId();
  const createdAt = nowIso();
  const { counts, input } = plan;
  const texts = skippedTexts(plan);
  const lastInsertRowid = await ledger
    .stmt(
      `INSERT INTO import_batches (id, org_seq, format, file_name, file_sha256, created_at, rows, imported, duplicates, merged, skipped, options)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .insert(
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
      JSON.stringify(batchOptions(plan, texts)),
    );
  const batchSeq = Number(lastInsertRowid);
  await recordSkipped(ledger, batchSeq, plan.issues, texts);
  const paired = await insertRows(ledger, orgSeq, plan, accounts, batchSeq, createdAt);
  await matchTransfers(ledger, orgSeq, plan, accounts, paired, batchSeq);
  await mergeRows(ledger, plan, batchSeq);
  await recordStatements(ledger, orgSeq, plan, accounts, batchSeq);
  await appendAudit(ledger, orgSeq, actor, {
    action: 'statement.imported',
    targetType: 'import_batch',
    targetId: batchId,
    summary:
      `Imported "${excerpt(input.fileName, 60)}" (${input.statement.format}) into ${accounts.map((a) => `"${a.name}"`).join(', ')}: ${plan.rowCount} row(s), ${counts.imported} new, ${counts.duplicates} duplicate(s)` +
      `${counts.merged ? `, ${counts.merged} matched to rows entered by hand` : ''}${counts.held ? `, ${counts.held} possible match(es) held back` : ''}${counts.skipped ? `, ${counts.skipped} bad row(s) skipped` : ''}` +
      `${paired.size ? `, ${paired.size} transfer(s) matched with their other side` : ''}`,
  });
  return { batchId, batchSeq, accounts };
}

/** The text of the skipped rows as the file has them, and of a CSV's header (read back only when rows are skipped). */
function skippedTexts(plan: ImportPlan): ReadonlyMap<number, string> {
  if (!plan.issues.length || !plan.input.readBack) return new Map();
  const header = plan.input.statement.csv?.headerLine;
  return plan.input.readBack([...plan.issues.map((i) => i.line), ...(header ? [header] : [])]);
}

/**
 * What the batch keeps of how its file was read: the options given, the date
 * format its dates were read with (its account's date order, for the next
 * file that leaves the order open: mappings.ts), and a CSV's header line
 * when rows were skipped (their CSV to fix is written under it).
 */
function batchOptions(plan: ImportPlan, texts: ReadonlyMap<number, string>): Record<string, unknown> {
  const { statement, readOptions } = plan.input;
  const headerLine = statement.csv?.headerLine;
  const headerText = headerLine ? texts.get(headerLine) : undefined;
  const header: SkippedHeader | undefined = headerText === undefined ? undefined : { text: headerText, delimiter: statement.csv!.delimiter };
  return { ...readOptions, datesAs: statement.dates?.format ?? undefined, header };
}

/**
 * The rows to import oldest first (a file's own order among equal dates): the
 * date indexes then grow at their ends instead of splitting pages all over,
 * which halves the time of a file whose rows are in no order. A file newest
 * first is turned around; one in order is kept as it is.
 */
export function inDateOrder(at: Int32Array, dates: readonly string[]): Int32Array {
  let up = true;
  let down = true;
  for (let k = 1; k < at.length && (up || down); k++) {
    const c = dates[at[k - 1]] < dates[at[k]] ? 1 : dates[at[k - 1]] > dates[at[k]] ? -1 : 0;
    if (c < 0) up = false;
    if (c > 0) down = false;
  }
  if (up) return at;
  if (down) return groupsReversed(at, dates);
  return byDay(at, dates);
}

/** Newest-first rows oldest first, each day's rows kept in the file's order. */
function groupsReversed(at: Int32Array, dates: readonly string[]): Int32Array {
  const out = new Int32Array(at.length);
  let n = 0;
  for (let end = at.length; end > 0;) {
    let start = end - 1;
    while (start > 0 && dates[at[start - 1]] === dates[at[end - 1]]) start--;
    for (let k = start; k < end; k++) out[n++] = at[k];
    end = start;
  }
  return out;
}

/**
 * Rows in no order, sorted by day, each day's in the file's order: a counting
 * sort over the distinct days (a few thousand, however many rows), 0.05-0.1 s
 * for a million rows where a sort comparing their dates took 0.25 s.
 */
function byDay(at: Int32Array, dates: readonly string[]): Int32Array {
  const bucket = new Map<string, number>();
  for (const i of at) bucket.set(dates[i], 0);
  const days = [...bucket.keys()].sort();
  days.forEach((day, b) => bucket.set(day, b));
  const next = new Int32Array(days.length + 1);
  for (const i of at) next[bucket.get(dates[i])! + 1]++;
  for (let b = 1; b < next.length; b++) next[b] += next[b - 1];
  const out = new Int32Array(at.length);
  for (const i of at) out[next[bucket.get(dates[i])!]++] = i;
  return out;
}

/** Writes the new rows; answers the seq of each one matched as a transfer, by its position in the file. */
async function insertRows(ledger: Ledger, orgSeq: number, plan: ImportPlan, accounts: AccountRow[], batchSeq: number, createdAt: string): Promise<Map<number, number>> {
  const { rows: L, toImport, transfers } = plan;
  const { rows } = L;
  const paired = new Map<number, number>();
  // A statement in another currency is valued row by row at its dates' rates (a missing one refuses the import, naming it).
  const valuer = new Valuer(ledger, orgSeq);
  const insert = async (track?: Track) => {
    const writer = await openEntryWriter(ledger, orgSeq, track);
    for (const i of inDateOrder(toImport, rows.date)) {
      const { seq: accountSeq, currency } = accounts[rows.section[i]];
      const transfer = transfers.get(i);
      const matched = transfer?.kind === 'matched' ? transfer.with : null;
      // Time-ordered ids: a million new rows append to the id index instead of landing all over it.
      const seq = await writer.add({
        id: newTimeOrderedId(),
        accountSeq,
        origin: 'import',
        date: rows.date[i],
        amountMinor: L.amountMinor[i],
        baseMinor: await valuer.value(L.amountMinor[i], currency, rows.date[i]),
        currency,
        description: L.description(i),
        categorySeq: null,
        lines: matched ? [transferLine(matched.account_seq, L.amountMinor[i], matched.seq)] : undefined,
        source: plan.input.source ?? 'manual_csv',
        externalId: rows.idAt(i),
        createdAt,
        importBatchSeq: batchSeq,
        fingerprint: L.fingerprint[i],
      });
      if (matched) paired.set(i, seq);
    }
    await writer.finish();
  };
  if (toImport.length >= BULK_ROWS) await insertInBulk(ledger, insert);
  else await insert(); // the row triggers keep the totals
  return paired;
}

/** The rows of the books the new rows were matched with become their other sides; what they were is kept for undo. */
async function matchTransfers(ledger: Ledger, orgSeq: number, plan: ImportPlan, accounts: AccountRow[], paired: Map<number, number>, batchSeq: number): Promise<void> {
  const keep = ledger.stmt('INSERT INTO import_line_changes (org_seq, batch_seq, transaction_seq, previous_lines) VALUES (?, ?, ?, ?)');
  for (const [i, seq] of paired) {
    const row = await handRow(ledger, orgSeq, (await shownSide(ledger, plan.transfers.get(i)!.with)).id);
    await keep.run(orgSeq, batchSeq, seq, '[]');
    await keep.run(orgSeq, batchSeq, row.seq, JSON.stringify((await linesOf(ledger, row.seq)).map(asInput)));
    await replaceLines(ledger, row, [transferLine(accounts[plan.rows.rows.section[i]].seq, row.amount_minor, seq)]);
    await carryTransferValue(ledger, row, await handRow(ledger, orgSeq, (await ledger.stmt('SELECT id FROM transactions WHERE seq = ?').pluck().get(seq)) as string));
  }
}

/** A statement line and a row entered by hand are one transaction: the row stays the person's (description, category, notes) and takes the bank's date and id. */
async function mergeRows(ledger: Ledger, plan: ImportPlan, batchSeq: number): Promise<void> {
  const { rows: L } = plan;
  for (const { i, c } of plan.toMerge) {
    const seq = c.match!.seq;
    const previous = (await ledger.stmt('SELECT date, external_id FROM transactions WHERE seq = ?').get(seq)) as { date: string; external_id: string | null };
    await ledger
      .stmt('INSERT INTO import_merges (org_seq, batch_seq, transaction_seq, previous_date, previous_external_id) SELECT org_seq, ?, seq, ?, ? FROM transactions WHERE seq = ?')
      .run(batchSeq, previous.date, previous.external_id, seq);
    await ledger
      .stmt('UPDATE transactions SET import_batch_seq = ?, fingerprint = ?, date = ?, external_id = coalesce(?, external_id) WHERE seq = ?')
      .run(batchSeq, L.fingerprint[i], L.rows.date[i], L.rows.idAt(i), seq);
  }
}

/** Each section's statement (its stated balances, for reconciliation), the bank id an account takes, the account's CSV mapping. */
async function recordStatements(ledger: Ledger, orgSeq: number, plan: ImportPlan, accounts: AccountRow[], batchSeq: number): Promise<void> {
  const { input, sections, rows: L } = plan;
  for (const [i, a] of accounts.entries()) {
    const p = sections[i];
    const s = input.statement.sections[i];
    const imported = importedIn(plan, i);
    if (p.adoptBankId)
      await ledger.stmt('UPDATE accounts SET bank_account_id = ?, masked_number = coalesce(masked_number, ?) WHERE seq = ?').run(p.adoptBankId, maskOf(p.adoptBankId), a.seq);
    await ledger
      .stmt(
        `INSERT INTO statements (org_seq, batch_seq, account_seq, period_from, period_to, opening_date, opening_minor, closing_date, closing_minor, rows, imported)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(orgSeq, batchSeq, a.seq, s.from, s.to, p.opening?.date ?? null, p.opening?.minor ?? null, p.closing?.date ?? null, p.closing?.minor ?? null, L.rows.count(i), imported);
    if (input.statement.csv) await saveMappingFor(ledger, orgSeq, a, input.statement.csv, input.readOptions.mapping?.negate === true);
  }
}

// What `ledgerdesk import` and its subcommands print: the counts, what was
// matched or held back, the rows that stop the import or were skipped (and
// how to write them out to fix), and a warning when the rows are already in
// another account. `--json` prints the results as they are instead.
import type * as L from '../../ledger';
import { skippedFileName } from '../../statements/skipped-csv';
import { pageLine } from '../operation';

const money = (n: number) => n.toFixed(2);

function transferLines(r: L.ImportResult): string[] {
  const possible = r.preview.filter((p) => p.transfer?.kind === 'possible');
  const lines = [`Transfers: ${r.transfers.matched} matched with their other side, ${r.transfers.possible} possible.`];
  for (const p of possible)
    lines.push(
      `  line ${p.line}  ${p.date}  ${money(p.amount)}  ${p.description}  ~ ${p.transfer!.with.date} ${money(p.transfer!.with.amount)} in "${p.transfer!.with.account}" (--decisions '{"${p.n}":"transfer"}')`,
    );
  if (possible.length) lines.push('  Or after the import: ledgerdesk transfer suggest, then transfer match.');
  return lines;
}

const issueLine = (e: { line: number; field: string; message: string }) => `  line ${e.line}  ${e.field}: ${e.message}`;

/** The skipped rows, and how to have them as a file to fix. */
function skippedLines(r: L.ImportResult): string[] {
  if (!r.skippedRows.length) return [];
  const more = r.skipped > r.skippedRows.length ? [`  ... and ${r.skipped - r.skippedRows.length} more`] : [];
  const out = r.batchId
    ? [`Write them out to fix and import again: ledgerdesk import skipped ${r.batchId} --out ${skippedFileName(r.fileName)}`]
    : ['Imported, they are kept with the import (ledgerdesk import skipped <batchId>).'];
  return [`Skipped rows (${r.skipped}):`, ...r.skippedRows.map(issueLine), ...more, ...out];
}

export function printImport(r: L.ImportResult): string[] {
  const into = r.accounts.map((a) => `"${a.name}"${a.created ? ' (new account)' : ''}`).join(', ') || '(no account)';
  if (r.nothingNew && !r.dryRun && !r.errors.length) {
    const held = r.held ? `; ${r.held} possible match(es) held back (below)` : '';
    return [
      `Nothing new in ${r.fileName}: its ${r.rows} row(s) are already in ${into} (${r.duplicates} duplicate(s))${held}. Nothing was recorded.`,
      ...printImport({ ...r, nothingNew: false }).slice(1),
    ];
  }
  const lines = [
    `${r.dryRun ? 'Dry run, nothing written: ' : r.batchId ? 'Imported ' : 'Nothing imported: '}${r.fileName} (${r.format}) into ${into}: ${r.rows} row(s), ${r.imported} new, ${r.duplicates} duplicate(s), ${r.possibleMatches} possible match(es), ${r.merged} merged, ${r.skipped} bad row(s) skipped.`,
  ];
  for (const w of r.warnings) lines.push(`Warning: ${w.message}`);
  if (r.dates?.from) lines.push(`Dates read as ${r.dates.format}, the order of "${r.dates.from}"'s earlier statements (every date of the file reads both ways).`);
  if (r.batchId) lines.push(`Batch ${r.batchId} (undo with: ledgerdesk import undo ${r.batchId})`);
  if (r.transfers.matched + r.transfers.possible > 0) lines.push(...transferLines(r));
  if (r.payments.matched + r.payments.possible > 0) {
    lines.push(
      `Payments: ${r.payments.matched} row(s) paid the invoice or bill they name (undo: ledgerdesk payment undo <id>), ${r.payments.possible} possible (ledgerdesk payment suggest).`,
    );
  }
  if (r.rules && r.rules.suggested + r.rules.applied > 0) lines.push(`Your rules: ${r.rules.applied} row(s) categorized, ${r.rules.suggested} suggestion(s) waiting in Approvals.`);
  const held = r.preview.filter((p) => p.decision === 'held');
  if (held.length) {
    lines.push(`${r.held} possible match(es) held back; run again with --possible-matches merge (the same transaction) or import (a different one):`);
    for (const p of held)
      lines.push(`  line ${p.line}  ${p.date}  ${money(p.amount)}  ${p.description}  ~ ${p.match!.date} ${money(p.match!.amount)} "${p.match!.description}" (${p.match!.reason})`);
  }
  if (r.errors.length) {
    const file = r.errors.some((e) => e.file);
    lines.push(
      file
        ? 'Nothing was imported: say how to read the file (--date-format, --columns):'
        : 'Bad rows (nothing was imported; correct the file, give the format, or pass --skip-bad-rows):',
    );
    lines.push(...r.errors.map(issueLine));
  }
  return [...lines, ...skippedLines(r)];
}

/** Shown per import in `import list`: this many of its skipped rows, then where the rest are. */
const LISTED = 3;

export function printImportList({ batches, totalCount, offset }: { batches: L.ImportBatch[]; totalCount: number; offset: number }): string[] {
  const lines: string[] = [];
  for (const b of batches) {
    lines.push(
      `${b.id}  ${b.createdAt.slice(0, 16).replace('T', ' ')}  ${b.format.padEnd(7)} ${b.fileName}  -> ${b.accounts.map((a) => a.name).join(', ')}  ${b.imported} new, ${b.duplicates} dup${b.skipped ? `, ${b.skipped} skipped` : ''}${b.undoneAt ? `  UNDONE ${b.undoneAt.slice(0, 10)}` : ''}`,
    );
    lines.push(...b.skippedRows.slice(0, LISTED).map(issueLine));
    if (b.skipped > LISTED) lines.push(`  ... all ${b.skipped}: ledgerdesk import skipped ${b.id}`);
  }
  return [...lines, pageLine({ offset, shown: batches.length, total: totalCount }, 'import')];
}

export function printSkipped(r: L.BatchSkippedRows & { file: string | null }): string[] {
  if (r.file) return [`Wrote ${r.rows.length} skipped row(s) of ${r.fileName} to ${r.file}: fix them there and import the file again.`];
  if (!r.skipped) return [`The import of ${r.fileName} skipped no rows.`];
  const lost = r.skipped > r.rows.length ? [`(${r.skipped - r.rows.length} more were skipped by an earlier version, which kept only their count.)`] : [];
  return [
    `${r.skipped} row(s) of ${r.fileName} were skipped:`,
    ...r.rows.flatMap((row) => [issueLine(row), ...(row.text ? row.text.split('\n').map((t) => `      ${t}`) : [])]),
    ...lost,
    `Write them out to fix: ledgerdesk import skipped ${r.batchId} --out ${skippedFileName(r.fileName)}`,
  ];
}

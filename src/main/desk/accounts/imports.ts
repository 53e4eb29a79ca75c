// Statement import as the person does it: pick a file (an upload in the app, a
// path from `ledgerdesk import`), preview with a dry run, confirm. One
// operation serves both: the screen calls it with dryRun first.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { Line } from '../../api/schemas';
import * as L from '../../ledger';
import { checkColumns, parseColumnsFlag } from '../../statements/csv-mapping';
import { readStatement, StatementError, STATEMENT_FORMATS, type CsvMapping, type ParsedStatement, type StatementSource } from '../../statements';
import { cleanFileName } from '../../receipts/intake';
import { negateDecimal } from '../../../shared/amounts';
import { openFile, stageUpload } from '../files';
import { op, Org, orgSeq, Page, type DeskContext } from '../operation';

const ColumnsObject = z.strictObject({
  date: z.string().min(1),
  amount: z.string().min(1).optional(),
  debit: z.string().min(1).optional(),
  credit: z.string().min(1).optional(),
  direction: z.string().min(1).optional(),
  description: z.array(z.string().min(1)).max(5).default([]),
  id: z.string().min(1).optional(),
});

const Decision = z.enum(['merge', 'import', 'transfer']);

export const ImportInput = z.strictObject({
  ...Org,
  file: z.string().min(1).max(4096).describe("The statement: a path (owner command) or an uploaded file's id (app)"),
  account: Line(200).trim().min(1).optional().describe('Its account, by name or id (a one-account file); otherwise found from the file or created'),
  accounts: z.record(z.string().regex(/^\d+$/), Line(200).min(1)).optional().describe('For a file of several accounts: the account of each section, by section number'),
  format: z
    .enum(['auto', ...STATEMENT_FORMATS])
    .default('auto')
    .describe('auto (told from the file), csv, ofx, qfx, qif, camt053 or mt940'),
  dateFormat: z.string().min(4).max(40).optional().describe('Date format with YYYY, YY, MM, M, DD, D, e.g. DD/MM/YYYY (asked when the file fits two)'),
  columns: z
    .union([z.string().min(1).max(2000), ColumnsObject])
    .optional()
    .describe('CSV columns: date=<header>,amount=<header> or debit=<header>,credit=<header>, description=<header>[+<header>], id=<header> (headers or 1-based numbers)'),
  decimal: z.enum(['.', ',']).optional().describe('CSV decimal mark, when the file does not make it clear'),
  negateAmounts: z.boolean().optional().describe('CSV shows spending as positive amounts (many card exports)'),
  encoding: z.string().min(1).max(40).optional().describe('Text encoding (utf-8, windows-1252, iso-8859-1...); detected when absent'),
  mapping: z.string().min(1).max(200).optional().describe('A saved CSV mapping to read the file with, by name'),
  dryRun: z.boolean().default(false).describe('Read and count, write nothing'),
  skipBadRows: z.boolean().default(false).describe('Import the good rows and list the bad ones (otherwise a bad row stops the import)'),
  skipLocked: z.boolean().default(false).describe('Leave out rows dated in the closed period (otherwise they stop the import)'),
  possibleMatches: z.enum(['ask', 'merge', 'import']).default('ask').describe('Rows that may be ones entered by hand: hold them back (ask), merge them, or import them'),
  decisions: z
    .record(z.string().regex(/^\d+$/), Decision)
    .optional()
    .describe('Per row, by row number: a possible match merged or imported, a possible transfer matched (transfer)'),
});

type Input = z.output<typeof ImportInput>;

async function sha256Of(source: StatementSource): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of source.open()) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * How to read a CSV with this header: what the person gives, over a saved
 * mapping that fits: the one named, else the named account's when it was
 * made for this header, else any account's made for this header.
 */
function mappingFor(ctx: DeskContext, seq: number, input: Input): (headers: string[]) => CsvMapping | undefined {
  const account = input.account ? L.requireAccount(ctx.ledger, seq, input.account) : null;
  const named = input.mapping ? L.requireMapping(ctx.ledger, seq, input.mapping).mapping : null;
  const columns = input.columns === undefined ? undefined : typeof input.columns === 'string' ? parseColumnsFlag(input.columns) : checkColumns(input.columns);
  return (headers) => {
    const owner = account ?? L.accountForHeaders(ctx.ledger, seq, headers);
    const saved = named ?? (owner ? L.mappingOfAccount(ctx.ledger, owner.seq, headers) : null);
    const mapping: CsvMapping = {
      columns: columns ?? saved?.columns,
      dateFormat: input.dateFormat ?? saved?.dateFormat,
      decimal: input.decimal ?? saved?.decimal,
      negate: input.negateAmounts ?? saved?.negate,
    };
    return Object.values(mapping).some((v) => v !== undefined) ? mapping : undefined;
  };
}

/**
 * A card's CSV that shows spending as positive amounts (most of them are:
 * purchases outnumber payments) is read as spending, unless the person or a
 * saved mapping said how; the amounts are turned in place, and the choice is
 * saved with the account's mapping and shown in the preview.
 */
function cardSpendingPositive(ctx: DeskContext, seq: number, input: Input, statement: ParsedStatement): boolean {
  const account = input.account ? L.requireAccount(ctx.ledger, seq, input.account) : L.accountForHeaders(ctx.ledger, seq, statement.csv!.headers);
  if (account?.type !== 'credit_card') return false;
  const { amount } = statement.rows;
  const positive = amount.filter((a) => !a.startsWith('-') && a !== '0').length;
  if (positive * 2 <= amount.length) return false;
  for (let i = 0; i < amount.length; i++) amount[i] = negateDecimal(amount[i]);
  statement.csv!.negated = true;
  return true;
}

export async function runImport(ctx: DeskContext, input: Input): Promise<L.ImportResult> {
  const seq = orgSeq(ctx, input.orgId);
  const source = openFile(ctx, input.file);
  const report = (rows: number) => ctx.progress?.set(input.file, { phase: 'reading', rows });
  try {
    let mapping: CsvMapping | undefined;
    const chooser = mappingFor(ctx, seq, input);
    const statement: ParsedStatement = await readStatement(source, {
      format: input.format,
      encoding: input.encoding,
      mapping: (headers) => (mapping = chooser(headers)),
      onProgress: report,
    });
    if (statement.csv && mapping?.negate === undefined && cardSpendingPositive(ctx, seq, input, statement)) mapping = { ...mapping, negate: true };
    ctx.progress?.set(input.file, { phase: input.dryRun ? 'checking' : 'writing', rows: statement.rows.length });
    return L.importStatement(ctx.ledger, seq, ctx.reviewer, {
      statement,
      fileName: source.name,
      fileSha256: await sha256Of(source),
      readOptions: { format: statement.format, encoding: input.encoding, dateFormat: input.dateFormat, mapping },
      account: input.account,
      accounts: input.accounts,
      skipBadRows: input.skipBadRows,
      readOnce: true,
      skipLocked: input.skipLocked,
      possibleMatches: input.possibleMatches,
      decisions: input.decisions,
      dryRun: input.dryRun,
    });
  } catch (error) {
    if (error instanceof StatementError) throw L.invalid([{ field: error.field, message: error.message }], error.message);
    throw error;
  } finally {
    ctx.progress?.delete(input.file);
  }
}

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
    lines.push('Bad rows (nothing was imported; correct the file, give the format, or pass --skip-bad-rows):');
    for (const e of r.errors) lines.push(`  line ${e.line}  ${e.field}: ${e.message}`);
  }
  if (r.skippedRows.length) {
    lines.push('Skipped bad rows:');
    for (const e of r.skippedRows) lines.push(`  line ${e.line}  ${e.field}: ${e.message}`);
  }
  return lines;
}

export const importOperations = {
  importStatement: op(ImportInput, runImport, {
    name: 'import',
    summary: 'import a bank statement (CSV, OFX, QFX, QIF, CAMT.053, MT940) into an account',
    args: ['file'],
    print: printImport,
    failed: (r) => r.errors.length > 0,
  }),

  importProgress: op(z.strictObject({ file: z.string().min(1).max(100) }), (ctx, { file }) => ctx.progress?.get(file) ?? null),

  listImports: op(
    z.strictObject({ ...Org, account: Line(200).min(1).optional(), ...Page(200) }),
    (ctx, { orgId, account, ...page }) => {
      const seq = orgSeq(ctx, orgId);
      return L.listImports(ctx.ledger, seq, { ...page, accountSeq: account ? L.requireAccount(ctx.ledger, seq, account).seq : undefined });
    },
    {
      name: 'import list',
      summary: 'the imports, newest first',
      print: ({ batches, totalCount }) => [
        ...batches.map(
          (b) =>
            `${b.id}  ${b.createdAt.slice(0, 16).replace('T', ' ')}  ${b.format.padEnd(7)} ${b.fileName}  -> ${b.accounts.map((a) => a.name).join(', ')}  ${b.imported} new, ${b.duplicates} dup${b.undoneAt ? `  UNDONE ${b.undoneAt.slice(0, 10)}` : ''}`,
        ),
        `${batches.length} of ${totalCount} import(s)`,
      ],
    },
  ),

  undoImport: op(
    z.strictObject({ ...Org, batchId: z.uuid('must be an import batch id') }),
    (ctx, { orgId, batchId }) => L.undoImport(ctx.ledger, orgSeq(ctx, orgId), ctx.reviewer, batchId),
    {
      name: 'import undo',
      summary: 'remove the rows an import added (refused when work rests on them)',
      args: ['batchId'],
      print: (b) => [`Undid ${b.fileName} (${b.imported} row(s) removed${b.merged ? `, ${b.merged} unlinked` : ''}).`],
    },
  ),

  /** The app's upload: bytes in (IPC), or a stream (browser route, see http.ts). */
  stageStatement: op(
    z.strictObject({
      fileName: z.string().min(1).max(1000),
      bytes: z.union([z.instanceof(Uint8Array), z.instanceof(Readable)], { error: 'must be the file bytes' }),
    }),
    (ctx, { fileName, bytes }) => stageUpload(ctx.dataDir, cleanFileName(fileName), bytes),
  ),
};

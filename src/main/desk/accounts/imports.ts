// Statement import as the person does it: pick a file (an upload in the app, a
// path from `ledgerdesk import`), preview with a dry run, confirm. One
// operation serves both: the screen calls it with dryRun first.
import { KEEPERS, STAFF } from '../roles';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import * as z from 'zod';
import { Line } from '../../api/fields';
import * as L from '../../ledger';
import { checkColumns, parseColumnsFlag } from '../../statements/csv-mapping';
import { readStatement, StatementError, STATEMENT_FORMATS, type CsvMapping, type ParsedStatement, type ReadOptions, type StatementSource } from '../../statements';
import { recordTexts } from '../../statements/records';
import { skippedRowsCsv } from '../../statements/skipped-csv';
import { cleanFileName } from '../../receipts/intake';
import { negateDecimal } from '../../../shared/amounts';
import { fileDone, openFile, stageUpload } from '../files';
import { op, Org, orgSeq, Page, type DeskContext } from '../operation';
import { printImport, printImportList, printSkipped } from './import-print';
import { mapInOrder } from '../../ledger/core/in-order';
import { flatMapInOrder } from '../../ledger/core/in-order';

const ColumnsObject = z.strictObject({
  date: z.string().min(1),
  amount: z.string().min(1).optional(),
  debit: z.string().min(1).optional(),
  credit: z.string().min(1).optional(),
  direction: z.string().min(1).optional(),
  description: z.array(z.string().min(1)).max(5).default([]),
  id: z.string().min(1).optional(),
  balance: z.string().min(1).optional(),
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
    .describe(
      'CSV columns: date=<header>,amount=<header> or debit=<header>,credit=<header>, description=<header>[+<header>], id=<header>, balance=<header> (the running balance: the statement balance to reconcile to) (headers or 1-based numbers)',
    ),
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
 * made for this header, else any account's made for this header (its columns
 * describe the file, so picking another account does not undo them; whether
 * spending shows positive is a card's, taken from the account's own only).
 */
async function mappingFor(ctx: DeskContext, seq: number, input: Input): Promise<(headers: string[]) => Promise<CsvMapping | undefined>> {
  const account = input.account ? await L.requireAccount(ctx.ledger, seq, input.account) : null;
  const named = input.mapping ? (await L.requireMapping(ctx.ledger, seq, input.mapping)).mapping : null;
  const columns = input.columns === undefined ? undefined : typeof input.columns === 'string' ? parseColumnsFlag(input.columns) : checkColumns(input.columns);
  return async (headers) => {
    const own = account ? await L.mappingOfAccount(ctx.ledger, account.seq, headers) : null;
    const owner = own ? null : await L.accountForHeaders(ctx.ledger, seq, headers);
    const theirs = owner ? await L.mappingOfAccount(ctx.ledger, owner.seq, headers) : null;
    const saved = named ?? own ?? theirs;
    const mapping: CsvMapping = {
      columns: columns ?? saved?.columns,
      dateFormat: input.dateFormat ?? saved?.dateFormat,
      decimal: input.decimal ?? saved?.decimal,
      negate: input.negateAmounts ?? (account && !named && !own ? undefined : saved?.negate),
    };
    return Object.values(mapping).some((v) => v !== undefined) ? mapping : undefined;
  };
}

/**
 * The date order of the accounts a QIF is for, to settle a file whose every
 * date reads both ways: each section's account named, else the one of the
 * name the file gives it. Several that disagree settle nothing.
 */
function dateOrderFor(ctx: DeskContext, seq: number, input: Input): ReadOptions['dateOrder'] {
  const byRef = async (ref: string | undefined) => (ref ? await L.requireAccount(ctx.ledger, seq, ref) : null);
  return async ({ names }) => {
    const accounts = await mapInOrder(
      names,
      async (name, i) => (await byRef(input.account ?? input.accounts?.[String(i)])) ?? (name ? await L.accountNamed(ctx.ledger, seq, name) : null),
    );
    const hints = await flatMapInOrder(accounts, async (a) => {
      const order = a && (await L.accountDateOrder(ctx.ledger, a.seq));
      return order ? [{ order, from: a.name }] : [];
    });
    return hints.length && hints.every((h) => h.order === hints[0].order) ? hints[0] : undefined;
  };
}

/**
 * A card's CSV that shows spending as positive amounts (most of them are:
 * purchases outnumber payments) is read as spending, unless the person or a
 * saved mapping said how; the amounts are turned in place, and the choice is
 * saved with the account's mapping and shown in the preview.
 */
async function cardSpendingPositive(ctx: DeskContext, seq: number, input: Input, statement: ParsedStatement): Promise<boolean> {
  const account = input.account ? await L.requireAccount(ctx.ledger, seq, input.account) : await L.accountForHeaders(ctx.ledger, seq, statement.csv!.headers);
  if (account?.type !== 'credit_card') return false;
  const { amount } = statement.rows;
  const positive = amount.filter((a) => !a.startsWith('-') && a !== '0').length;
  if (positive * 2 <= amount.length) return false;
  for (let i = 0; i < amount.length; i++) amount[i] = negateDecimal(amount[i]);
  statement.csv!.negated = true;
  return true;
}

export async function runImport(ctx: DeskContext, input: Input): Promise<L.ImportResult> {
  const seq = await orgSeq(ctx, input.orgId);
  const source = await openFile(ctx, seq, input.file);
  const report = (rows: number) => ctx.progress?.set(input.file, { phase: 'reading', rows });
  try {
    let mapping: CsvMapping | undefined;
    const chooser = await mappingFor(ctx, seq, input);
    const statement: ParsedStatement = await readStatement(source, {
      format: input.format,
      encoding: input.encoding,
      dateFormat: input.dateFormat,
      mapping: async (headers) => (mapping = await chooser(headers)),
      dateOrder: dateOrderFor(ctx, seq, input),
      onProgress: report,
    });
    if (statement.csv && mapping?.negate === undefined && (await cardSpendingPositive(ctx, seq, input, statement))) mapping = { ...mapping, negate: true };
    ctx.progress?.set(input.file, { phase: input.dryRun ? 'checking' : 'writing', rows: statement.rows.length });
    const result = await L.importStatement(ctx.ledger, seq, ctx.reviewer, {
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
      readBack: (lines) => recordTexts(source, statement.encoding, statement.format, lines),
    });
    // Imported: the upload has served (a dry run, or a refusal to fix and try again, keeps it).
    if (!input.dryRun && result.batchId) await fileDone(ctx, seq, input.file);
    return result;
  } catch (error) {
    if (error instanceof StatementError) throw L.invalid([{ field: error.field, message: error.message }], error.message);
    throw error;
  } finally {
    ctx.progress?.delete(input.file);
  }
}

export const importOperations = {
  importStatement: op(KEEPERS, ImportInput, runImport, {
    name: 'import',
    summary: 'import a bank statement (CSV, OFX, QFX, QIF, CAMT.053, MT940) into an account',
    args: ['file'],
    print: printImport,
    failed: (r) => r.errors.length > 0,
  }),

  importProgress: op(STAFF, z.strictObject({ file: z.string().min(1).max(100) }), (ctx, { file }) => ctx.progress?.get(file) ?? null),

  listImports: op(
    STAFF,
    z.strictObject({ ...Org, account: Line(200).min(1).optional(), ...Page(200) }),
    async (ctx, { orgId, account, ...page }) => {
      const seq = await orgSeq(ctx, orgId);
      return {
        ...(await L.listImports(ctx.ledger, seq, { ...page, accountSeq: account ? (await L.requireAccount(ctx.ledger, seq, account)).seq : undefined })),
        offset: page.offset,
      };
    },
    {
      name: 'import list',
      summary: 'the imports, newest first',
      print: printImportList,
    },
  ),

  /** The rows an import skipped, with their text: listed, written out as CSV (--out), or downloaded from the screen. */
  importSkippedRows: op(
    STAFF,
    z.strictObject({
      ...Org,
      batchId: z.uuid('must be an import batch id'),
      out: z.string().min(1).max(4096).optional().describe('Write them to this CSV file, as the bank wrote them plus a reason column, to fix and import again'),
    }),
    async (ctx, { orgId, batchId, out }) => {
      const skipped = await L.listSkippedRows(ctx.ledger, await orgSeq(ctx, orgId), batchId);
      if (!out) return { ...skipped, file: null };
      if (ctx.mode !== 'command') throw L.invalid([{ field: 'out', message: 'only an owner command writes to a path of its choosing' }]);
      const file = resolve(out);
      writeFileSync(file, skippedRowsCsv(skipped));
      return { ...skipped, file };
    },
    {
      name: 'import skipped',
      summary: 'the rows an import skipped, by line and reason (--out writes them as CSV to fix)',
      args: ['batchId'],
      print: printSkipped,
      csv: skippedRowsCsv,
    },
  ),

  undoImport: op(
    KEEPERS,
    z.strictObject({ ...Org, batchId: z.uuid('must be an import batch id') }),
    async (ctx, { orgId, batchId }) => L.undoImport(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, batchId),
    {
      name: 'import undo',
      summary: 'remove the rows an import added (refused when work rests on them)',
      args: ['batchId'],
      print: (b) => [`Undid ${b.fileName} (${b.imported} row(s) removed${b.merged ? `, ${b.merged} unlinked` : ''}).`],
    },
  ),

  /** The app's upload for an organization: bytes in (IPC), or a stream (browser route, see http.ts); the organization's and the person's alone. */
  stageStatement: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      fileName: z.string().min(1).max(1000),
      bytes: z.union([z.instanceof(Uint8Array), z.instanceof(Readable)], { error: 'must be the file bytes' }),
    }),
    async (ctx, { orgId, fileName, bytes }) => stageUpload(ctx, await orgSeq(ctx, orgId), cleanFileName(fileName), bytes),
  ),
};

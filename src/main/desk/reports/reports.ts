// Reports, exports and the audit chain at the desk and as owner commands
// (`ledgerdesk report pl|balances`, `export`, `audit verify`).
import { ACCOUNTANTS, ANYONE, STAFF } from '../roles';
import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as z from 'zod';
import { DateString } from '../../api/fields';
import { writeBeancount } from '../../exports/beancount';
import { writeCsv } from '../../exports/csv';
import { writeHledger } from '../../exports/hledger';
import { balancesCsv, profitAndLossCsv } from '../../exports/report-csv';
import * as L from '../../ledger';
import { op, Org, orgSeq, type DeskContext } from '../operation';
import { privatePath } from '../private-temp';
import { stagedFile, stageLocalFile, unstage } from '../staged';

const Period = { from: DateString.optional().describe('First day (default: the 12 months ending with the latest transaction)'), to: DateString.optional().describe('Last day') };
const Span = { from: DateString.optional().describe('First day (default: the first transaction)'), to: DateString.optional().describe('Last day (default: the last transaction)') };
const money = (n: number) => n.toFixed(2).padStart(14);
export const EXPORT_FORMATS = {
  csv: { write: writeCsv, ext: 'csv' },
  hledger: { write: writeHledger, ext: 'journal' },
  beancount: { write: writeBeancount, ext: 'beancount' },
} as const;

/** The P&L as text: sections, each category under its parent, subtotals and net in every column (a column per month with --by month). */
export function printPl(pl: L.ProfitAndLoss): string[] {
  const width = Math.max(30, ...pl.lines.map((l) => 2 * l.depth + `${l.code} ${l.name}`.length)) + 2;
  const columns = pl.months ?? [];
  const figure = (n: number) => (n === 0 ? '-' : n.toFixed(2)).padStart(12);
  const row = (label: string, m: Record<string, number> | undefined, total: number) => `${label.padEnd(width)}${columns.map((c) => figure(m?.[c] ?? 0)).join('')}${figure(total)}`;
  const out = [`Profit and loss, ${pl.from} to ${pl.to}, ${pl.currency}`, `${''.padEnd(width)}${columns.map((c) => c.padStart(12)).join('')}${'Total'.padStart(12)}`];
  for (const s of pl.sections) {
    out.push(s.title);
    for (const l of pl.lines.filter((x) => x.section === s.section)) out.push(row(`${'  '.repeat(l.depth + 1)}${l.direct ? l.name : `${l.code} ${l.name}`}`, l.months, l.total));
    out.push(row(`Total ${s.title.toLowerCase()}`, s.months, s.total));
    if (s.section === 'cost_of_sales' && pl.grossProfit) out.push(row('Gross profit', pl.grossProfit.months, pl.grossProfit.total));
  }
  out.push(row('Net', pl.netMonths, pl.net), row('Uncategorized (not in net)', pl.uncategorized.months, pl.uncategorized.amount));
  if (pl.transfers) out.push(`Left out: ${pl.transfers.toFixed(2)} categorized to asset, liability or equity categories (transfers, owner's money).`);
  return out;
}

/** Writes through a 1 MB buffer with synchronous writes: the rows are read while it writes. */
function bufferedFile(path: string) {
  const fd = openSync(path, 'w');
  let parts: string[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length) writeSync(fd, parts.join(''));
    parts = [];
    size = 0;
  };
  return {
    write(chunk: string) {
      parts.push(chunk);
      size += chunk.length;
      if (size > 1 << 20) flush();
    },
    close() {
      flush();
      closeSync(fd);
    },
  };
}

async function runExport(ctx: DeskContext, input: { orgId: string; format: keyof typeof EXPORT_FORMATS; from?: string; to?: string; out?: string }) {
  const seq = await orgSeq(ctx, input.orgId);
  const org = await L.organizationBySeq(ctx.ledger, seq);
  const fileName = `${org.slug}${input.from || input.to ? `-${input.from ?? 'start'}-to-${input.to ?? 'end'}` : ''}.${EXPORT_FORMATS[input.format].ext}`;
  if (input.out && ctx.mode !== 'command') throw L.invalid([{ field: 'out', message: 'only an owner command writes to a path of its choosing' }]);
  // Written where it is asked for, else in this process's private folder (issue 51: no shared, guessable folder).
  const target = input.out ? resolve(input.out) : privatePath(`export-${randomUUID()}`);
  if (input.out) mkdirSync(dirname(target), { recursive: true });
  let rows: number;
  try {
    const file = bufferedFile(target);
    try {
      rows = EXPORT_FORMATS[input.format].write(await L.exportBook(ctx.ledger, seq, input), (chunk) => file.write(chunk));
    } finally {
      file.close();
    }
    const size = statSync(target).size;
    if (input.out) return { exportId: null, file: target, fileName, format: input.format, rows, size };
    if (ctx.mode === 'command') {
      // No --out: the export goes to standard output.
      await pipeline(createReadStream(target), ctx.stdout ?? process.stdout, { end: false });
      return { exportId: null, file: null, fileName, format: input.format, rows, size };
    }
    // The app's export waits, staged for its organization and the person who made it, for their download (which
    // may reach another server process): removed once downloaded, or after a day.
    const staged = await stageLocalFile(ctx, seq, fileName, target);
    return { exportId: staged.id, file: null, fileName, format: input.format, rows, size };
  } finally {
    if (!input.out) rmSync(target, { force: true });
  }
}

/** An export made for a download, for the organization and the person who made it only: its name and where it is now. */
export async function exportFile(ctx: DeskContext, orgId: string, exportId: string): Promise<{ name: string; path: string; done: () => Promise<void> }> {
  const org = await L.requireOrganization(ctx.ledger, orgId);
  const staged = await stagedFile(ctx, org.seq, 'export', exportId);
  if (!staged) throw new L.LedgerError('not_found', 'That export is gone; export again.', { resource: 'export', id: exportId });
  return { name: staged.name, path: staged.path, done: () => unstage(ctx, org.seq, exportId) };
}

export const reportOperations = {
  profitAndLoss: op(
    ANYONE,
    z.strictObject({
      ...Org,
      ...Period,
      by: z.enum(['total', 'month']).default('total').describe('total, or month (a column per month)'),
      currency: z.string().length(3).optional(),
      basis: z.enum(['cash', 'accrual']).optional().describe("Invoices and bills by their dates (accrual) or their payments' (cash); default: the organization's"),
    }),
    async (ctx, { orgId, by, ...period }) => L.profitAndLoss(ctx.ledger, await orgSeq(ctx, orgId), { ...period, byMonth: by === 'month' }),
    { name: 'report pl', summary: 'profit and loss for a period (revenue and expense categories, parents as subtotals)', print: printPl, csv: profitAndLossCsv },
  ),

  balancesReport: op(
    ANYONE,
    z.strictObject({ ...Org, date: DateString.optional().describe('Balances at the end of this day (default: today)') }),
    async (ctx, { orgId, date }) => L.balancesAt(ctx.ledger, await orgSeq(ctx, orgId), date),
    {
      name: 'report balances',
      summary: "each account's balance at a date: cleared, reconciled and not",
      print: (r) => [
        `Balances at ${r.date}`,
        ...r.accounts.map(
          (a) =>
            `${a.name.padEnd(28)}${money(a.balance)} ${a.currency}   cleared ${money(a.cleared).trim()}   reconciled ${money(a.reconciled).trim()}   not yet ${money(a.unreconciled).trim()}`,
        ),
      ],
      csv: balancesCsv,
    },
  ),

  exportBooks: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      format: z.enum(['csv', 'hledger', 'beancount']).describe('csv, hledger or beancount'),
      ...Span,
      out: z.string().min(1).max(4096).optional().describe('The file to write (standard output when absent)'),
    }),
    runExport,
    {
      name: 'export',
      summary: 'the transactions as CSV, an hledger journal or a Beancount file',
      print: (r) => (r.file ? [`Wrote ${r.rows} transaction(s) to ${r.file} (${r.size} bytes).`] : []),
    },
  ),

  /** The app's download of an export (the browser gets it from the download route instead). */
  downloadExport: op(ACCOUNTANTS, z.strictObject({ ...Org, exportId: z.uuid() }), async (ctx, { orgId, exportId }) => {
    const { name, path, done } = await exportFile(ctx, orgId, exportId);
    const bytes = new Uint8Array(readFileSync(path));
    await done(); // served: nothing of it stays behind
    return { fileName: name, bytes };
  }),

  verifyAudit: op(STAFF, z.strictObject(Org), async (ctx, { orgId }) => L.verifyAuditChain(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'audit verify',
    summary: "check the audit log's hash chain",
    print: (r) => [
      r.ok
        ? `The audit log verifies: ${r.entries} entries, each chained to the one before.`
        : `The audit log does NOT verify: entry ${r.firstBad!.id} (${r.firstBad!.at}, ${r.firstBad!.action}) does not match its content or the entry before it.`,
    ],
    failed: (r) => !r.ok,
  }),
};

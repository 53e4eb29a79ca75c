// `ledgerdesk chart import <file> [--from xero|quickbooks] [--dry-run]` and the
// Chart screen's "Import from Xero / QuickBooks": preview, then one write.
import { KEEPERS } from '../roles';
import * as L from '../../ledger';
import { readChartFile } from '../../moving';
import { op } from '../operation';
import { MovingInput, printMoving, readMoving } from '../moving';

const WORDS: Record<L.ChartImportAction, string> = { add: 'new', update: 'update', leave: 'leave', account: 'account', skip: 'skip' };

const label = (i: L.ChartImportItem) =>
  i.action === 'account' || i.accountType
    ? `${i.name} (money account, ${i.accountType!.replace('_', ' ')})`
    : `${i.code ?? '-'} ${i.name}${i.type ? ` (${i.costOfSales ? 'cost of sales' : i.type}${i.parentCode ? ` under ${i.parentCode}` : ''}${i.taxCode ? `, tax ${i.taxCode}` : ''})` : ` [${i.sourceType}]`}`;

export const chartImportOperations = {
  importChart: op(
    KEEPERS,
    MovingInput,
    async (ctx, input) => {
      const { seq, file, name, done } = await readMoving(ctx, input, readChartFile);
      const result = await L.importChart(ctx.ledger, seq, ctx.reviewer, file, name, input.dryRun);
      await done();
      return result;
    },
    {
      name: 'chart import',
      summary: "bring a chart of accounts from Xero's or QuickBooks Online's export (CSV): new, updated, left and skipped, previewed with --dry-run",
      args: ['file'],
      print: (r) =>
        printMoving(
          r,
          `${r.counts.add} new, ${r.counts.update} to update, ${r.counts.leave} left as they are, ${r.counts.account} money account(s), ${r.counts.skip} skipped`,
          r.items.map((i) => ({ line: i.line, action: WORDS[i.action], label: label(i), notes: i.notes })),
        ),
    },
  ),
};

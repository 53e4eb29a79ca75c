// `ledgerdesk contact import <file> [--from xero|quickbooks] [--dry-run]` and
// the Contacts screen's "Import from Xero / QuickBooks": preview, then one write.
import { KEEPERS } from '../roles';
import * as L from '../../ledger';
import { readContactsFile } from '../../moving';
import { op } from '../operation';
import { MovingInput, printMoving, readMoving } from '../moving';

const WORDS: Record<L.ContactImportAction, string> = { add: 'new', update: 'update', leave: 'leave', skip: 'skip' };
const roles = (i: L.ContactImportItem) => [i.customer && 'customer', i.vendor && 'vendor'].filter(Boolean).join('+');

export const contactImportOperations = {
  importContacts: op(
    KEEPERS,
    MovingInput,
    async (ctx, input) => {
      const { seq, file, name, done } = await readMoving(ctx, input, readContactsFile);
      const result = await L.importContacts(ctx.ledger, seq, ctx.reviewer, file, name, input.dryRun);
      await done();
      return result;
    },
    {
      name: 'contact import',
      summary: "bring customers and vendors from Xero's or QuickBooks Online's export (CSV): new, updated, left and skipped, previewed with --dry-run",
      args: ['file'],
      print: (r) =>
        printMoving(
          r,
          `${r.counts.add} new, ${r.counts.update} to update, ${r.counts.leave} left as they are, ${r.counts.skip} skipped`,
          r.items.map((i) => ({ line: i.line, action: WORDS[i.action], label: `${i.name} (${roles(i)})`, notes: i.notes })),
        ),
    },
  ),
};

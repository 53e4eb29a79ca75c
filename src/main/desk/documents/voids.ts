// Voiding an invoice or a bill at the desk and as owner commands (`ledgerdesk
// invoice void <number> [--reason] [--date]`, `bill void ...`), and the date a
// void takes when none is named, which the screens' Void dialog shows (issue
// 50): the document's own while its period is open, else the first open day
// (ledger/documents/void-date.ts, one rule for the command and the screen).
import { KEEPERS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { KINDS, Number_, summary, type Kind } from './documents';
import { op, Org, orgSeq } from '../operation';
import { withArticle } from '../../../shared/english';

const voidOperation = (kind: Kind) =>
  op(
    KEEPERS,
    z.strictObject({
      ...Org,
      number: Number_,
      reason: Prose(2000).optional(),
      date: DateString.optional().describe('When its entry is reversed (default: its own date while its period is open, else the first open day)'),
    }),
    async (ctx, { orgId, number, reason, date }) => L.voidDocument(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, KINDS[kind], number, reason, date),
    {
      name: `${kind} void`,
      summary: `void ${withArticle(kind)} (its entry reversed, by default on its own date while its period is open; the number stays used)`,
      args: ['number'],
      print: (d) => [summary(d), `Voided ${d.voidDate ?? ''}${d.voidReason ? `: ${d.voidReason}` : ''}`],
    },
  );

export const voidOperations = {
  voidInvoice: voidOperation('invoice'),
  voidBill: voidOperation('bill'),
  /** The date a void of this invoice or bill takes when none is named, and why when it is not the document's own. */
  voidDate: op(STAFF, z.strictObject({ ...Org, kind: z.enum(['invoice', 'bill']), number: Number_ }), async (ctx, { orgId, kind, number }) => {
    const seq = await orgSeq(ctx, orgId);
    return L.voidDateOf(ctx.ledger, await L.requireDocument(ctx.ledger, seq, KINDS[kind], number));
  }),
};

// A contact's credit (an overpayment) applied to a later invoice or bill, at
// the desk and as owner commands (issue 29): `ledgerdesk invoice apply-credit
// <number> [--amount] [--date]`, `invoice unapply-credit <number>`, and the
// same for bills.
import { KEEPERS } from '../roles';
import * as z from 'zod';
import { DateString } from '../../api/fields';
import * as L from '../../ledger';
import { KINDS, Number_, summary, type Kind } from './documents';
import { op, Org, orgSeq, TypedAmount } from '../operation';
import { withArticle } from '../../../shared/english';

function creditOperations(kind: Kind) {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  return {
    apply: op(
      KEEPERS,
      z.strictObject({
        ...Org,
        number: Number_,
        amount: TypedAmount.optional().describe(`What of the ${party}'s credit to apply (default: what the ${kind} asks, or all the credit there is)`),
        date: DateString.optional().describe('The day it is applied (default today; not before the issue date)'),
      }),
      async (ctx, { orgId, number, amount, date }) => L.applyCredit(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, KINDS[kind], number, { amount, date }),
      {
        name: `${kind} apply-credit`,
        summary: `pay ${withArticle(kind)} with the ${party}'s credit (what it paid beyond earlier ${kind}s)`,
        args: ['number'],
        print: (d) => [summary(d)],
      },
    ),
    unapply: op(
      KEEPERS,
      z.strictObject({ ...Org, number: Number_ }),
      async (ctx, { orgId, number }) => L.unapplyCredit(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, KINDS[kind], number),
      {
        name: `${kind} unapply-credit`,
        summary: `take the ${party}'s credit off ${withArticle(kind)} (it asks that again)`,
        args: ['number'],
        print: (d) => [summary(d)],
      },
    ),
  };
}

const invoice = creditOperations('invoice');
const bill = creditOperations('bill');

export const creditDeskOperations = {
  applyInvoiceCredit: invoice.apply,
  unapplyInvoiceCredit: invoice.unapply,
  applyBillCredit: bill.apply,
  unapplyBillCredit: bill.unapply,
};

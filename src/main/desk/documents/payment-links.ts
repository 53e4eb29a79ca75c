// An invoice's Stripe payment link at the desk and as owner commands (issue
// 53): `ledgerdesk invoice payment-link <number>` makes it (or answers the one
// it has), `invoice show-payment-link <number>` shows it. Made with the
// organization's Stripe connector's key (connectors/stripe/credentials.ts).
import * as z from 'zod';
import { stripeBase, stripeClient } from '../../connectors/stripe/client';
import { requireStripeKey } from '../../connectors/stripe/credentials';
import { createPaymentLink, paymentLinkOf, type PaymentLink } from '../../connectors/stripe/links';
import { OutsideError } from '../../edge/http';
import * as L from '../../ledger';
import { ANYONE, KEEPERS } from '../roles';
import { op, Org, orgSeq } from '../operation';
import { Number_ } from './documents';

const said = (l: PaymentLink | null) => (l ? [`${l.invoice}: ${l.url}${l.active ? '' : ' (switched off: the invoice is paid)'}`] : ['No payment link.']);

export const paymentLinkOperations = {
  /** The invoice's payment link, or null. */
  invoicePaymentLink: op(ANYONE, z.strictObject({ ...Org, number: Number_ }), async (ctx, { orgId, number }) => paymentLinkOf(ctx.ledger, await orgSeq(ctx, orgId), number), {
    name: 'invoice show-payment-link',
    summary: "show an invoice's Stripe payment link",
    args: ['number'],
    print: said,
  }),
  makePaymentLink: op(
    KEEPERS,
    z.strictObject({ ...Org, number: Number_ }),
    async (ctx, { orgId, number }) => {
      const seq = await orgSeq(ctx, orgId);
      const { key } = await requireStripeKey(ctx.ledger, seq);
      try {
        return await createPaymentLink(ctx.ledger, seq, ctx.reviewer, number, await stripeClient(key, stripeBase()));
      } catch (error) {
        // Stripe's refusal in words (never the key); the books are untouched.
        if (error instanceof OutsideError) throw new L.LedgerError('conflict', error.message, { service: 'Stripe', reason: error.reason });
        throw error;
      }
    },
    { name: 'invoice payment-link', summary: "make a Stripe payment link for an issued invoice's amount due (or show the one it has)", args: ['number'], print: said },
  ),
};

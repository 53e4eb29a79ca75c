// What the invoice and bill form shows before anything is written (issue 50):
// a line's tax code when the line names none, asked of the ledger, so that the
// screen and `invoice create` take it from one rule (ledger/documents/draft.ts).
import { STAFF } from '../roles';
import * as z from 'zod';
import { Line } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq } from '../operation';

export const documentDefaultOperations = {
  /** Per category, the tax code a line of it takes when it names none (the contact's default, else the category's; null: no tax). */
  lineTaxDefaults: op(
    STAFF,
    z.strictObject({
      ...Org,
      contact: Line(200).trim().min(1).optional().describe("The customer or vendor: its name or id (none: the categories' own codes)"),
      categoryCodes: z.array(Line(50).trim().min(1)).max(200),
    }),
    async (ctx, { orgId, contact, categoryCodes }) => L.lineTaxDefaults(ctx.ledger, await orgSeq(ctx, orgId), contact, categoryCodes),
  ),
};

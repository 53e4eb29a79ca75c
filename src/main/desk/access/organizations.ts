// Organizations at the desk and as owner commands (`ledgerdesk org list|create|
// rename|edit|remove`): the books a bookkeeper keeps, one per client.
import { z } from 'zod';
import { CurrencyCode, Line, Prose } from '../../api/schemas';
import * as L from '../../ledger';
import { writeAmount } from '../../../shared/amounts';
import { op } from '../operation';

const publicOrg = ({ seq: _seq, ...org }: L.Organization) => org;
/**
 * With whether it has books yet (an account): the app opens an empty organization on its Dashboard, which says
 * what to do first; and whether its currency may still change (no money in it yet).
 */
const listed = (ledger: L.Ledger, o: L.Organization) => ({
  ...publicOrg(o),
  hasBooks: L.holdingsOf(ledger, o.seq).accounts > 0,
  canChangeCurrency: L.currencyMayChange(ledger, o.seq),
});
const Ref = Line(200).trim().min(1).describe('The organization: its slug or id');
const Name = Line(200).trim().min(1).describe('The name shown in the switcher and on reports');
const Mark = z.enum(L.DECIMAL_MARKS).describe("How amounts are written and typed: '.' for 1,234.56, ',' for 1.234,56");
const describe = (o: Omit<L.Organization, 'seq'>) => `${o.slug.padEnd(16)}  ${o.name}  ${o.currency}  amounts ${writeAmount(123456, o.currency, o.decimalMark)}  ${o.id}`;

export const organizationOperations = {
  listOrganizations: op(z.strictObject({}), (ctx) => L.listOrganizations(ctx.ledger).map((o) => listed(ctx.ledger, o)), {
    name: 'org list',
    summary: 'the organizations whose books this folder keeps',
    print: (orgs) => orgs.map(describe),
  }),

  createOrganization: op(
    z.strictObject({
      slug: z.string().regex(L.SLUG, 'lower-case letters, digits and dashes').describe('A short name for commands and links (acme)'),
      name: Name.optional(),
      currency: CurrencyCode.optional().describe('Its currency, three letters (default USD)'),
      decimalMark: Mark.optional(),
      taxSet: z
        .enum(L.TAX_SET_NAMES as [string, ...string[]])
        .optional()
        .describe(`Its ready-made tax codes: ${L.TAX_SET_NAMES.join(', ')} (any time later: tax setup)`),
    }),
    (ctx, { taxSet, ...input }) =>
      ctx.ledger.write(() => {
        const org = L.createOrganization(ctx.ledger, input, ctx.reviewer);
        if (taxSet) L.setupTaxSet(ctx.ledger, org.seq, ctx.reviewer, taxSet);
        return publicOrg(L.organizationBySeq(ctx.ledger, org.seq));
      }),
    { name: 'org create', summary: 'start the books of another organization', args: ['slug'], print: (o) => [`Created organization ${describe(o)}`] },
  ),

  renameOrganization: op(
    z.strictObject({ organization: Ref, name: Name }),
    (ctx, { organization, name }) => publicOrg(L.updateOrganization(ctx.ledger, organization, { name }, ctx.reviewer)),
    { name: 'org rename', summary: 'rename an organization (any of them)', args: ['organization', 'name'], print: (o) => [`Renamed: ${describe(o)}`] },
  ),

  updateOrganization: op(
    z.strictObject({
      organization: Ref,
      name: Name.optional(),
      currency: CurrencyCode.optional().describe(
        'Its base currency, only while its books hold no money (no rows, invoices or bills, rates, revaluations, tax returns, waiting proposals, opening balances)',
      ),
      decimalMark: Mark.optional(),
      fiscalYearStart: z
        .string()
        .regex(/^\d{2}-\d{2}$/, 'is MM-DD, e.g. 04-01')
        .optional()
        .describe('The first day of its fiscal year, MM-DD (default 01-01): where retained earnings end and current-year earnings begin'),
      address: Prose(1000).nullable().optional().describe('Its postal address, as invoices print it'),
      taxNumber: Line(50).nullable().optional().describe('Its VAT or tax number, as invoices print it'),
      paymentInstructions: Prose(1000).nullable().optional().describe('How customers pay (bank details): printed on every invoice'),
      invoicePrefix: Line(20).optional().describe('Invoice numbers start with it (default INV-)'),
      invoiceNext: z.int().min(1).max(99_999_999).optional().describe('The next invoice number (only forward: never reused)'),
      creditNotePrefix: Line(20).optional().describe('Credit note numbers start with it (default CN-)'),
      creditNoteNext: z.int().min(1).max(99_999_999).optional().describe('The next credit note number'),
      reportBasis: z.enum(['cash', 'accrual']).optional().describe("The profit and loss's basis by default: accrual (invoice and bill dates) or cash (payment dates)"),
    }),
    (ctx, { organization, ...changes }) => publicOrg(L.updateOrganization(ctx.ledger, organization, changes, ctx.reviewer)),
    {
      name: 'org edit',
      summary:
        "change an organization's name, currency (while it holds no money), amounts (--decimal-mark ,), fiscal year (--fiscal-year-start 04-01), address, tax number and invoice numbering",
      args: ['organization'],
      print: (o) => [`Now ${describe(o)}`],
    },
  ),

  removeOrganization: op(z.strictObject({ organization: Ref }), (ctx, { organization }) => publicOrg(L.removeOrganization(ctx.ledger, organization, ctx.reviewer)), {
    name: 'org remove',
    summary: 'remove an empty organization (one made by mistake)',
    args: ['organization'],
    print: (o) => [`Removed ${o.name} (${o.slug}).`],
  }),
};

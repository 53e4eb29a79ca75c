// Organizations at the desk and as owner commands (`ledgerdesk org list|create|
// rename|edit|logo|remove`): the books a bookkeeper keeps, one per client, and
// what their invoices print (ledger/access/details.ts).
import { makeFirstOwner } from '../../ledger/access/people';
import { rolesOf, type Role } from '../../ledger/access/roles';
import { ANYONE, OWNERS } from '../roles';
import * as z from 'zod';
import { CurrencyCode, Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { writeAmount } from '../../../shared/amounts';
import { fileDone, openFile } from '../files';
import { op } from '../operation';
import { mapInOrder } from '../../ledger/core/in-order';

const publicOrg = ({ seq: _seq, ...org }: L.Organization) => org;
/**
 * With whether it has books yet (an account): the app opens an empty organization on its Dashboard, which says
 * what to do first; and whether its currency may still change (no money in it yet).
 */
const listed = async (ledger: L.Ledger, o: L.Organization) =>
  // Each organization's facts read in its own scope (a server's row-level security shows one at a time).
  ledger.forOrg(o.seq, async () => ({
    ...publicOrg(o),
    hasBooks: (await L.holdingsOf(ledger, o.seq)).accounts > 0,
    canChangeCurrency: await L.currencyMayChange(ledger, o.seq),
    /** What the next invoice and credit note will be numbered, and how its documents write dates when it chose no style. */
    nextInvoiceNumber: await L.nextNumber(ledger, o.seq, 'invoice'),
    nextCreditNoteNumber: await L.nextNumber(ledger, o.seq, 'credit_note'),
    effectiveDateStyle: L.effectiveDateStyle(o),
  }));
const Ref = Line(200).trim().min(1).describe('The organization: its slug or id');
const Name = Line(200).trim().min(1).describe('The name shown in the switcher and on reports');
const Mark = z.enum(L.DECIMAL_MARKS).describe("How amounts are written and typed: '.' for 1,234.56, ',' for 1.234,56");
/** What its invoices print (ledger/access/details.ts checks each): `org edit` flags and the screen's fields. */
const Text = (max: number, what: string) => Line(max).nullable().optional().describe(what);
const InvoiceFields = {
  address: Prose(1000).nullable().optional().describe('Its postal address, as invoices print it'),
  taxNumber: Text(50, 'Its VAT registration (or tax) number, as invoices print it'),
  legalName: Text(200, 'Its registered name, when not the name it trades under (printed with the registration)'),
  country: Text(10, 'Its country, ISO 3166 code (default for a UK VAT organization: GB): a customer elsewhere is abroad'),
  companyNumber: Text(30, 'A company: its registered number (Companies House: 8 characters)'),
  registeredIn: Text(100, `Where the company is registered: ${L.UK_REGISTRATIONS.join(', ')}, or another country`),
  registeredOffice: Prose(1000).nullable().optional().describe('Its registered office address, when not its postal address'),
  bankName: Text(100, 'Bank details printed in the payment box: the bank'),
  bankAccountName: Text(200, 'The name on the bank account'),
  sortCode: Text(20, 'UK sort code (12-34-56)'),
  accountNumber: Text(40, 'The account number'),
  iban: Text(50, 'IBAN (checked by its check digits)'),
  bic: Text(20, 'BIC / SWIFT code'),
  paymentInstructions: Prose(1000).nullable().optional().describe('Other ways to pay, printed in the payment box after the bank details'),
  paymentTerms: Prose(1000).nullable().optional().describe('Payment terms printed in the payment box (Payment within 14 days of the invoice date...)'),
  dateStyle: z
    .enum([...L.DATE_STYLES, 'auto'])
    .nullable()
    .optional()
    .describe('How documents write dates: long (10 August 2026), long-us (August 10, 2026), dd/mm/yyyy, mm/dd/yyyy, dd.mm.yyyy, yyyy-mm-dd; auto (or null): from the currency'),
  invoicePrefix: Line(20).optional().describe('Invoice numbers start with it (default INV-)'),
  invoiceNext: z.int().min(1).max(99_999_999).optional().describe('The next invoice number (only forward, above every number used: never reused)'),
  creditNotePrefix: Line(20).optional().describe('Credit note numbers start with it (default CN-)'),
  creditNoteNext: z.int().min(1).max(99_999_999).optional().describe('The next credit note number'),
  quotePrefix: Line(20).optional().describe('Quote numbers start with it (default QU-)'),
  quoteNext: z.int().min(1).max(99_999_999).optional().describe('The next quote number'),
};

/** A file read whole, at most `max` bytes (a logo's limit plus one: more is refused by its check). */
function readUpTo(chunks: Iterable<Uint8Array>, max: number): Uint8Array {
  const parts: Buffer[] = [];
  let size = 0;
  for (const chunk of chunks) {
    parts.push(Buffer.from(chunk));
    size += chunk.length;
    if (size >= max) break;
  }
  return new Uint8Array(Buffer.concat(parts).subarray(0, max));
}

const describe = (o: Omit<L.Organization, 'seq'>) => `${o.slug.padEnd(16)}  ${o.name}  ${o.currency}  amounts ${writeAmount(123456, o.currency, o.decimalMark)}  ${o.id}`;

export const organizationOperations = {
  /** The organizations the person holds a role in (each with the role), or all of them for the machine's owner. */
  listOrganizations: op(
    ANYONE,
    z.strictObject({}),
    async (ctx) => {
      const roles = ctx.person ? await rolesOf(ctx.ledger, ctx.person.seq) : null;
      const orgs = (await L.listOrganizations(ctx.ledger)).filter((o) => !roles || roles.has(o.seq));
      return mapInOrder(orgs, async (o) => ({ ...(await listed(ctx.ledger, o)), role: roles?.get(o.seq) ?? ('owner' as Role) }));
    },
    {
      name: 'org list',
      summary: 'the organizations whose books this folder keeps',
      // Words, not an empty table: new books (a server's first start makes no organization) say what to do next.
      print: (orgs) => (orgs.length ? orgs.map(describe) : ['No organizations yet: start one with `ledgerdesk org create <slug> --name <name> --currency <code>`.']),
    },
  ),

  createOrganization: op(
    OWNERS,
    z.strictObject({
      slug: z.string().regex(L.SLUG, 'lower-case letters, digits and dashes').describe('A short name for commands and links (acme)'),
      name: Name.optional(),
      currency: CurrencyCode.optional().describe('Its currency, three letters (default USD)'),
      decimalMark: Mark.optional(),
      taxSet: z
        .enum(L.TAX_SET_NAMES as [string, ...string[]])
        .optional()
        .describe(`Its ready-made tax codes: ${L.TAX_SET_NAMES.join(', ')} (any time later: tax setup)`),
      country: z.string().trim().min(2).max(2).optional().describe('Its country, two letters (GB: the UK chart)'),
      chart: z
        .enum(L.CHART_TEMPLATE_IDS as [string, ...string[]])
        .optional()
        .describe(`Its chart template: ${L.CHART_TEMPLATE_IDS.join(', ')} (default: the UK one for UK VAT or GB, else the default)`),
    }),
    (ctx, { taxSet, ...input }) =>
      ctx.ledger.write(async () => {
        const org = await L.createOrganization(ctx.ledger, { ...input, taxSet }, ctx.reviewer);
        if (taxSet) await ctx.ledger.forOrg(org.seq, () => L.setupTaxSet(ctx.ledger, org.seq, ctx.reviewer, taxSet));
        // A person who starts an organization is its first owner.
        if (ctx.person) await makeFirstOwner(ctx.ledger, org.seq, ctx.person.seq);
        return { ...(await listed(ctx.ledger, await ctx.ledger.forOrg(org.seq, () => L.organizationBySeq(ctx.ledger, org.seq)))), role: 'owner' as Role };
      }),
    { name: 'org create', summary: 'start the books of another organization', args: ['slug'], print: (o) => [`Created organization ${describe(o)}`] },
  ),

  renameOrganization: op(
    OWNERS,
    z.strictObject({ organization: Ref, name: Name }),
    async (ctx, { organization, name }) => publicOrg(await L.updateOrganization(ctx.ledger, organization, { name }, ctx.reviewer)),
    { name: 'org rename', summary: 'rename an organization (any of them)', args: ['organization', 'name'], print: (o) => [`Renamed: ${describe(o)}`] },
  ),

  updateOrganization: op(
    OWNERS,
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
      ...InvoiceFields,
      reportBasis: z.enum(['cash', 'accrual']).optional().describe("The profit and loss's basis by default: accrual (invoice and bill dates) or cash (payment dates)"),
    }),
    async (ctx, { organization, dateStyle, ...changes }) =>
      publicOrg(
        await L.updateOrganization(
          ctx.ledger,
          organization,
          { ...changes, ...(dateStyle === undefined ? {} : { dateStyle: dateStyle === 'auto' ? null : dateStyle }) },
          ctx.reviewer,
        ),
      ),
    {
      name: 'org edit',
      summary:
        "change an organization's name, currency (while it holds no money), amounts (--decimal-mark ,), fiscal year (--fiscal-year-start 04-01), and what its invoices print: address, VAT number, company registration, bank details, terms, date style, numbering",
      args: ['organization'],
      print: (o) => [`Now ${describe(o)}`],
    },
  ),

  setOrganizationLogo: op(
    OWNERS,
    z.strictObject({
      organization: Ref,
      file: z.string().min(1).max(4096).optional().describe("A PNG or JPEG up to 1 MB: a path (owner command) or an uploaded file's id (app)"),
      remove: z.boolean().optional().describe('Remove the logo instead'),
    }),
    async (ctx, { organization, file, remove }) => {
      const org = await L.requireOrganization(ctx.ledger, organization);
      if (remove === !!file) throw L.invalid([{ field: 'file', message: remove ? 'name a file or --remove, not both' : 'name the image file (or --remove)' }]);
      if (remove) return { removed: await L.removeLogo(ctx.ledger, org, ctx.reviewer), logo: null };
      const source = await openFile(ctx, org.seq, file!);
      const bytes = readUpTo(source.openSync(), L.MAX_LOGO_BYTES + 1);
      // Checked by its bytes, then drawn once into a PDF: what the invoices will print, refused now rather than then.
      await L.assertDrawable(bytes, L.logoFacts(bytes).mimeType);
      const logo = await L.setLogo(ctx.ledger, org, ctx.reviewer, source.name, bytes);
      await fileDone(ctx, org.seq, file!);
      return { removed: null, logo };
    },
    {
      name: 'org logo',
      summary: 'set the logo its invoices print (a PNG or JPEG up to 1 MB), or --remove it',
      args: ['organization', 'file'],
      print: (r) => [r.logo ? `Logo set: ${r.logo.fileName} (${r.logo.width}x${r.logo.height}).` : `Logo ${r.removed!.fileName} removed.`],
    },
  ),

  /** The Organizations screen's picture of the logo (bytes as base64: plain JSON over IPC and HTTP alike). */
  organizationLogo: op(ANYONE, z.strictObject({ organization: Ref }), async (ctx, { organization }) => {
    const seq = (await L.requireOrganization(ctx.ledger, organization)).seq;
    const logo = await L.logoOf(ctx.ledger, seq);
    return logo && { ...logo, base64: (await L.logoBytes(ctx.ledger, seq))!.toString('base64') };
  }),

  removeOrganization: op(
    OWNERS,
    z.strictObject({ organization: Ref }),
    async (ctx, { organization }) => publicOrg(await L.removeOrganization(ctx.ledger, organization, ctx.reviewer)),
    {
      name: 'org remove',
      summary: 'remove an empty organization (one made by mistake)',
      args: ['organization'],
      print: (o) => [`Removed ${o.name} (${o.slug}).`],
    },
  ),
};

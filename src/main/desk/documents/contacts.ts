// Contacts at the desk and as owner commands (`ledgerdesk contact list|add|
// edit|archive|restore`): issue 29's customers and vendors.
import { KEEPERS, STAFF } from '../roles';
import * as z from 'zod';
import { Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq } from '../operation';

const Fields = {
  kind: z.enum(['customer', 'vendor', 'both']).optional().describe('customer, vendor or both (the same as --customer / --vendor)'),
  customer: z.boolean().optional().describe('A customer (invoices go to it)'),
  vendor: z.boolean().optional().describe('A vendor (bills come from it)'),
  email: Line(200).trim().nullable().optional(),
  address: Prose(1000).trim().nullable().optional().describe('Postal address (lines separated by commas or new lines)'),
  country: Line(10)
    .trim()
    .nullable()
    .optional()
    .describe("Its country, ISO 3166 code (GB, IE, DE, US): a customer in another country than the organization's gets the reverse-charge wording"),
  taxNumber: Line(50).trim().nullable().optional().describe('Its VAT or tax number (printed on invoices; needed for the reverse charge)'),
  termsDays: z.int().min(0).max(365).nullable().optional().describe('Payment terms in days'),
  categoryCode: Line(50).trim().nullable().optional().describe('Its default category (code)'),
  taxCode: Line(20).trim().nullable().optional().describe('Its default tax code'),
};
/** --kind as the roles it names (a kind given wins over the separate flags). */
const roles = <T extends { kind?: 'customer' | 'vendor' | 'both'; customer?: boolean; vendor?: boolean }>({ kind, ...rest }: T) =>
  kind ? { ...rest, customer: kind !== 'vendor', vendor: kind !== 'customer' } : rest;
const Ref = Line(200).trim().min(1).describe('The contact: its name or id');
const line = (c: L.Contact) =>
  `${c.name.padEnd(30)} ${[c.customer && 'customer', c.vendor && 'vendor'].filter(Boolean).join('+').padEnd(15)} ${c.country ? `${c.country}  ` : ''}${c.taxNumber ? `VAT ${c.taxNumber}  ` : ''}${c.termsDays === null ? '' : `${c.termsDays} days  `}${c.email ?? ''}${c.archived ? '  (archived)' : ''}  ${c.id}`;

export const contactOperations = {
  listContacts: op(
    STAFF,
    z.strictObject({
      ...Org,
      role: z.enum(['customer', 'vendor']).optional().describe('Only customers, or only vendors'),
      archived: z.boolean().optional().describe('Archived ones too'),
    }),
    async (ctx, { orgId, ...q }) => L.listContacts(ctx.ledger, await orgSeq(ctx, orgId), q),
    { name: 'contact list', summary: 'the customers and vendors', print: (cs) => (cs.length ? cs.map(line) : ['No contacts.']) },
  ),

  addContact: op(
    KEEPERS,
    z.strictObject({ ...Org, name: Line(200).trim().min(1), ...Fields }),
    async (ctx, { orgId, ...input }) => L.addContact(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, roles(input)),
    { name: 'contact add', summary: 'add a customer or vendor (--kind customer|vendor|both)', args: ['name'], flags: { termsDays: 'terms' }, print: (c) => [`Added ${line(c)}`] },
  ),

  updateContact: op(
    KEEPERS,
    z.strictObject({ ...Org, contact: Ref, name: Line(200).trim().min(1).optional(), ...Fields }),
    async (ctx, { orgId, contact, ...input }) => L.updateContact(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, contact, roles(input)),
    { name: 'contact edit', summary: "change a contact's details or roles", args: ['contact'], flags: { termsDays: 'terms' }, print: (c) => [`Now ${line(c)}`] },
  ),

  archiveContact: op(
    KEEPERS,
    z.strictObject({ ...Org, contact: Ref }),
    async (ctx, { orgId, contact }) => L.archiveContact(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, contact),
    {
      name: 'contact archive',
      summary: 'no longer offer a contact (kept for what names it)',
      args: ['contact'],
      print: (c) => [`Archived ${c.name}.`],
    },
  ),

  restoreContact: op(
    KEEPERS,
    z.strictObject({ ...Org, contact: Ref }),
    async (ctx, { orgId, contact }) => L.archiveContact(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, contact, false),
    {
      name: 'contact restore',
      summary: 'offer an archived contact again',
      args: ['contact'],
      print: (c) => [`Restored ${c.name}.`],
    },
  ),
};

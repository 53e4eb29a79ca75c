// Contacts (issue 29, first part): the customers and vendors of an
// organization, one table with the ontology's seed counterparties (vendors).
// A contact can be both. Name, email, postal address, country, tax number,
// payment terms in days, default category and tax code. Archived, never deleted: the
// invoices and bills that follow name their contact. Every change audited.
import { appendAudit, type Human } from '../access/audit';
import { resolveCategory } from '../chart/categories';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { foldName } from '../core/text';
import { invalid, LedgerError, notFound } from '../core/errors';
import { usableTaxCodeRow } from '../tax/codes';
import { isCountry } from '../../../shared/countries';

export interface Contact {
  id: string;
  name: string;
  customer: boolean;
  vendor: boolean;
  email: string | null;
  address: string | null;
  /** ISO 3166 alpha-2 (issue 43): a customer in another country than the organization's is abroad on its invoices. */
  country: string | null;
  taxNumber: string | null;
  termsDays: number | null;
  categoryCode: string | null;
  taxCode: string | null;
  aliases: string[];
  archived: boolean;
}

export interface ContactRow {
  seq: number;
  id: string;
  name: string;
  aliases: string;
  default_code: string | null;
  is_customer: number;
  is_vendor: number;
  email: string | null;
  address: string | null;
  country: string | null;
  tax_number: string | null;
  terms_days: number | null;
  default_tax_code: string | null;
  archived_at: string | null;
}

const toContact = (r: ContactRow): Contact => ({
  id: r.id,
  name: r.name,
  customer: r.is_customer === 1,
  vendor: r.is_vendor === 1,
  email: r.email,
  address: r.address,
  country: r.country,
  taxNumber: r.tax_number,
  termsDays: r.terms_days,
  categoryCode: r.default_code,
  taxCode: r.default_tax_code,
  aliases: JSON.parse(r.aliases) as string[],
  archived: r.archived_at !== null,
});

export async function listContacts(ledger: Ledger, orgSeq: number, q: { role?: 'customer' | 'vendor'; archived?: boolean } = {}): Promise<Contact[]> {
  const role = q.role === 'customer' ? ' AND is_customer = 1' : q.role === 'vendor' ? ' AND is_vendor = 1' : '';
  const archived = q.archived ? '' : ' AND archived_at IS NULL';
  return (await ledger.rows<ContactRow>(`SELECT * FROM counterparties WHERE org_seq = ?${role}${archived} ORDER BY lower(name)`, orgSeq)).map(toContact);
}

const fold = foldName;

/** A contact by its id or name (any case, accents and all: SQLite's lower() folds ASCII only). */
export async function requireContactRow(ledger: Ledger, orgSeq: number, ref: string): Promise<ContactRow> {
  // Named exactly (its id, or its name as written): one indexed look, the usual case for commands and screens.
  // Two looks, not one with OR: SQLite answers an OR of the two by reading every contact of the organization.
  const byId = await ledger.rows<ContactRow>('SELECT * FROM counterparties WHERE org_seq = ? AND id = ?', orgSeq, ref);
  if (byId.length === 1) return byId[0];
  const byName = await ledger.rows<ContactRow>('SELECT * FROM counterparties WHERE org_seq = ? AND name = ?', orgSeq, ref);
  if (byName.length === 1) return byName[0];
  const key = fold(ref);
  const rows = (await ledger.rows<ContactRow>('SELECT * FROM counterparties WHERE org_seq = ?', orgSeq)).filter((r) => r.id === key || fold(r.name) === key);
  if (rows.length === 0) throw notFound('contact', ref);
  if (rows.length > 1) throw new LedgerError('conflict', `More than one contact is called "${ref}": name it by its id.`, { ids: rows.map((r) => r.id) });
  return rows[0];
}

export interface ContactInput {
  name?: string;
  customer?: boolean;
  vendor?: boolean;
  email?: string | null;
  address?: string | null;
  country?: string | null;
  taxNumber?: string | null;
  termsDays?: number | null;
  categoryCode?: string | null;
  taxCode?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The stored form of a contact's fields, checked; `was` the contact as it is (for an edit). */
async function settle(ledger: Ledger, orgSeq: number, input: ContactInput, was?: ContactRow) {
  const name = (input.name ?? was?.name ?? '').trim();
  const customer = input.customer ?? was?.is_customer === 1;
  const vendor = input.vendor ?? was?.is_vendor === 1;
  const pick = <T>(given: T | undefined, old: T | null | undefined): T | null => (given === undefined ? (old ?? null) : given);
  const email = pick(input.email, was?.email)?.trim() || null;
  const terms = pick(input.termsDays, was?.terms_days);
  const country = pick(input.country, was?.country)?.trim().toUpperCase() || null;
  const issues = [
    !name && { field: 'name', message: 'is required' },
    !customer && !vendor && { field: 'customer', message: 'a contact is a customer, a vendor or both' },
    email && !EMAIL.test(email) && { field: 'email', message: `"${email}" is not an email address` },
    country && !isCountry(country) && { field: 'country', message: `"${country}" is not an ISO 3166 country code (GB, IE, DE, US...)` },
    terms !== null && (!Number.isInteger(terms) || terms < 0 || terms > 365) && { field: 'termsDays', message: 'is a whole number of days, 0 to 365' },
  ].filter(Boolean) as { field: string; message: string }[];
  if (issues.length) throw invalid(issues);
  const categoryCode = pick(input.categoryCode, was?.default_code);
  const taxCode = pick(input.taxCode, was?.default_tax_code);
  return {
    name,
    is_customer: customer ? 1 : 0,
    is_vendor: vendor ? 1 : 0,
    email,
    address: pick(input.address, was?.address)?.trim() || null,
    country,
    tax_number: pick(input.taxNumber, was?.tax_number)?.trim() || null,
    terms_days: terms,
    default_code: categoryCode ? (await resolveCategory(ledger, orgSeq, { categoryCode })).code : null,
    default_tax_code: taxCode ? (await usableTaxCodeRow(ledger, orgSeq, taxCode)).code : null,
  };
}

const roleOf = (c: { customer: boolean; vendor: boolean }) => (c.customer && c.vendor ? 'customer and vendor' : c.customer ? 'customer' : 'vendor');

export async function addContact(ledger: Ledger, orgSeq: number, actor: Human, input: ContactInput): Promise<Contact> {
  return ledger.write(async () => {
    const s = await settle(ledger, orgSeq, input);
    const names = await ledger.rows<{ name: string }>('SELECT name FROM counterparties WHERE org_seq = ? AND archived_at IS NULL', orgSeq);
    if (names.some((n) => fold(n.name) === fold(s.name))) {
      throw new LedgerError('conflict', `A contact called "${s.name}" already exists: edit it (it can be a customer and a vendor).`, { field: 'name' });
    }
    const id = newId();
    await ledger
      .stmt(
        `INSERT INTO counterparties (org_seq, id, name, aliases, default_code, is_customer, is_vendor, email, address, country, tax_number, terms_days, default_tax_code)
         VALUES (?, ?, ?, '[]', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(orgSeq, id, s.name, s.default_code, s.is_customer, s.is_vendor, s.email, s.address, s.country, s.tax_number, s.terms_days, s.default_tax_code);
    const made = toContact(await requireContactRow(ledger, orgSeq, id));
    await appendAudit(ledger, orgSeq, actor, { action: 'contact.created', targetType: 'contact', targetId: id, summary: `Contact "${made.name}" added (${roleOf(made)})` });
    return made;
  });
}

export async function updateContact(ledger: Ledger, orgSeq: number, actor: Human, ref: string, input: ContactInput): Promise<Contact> {
  return ledger.write(async () => {
    const was = await requireContactRow(ledger, orgSeq, ref);
    const s = await settle(ledger, orgSeq, input, was);
    await ledger
      .stmt(
        `UPDATE counterparties SET name = ?, default_code = ?, is_customer = ?, is_vendor = ?, email = ?, address = ?, country = ?, tax_number = ?, terms_days = ?, default_tax_code = ? WHERE seq = ?`,
      )
      .run(s.name, s.default_code, s.is_customer, s.is_vendor, s.email, s.address, s.country, s.tax_number, s.terms_days, s.default_tax_code, was.seq);
    const now = toContact(await requireContactRow(ledger, orgSeq, was.id));
    const before = toContact(was);
    const changed = (Object.keys(now) as (keyof Contact)[]).filter((k) => JSON.stringify(now[k]) !== JSON.stringify(before[k]));
    await appendAudit(ledger, orgSeq, actor, {
      action: 'contact.updated',
      targetType: 'contact',
      targetId: was.id,
      summary: `Contact "${was.name}" edited: now "${now.name}" (${roleOf(now)})${changed.length ? `; changed ${changed.join(', ')}` : ''}`,
    });
    return now;
  });
}

/** No longer offered; kept for what names it (archived, not deleted, once used). Restore with archived = false. */
export async function archiveContact(ledger: Ledger, orgSeq: number, actor: Human, ref: string, archived = true): Promise<Contact> {
  return ledger.write(async () => {
    const was = await requireContactRow(ledger, orgSeq, ref);
    await ledger.stmt('UPDATE counterparties SET archived_at = ? WHERE seq = ?').run(archived ? nowIso() : null, was.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: archived ? 'contact.archived' : 'contact.restored',
      targetType: 'contact',
      targetId: was.id,
      summary: `Contact "${was.name}" ${archived ? 'archived' : 'restored'}`,
    });
    return toContact(await requireContactRow(ledger, orgSeq, was.id));
  });
}

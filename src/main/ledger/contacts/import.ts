// Contacts brought from another program (Xero, QuickBooks Online:
// src/main/moving/), planned before anything is written: each is new, matches
// a contact by name (any case, accents and all) whose empty details and
// missing role it fills (what the books already hold is kept: said where the
// file differs), or is skipped with the reason. Applied, one write with one
// audit entry (contacts.imported).
import type { SourceContact, SourceFile } from '../../moving/types';
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { newId } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { foldName } from '../core/text';
import { COUNTRY_CODES, countryName, isCountry } from '../../../shared/countries';
import type { Contact, ContactRow } from './contacts';

export const CONTACT_IMPORT_ACTIONS = ['add', 'update', 'leave', 'skip'] as const;
export type ContactImportAction = (typeof CONTACT_IMPORT_ACTIONS)[number];

/** The details a contact takes from the file: a contact's own. */
export type ContactDetails = Pick<Contact, 'customer' | 'vendor' | 'email' | 'address' | 'country' | 'taxNumber' | 'termsDays'>;

export interface ContactImportItem extends ContactDetails {
  line: number;
  name: string;
  action: ContactImportAction;
  /** The contact it matched (its id). */
  matched: string | null;
  notes: string[];
}

export interface ContactImport {
  fileName: string;
  source: SourceFile<SourceContact>['source'];
  described: string;
  dryRun: boolean;
  counts: Record<ContactImportAction, number>;
  items: ContactImportItem[];
  unread: { line: number; reason: string }[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Names people write for a country besides its English name. */
const ALSO: Record<string, string> = {
  uk: 'GB',
  'united kingdom': 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  usa: 'US',
  'united states of america': 'US',
  us: 'US',
};
let byName: Map<string, string> | undefined;

/** An ISO code, from a code or a country's name. */
function countryCode(text: string): string | null {
  const t = text.trim();
  if (isCountry(t.toUpperCase()) && t.length === 2) return t.toUpperCase();
  byName ??= new Map([...COUNTRY_CODES.map((c) => [countryName(c).toLowerCase(), c] as [string, string]), ...Object.entries(ALSO)]);
  return byName.get(t.toLowerCase()) ?? null;
}

/** The file's contact in our terms, what could not be kept said in notes. */
function detailsOf(c: SourceContact, notes: string[]): ContactDetails {
  const email = c.email && EMAIL.test(c.email) && c.email.length <= 200 ? c.email : null;
  if (c.email && !email) notes.push(`"${c.email}" is not an email address: left out`);
  const country = c.country ? countryCode(c.country) : null;
  if (c.country && !country) notes.push(`the country "${c.country}" is not one Ledgerdesk knows: left out`);
  const taxNumber = c.taxNumber && c.taxNumber.length <= 50 ? c.taxNumber : null;
  if (c.taxNumber && !taxNumber) notes.push('its tax number is over 50 characters: left out');
  if (c.otherTerms) notes.push(`its terms "${c.otherTerms}" are not days after the date: left unset`);
  const termsDays = c.termsDays !== null && c.termsDays <= 365 ? c.termsDays : null;
  return { customer: c.customer, vendor: c.vendor, email, address: c.address?.slice(0, 1000) ?? null, country, taxNumber, termsDays };
}

const FIELDS = [
  ['email', 'email'],
  ['address', 'address'],
  ['country', 'country'],
  ['taxNumber', 'tax_number'],
  ['termsDays', 'terms_days'],
] as const;

/** A matched contact: its empty details and missing roles filled from the file; what it holds is kept. */
function planMatch(item: ContactImportItem, was: ContactRow): ContactImportItem {
  const filled: string[] = [];
  const now: ContactImportItem = { ...item, name: was.name, matched: was.id, customer: item.customer || was.is_customer === 1, vendor: item.vendor || was.is_vendor === 1 };
  if (now.customer && was.is_customer !== 1) filled.push('now a customer');
  if (now.vendor && was.is_vendor !== 1) filled.push('now a vendor');
  for (const [field, column] of FIELDS) {
    const theirs = item[field];
    const ours = was[column];
    if (ours !== null) {
      (now as unknown as Record<string, unknown>)[field] = ours;
      if (theirs !== null && String(theirs) !== String(ours)) item.notes.push(`keeps its ${field} "${ours}" (the file says "${theirs}")`);
    } else if (theirs !== null) filled.push(`${field} added`);
  }
  return { ...now, action: filled.length ? 'update' : 'leave', notes: [`matches the contact "${was.name}"`, ...filled, ...item.notes] };
}

async function plan(ledger: Ledger, orgSeq: number, file: SourceFile<SourceContact>): Promise<ContactImportItem[]> {
  const existing = await ledger.rows<ContactRow>('SELECT * FROM counterparties WHERE org_seq = ? AND archived_at IS NULL', orgSeq);
  const byFold = new Map(existing.map((r) => [foldName(r.name), r]));
  const seen = new Map<string, number>();
  return file.rows.map((c) => {
    const notes: string[] = [];
    const item: ContactImportItem = { line: c.line, name: c.name.trim(), action: 'add', matched: null, notes, ...detailsOf(c, notes) };
    const key = foldName(c.name);
    if (seen.has(key)) return { ...item, action: 'skip', notes: [`the file names "${c.name}" twice (line ${seen.get(key)}): the first is taken`] };
    seen.set(key, c.line);
    if (item.name.length > 200) return { ...item, action: 'skip', notes: ['its name is over 200 characters'] };
    const was = byFold.get(key);
    return was ? planMatch(item, was) : item;
  });
}

async function apply(ledger: Ledger, orgSeq: number, items: ContactImportItem[]): Promise<void> {
  for (const i of items) {
    if (i.action === 'add')
      await ledger
        .stmt(
          `INSERT INTO counterparties (org_seq, id, name, aliases, is_customer, is_vendor, email, address, country, tax_number, terms_days)
           VALUES (?, ?, ?, '[]', ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(orgSeq, newId(), i.name, i.customer ? 1 : 0, i.vendor ? 1 : 0, i.email, i.address, i.country, i.taxNumber, i.termsDays);
    else if (i.action === 'update')
      await ledger
        .stmt('UPDATE counterparties SET is_customer = ?, is_vendor = ?, email = ?, address = ?, country = ?, tax_number = ?, terms_days = ? WHERE org_seq = ? AND id = ?')
        .run(i.customer ? 1 : 0, i.vendor ? 1 : 0, i.email, i.address, i.country, i.taxNumber, i.termsDays, orgSeq, i.matched);
  }
}

const countOf = (items: ContactImportItem[]) =>
  Object.fromEntries(CONTACT_IMPORT_ACTIONS.map((a) => [a, items.filter((i) => i.action === a).length])) as Record<ContactImportAction, number>;

/** Plans the file against the contacts and, unless a dry run, applies the plan in one write with its audit entry. */
export async function importContacts(ledger: Ledger, orgSeq: number, actor: Human, file: SourceFile<SourceContact>, fileName: string, dryRun: boolean): Promise<ContactImport> {
  const answer = (items: ContactImportItem[]): ContactImport => ({
    fileName,
    source: file.source,
    described: file.described,
    dryRun,
    counts: countOf(items),
    items,
    unread: file.unread,
  });
  if (dryRun) return answer(await plan(ledger, orgSeq, file));
  return ledger.write(async () => {
    const items = await plan(ledger, orgSeq, file);
    await apply(ledger, orgSeq, items);
    const c = countOf(items);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'contacts.imported',
      targetType: 'organization',
      targetId: (await organizationBySeq(ledger, orgSeq)).id,
      summary: `Contacts imported from ${file.described} (${fileName}): ${c.add} added, ${c.update} updated, ${c.leave} left as they were, ${c.skip} skipped`,
    });
    return answer(items);
  });
}

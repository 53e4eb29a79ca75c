// Organizations: every row of the ledger belongs to one. A new organization's
// chart of accounts and counterparties are seeded from the public ontology.
import { userInfo } from 'node:os';
import type { Ledger } from './db';
import { appendAudit, type Actor } from './audit';
import { newId, nowIso } from './clock';
import { LedgerError, invalid } from './errors';
import { defaultChart, seedCounterparties } from './ontology';

export interface Organization {
  seq: number;
  id: string;
  slug: string;
  name: string;
  currency: string;
  createdAt: string;
}

export const DEFAULT_ORG_SLUG = 'default';
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The person at the desk: one local user per data folder. */
export function deskActor(): Extract<Actor, { type: 'human' }> {
  let name = 'Bookkeeper';
  try {
    name = userInfo().username || name;
  } catch {
    /* no passwd entry: keep the generic name */
  }
  return { type: 'human', userId: 'local-user', name, channel: 'desk' };
}

const SELECT = 'SELECT seq, id, slug, name, currency, created_at AS createdAt FROM organizations';

export function listOrganizations(ledger: Ledger): Organization[] {
  return ledger.stmt(`${SELECT} ORDER BY name COLLATE NOCASE, seq`).all() as Organization[];
}

export function findOrganization(ledger: Ledger, slugOrId: string): Organization | undefined {
  return ledger.stmt(`${SELECT} WHERE slug = ? OR id = ?`).get(slugOrId, slugOrId) as Organization | undefined;
}

export function organizationBySeq(ledger: Ledger, seq: number): Organization {
  return ledger.stmt(`${SELECT} WHERE seq = ?`).get(seq) as Organization;
}

export function requireOrganization(ledger: Ledger, slugOrId: string): Organization {
  const org = findOrganization(ledger, slugOrId);
  if (!org) throw new LedgerError('not_found', `No organization "${slugOrId}".`, { resource: 'organization', id: slugOrId });
  return org;
}

export interface NewOrganization {
  slug: string;
  name?: string;
  currency?: string;
}

export function createOrganization(ledger: Ledger, input: NewOrganization, actor: Actor = deskActor()): Organization {
  const slug = input.slug.trim().toLowerCase();
  if (!SLUG.test(slug)) {
    throw invalid([{ field: 'slug', message: 'use 1-64 lowercase letters, digits and inner hyphens' }]);
  }
  const currency = (input.currency ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw invalid([{ field: 'currency', message: 'must be a 3-letter currency code' }]);
  const name = input.name?.trim() || slug;
  return ledger.write(() => {
    if (findOrganization(ledger, slug)) {
      throw new LedgerError('conflict', `An organization with slug "${slug}" already exists.`, [{ field: 'slug', message: 'already taken' }]);
    }
    const id = newId();
    const { lastInsertRowid } = ledger
      .stmt('INSERT INTO organizations (id, slug, name, currency, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, slug, name, currency, nowIso());
    const orgSeq = Number(lastInsertRowid);
    const addCategory = ledger.stmt(
      'INSERT INTO categories (org_seq, code, name, type, parent_code, synonyms) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const c of defaultChart) addCategory.run(orgSeq, c.code, c.name, c.type, c.parentCode, JSON.stringify(c.synonyms));
    const addCounterparty = ledger.stmt(
      'INSERT INTO counterparties (org_seq, id, name, aliases, default_code) VALUES (?, ?, ?, ?, ?)',
    );
    for (const p of seedCounterparties) addCounterparty.run(orgSeq, newId(), p.name, JSON.stringify(p.aliases), p.defaultCode);
    appendAudit(ledger, orgSeq, actor, {
      action: 'organization.created',
      targetType: 'organization',
      targetId: id,
      summary: `Organization "${name}" (${slug}, ${currency}) created with the default chart of accounts`,
    });
    return organizationBySeq(ledger, orgSeq);
  });
}

/** First run on an empty data folder: one default organization. */
export function ensureDefaultOrganization(ledger: Ledger): Organization {
  return listOrganizations(ledger)[0] ?? createOrganization(ledger, { slug: DEFAULT_ORG_SLUG, name: 'My organization' });
}

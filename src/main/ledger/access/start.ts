// A new organization: its row, its chart and seed contacts from a chart template (chart/templates/), and
// its first audit entry, in one write; the first organization of an empty data folder.
import type { Ledger } from '../core/sqlite/open';
import { appendAudit, type Actor } from './audit';
import { newId, nowIso } from '../core/clock';
import { LedgerError, invalid } from '../core/errors';
import { chooseTemplate, type ChartTemplate } from '../chart/templates';
import { isCountry } from '../../../shared/countries';
import { writeAmount, type DecimalMark } from '../../../shared/amounts';
import { requireCurrency } from '../rates/currencies';
import { DEFAULT_ORG_SLUG, deskActor, findOrganization, listOrganizations, organizationBySeq, SLUG, type Organization } from './organizations';

export interface NewOrganization {
  slug: string;
  name?: string;
  currency?: string;
  decimalMark?: DecimalMark;
  /** Its country (ISO 3166 alpha-2): GB chooses the UK chart. */
  country?: string;
  /**
   * The tax set it will be set up with: chooses the chart (uk-vat: the UK chart). The caller sets it up
   * (setupTaxSet, in the same write), which gives the template's categories their tax codes.
   */
  taxSet?: string;
  /** A chart template by id (chart/templates/); none: the first that fits. */
  chart?: string;
}

export async function createOrganization(ledger: Ledger, input: NewOrganization, actor: Actor = deskActor()): Promise<Organization> {
  const slug = input.slug.trim().toLowerCase();
  if (!SLUG.test(slug)) {
    throw invalid([{ field: 'slug', message: 'use 1-64 lowercase letters, digits and inner hyphens' }]);
  }
  // Its base currency (issue 30): an ISO 4217 code; every base amount is in it, so it changes only while the books hold no money (issue 42).
  const currency = requireCurrency(input.currency ?? 'USD');
  const name = input.name?.trim() || slug;
  const country = input.country?.trim().toUpperCase() || null;
  if (country && !isCountry(country)) throw invalid([{ field: 'country', message: `"${input.country}" is not an ISO 3166 country code (GB, IE, DE, US...)` }]);
  const template = chooseTemplate(input.chart, { taxSet: input.taxSet ?? null, country });
  return ledger.write(async () => {
    if (await findOrganization(ledger, slug)) {
      throw new LedgerError('conflict', `An organization with slug "${slug}" already exists.`, [{ field: 'slug', message: 'already taken' }]);
    }
    const id = newId();
    const lastInsertRowid = await ledger
      // Returns on the accrual basis (issue 50), as HMRC's standard VAT accounting (cash accounting is a scheme one
      // joins) and as the reports' own default: the column's default is what organizations before were given.
      .stmt("INSERT INTO organizations (id, slug, name, currency, decimal_mark, country, chart_template, created_at, tax_basis) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'accrual')")
      .insert(id, slug, name, currency, input.decimalMark ?? '.', country, template.id, nowIso());
    const orgSeq = Number(lastInsertRowid);
    return ledger.forOrg(orgSeq, () => seed(ledger, orgSeq, { id, slug, name, currency, decimalMark: input.decimalMark ?? '.' }, template, actor));
  });
}

/** A new organization's chart, its seed contacts and its first audit entry, in its own scope (tax codes come with its tax set: tax/codes.ts). */
async function seed(
  ledger: Ledger,
  orgSeq: number,
  org: { id: string; slug: string; name: string; currency: string; decimalMark: DecimalMark },
  template: ChartTemplate,
  actor: Actor,
): Promise<Organization> {
  const { id, slug, name, currency } = org;
  const addCategory = ledger.stmt('INSERT INTO categories (org_seq, code, name, type, parent_code, synonyms, cost_of_sales, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  for (const c of template.chart) await addCategory.run(orgSeq, c.code, c.name, c.type, c.parentCode, JSON.stringify(c.synonyms), c.costOfSales ? 1 : 0, c.role ?? null);
  // Seed counterparties are vendors (issue 29).
  const addCounterparty = ledger.stmt('INSERT INTO counterparties (org_seq, id, name, aliases, default_code, is_vendor) VALUES (?, ?, ?, ?, ?, 1)');
  for (const p of template.counterparties) await addCounterparty.run(orgSeq, newId(), p.name, JSON.stringify(p.aliases), p.defaultCode);
  await appendAudit(ledger, orgSeq, actor, {
    action: 'organization.created',
    targetType: 'organization',
    targetId: id,
    summary: `Organization "${name}" (${slug}, ${currency}, amounts written ${writeAmount(123456, currency, org.decimalMark)}) created with ${template.name}`,
  });
  return organizationBySeq(ledger, orgSeq);
}

/** First run on an empty data folder: one default organization. */
export async function ensureDefaultOrganization(ledger: Ledger): Promise<Organization> {
  return (await listOrganizations(ledger))[0] ?? (await createOrganization(ledger, { slug: DEFAULT_ORG_SLUG, name: 'My organization' }));
}

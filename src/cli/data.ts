// The data folder as owner commands open it: --data (else the per-user app
// folder, as the desktop uses), and --org (else the only organization; with
// several, a command about one of them must name it).
import { createOrganization, ensureDefaultOrganization, findOrganization, LedgerError, listOrganizations, openLedger, type Ledger, type Organization } from '../main/ledger';
import { defaultDataDir, ledgerFile } from '../main/paths';
import { UsageError } from './usage';

/** Opens the data folder's ledger for fn (which may be async) and closes it after. */
export async function withLedger<T>(data: string | undefined, fn: (ledger: Ledger) => T): Promise<T> {
  const ledger = openLedger(ledgerFile(data ?? defaultDataDir()), { log: (m) => process.stderr.write(`ledgerdesk: ${m}\n`) });
  let result: T;
  try {
    result = fn(ledger);
  } catch (error) {
    ledger.close();
    throw error;
  }
  if (result instanceof Promise) return (await result.finally(() => ledger.close())) as T;
  ledger.close();
  return result;
}

/** "Hartley Studio (studio)": how commands name the organization they acted on. */
export const orgLabel = (org: Pick<Organization, 'name' | 'slug'>): string => `${org.name} (${org.slug})`;

/**
 * --org, else the only organization (made on first use, as the app's first start
 * makes it). With several and no --org the command is refused, naming them: a
 * row in the wrong client's books is the worst outcome, and a "current"
 * organization shared with the screens would change under a running script
 * whenever someone switches in the app.
 */
export async function pickOrganization(ledger: Ledger, slug: string | undefined, createMissing = false): Promise<Organization> {
  if (slug) {
    const org = await findOrganization(ledger, slug);
    if (org) return org;
    if (createMissing) return createOrganization(ledger, { slug });
    throw new UsageError(`No organization "${slug}". Known: ${(await listOrganizations(ledger)).map((o) => o.slug).join(', ') || '(none)'}.`);
  }
  const all = (await listOrganizations(ledger)).sort((a, b) => a.slug.localeCompare(b.slug));
  if (all.length > 1) {
    const slugs = all.map((o) => o.slug).join(', ');
    throw new LedgerError('validation_failed', `Several organizations: ${all.map(orgLabel).join(', ')}; name one with --org <slug>.`, [
      { field: 'org', message: `is required when there are several organizations (${slugs})` },
    ]);
  }
  return all[0] ?? (await ensureDefaultOrganization(ledger));
}

/** The newest audit entry of an organization: every write appends one, so a command that moved it wrote. */
export const lastAuditSeq = async (ledger: Ledger, org: Organization): Promise<number> =>
  (await ledger.stmt('SELECT coalesce(max(seq), 0) FROM audit_log WHERE org_seq = ?').pluck().get(org.seq)) as number;

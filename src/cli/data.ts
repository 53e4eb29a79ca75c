// The data folder as owner commands open it: --data (else the per-user app
// folder, as the desktop uses), and --org (else the only organization, or
// `default` when there are several).
import { createOrganization, ensureDefaultOrganization, findOrganization, listOrganizations, openLedger, type Ledger, type Organization } from '../main/ledger';
import { defaultDataDir, ledgerFile } from '../main/paths';
import { UsageError } from './usage';

/** Opens the data folder's ledger for fn (which may be async) and closes it after. */
export function withLedger<T>(data: string | undefined, fn: (ledger: Ledger) => T): T {
  const ledger = openLedger(ledgerFile(data ?? defaultDataDir()), { log: (m) => process.stderr.write(`ledgerdesk: ${m}\n`) });
  let result: T;
  try {
    result = fn(ledger);
  } catch (error) {
    ledger.close();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => ledger.close()) as T;
  ledger.close();
  return result;
}

/** --org, or the only/default organization (created on first use). */
export function pickOrganization(ledger: Ledger, slug: string | undefined, createMissing = false): Organization {
  if (slug) {
    const org = findOrganization(ledger, slug);
    if (org) return org;
    if (createMissing) return createOrganization(ledger, { slug });
    throw new UsageError(
      `No organization "${slug}". Known: ${
        listOrganizations(ledger)
          .map((o) => o.slug)
          .join(', ') || '(none)'
      }.`,
    );
  }
  const all = listOrganizations(ledger);
  if (all.length > 1) {
    const fallback = all.find((o) => o.slug === 'default');
    if (fallback) return fallback;
    throw new UsageError(`Several organizations exist; pick one with --org (${all.map((o) => o.slug).join(', ')}).`);
  }
  return ensureDefaultOrganization(ledger);
}

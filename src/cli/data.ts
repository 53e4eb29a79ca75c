// The books as owner commands open them: --database (or LEDGERDESK_DATABASE_URL:
// a firm's PostgreSQL server), else --data (else the per-user app folder, as the
// desktop uses); and --org (else the only organization; with several, a command
// about one of them must name it).
import type { Ledger } from '../main/ledger/core/storage';
import { LedgerError } from '../main/ledger/core/errors';
import { findOrganization, listOrganizations, type Organization } from '../main/ledger/access/organizations';
import { createOrganization, ensureDefaultOrganization } from '../main/ledger/access/start';
import { configuredDatabase, isDatabaseUrl, openBooks } from '../main/ledger/core/open';
import { defaultDataDir, ledgerFile } from '../main/paths';
import { normalEmail, personByEmail } from '../main/ledger/access/people';
import type { DeskPerson } from '../main/desk/operation';
import { UsageError } from './usage';

/** Where a command's books are: its --data and --database flags. */
export interface BooksFlags {
  data?: string;
  database?: string;
}

/** The PostgreSQL address a command names (--database, else LEDGERDESK_DATABASE_URL), or none: the data folder. */
export function databaseOf(flags: BooksFlags): string | undefined {
  let url: string | undefined;
  try {
    url = configuredDatabase(flags.database);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (flags.database !== undefined) warnPasswordInArguments(flags.database, '--database');
  return url;
}

const warned = new Set<string>();

/**
 * A password in an address given on the command line is seen by every local user (`ps`, /proc/<pid>/cmdline) and
 * kept in shell histories: the command still runs, and says where the password belongs instead (stderr, once).
 */
export function warnPasswordInArguments(url: string, flag: string, note: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  if (warned.has(flag) || !isDatabaseUrl(url)) return;
  let password = '';
  try {
    password = new URL(url).password || (new URL(url).searchParams.get('password') ?? '');
  } catch {
    return; // an address that does not parse is refused where it is used
  }
  if (!password) return;
  warned.add(flag);
  note(
    `ledgerdesk: warning: the password in ${flag} is visible to other users of this machine (ps) and kept in your shell's history. ` +
      'Leave it out of the address and give it in LEDGERDESK_DATABASE_URL (the whole address), PGPASSWORD, or a password file (~/.pgpass, or the file PGPASSFILE names; mode 0600).',
  );
}

/**
 * Opens the books for fn and closes them after. fn runs for 'all' organizations (it may list them and pick one:
 * pickOrganization); what it does for one organization runs in ledger.forOrg of that one.
 */
export async function withLedger<T>(flags: BooksFlags, fn: (ledger: Ledger) => T | Promise<T>): Promise<T> {
  const ledger = await openBooks(
    { ledgerFile: ledgerFile(flags.data ?? defaultDataDir()), database: databaseOf(flags) },
    { log: (m) => process.stderr.write(`ledgerdesk: ${m}\n`) },
  );
  try {
    return await ledger.forOrg('all', () => fn(ledger));
  } finally {
    await ledger.end();
  }
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

/**
 * The person a command runs as (--as <email>, or LEDGERDESK_AS): their role is checked as the screens check it, and
 * what the command writes names them. None named: the machine's owner, as on the desktop.
 */
export async function commandPerson(ledger: Ledger, email: string | undefined): Promise<DeskPerson | null> {
  if (email === undefined) return null;
  const row = await personByEmail(ledger, email);
  if (!row || row.removed_at) throw new UsageError(`No person ${normalEmail(email)} on these books: --as names a person who signs in here (ledgerdesk user list).`);
  return { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: row.totp_secret !== null };
}

/** Whether people sign in to these books (issue 45): then a command that writes should say who runs it. */
export const peopleSignIn = async (ledger: Ledger): Promise<boolean> => (await ledger.stmt('SELECT 1 FROM users WHERE removed_at IS NULL LIMIT 1').get()) !== undefined;

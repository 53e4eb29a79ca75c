// `ledgerdesk backup --database <url>` and `ledgerdesk restore <file> --database
// <url>`: a firm's server's books backed up with pg_dump and restored with
// pg_restore (ledger/core/postgres: dump.ts, restore.ts), as a data folder's are
// with `backup` and `restore` (desk/access/backups.ts, local.ts). Neither opens
// the books before its checks: a backup role may not migrate, and a restore's
// database is empty until pg_restore is done. A restore then opens them (as the
// server does) and verifies every organization's audit chain.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Ledger } from '../main/ledger';
import { verifyAuditChain } from '../main/ledger/access/audit';
import { listOrganizations } from '../main/ledger/access/organizations';
import { mapInOrder } from '../main/ledger/core/in-order';
import { openBooks } from '../main/ledger/core/open';
import { dumpServer } from '../main/ledger/core/postgres/dump';
import { restoreServer } from '../main/ledger/core/postgres/restore';
import { databaseOf, orgLabel } from './data';
import { UsageError } from './usage';

type Out = (line: string) => void;

export const SERVER_BACKUP_USAGE = 'backup --database <postgres://role@host/db> [--out <file>] [--json]';

/** Whether a `backup` names a server's books (--database, or LEDGERDESK_DATABASE_URL): then pg_dump makes it. */
export const namesServer = (args: string[], env: NodeJS.ProcessEnv = process.env): boolean =>
  args.some((a) => a === '--database' || a.startsWith('--database=')) || Boolean(env.LEDGERDESK_DATABASE_URL);

/** Where a backup goes without --out: the current folder, named by the database and the time. */
function defaultFile(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1)) || 'books';
  return resolve(`ledgerdesk-${name.replace(/[^\w.-]/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.dump`);
}

export async function backupServerCommand(args: string[], out: Out): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { database: { type: 'string' }, data: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, SERVER_BACKUP_USAGE);
  }
  const { values } = parsed;
  if (values.help) {
    out(
      `Usage: ledgerdesk ${SERVER_BACKUP_USAGE}\n\nBack up a PostgreSQL server's books with pg_dump (custom format), as a role that bypasses row-level security (docs/postgres.md).`,
    );
    return 0;
  }
  const url = databaseOf(values)!;
  const file = values.out ? resolve(values.out) : defaultFile(url);
  const b = await dumpServer(url, file);
  if (values.json) {
    out(JSON.stringify(b, null, 2));
    return 0;
  }
  out(`Backed up ${b.database} as ${b.role} to ${b.file} (${b.size} bytes; ${b.organizations} organization(s), ${b.auditEntries} audit entries; pg_dump ${b.pgDump}).`);
  out(`Restore it into a new, empty database: ledgerdesk restore ${b.file} --database <postgres://...> (docs/postgres.md#backups-and-restores).`);
  return 0;
}

/** Each organization's audit chain, verified as the server reads it (one organization at a time); false if one breaks. */
async function verifyEach(ledger: Ledger, out: Out): Promise<boolean> {
  const orgs = await ledger.forOrg('all', () => listOrganizations(ledger));
  const checks = await mapInOrder(orgs, async (org) => ({ org, check: await verifyAuditChain(ledger, org.seq) }));
  for (const { org, check } of checks) {
    out(
      check.ok
        ? `  ${orgLabel(org)}: the audit log verifies, ${check.entries} entries.`
        : `  ${orgLabel(org)}: THE AUDIT LOG DOES NOT VERIFY at entry ${check.firstBad!.id} (${check.firstBad!.at}, ${check.firstBad!.action}).`,
    );
  }
  return checks.every((c) => c.check.ok);
}

export async function restoreServerCommand(backup: string, url: string, out: Out): Promise<number> {
  const file = resolve(backup);
  const r = await restoreServer(url, file);
  out(`Restored ${file} into ${r.database} (pg_restore ${r.pgRestore}).`);
  const ledger = await openBooks({ ledgerFile: '', database: url }, { log: (m) => process.stderr.write(`ledgerdesk: ${m}\n`) });
  try {
    return (await verifyEach(ledger, out)) ? 0 : 1;
  } finally {
    await ledger.end();
  }
}

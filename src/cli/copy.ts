// `ledgerdesk org copy <slug> --to <folder or postgres://...>`: an organization's
// books from these books (--data or --database, as every owner command) to other
// books, a desktop's data folder or a firm's server, either way
// (ledger/access/copy.ts), written in one transaction of the target; then the
// trial balance of both compared to the cent, and said (exit 1 if they differ).
// --move then archives the source (ledger/access/archive.ts): only once the
// copy is written and its trial balance is the same, so nothing is archived
// when the copy or its check fails.
import { parseArgs } from 'node:util';
import type { Ledger } from '../main/ledger';
import { copyOrganization } from '../main/ledger/access/copy';
import { deskActor, requireOrganization } from '../main/ledger/access/organizations';
import { archiveOrganization, unarchiveOrganization } from '../main/ledger/access/archive';
import { isDatabaseUrl, openBooks, withoutPassword } from '../main/ledger/core/open';
import { trialBalance } from '../main/ledger/reports/balance-sheet';
import { ledgerFile } from '../main/paths';
import { databaseOf, warnPasswordInArguments, withLedger } from './data';
import { UsageError } from './usage';

export const COPY_USAGE = 'org copy <slug> --to <data folder | postgres://...> [--as <slug>] [--move] [--data <dir> | --database <url>]';

export async function orgCopy(args: string[], out: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { to: { type: 'string' }, as: { type: 'string' }, move: { type: 'boolean' }, data: { type: 'string' }, database: { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, COPY_USAGE);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(
      `Usage: ledgerdesk ${COPY_USAGE}\n\nCopy an organization's books to other books: a data folder's or a PostgreSQL server's (receipts, audit log and all).\n--move: once the copy's trial balance is the same, archive the organization here (kept to read, out of the list, every change refused; org unarchive brings it back).`,
    );
    return 0;
  }
  if (positionals.length !== 1 || !values.to) throw new UsageError('org copy takes the organization and --to <where>', COPY_USAGE);
  const target = values.to;
  warnPasswordInArguments(target, '--to');
  const to = await openBooks(isDatabaseUrl(target) ? { ledgerFile: '', database: target } : { ledgerFile: ledgerFile(target) }, {
    log: (m) => process.stderr.write(`ledgerdesk: ${m}\n`),
  });
  try {
    if (!isDatabaseUrl(target) && databaseOf(values) === undefined && ledgerFile(values.data ?? '') === to.file) throw new UsageError('--to names the same books', COPY_USAGE);
    return await withLedger(values, async (from) => {
      const { organization, rows } = await copyOrganization(from, to, positionals[0], { as: values.as });
      out(`Copied ${positionals[0]} to ${isDatabaseUrl(target) ? withoutPassword(target) : target} as ${organization.slug} (${organization.name}):`);
      out(
        `  ${Object.entries(rows)
          .filter(([, n]) => n > 0)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')}`,
      );
      const same = await sameTrialBalance(from, to, positionals[0], organization.slug);
      out(same ? 'The trial balance is the same in both, to the cent.' : 'THE TRIAL BALANCES DIFFER: check the copy before using it.');
      if (!same) {
        if (values.move) out(`Not archived: ${positionals[0]} stays live here until a copy checks out.`);
        return 1;
      }
      if (values.move) {
        const where = `moved to ${isDatabaseUrl(target) ? withoutPassword(target) : target} as ${organization.slug}, the trial balance the same in both`;
        await archiveOrganization(from, positionals[0], deskActor(), where);
        out(`Archived ${positionals[0]} here: kept to read (by its slug), out of the list, every change refused (ledgerdesk org unarchive ${positionals[0]} brings it back).`);
      }
      return 0;
    });
  } finally {
    await to.end();
  }
}

export const UNARCHIVE_USAGE = 'org unarchive <slug> [--data <dir> | --database <url>]';

/** `org unarchive <slug>`: an organization archived by `org copy --move` live again here (the machine's owner's, as the copy). */
export async function orgUnarchive(args: string[], out: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { data: { type: 'string' }, database: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message, UNARCHIVE_USAGE);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(`Usage: ledgerdesk ${UNARCHIVE_USAGE}\n\nMake an organization archived by org copy --move live again: in the list, its books open to change (audited).`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('org unarchive takes the organization', UNARCHIVE_USAGE);
  return withLedger(values, async (ledger) => {
    const org = await unarchiveOrganization(ledger, positionals[0], deskActor());
    out(`${org.name} (${org.slug}) is live again: in the list, its books open to change.`);
    return 0;
  });
}

async function sameTrialBalance(from: Ledger, to: Ledger, fromSlug: string, toSlug: string): Promise<boolean> {
  const of = async (ledger: Ledger, slug: string) => {
    const org = await ledger.forOrg('all', () => requireOrganization(ledger, slug));
    return JSON.stringify(await ledger.forOrg(org.seq, () => trialBalance(ledger, org.seq)));
  };
  return (await of(from, fromSlug)) === (await of(to, toSlug));
}

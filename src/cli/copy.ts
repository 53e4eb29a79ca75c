// `ledgerdesk org copy <slug> --to <folder or postgres://...>`: an organization's
// books from these books (--data or --database, as every owner command) to other
// books, a desktop's data folder or a firm's server, either way
// (ledger/access/copy.ts), written in one transaction of the target; then the
// trial balance of both compared to the cent, and said (exit 1 if they differ).
import { parseArgs } from 'node:util';
import type { Ledger } from '../main/ledger';
import { copyOrganization } from '../main/ledger/access/copy';
import { requireOrganization } from '../main/ledger/access/organizations';
import { isDatabaseUrl, openBooks, withoutPassword } from '../main/ledger/core/open';
import { trialBalance } from '../main/ledger/reports/balance-sheet';
import { ledgerFile } from '../main/paths';
import { databaseOf, warnPasswordInArguments, withLedger } from './data';
import { UsageError } from './usage';

export const COPY_USAGE = 'org copy <slug> --to <data folder | postgres://...> [--as <slug>] [--data <dir> | --database <url>]';

export async function orgCopy(args: string[], out: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { to: { type: 'string' }, as: { type: 'string' }, data: { type: 'string' }, database: { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, COPY_USAGE);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(`Usage: ledgerdesk ${COPY_USAGE}\n\nCopy an organization's books to other books: a data folder's or a PostgreSQL server's (receipts, audit log and all).`);
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
      return same ? 0 : 1;
    });
  } finally {
    await to.end();
  }
}

async function sameTrialBalance(from: Ledger, to: Ledger, fromSlug: string, toSlug: string): Promise<boolean> {
  const of = async (ledger: Ledger, slug: string) => {
    const org = await ledger.forOrg('all', () => requireOrganization(ledger, slug));
    return JSON.stringify(await ledger.forOrg(org.seq, () => trialBalance(ledger, org.seq)));
  };
  return (await of(from, fromSlug)) === (await of(to, toSlug));
}

// Organizations: every row of the ledger belongs to one. A new organization's
// chart of accounts and counterparties are seeded from a chart template (start.ts).
import { userInfo } from 'node:os';
import type { Ledger } from '../core/sqlite/open';
import { appendAudit, type Actor, type Human } from './audit';
import { nowIso } from '../core/clock';
import { LedgerError, invalid } from '../core/errors';
import { writeAmount, type DecimalMark } from '../../../shared/amounts';
import { requireCurrency } from '../rates/currencies';
import { SETTING_COLUMNS, settingChanges, type InvoiceSettingChanges, type InvoiceSettings } from './details';
import { mapInOrder } from '../core/in-order';

export interface Organization extends InvoiceSettings {
  seq: number;
  id: string;
  slug: string;
  name: string;
  currency: string;
  /** How amounts are written and typed: '.' (1,234.56) or ',' (1.234,56). */
  decimalMark: DecimalMark;
  /** The first day of its fiscal year, MM-DD (default 01-01). */
  fiscalYearStart: string;
  /** The closing date: nothing dated on or before it changes (closing.ts); null when none. */
  lockedThrough: string | null;
  /** The ready-made tax set it was set up with (tax/codes.ts), or null. */
  taxSet: string | null;
  /** The chart template it was started with (null: before templates, the default). */
  chartTemplate: string | null;
  /** Its people sign in with a second factor (issue 45): 1 or 0. */
  requireTotp: number;
  createdAt: string;
}

export { DECIMAL_MARKS } from '../../../../db/values';

export const DEFAULT_ORG_SLUG = 'default';
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The person at the desk: one local user per data folder. */
export function deskActor(): Human {
  let name = 'Bookkeeper';
  try {
    name = userInfo().username || name;
  } catch {
    /* no passwd entry: keep the generic name */
  }
  return { type: 'human', userId: 'local-user', name, channel: 'desk' };
}

const SELECT = `SELECT seq, id, slug, name, currency, decimal_mark AS "decimalMark", fiscal_year_start AS "fiscalYearStart", locked_through AS "lockedThrough",
  tax_set AS "taxSet", chart_template AS "chartTemplate", ${SETTING_COLUMNS}, require_totp AS "requireTotp", created_at AS "createdAt" FROM organizations`;

export async function listOrganizations(ledger: Ledger): Promise<Organization[]> {
  // An archived organization (archive.ts) is out of the list; its slug still opens its books to read.
  return (await ledger.stmt(`${SELECT} WHERE removed_at IS NULL AND archived_at IS NULL ORDER BY lower(name), seq`).all()) as Organization[];
}

export async function findOrganization(ledger: Ledger, slugOrId: string): Promise<Organization | undefined> {
  return (await ledger.stmt(`${SELECT} WHERE (slug = ? OR id = ?) AND removed_at IS NULL`).get(slugOrId, slugOrId.toLowerCase())) as Organization | undefined;
}

export async function organizationBySeq(ledger: Ledger, seq: number): Promise<Organization> {
  return (await ledger.stmt(`${SELECT} WHERE seq = ?`).get(seq)) as Organization;
}

/** How the organization writes amounts: typed amounts are read with it. */
export const decimalMarkOf = async (ledger: Ledger, seq: number): Promise<DecimalMark> =>
  ((await ledger.stmt('SELECT decimal_mark FROM organizations WHERE seq = ?').pluck().get(seq)) as DecimalMark | undefined) ?? '.';

/**
 * Not found, naming only what was asked: the one answer for an organization that does not exist and for one the
 * person asking is not in (desk/scope.ts), so that the answer tells them nothing of it (issue 51).
 */
export const noSuchOrganization = (asked: string): LedgerError => new LedgerError('not_found', `No organization "${asked}".`, { resource: 'organization', id: asked });

export async function requireOrganization(ledger: Ledger, slugOrId: string): Promise<Organization> {
  const org = await findOrganization(ledger, slugOrId);
  if (!org) throw noSuchOrganization(slugOrId);
  return org;
}

/** Runs a write about one organization in its scope (its row locked on a server's database), whatever the caller's. */
export async function inItsOrg<T>(ledger: Ledger, slugOrId: string, fn: () => Promise<T>): Promise<T> {
  const { seq } = await ledger.forOrg(ledger.org ?? 'all', () => requireOrganization(ledger, slugOrId));
  return ledger.forOrg(seq, () => ledger.write(fn));
}

export interface OrganizationChanges extends InvoiceSettingChanges {
  name?: string;
  /** Its base currency: only while it holds no money (moneyHeld). */
  currency?: string;
  decimalMark?: DecimalMark;
  /** MM-DD: the first day of the fiscal year. */
  fiscalYearStart?: string;
}

/** A fiscal year's first day as MM-DD: a day every year has (no 29 February). */
export const FISCAL_YEAR_START = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const validStart = (mmdd: string): boolean => FISCAL_YEAR_START.test(mmdd) && mmdd !== '02-29' && new Date(`2023-${mmdd}T00:00:00Z`).toISOString().slice(5, 10) === mmdd;

/** Renames an organization (any of them), changes how it writes amounts, (while it holds no money) its currency, or what its invoices print (details.ts); audited before and after. */
export async function updateOrganization(ledger: Ledger, slugOrId: string, changes: OrganizationChanges, actor: Actor = deskActor()): Promise<Organization> {
  return inItsOrg(ledger, slugOrId, async () => {
    const org = await requireOrganization(ledger, slugOrId);
    const name = changes.name?.trim() ?? org.name;
    if (!name || name.length > 200) throw invalid([{ field: 'name', message: 'must be 1 to 200 characters' }]);
    const decimalMark = changes.decimalMark ?? org.decimalMark;
    const fiscalYearStart = changes.fiscalYearStart ?? org.fiscalYearStart;
    if (!validStart(fiscalYearStart)) throw invalid([{ field: 'fiscalYearStart', message: 'must be a day of the year as MM-DD, such as 01-01 or 04-06 (not 02-29)' }]);
    const settings = await settingChanges(ledger, org, changes);
    const currency = changes.currency === undefined ? org.currency : requireCurrency(changes.currency);
    const moved = currency === org.currency ? null : await moveCurrency(ledger, org, currency, actor);
    const said = [
      moved && `currency ${org.currency} -> ${currency}${moved.length ? ` (accounts moved with it: ${moved.join(', ')})` : ''}`,
      ...settings.map((x) => x.said),
      name !== org.name && `name "${org.name}" -> "${name}"`,
      decimalMark !== org.decimalMark && `amounts written ${writeAmount(123456, org.currency, org.decimalMark)} -> ${writeAmount(123456, org.currency, decimalMark)}`,
      fiscalYearStart !== org.fiscalYearStart && `fiscal year starts ${org.fiscalYearStart} -> ${fiscalYearStart}`,
    ].filter(Boolean);
    if (!said.length) return org;
    await ledger
      .stmt('UPDATE organizations SET name = ?, currency = ?, decimal_mark = ?, fiscal_year_start = ? WHERE seq = ?')
      .run(name, currency, decimalMark, fiscalYearStart, org.seq);
    for (const x of settings) await ledger.stmt(`UPDATE organizations SET ${x.column} = ? WHERE seq = ?`).run(x.value, org.seq);
    await appendAudit(ledger, org.seq, actor, {
      action: 'organization.updated',
      targetType: 'organization',
      targetId: org.id,
      summary: `Organization ${org.slug} changed: ${said.join('; ')}`,
    });
    return organizationBySeq(ledger, org.seq);
  });
}

/**
 * What ties an organization to its base currency (issue 42): money written in it, each a table and
 * the condition (one org_seq). An opening balance counts on an account in the base currency only:
 * that account moves with the currency, and its figure was typed in the old one.
 */
const MONEY = [
  ['row', 'rows', 'transactions WHERE org_seq = ?'],
  ['invoice, bill or credit note', 'invoices, bills or credit notes', 'documents WHERE org_seq = ?'],
  ['exchange rate', 'exchange rates', 'exchange_rates WHERE org_seq = ?'],
  ['revaluation', 'revaluations', 'revaluations WHERE org_seq = ?'],
  ['filed tax return', 'filed tax returns', 'tax_returns WHERE org_seq = ?'],
  ['proposal waiting in Approvals', 'proposals waiting in Approvals', "proposals WHERE org_seq = ? AND status = 'pending'"],
  [
    'opening balance',
    'opening balances',
    'accounts a WHERE a.org_seq = ? AND a.opening_balance_minor <> 0 AND a.currency = (SELECT currency FROM organizations WHERE seq = a.org_seq)',
  ],
] as const;

/** What money the organization holds, counted ("12 rows"): its currency may change only while there is none. */
export async function moneyHeld(ledger: Ledger, orgSeq: number): Promise<string[]> {
  return (
    await mapInOrder(MONEY, async ([one, many, from]) => {
      const n = (await ledger.stmt(`SELECT count(*) FROM ${from}`).pluck().get(orgSeq)) as number;
      return n === 0 ? '' : `${n} ${n === 1 ? one : many}`;
    })
  ).filter(Boolean);
}

/** Whether its currency may change: no money in it (EXISTS each, cheap enough for every listing). */
export const currencyMayChange = async (ledger: Ledger, orgSeq: number): Promise<boolean> =>
  !(await ledger
    .stmt(`SELECT ${MONEY.map(([, , from]) => `EXISTS (SELECT 1 FROM ${from})`).join(' OR ')}`)
    .pluck()
    .get(...MONEY.map(() => orgSeq)));

/**
 * A new base currency, refused while money is written in the old one. Its accounts in the old currency
 * (made in it by default, holding nothing) move with it, each audited; those in another currency keep theirs.
 * Answers the names of the accounts moved; the caller holds the write transaction.
 */
async function moveCurrency(ledger: Ledger, org: Organization, currency: string, actor: Actor): Promise<string[]> {
  const held = await moneyHeld(ledger, org.seq);
  if (held.length) {
    throw new LedgerError(
      'conflict',
      `The currency of "${org.name}" stays ${org.currency}: its books hold money in it (${held.join(', ')}). It changes only while they hold none; for books in ${currency}, start another organization.`,
      [{ field: 'currency', message: `fixed while the books hold money (${held.join(', ')})` }],
    );
  }
  const accounts = (await ledger.stmt('SELECT id, name FROM accounts WHERE org_seq = ? AND currency = ? ORDER BY seq').all(org.seq, org.currency)) as {
    id: string;
    name: string;
  }[];
  await ledger.stmt('UPDATE accounts SET currency = ? WHERE org_seq = ? AND currency = ?').run(currency, org.seq, org.currency);
  for (const a of accounts) {
    await appendAudit(ledger, org.seq, actor, {
      action: 'account.updated',
      targetType: 'account',
      targetId: a.id,
      summary: `Account "${a.name}" changed: currency ${org.currency} -> ${currency}, with its organization's (it held nothing)`,
    });
  }
  return accounts.map((a) => a.name);
}

/** What an organization holds besides its chart: removal needs all of it at zero. */
const HOLDINGS = [
  ['accounts', 'SELECT count(*) FROM accounts WHERE org_seq = ?'],
  ['transactions', 'SELECT count(*) FROM transactions WHERE org_seq = ?'],
  ['receipts', 'SELECT count(*) FROM receipts WHERE org_seq = ?'],
  ['proposals', 'SELECT count(*) FROM proposals WHERE org_seq = ?'],
  ['tokens', 'SELECT count(*) FROM tokens WHERE org_seq = ? AND revoked_at IS NULL'],
  ['rules', 'SELECT count(*) FROM rules WHERE org_seq = ?'],
  ['imports', 'SELECT count(*) FROM import_batches WHERE org_seq = ?'],
] as const;

/** What an organization holds besides its chart, counted (removal needs all of it at zero; an organization without accounts is "empty books"). */
export async function holdingsOf(ledger: Ledger, orgSeq: number): Promise<Record<(typeof HOLDINGS)[number][0], number>> {
  return Object.fromEntries(await mapInOrder(HOLDINGS, async ([what, sql]) => [what, (await ledger.stmt(sql).pluck().get(orgSeq)) as number])) as Record<
    (typeof HOLDINGS)[number][0],
    number
  >;
}

/**
 * Removes an empty organization (one made by mistake): hidden from every list
 * and its slug freed. Its audit entries stay, as the log is append-only; so
 * an organization with books is refused, naming what it holds.
 */
export async function removeOrganization(ledger: Ledger, slugOrId: string, actor: Actor = deskActor()): Promise<Organization> {
  return inItsOrg(ledger, slugOrId, async () => {
    const org = await requireOrganization(ledger, slugOrId);
    if ((await ledger.forOrg('all', () => listOrganizations(ledger))).length === 1)
      throw new LedgerError('conflict', `"${org.name}" is the only organization; rename it instead of removing it.`, { id: org.id });
    const held = Object.entries(await holdingsOf(ledger, org.seq)).filter(([, n]) => n > 0);
    if (held.length) {
      const list = held.map(([what, n]) => `${n} ${n === 1 ? what.replace(/s$/, '') : what}`).join(', ');
      throw new LedgerError('conflict', `Organization "${org.name}" is not empty (${list}); only an empty organization can be removed.`, Object.fromEntries(held));
    }
    // The slug is freed: '~' never occurs in a slug, so no new one can meet it.
    await ledger.stmt("UPDATE organizations SET removed_at = ?, slug = slug || '~' || seq WHERE seq = ?").run(nowIso(), org.seq);
    await appendAudit(ledger, org.seq, actor, {
      action: 'organization.removed',
      targetType: 'organization',
      targetId: org.id,
      summary: `Organization "${org.name}" (${org.slug}) removed while empty`,
    });
    return org;
  });
}

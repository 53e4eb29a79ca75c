// What every transaction is set to, transaction-local (set_config(..., true)), so that nothing stays on a
// connection a transaction pooler may hand to anyone next (issue 51): the role row-level security binds, the
// caller's organization (`app.org`) and the statement timeout.
import type { OrgScope } from '../storage';
import { SESSION_TOKEN } from './pooled';
import { outdatedCheck } from './text';

/** The role the server's statements run as: it owns nothing, and row-level security applies to it (db/postgres). */
export const SERVER_ROLE = 'ledgerdesk_app';

/**
 * The role a scope of several organizations reads as (the Practice screen): SELECT only, and the one role the
 * several-organizations policies (`<table>_orgs`) are for, so that they are no part of SERVER_ROLE's statements.
 * Neither role is granted to the other (a member would carry the other's policies).
 */
export const READER_ROLE = 'ledgerdesk_reader';

/** A scope as app.org takes it: a number, 'all', '' (none), or several organizations as an array's text ({3,7}: ldk_orgs()). */
export function orgText(org: OrgScope | undefined): string {
  const text = org === undefined ? '' : typeof org === 'object' ? `{${org.map(Number).join(',')}}` : String(org);
  if (!/^(\d*|all|\{(\d+(,\d+)*)?\})$/.test(text)) throw new RangeError(`not an organization: ${text}`);
  return text;
}

/** The role a transaction at `org` (orgText) runs as: READER_ROLE for a list, else `role` (null: the login role's). */
export const roleFor = (role: string | null, org: string): string | null => (role && org.startsWith('{') ? READER_ROLE : role);

/** The set_config calls that move a begun transaction to another scope (a forOrg inside a write or a snapshot). */
export function scopeSql(role: string | null, org: string): string {
  const as = roleFor(role, org);
  return `SELECT ${as ? `set_config('role', '${as}', true), ` : ''}set_config('app.org', '${org}', true)`;
}

export interface Settings {
  role: string | null;
  org: string;
  statementTimeoutMs: number;
  /** Before a write: the migrations this build knows, checked against the database's (a newer build's fail it). */
  knownMigrations: number | null;
  /** Behind a transaction pooler: the server session's token first (pooled.ts), read by the driver. */
  session?: boolean;
}

/** A transaction's opening settings: the role, the organization, the statement timeout and, before a write, the schema check. */
export function settingsSql({ role, org, statementTimeoutMs, knownMigrations, session }: Settings): string {
  const parts = [`set_config('app.org', '${org}', true)`];
  const as = roleFor(role, org);
  if (as) parts.unshift(`set_config('role', '${as}', true)`);
  if (statementTimeoutMs > 0) parts.push(`set_config('statement_timeout', '${statementTimeoutMs}', true)`);
  if (knownMigrations !== null) parts.push(outdatedCheck(knownMigrations));
  if (session) parts.unshift(SESSION_TOKEN);
  return `SELECT ${parts.join(', ')}`;
}

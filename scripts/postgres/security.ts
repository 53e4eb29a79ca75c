// Row-level security on a firm's server: the role the server runs as (it owns
// nothing, so FORCEd policies bind it), what it may do to each table, and each
// organization's table shown only for the organization the connection is set to;
// or, to read only, for the several organizations it is set to (a list: the
// Practice screen reads every organization a person may see in one statement),
// through a second role of its own (READER_ROLE) so that the server's role
// carries one policy a table, not two ORed (a list's clause on every statement
// slowed every read 10-20x).
import { GLOBAL_TABLES, ORG_SETTING } from '../../src/main/ledger/core/postgres/tenancy';
import { READER_ROLE, SERVER_ROLE } from '../../src/main/ledger/core/postgres/driver';
import { q } from './tables';

/** Tables the server may read and add to but never change: the audit log (its triggers say so too). */
const APPEND_ONLY = ['audit_log'];

/** The global tables a scope of several organizations reads (the Practice screen: the organizations, the people assigned). */
const READER_GLOBAL_TABLES = ['organizations', 'users'];

/** Made, and granted to the role migrating, unless a DBA made and granted it beforehand. */
const roleMade = (role: string) => `DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} NOLOGIN; END IF;
  IF NOT pg_has_role(current_user, '${role}', 'MEMBER') THEN GRANT ${role} TO CURRENT_USER; END IF;
END $$;`;

/** The reader's SELECT on every organization's table and the global tables it reads: nothing else, no write. */
const readerGrantSql = (orgTables: readonly string[]): string => `GRANT SELECT ON ${[...orgTables, ...READER_GLOBAL_TABLES].map(q).join(', ')} TO ${READER_ROLE};`;

/** A table's second policy: SELECT only, for READER_ROLE alone, a row of an organization in the connection's list. */
const readerPolicySql = (table: string, column = 'org_seq'): string =>
  `CREATE POLICY "${table}_orgs" ON ${q(table)} FOR SELECT TO ${READER_ROLE} USING ("${column}" = ANY ((SELECT ldk_orgs())::bigint[]));`;

export function securitySql(orgTables: string[]): string[] {
  const role = SERVER_ROLE;
  return [
    `-- The role the server's connections SET ROLE to: it logs in as no one and owns no table. Made (and granted to the
-- role migrating) unless a DBA made and granted it beforehand.
${roleMade(role)}`,
    `-- The role a scope of several organizations reads as (the Practice screen): SELECT only, and the several-organizations
-- policies are its alone. Not granted to ${role}, nor ${role} to it: a member would carry its policies.
${roleMade(READER_ROLE)}`,
    `-- The connection's organization: a number, or 'all' (the organizations' own rows, no books); unset or '' reads nothing.
CREATE FUNCTION ldk_org() RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN current_setting('${ORG_SETTING}', true) ~ '^[0-9]+$' THEN current_setting('${ORG_SETTING}', true)::bigint END
$$;`,
    `-- The connection's organizations when it is set to several ('{3,7}', to read only); else null, which matches nothing.
-- The policies ask it as (SELECT ldk_orgs()): read once a statement (an InitPlan), not parsed again for every row.
CREATE FUNCTION ldk_orgs() RETURNS bigint[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN current_setting('${ORG_SETTING}', true) ~ '^[{][0-9]+(,[0-9]+)*[}]$' THEN current_setting('${ORG_SETTING}', true)::bigint[] END
$$;`,
    `CREATE FUNCTION ldk_all_orgs() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(current_setting('${ORG_SETTING}', true), '') = 'all'
$$;`,
    `GRANT USAGE ON SCHEMA public TO ${role};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${[...orgTables.filter((t) => !APPEND_ONLY.includes(t)), ...GLOBAL_TABLES].map(q).join(', ')} TO ${role};`,
    `GRANT SELECT, INSERT ON ${APPEND_ONLY.map(q).join(', ')} TO ${role};`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role};`,
    `GRANT SELECT ON "ledgerdesk_migrations" TO ${role};`,
    `GRANT USAGE ON SCHEMA public TO ${READER_ROLE};`,
    readerGrantSql(orgTables),
    ...orgTables.map(
      (t) => `ALTER TABLE ${q(t)} ENABLE ROW LEVEL SECURITY;
ALTER TABLE ${q(t)} FORCE ROW LEVEL SECURITY;
CREATE POLICY "${t}_org" ON ${q(t)} USING ("org_seq" = ldk_org()) WITH CHECK ("org_seq" = ldk_org());
${readerPolicySql(t)}`,
    ),
    `ALTER TABLE "organizations" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "organizations" FORCE ROW LEVEL SECURITY;
CREATE POLICY "organizations_org" ON "organizations" USING ("seq" = ldk_org() OR ldk_all_orgs()) WITH CHECK ("seq" = ldk_org() OR ldk_all_orgs());
${readerPolicySql('organizations', 'seq')}`,
  ];
}

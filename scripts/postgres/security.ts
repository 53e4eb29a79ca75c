// Row-level security on a firm's server: the role the server runs as (it owns
// nothing, so FORCEd policies bind it), what it may do to each table, and each
// organization's table shown only for the organization the connection is set to.
import { GLOBAL_TABLES, ORG_SETTING } from '../../src/main/ledger/core/postgres/tenancy';
import { SERVER_ROLE } from '../../src/main/ledger/core/postgres/driver';
import { q } from './tables';

/** Tables the server may read and add to but never change: the audit log (its triggers say so too). */
const APPEND_ONLY = ['audit_log'];

export function securitySql(orgTables: string[]): string[] {
  const role = SERVER_ROLE;
  return [
    `-- The role the server's connections SET ROLE to: it logs in as no one and owns no table. Made (and granted to the
-- role migrating) unless a DBA made and granted it beforehand.
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} NOLOGIN; END IF;
  IF NOT pg_has_role(current_user, '${role}', 'MEMBER') THEN GRANT ${role} TO CURRENT_USER; END IF;
END $$;`,
    `-- The connection's organization: a number, or 'all' (the organizations' own rows, no books); unset or '' reads nothing.
CREATE FUNCTION ldk_org() RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN current_setting('${ORG_SETTING}', true) ~ '^[0-9]+$' THEN current_setting('${ORG_SETTING}', true)::bigint END
$$;`,
    `CREATE FUNCTION ldk_all_orgs() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(current_setting('${ORG_SETTING}', true), '') = 'all'
$$;`,
    `GRANT USAGE ON SCHEMA public TO ${role};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${[...orgTables.filter((t) => !APPEND_ONLY.includes(t)), ...GLOBAL_TABLES].map(q).join(', ')} TO ${role};`,
    `GRANT SELECT, INSERT ON ${APPEND_ONLY.map(q).join(', ')} TO ${role};`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role};`,
    `GRANT SELECT ON "ledgerdesk_migrations" TO ${role};`,
    ...orgTables.map(
      (t) => `ALTER TABLE ${q(t)} ENABLE ROW LEVEL SECURITY;
ALTER TABLE ${q(t)} FORCE ROW LEVEL SECURITY;
CREATE POLICY "${t}_org" ON ${q(t)} USING ("org_seq" = ldk_org()) WITH CHECK ("org_seq" = ldk_org());`,
    ),
    `ALTER TABLE "organizations" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "organizations" FORCE ROW LEVEL SECURITY;
CREATE POLICY "organizations_org" ON "organizations" USING ("seq" = ldk_org() OR ldk_all_orgs()) WITH CHECK ("seq" = ldk_org() OR ldk_all_orgs());`,
  ];
}

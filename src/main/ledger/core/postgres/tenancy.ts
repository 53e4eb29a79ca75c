// Which tables hold one organization's books and which are global, on a firm's
// PostgreSQL server (issue 44): the schema generator (scripts/postgres) and the
// live check (scripts/check-postgres.ts) read the same list.

/**
 * Tables that belong to no one organization: the organizations themselves (their own policy: one, or all with
 * app.org = 'all'), tokens (found by their hash before an organization is known), the desk's sign-in codes and
 * sessions, the people who sign in with their roles (a person may belong to several organizations; found before one is chosen), and the server's own settings (its public address). Every other table has an org_seq: its keys lead with it
 * and row-level security shows a connection only the rows of the organization it is set to; staged files too (issue 51: an upload belongs to its organization and person).
 */
export const GLOBAL_TABLES: readonly string[] = [
  'organizations',
  'tokens',
  'sign_in_codes',
  'desk_sessions',
  'users',
  'memberships',
  'invitations',
  'sign_in_limits',
  'server_settings',
  'practice_choices',
  'leases',
];

/** The setting a connection's organization is in (set per transaction or connection by the driver, driver.ts). */
export const ORG_SETTING = 'app.org';

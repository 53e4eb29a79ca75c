// A database's schema as sorted lines of text, read from PostgreSQL's catalog: for
// comparing a database migrated through every db/postgres file with one made from
// the generator's output (scripts/postgres-schema.ts), whatever order the
// statements ran in (a column a migration adds comes last in its table; here
// columns are compared by name, not position).
import type pg from 'pg';

const QUERIES: Record<string, string> = {
  table: `SELECT c.relname || ' rls=' || c.relrowsecurity || ' forced=' || c.relforcerowsecurity FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
  column: `SELECT table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable || ' default=' || coalesce(column_default, '')
    || ' identity=' || is_identity FROM information_schema.columns WHERE table_schema = 'public'`,
  constraint: `SELECT c.conrelid::regclass || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) FROM pg_constraint c
    JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'`,
  index: `SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'`,
  trigger: `SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
  function: `SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p') AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
  policy: `SELECT tablename || ' ' || policyname || ' ' || cmd || ' ' || array_to_string(roles, ',') || ' using=' || coalesce(qual, '')
    || ' check=' || coalesce(with_check, '') FROM pg_policies WHERE schemaname = 'public'`,
  rule: `SELECT definition FROM pg_rules WHERE schemaname = 'public'`,
  grant: `SELECT table_name || ' ' || grantee || ' ' || privilege_type FROM information_schema.role_table_grants
    WHERE table_schema = 'public' AND grantee <> current_user AND grantee NOT IN (SELECT tableowner FROM pg_tables WHERE schemaname = 'public')`,
  extension: `SELECT extname FROM pg_extension WHERE extname <> 'plpgsql'`,
};

/** Every object of the public schema but the migrations' own table, one line each, sorted. */
export async function catalogOf(client: pg.Client | pg.PoolClient): Promise<string[]> {
  const lines: string[] = [];
  for (const [kind, sql] of Object.entries(QUERIES)) {
    const rows = (await client.query<unknown[]>({ text: sql, rowMode: 'array' })).rows;
    for (const [line] of rows) if (!String(line).includes('ledgerdesk_migrations')) lines.push(`${kind} ${String(line)}`);
  }
  return lines.sort();
}

/** What one catalog has that the other has not: `-` lines only in `was`, `+` lines only in `now`. */
export function catalogDifference(was: string[], now: string[]): string[] {
  const a = new Set(was);
  const b = new Set(now);
  return [...was.filter((l) => !b.has(l)).map((l) => `- ${l}`), ...now.filter((l) => !a.has(l)).map((l) => `+ ${l}`)];
}

// `npm run db:check -- --database postgres://...`: checks on a live database what
// a firm's server relies on for keeping organizations apart (issue 44), and
// prints each problem (exit 1) or that there are none:
// - every table but the global ones (src/main/ledger/core/postgres/tenancy.ts) holds one
//   organization's rows: it has org_seq, row-level security enabled and FORCEd,
//   and a policy;
// - its primary key and every unique index lead with org_seq, and each foreign
//   key to another such table carries org_seq (sharding by organization);
// - the server's role owns no table, is no superuser and does not bypass row-level security;
//   it is not a member of the Practice screen's reader role (it would carry its policies on every read).
import pg from 'pg';
import { GLOBAL_TABLES } from '../src/main/ledger/core/postgres/tenancy';
import { READER_ROLE, SERVER_ROLE } from '../src/main/ledger/core/postgres/driver';

const query = async <T>(client: pg.ClientBase, sql: string, params: unknown[] = []): Promise<T[]> => (await client.query(sql, params)).rows as T[];

export async function checkPostgres(client: pg.ClientBase, role = SERVER_ROLE): Promise<string[]> {
  const problems: string[] = [];
  const tables = await query<{ name: string; rls: boolean; forced: boolean; policies: number; org: boolean }>(
    client,
    `SELECT c.relname AS name, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
       (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies,
       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_seq' AND NOT a.attisdropped) AS org
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'ledgerdesk_migrations' ORDER BY c.relname`,
  );
  const orgTables = new Set(tables.filter((t) => !GLOBAL_TABLES.includes(t.name)).map((t) => t.name));
  for (const name of GLOBAL_TABLES) if (!tables.some((t) => t.name === name)) problems.push(`global table ${name} is missing`);
  for (const t of tables.filter((x) => orgTables.has(x.name))) {
    if (!t.org) problems.push(`${t.name}: no org_seq column`);
    if (!t.rls) problems.push(`${t.name}: row-level security is not enabled`);
    if (!t.forced) problems.push(`${t.name}: row-level security is not FORCEd (its owner would see every organization)`);
    if (!t.policies) problems.push(`${t.name}: no row-level security policy (nothing would be visible)`);
  }
  const organizations = tables.find((t) => t.name === 'organizations');
  if (organizations && (!organizations.rls || !organizations.forced || !organizations.policies))
    problems.push('organizations: row-level security is not enabled, FORCEd and with a policy');
  const keys = await query<{ table: string; name: string; kind: string; first: string; columns: string[] }>(
    client,
    `SELECT c.relname AS table, i.relname AS name, CASE WHEN x.indisprimary THEN 'primary key' ELSE 'unique index' END AS kind,
       (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = x.indkey[0]) AS first,
       ARRAY(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns
     FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND (x.indisunique OR x.indisprimary)`,
  );
  for (const t of orgTables) {
    if (!keys.some((k) => k.table === t && k.kind === 'primary key')) problems.push(`${t}: no primary key`);
  }
  for (const k of keys.filter((x) => orgTables.has(x.table) && x.first !== 'org_seq'))
    problems.push(`${k.table}: ${k.kind} ${k.name} does not lead with org_seq (${k.columns.join(', ') || 'an expression'})`);
  const foreign = await query<{ table: string; name: string; to: string; from_columns: string[]; to_columns: string[] }>(
    client,
    `SELECT c.relname AS table, f.conname AS name, r.relname AS to,
       ARRAY(SELECT a.attname FROM unnest(f.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.n ORDER BY k.o)::text[] AS from_columns,
       ARRAY(SELECT a.attname FROM unnest(f.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum = k.n ORDER BY k.o)::text[] AS to_columns
     FROM pg_constraint f JOIN pg_class c ON c.oid = f.conrelid JOIN pg_class r ON r.oid = f.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND f.contype = 'f'`,
  );
  for (const f of foreign.filter((x) => orgTables.has(x.table) && orgTables.has(x.to))) {
    if (f.from_columns[0] !== 'org_seq' || f.to_columns[0] !== 'org_seq')
      problems.push(`${f.table}: foreign key ${f.name} to ${f.to} does not carry org_seq (${f.from_columns.join(', ')})`);
  }
  const [server] = await query<{ super: boolean; bypass: boolean }>(client, 'SELECT rolsuper AS super, rolbypassrls AS bypass FROM pg_roles WHERE rolname = $1', [role]);
  if (!server) problems.push(`the server's role ${role} does not exist`);
  else {
    if (server.super) problems.push(`the server's role ${role} is a superuser (row-level security would not bind it)`);
    if (server.bypass) problems.push(`the server's role ${role} bypasses row-level security`);
    const owned = await query<{ name: string }>(
      client,
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND pg_get_userbyid(c.relowner) = $1`,
      [role],
    );
    for (const o of owned) problems.push(`the server's role ${role} owns ${o.name}`);
    const [reader] = await query<{ member: boolean }>(client, `SELECT pg_has_role($1, $2, 'USAGE') AS member FROM pg_roles WHERE rolname = $2`, [role, READER_ROLE]);
    if (reader?.member) problems.push(`the server's role ${role} has the privileges of ${READER_ROLE} (every read would carry its policies)`);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--database');
  const url = at > 0 ? process.argv[at + 1] : process.env.LEDGERDESK_DATABASE_URL;
  if (!url) {
    console.error('usage: npm run db:check -- --database postgres://user@host/database (or LEDGERDESK_DATABASE_URL)');
    process.exit(2);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const problems = await checkPostgres(client);
    for (const p of problems) console.log(`problem: ${p}`);
    console.log(
      problems.length ? `${problems.length} problem(s).` : 'Every organization table is kept apart: row-level security FORCEd, keys led by org_seq, the server role owns nothing.',
    );
    process.exitCode = problems.length ? 1 : 0;
  } finally {
    await client.end();
  }
}

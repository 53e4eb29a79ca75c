// An organization's books copied to other books (issue 44): from a desktop's
// data folder to a firm's server and back, any engine to any. Every row of its
// tables goes over in one snapshot of the source and one transaction of the
// target, its keys renumbered there (identifiers from the target's own
// sequences), every reference between its rows (foreign keys, and the seqs kept
// in a few JSON columns) renumbered alike. The running totals are made again by
// the target's triggers as the rows go in; the audit log keeps every entry, its
// chain hashed again under the new organization, after an entry naming where the
// books came from. Agent tokens (and their kept Idempotency-Key answers) stay
// where they were made: a token is a credential of one set of books; people
// (issue 45) are the server's, and their roles are given again there.
import { BatchInsert } from '../core/batch';
import { nowIso } from '../core/clock';
import { LedgerError } from '../core/errors';
import { auditHash, type HashedEntry } from '../core/hash';
import type { Ledger } from '../core/storage';
import { isOrgTable, postgresType, referencedTable, tableConfigs, type TableConfig } from '../core/tables';
import { TOTALS } from '../totals/declared';
import { appendAudit, type Human } from './audit';
import { deskActor, findOrganization, organizationBySeq, type Organization } from './organizations';

/** Kept by triggers from the rows, made again by the target's as the rows go in. */
const DERIVED = new Set([...TOTALS.map((t) => t.table), 'description_shapes', 'description_shape_totals']);
/** Tokens' kept answers stay with their tokens; staged files (an upload, an export between two requests) are no books. */
const LEFT = new Set(['idempotency_keys', 'staged_files', 'staged_chunks']);
/** JSON columns that keep seqs of other rows (lines as they were, a repeat's lines, what an approval changed). */
const JSON_COLUMNS: Record<string, string[]> = {
  split_origins: ['lines'],
  import_line_changes: ['previous_lines'],
  proposals: ['outcome'],
  journal_repeats: ['lines'],
};
/** A JSON field naming a row of another table by its seq. */
const SEQ_FIELDS: Record<string, string> = {
  categorySeq: 'categories',
  accountSeq: 'accounts',
  counterpartSeq: 'transactions',
  transactionSeq: 'transactions',
  taxCodeSeq: 'tax_codes',
  settlesSeq: 'documents',
  documentSeq: 'documents',
  contactSeq: 'counterparties',
  journalSeq: 'journals',
};

type SeqMaps = Map<string, Map<number, number>>;

export interface CopyResult {
  organization: Organization;
  /** Rows copied per table (the maintained totals, made again, not counted). */
  rows: Record<string, number>;
}

/** The tables to copy, each after the tables it points at (cycles broken anywhere: the target defers its checks). */
function copyOrder(): TableConfig[] {
  const tables = tableConfigs().filter((c) => isOrgTable(c) && !DERIVED.has(c.name) && !LEFT.has(c.name));
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const order: TableConfig[] = [];
  const visit = (t: TableConfig, seen: Set<string>) => {
    if (done.has(t.name) || seen.has(t.name)) return;
    seen.add(t.name);
    for (const fk of t.foreignKeys) {
      const to = byName.get(referencedTable(fk));
      if (to && to !== t) visit(to, seen);
    }
    done.add(t.name);
    order.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return order;
}

const hasSeq = (t: TableConfig): boolean => t.columns.some((c) => c.name === 'seq' && c.primary);

/** Seqs in the target for every row of the tables keyed by seq: the target's next ones (SQLite) or its sequence's (PostgreSQL). */
async function allocate(to: Ledger, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (to.engine === 'postgres') return (await to.stmt(`SELECT nextval(pg_get_serial_sequence('${table}', 'seq')) FROM generate_series(1, ?)`).pluck().all(count)) as number[];
  const last = (await to.stmt(`SELECT coalesce(max(seq), 0) FROM ${table}`).pluck().get()) as number;
  return Array.from({ length: count }, (_, i) => last + 1 + i);
}

function remap(maps: SeqMaps, table: string, seq: number | null): number | null {
  if (seq === null) return null;
  const to = maps.get(table)?.get(seq);
  if (to === undefined) throw new Error(`a row points at ${table} ${seq}, which is not among the organization's rows`);
  return to;
}

/** A JSON value's seqs renumbered (the fields SEQ_FIELDS names, and a journal line's seq by its kind). */
function remapJson(maps: SeqMaps, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => remapJson(maps, v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const o = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (k in SEQ_FIELDS && (typeof v === 'number' || v === null)) out[k] = remap(maps, SEQ_FIELDS[k], v);
    else if (k === 'seq' && typeof v === 'number' && (o.kind === 'category' || o.kind === 'money')) out[k] = remap(maps, o.kind === 'category' ? 'categories' : 'accounts', v);
    else out[k] = remapJson(maps, v);
  }
  return out;
}

/** A proposal's change key starts with its row's seq, zero-padded (proposals/kind.ts keyTarget). */
const remapChangeKey = (maps: SeqMaps, key: string | null): string | null =>
  key && /^\d{12}/.test(key) ? String(remap(maps, 'transactions', Number(key.slice(0, 12)))).padStart(12, '0') + key.slice(12) : key;

/**
 * Copies the organization `slug` of `from` into `to` (as `as`, else the same slug), in one transaction of `to`;
 * refused when `to` already holds it (by id) or the slug. Answers the new organization and the rows copied.
 */
export async function copyOrganization(from: Ledger, to: Ledger, slug: string, options: { as?: string; actor?: Human } = {}): Promise<CopyResult> {
  const actor = options.actor ?? deskActor();
  const source = await from.forOrg('all', () => findOrganization(from, slug));
  if (!source) throw new LedgerError('not_found', `No organization "${slug}" in ${from.file}.`, { resource: 'organization', id: slug });
  const targetSlug = options.as ?? source.slug;
  const there = await to.forOrg('all', async () => (await findOrganization(to, source.id)) ?? (await findOrganization(to, targetSlug)));
  if (there) {
    throw new LedgerError(
      'conflict',
      `${to.file} already holds ${there.id === source.id ? 'this organization' : `an organization "${targetSlug}"`} (${there.name}, ${there.slug}).`,
      {
        id: there.id,
      },
    );
  }
  const tables = copyOrder();
  // The source read in one snapshot: the copy is of one moment of its books.
  const rowsOf = await from.forOrg(source.seq, () =>
    from.snapshot(async () => {
      const read = new Map<string, Record<string, unknown>[]>();
      for (const t of tables) {
        const order = hasSeq(t) ? 'seq' : t.columns.map((c) => c.name).join(', ');
        read.set(t.name, await from.rows(`SELECT * FROM ${t.name} WHERE org_seq = ? ORDER BY ${order}`, source.seq));
      }
      const [org] = await from.rows<Record<string, unknown>>('SELECT * FROM organizations WHERE seq = ?', source.seq);
      return { read, org };
    }),
  );
  const copied = await to.forOrg('all', () =>
    to.write(async () => {
      await to.stmt(to.engine === 'postgres' ? 'SET CONSTRAINTS ALL DEFERRED' : 'PRAGMA defer_foreign_keys = ON').run();
      // A copy is live books, even of an archived organization (one moved back).
      const org: Record<string, unknown> = { ...rowsOf.org, slug: targetSlug, archived_at: null };
      delete org.seq;
      const columns = Object.keys(org);
      const orgSeq = await to.stmt(`INSERT INTO organizations (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).insert(...columns.map((c) => org[c]));
      return to.forOrg(orgSeq, () => writeRows(to, orgSeq, tables, rowsOf.read, source, actor));
    }),
  );
  await from.forOrg(source.seq, () =>
    from.write(() =>
      appendAudit(from, source.seq, actor, {
        action: 'organization.copied',
        targetType: 'organization',
        targetId: source.id,
        summary: `Organization ${source.slug} copied to ${to.file} as ${targetSlug}`,
      }),
    ),
  );
  return copied;
}

async function writeRows(to: Ledger, orgSeq: number, tables: TableConfig[], read: Map<string, Record<string, unknown>[]>, source: Organization, actor: Human): Promise<CopyResult> {
  const maps: SeqMaps = new Map([['organizations', new Map([[source.seq, orgSeq]])]]);
  for (const t of tables.filter(hasSeq)) {
    const rows = read.get(t.name)!;
    const seqs = await allocate(to, t.name, rows.length);
    maps.set(t.name, new Map(rows.map((r, i) => [r.seq as number, seqs[i]])));
  }
  const counts: Record<string, number> = {};
  let prev = '';
  for (const t of tables) {
    const rows = read.get(t.name)!;
    const refs = new Map(t.foreignKeys.map((fk) => [fk.reference().columns[0].name, referencedTable(fk)]));
    const columns = t.columns.map((c) => [c.name, postgresType(c.getSQLType())] as const);
    // Files' bytes one row at a time (an array of them is no parameter both engines read).
    const insert = new BatchInsert(to, t.name, columns, columns.some(([, type]) => type === 'bytea') ? 1 : undefined);
    for (const r of rows) {
      const values = columns.map(([name]) => {
        const v = r[name] as unknown;
        if (name === 'org_seq') return orgSeq;
        if (name === 'seq' && hasSeq(t)) return remap(maps, t.name, v as number);
        if (t.name === 'proposals' && name === 'token_seq') return null;
        // People are the server's, not the books': who uploaded a receipt stays behind (the audit log names them).
        if (refs.get(name) === 'users') return null;
        if (t.name === 'proposals' && name === 'change_key') return remapChangeKey(maps, v as string | null);
        if (JSON_COLUMNS[t.name]?.includes(name) && typeof v === 'string') return JSON.stringify(remapJson(maps, JSON.parse(v)));
        const ref = refs.get(name);
        return ref ? remap(maps, ref, v as number | null) : v;
      });
      if (t.name === 'audit_log') {
        // The chain hashed again: org_seq is part of what each entry's hash covers.
        const e = Object.fromEntries(columns.map(([name], i) => [name, values[i]])) as unknown as HashedEntry;
        const at = columns.findIndex(([name]) => name === 'prev_hash');
        values[at] = prev;
        values[at + 1] = prev = auditHash(prev, e);
      }
      await insert.add(...values);
    }
    await insert.flush();
    counts[t.name] = rows.length;
  }
  await appendAudit(to, orgSeq, actor, {
    action: 'organization.copied',
    targetType: 'organization',
    targetId: source.id,
    summary: `Organization ${source.slug} copied here at ${nowIso()}: ${counts.transactions ?? 0} rows, ${counts.audit_log ?? 0} audit entries (their chain hashed again for this organization)`,
  });
  return { organization: await organizationBySeq(to, orgSeq), rows: counts };
}

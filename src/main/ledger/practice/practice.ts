// The Practice screen's rows (issue 55): one per organization the viewer holds
// a role in, each column read once for all of them (columns/: a statement
// grouped by organization) in the scope of exactly those organizations: on a
// firm's server, row-level security shows each statement their rows and no
// other's, so an organization outside the list is never read at all. Each
// column's read is a few maintained rows an organization.
import type { Organization } from '../access/organizations';
import type { Role } from '../access/roles';
import type { Ledger } from '../core/storage';
import { assignmentsIn, type Assigned, type Assignments } from './assignments';
import type { PracticeChoice } from './choice';
import { seqsOf, type Cell, type PracticeOrg, type Seen, type Viewer } from './column';
import { PRACTICE_COLUMNS } from './columns';

export interface PracticeRow {
  org: { id: string; slug: string; name: string; currency: string };
  role: Role;
  assigned: Assignments;
  /** Each column's figure, by its id (what --json prints and the tests compare). */
  figures: Record<string, unknown>;
  cells: Record<string, Cell>;
  /** Any cell is red. */
  attention: boolean;
}

export interface Practice {
  day: string;
  columns: { id: string; label: string }[];
  rows: PracticeRow[];
  /** Everyone assigned in the organizations seen (the "by person" filter's choices). */
  people: Assigned[];
}

const practiceOrg = (o: Organization): PracticeOrg => ({
  seq: o.seq,
  id: o.id,
  slug: o.slug,
  name: o.name,
  currency: o.currency,
  lockedThrough: o.lockedThrough,
  taxSet: o.taxSet,
});

/**
 * Every organization's row: each column read once for them all, in the scope of exactly those organizations (on a
 * server, row-level security shows each statement their rows and no other's), so a handful of statements whatever
 * their number.
 */
async function rowsOf(ledger: Ledger, seen: readonly { org: Organization; viewer: Viewer }[], day: string): Promise<PracticeRow[]> {
  if (seen.length === 0) return [];
  const orgs: Seen[] = seen.map((s) => ({ org: practiceOrg(s.org), viewer: s.viewer }));
  const [assigned, ...read] = await ledger.forOrg(seqsOf(orgs), () =>
    Promise.all([assignmentsIn(ledger, seqsOf(orgs)), ...PRACTICE_COLUMNS.map((c) => c.read(ledger, orgs, day))]),
  );
  return orgs.map(({ org, viewer }) => {
    const figures = read.map((byOrg) => byOrg.get(org.seq));
    const cells = Object.fromEntries(PRACTICE_COLUMNS.map((c, i) => [c.id, c.cell(figures[i], org, day)]));
    return {
      org: { id: org.id, slug: org.slug, name: org.name, currency: org.currency },
      role: viewer.role,
      assigned: assigned.get(org.seq)!,
      figures: Object.fromEntries(PRACTICE_COLUMNS.map((c, i) => [c.id, figures[i]])),
      cells,
      attention: Object.values(cells).some((c) => c.red),
    };
  });
}

/** Whether a person (their id or email) is the organization's bookkeeper or reviewer. */
const isAssigned = (row: PracticeRow, person: string) =>
  [row.assigned.bookkeeper, row.assigned.reviewer].some((p) => p !== null && (p.id === person || p.email === person.toLowerCase()));

function sortKey(row: PracticeRow, sort: string): string | number | null {
  if (sort === 'name') return row.org.name.toLowerCase();
  if (sort === 'bookkeeper' || sort === 'reviewer') return row.assigned[sort]?.name.toLowerCase() ?? null;
  return row.cells[sort]?.sort ?? null;
}

/** Sorted by the choice, empty figures last either way, then by name. */
function sorted(rows: PracticeRow[], sort: string, descending: boolean): PracticeRow[] {
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = sortKey(a, sort);
    const y = sortKey(b, sort);
    if (x === null || y === null) return x === y ? a.org.name.localeCompare(b.org.name) : x === null ? 1 : -1;
    const by = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return by !== 0 ? sign * by : a.org.name.localeCompare(b.org.name);
  });
}

/**
 * The rows of the organizations seen, filtered and sorted by the choice. `me`: the viewer's person id ("mine"; null:
 * the machine's owner, who is assigned nowhere).
 */
export async function practice(ledger: Ledger, seen: { org: Organization; viewer: Viewer }[], choice: PracticeChoice, me: string | null, day: string): Promise<Practice> {
  const all = await rowsOf(ledger, seen, day);
  const people = new Map<string, Assigned>();
  for (const row of all) for (const p of [row.assigned.bookkeeper, row.assigned.reviewer]) if (p) people.set(p.id, p);
  const who = choice.who === 'mine' ? me : choice.who === 'all' ? null : choice.who;
  const rows = all.filter((r) => (choice.who === 'all' || (who !== null && isAssigned(r, who))) && (!choice.attention || r.attention));
  return {
    day,
    columns: PRACTICE_COLUMNS.map((c) => ({ id: c.id, label: c.label })),
    rows: sorted(rows, choice.sort, choice.descending),
    people: [...people.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

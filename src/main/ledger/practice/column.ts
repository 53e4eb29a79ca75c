// What a Practice column is (issue 55): one figure of an organization's work,
// read from what the books keep maintained (totals, counters, small indexes),
// never from a scan of its rows, for every organization seen at once; when it is red (it needs attention); and the
// place in that organization where the work is, as the desk's router reads it
// (#/<screen>?org=<slug>&...). The screen, the command, its CSV and the
// filters loop over the list (columns/index.ts): a column is one module and one
// line there.
import type { Ledger } from '../core/storage';
import type { Role } from '../access/roles';

/** The organization a row is about: what its columns need of it. */
export interface PracticeOrg {
  seq: number;
  id: string;
  slug: string;
  name: string;
  currency: string;
  lockedThrough: string | null;
  taxSet: string | null;
}

/** Who looks: their role there, and what decides which proposals they may approve. */
export interface Viewer {
  role: Role;
  /** The proposedBy values that are the viewer's own (theirs, their tokens'): never theirs to approve. */
  own: readonly string[];
  /** Whether their role may approve a proposal of this kind (desk/proposals/review.ts: whoever may make its change). */
  approves(type: string): boolean;
}

/** One figure as every view shows it. */
export interface Cell {
  /** The figure in words ("3 uncategorized, 1 suggested"); '—' when there is nothing to say. */
  text: string;
  /** It needs attention: the "needs attention" filter is any red cell. */
  red: boolean;
  /** Where the work is, in that organization: #/<screen>?org=<slug>... */
  href: string;
  /** What the column sorts by (null last). */
  sort: number | string | null;
}

/** An organization the viewer sees, and how they see it. */
export interface Seen {
  org: PracticeOrg;
  viewer: Viewer;
}

export interface PracticeColumn<F = unknown> {
  id: string;
  label: string;
  /**
   * Every organization's figure, by its seq: one read for them all (a statement, grouped by organization), in the
   * scope of exactly those organizations (row-level security on a server shows it theirs alone).
   */
  read(ledger: Ledger, seen: readonly Seen[], day: string): Promise<Map<number, F>>;
  cell(figure: F, org: PracticeOrg, day: string): Cell;
}

/** The organizations' seqs, as one list parameter (dialect.ts: inList). */
export const seqsOf = (seen: readonly Seen[]): number[] => seen.map((s) => s.org.seq);

/** Rows of several organizations grouped by their org_seq, every organization seen having its (maybe empty) list. */
export function byOrg<R extends { org_seq: number | string }>(seen: readonly Seen[], rows: readonly R[]): Map<number, R[]> {
  const out = new Map<number, R[]>(seen.map((s) => [s.org.seq, []]));
  for (const r of rows) out.get(Number(r.org_seq))?.push(r);
  return out;
}

/** Each organization's figure from its rows (byOrg). */
export function figures<R extends { org_seq: number | string }, F>(seen: readonly Seen[], rows: readonly R[], figure: (rows: R[], s: Seen) => F): Map<number, F> {
  const grouped = byOrg(seen, rows);
  return new Map(seen.map((s) => [s.org.seq, figure(grouped.get(s.org.seq)!, s)]));
}

/** A column, its figure's type checked against its cell (the list holds them as PracticeColumn<unknown>). */
export const column = <F>(c: PracticeColumn<F>): PracticeColumn => c as PracticeColumn;

/** The place in an organization where a figure's work is: a route the desk's router understands (renderer/src/nav.ts). */
export const place = (org: PracticeOrg, screen: string, params: Record<string, string> = {}): string =>
  `#/${screen}?${new URLSearchParams({ org: org.slug, ...params }).toString()}`;

export const NONE = '—';

// The chart of accounts of one organization, and category resolution:
// a code must exist in the chart; a name or synonym (case-insensitive,
// trimmed) resolves to the canonical name; anything else is a 400.
import type { Ledger } from '../core/sqlite/open';
import { foldName } from '../core/text';
import { invalid, type FieldIssue } from '../core/errors';
import type { CategoryRecord } from '../../../../db/rows';
import type { CategoryType } from './ontology';

export interface Category {
  code: string;
  name: string;
  type: CategoryType;
  inUse: boolean;
  parentCode: string | null;
  synonyms: string[];
  /** Its default tax code (issue 28; an additive field of list_categories), or null. */
  taxCode: string | null;
}

/** A category as its row holds it (snake_case; synonyms as JSON text). */
export type ChartRow = CategoryRecord;

export async function chartRows(ledger: Ledger, orgSeq: number): Promise<ChartRow[]> {
  return ledger.rows<ChartRow>("SELECT * FROM categories WHERE org_seq = ? ORDER BY code = '', code, name", orgSeq);
}

/** The category with a code (none for ''), by the unique index of codes. */
export const chartRowByCode = async (ledger: Ledger, orgSeq: number, code: string): Promise<ChartRow | undefined> =>
  (await ledger.stmt("SELECT * FROM categories WHERE org_seq = ? AND code = ? AND code <> ''").get(orgSeq, code.trim())) as ChartRow | undefined;

/**
 * The chart. `inUse` (the spec leaves its meaning open) is false for an
 * archived category: kept for the transactions that have it, no longer offered.
 */
export async function listCategories(ledger: Ledger, orgSeq: number): Promise<Category[]> {
  const taxCodes = new Map((await ledger.rows<{ seq: number; code: string }>('SELECT seq, code FROM tax_codes WHERE org_seq = ?', orgSeq)).map((t) => [t.seq, t.code]));
  return (await chartRows(ledger, orgSeq)).map((row) => ({
    code: row.code,
    name: row.name,
    type: row.type,
    inUse: row.archived_at === null,
    parentCode: row.parent_code,
    synonyms: JSON.parse(row.synonyms) as string[],
    taxCode: row.default_tax_code_seq === null ? null : (taxCodes.get(row.default_tax_code_seq) ?? null),
  }));
}

export interface ResolvedCategory {
  /** Its identity: lines refer to it, so that a rename touches no row. */
  seq: number;
  code: string;
  name: string;
}

const fold = foldName;

export type Sign = 'inflow' | 'outflow';
const TYPE_OF_SIGN = { inflow: 'revenue', outflow: 'expense' } as const;
export const synonymsOf = (r: ChartRow): string[] => JSON.parse(r.synonyms) as string[];

const labelOf = (r: ChartRow): string => `${r.code} ${r.name}`;

/** The one category of several a text names, or a 400 naming them all. */
function onlyOne(candidates: ChartRow[], text: string): ChartRow {
  if (candidates.length === 1) return candidates[0];
  throw invalid([{ field: 'category', message: `"${text.trim()}" is a synonym of ${candidates.map(labelOf).join(' and of ')}; send categoryCode` }]);
}

/**
 * A free-text name, read with the money's direction. A category's exact name
 * wins when it fits the sign (names are unique; a synonym of another
 * category does not compete with it); else a synonym of a category that fits,
 * refused as ambiguous when two share it. When nothing exact fits the sign,
 * the one category of the fitting type whose name or synonyms contain the
 * text ("Subscriptions" on an inflow is 4010 SaaS subscriptions, not the
 * expense whose synonym it is; two or more such are refused, naming them);
 * none leaves the exact match (a refund may well go back to an expense).
 */
function nameIn(rows: ChartRow[], text: string, sign: Sign | undefined): ChartRow | undefined {
  const wanted = fold(text);
  const named = rows.find((r) => fold(r.name) === wanted);
  const synonymOf = rows.filter((r) => r !== named && synonymsOf(r).some((s) => fold(s) === wanted));
  const fitting = sign ? TYPE_OF_SIGN[sign] : undefined;
  const fits = (r: ChartRow) => !fitting || (r.type !== 'revenue' && r.type !== 'expense') || r.type === fitting;
  if (named && fits(named)) return named;
  if (synonymOf.some(fits)) return onlyOne(synonymOf.filter(fits), text);
  if (!named && !synonymOf.length) return undefined;
  const others = rows.filter((r) => r.type === fitting && !r.archived_at && [r.name, ...synonymsOf(r)].some((s) => fold(s).includes(wanted)));
  if (others.length === 1) return others[0];
  if (others.length > 1) {
    const list = others.map(labelOf).join(', ');
    throw invalid([{ field: 'category', message: `"${text}" on ${sign === 'inflow' ? 'an inflow' : 'an outflow'} could be ${list}; send categoryCode` }]);
  }
  return named ?? onlyOne(synonymOf, text);
}

/** The categories in use answer first; an archived one only when none does (resolveCategory then says it is archived). */
const byNameFor = (rows: ChartRow[], text: string, sign: Sign | undefined): ChartRow | undefined =>
  nameIn(
    rows.filter((r) => !r.archived_at),
    text,
    sign,
  ) ?? nameIn(rows, text, sign);

/**
 * Resolves a proposal's categoryCode and/or category to the chart's canonical entry.
 * When both are given they must name the same category. `sign` (the money's
 * direction) guides a free-text name; a code is taken as it is.
 */
export async function resolveCategory(ledger: Ledger, orgSeq: number, input: { categoryCode?: string; category?: string }, sign?: Sign): Promise<ResolvedCategory> {
  // By code alone (what agents send): the one row, by the unique index; a name needs the whole chart.
  const rows =
    input.category === undefined && input.categoryCode !== undefined
      ? [await chartRowByCode(ledger, orgSeq, input.categoryCode)].filter((r) => r !== undefined)
      : await chartRows(ledger, orgSeq);
  const issues: FieldIssue[] = [];
  let byCode: ChartRow | undefined;
  let byName: ChartRow | undefined;
  if (input.categoryCode !== undefined) {
    byCode = rows.find((r) => r.code !== '' && r.code === input.categoryCode!.trim());
    if (!byCode) issues.push({ field: 'categoryCode', message: `"${input.categoryCode}" is not a code of this organization's chart (see list_categories)` });
  }
  if (input.category !== undefined) {
    byName = byNameFor(rows, input.category, sign);
    if (!byName) issues.push({ field: 'category', message: `"${input.category}" is not a category name or synonym of this organization's chart` });
  }
  if (issues.length > 0) throw invalid(issues);
  if (byCode && byName && byCode !== byName) {
    throw invalid([{ field: 'category', message: `"${input.category}" resolves to "${byName.name}", but categoryCode ${byCode.code} is "${byCode.name}"; send one of them` }]);
  }
  const hit = byCode ?? byName;
  if (!hit) throw invalid([{ field: 'categoryCode', message: 'one of categoryCode or category is required' }]);
  if (hit.archived_at)
    throw invalid([{ field: byCode ? 'categoryCode' : 'category', message: `${hit.code} ${hit.name} is archived (no longer offered); choose another category` }]);
  return { seq: hit.seq, code: hit.code, name: hit.name };
}

/** The category a proposal named, as the chart has it now (renamed since: the new name; archived: refused). */
export async function categoryNow(ledger: Ledger, orgSeq: number, code: string | null, field = 'categoryCode'): Promise<ResolvedCategory | null> {
  if (code === null) return null;
  const row = (await chartRows(ledger, orgSeq)).find((r) => r.code === code);
  if (!row) throw invalid([{ field, message: `category ${code} is no longer in the chart` }]);
  if (row.archived_at) throw invalid([{ field, message: `category ${code} ${row.name} was archived since; reject the proposal or choose another category by hand` }]);
  return { seq: row.seq, code: row.code, name: row.name };
}

/** A category by its exact name (any case), archived or not: what a row recorded before lines named. */
export async function categoryByName(ledger: Ledger, orgSeq: number, name: string): Promise<ResolvedCategory | null> {
  const row = (await ledger.stmt('SELECT seq, code, name FROM categories WHERE org_seq = ? AND lower(name) = lower(?)').get(orgSeq, name)) as ResolvedCategory | undefined;
  return row ?? null;
}

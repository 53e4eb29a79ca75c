// The chart of accounts at the bookkeeper's hand: add, rename, edit synonyms,
// archive. Codes are unique in an organization; a rename renames the category
// on its transactions (they store the name, as the spec says) in the same
// transaction. The default codes of the chart template the organization started
// with stay (the default's are what agents were told): renamed, never archived.
import { appendAudit, type Actor, type Human } from '../access/audit';
import { chartRowByCode, chartRows, type Category, type ChartRow, listCategories } from './categories';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError, notFound } from '../core/errors';
import type { CategoryType } from './ontology';
import { templateOf } from './templates';
import { organizationBySeq } from '../access/organizations';
import { ChartTree } from './sections';
import { synonymNamingAnother, wordWarnings } from './words';
import { withArticle } from '../../../shared/english';

export { CATEGORY_TYPES } from '../../../../db/values';
/** The codes of the chart template it started with (null: before templates, the default). */
const defaultCodes = async (ledger: Ledger, orgSeq: number): Promise<Set<string>> =>
  new Set(templateOf((await organizationBySeq(ledger, orgSeq)).chartTemplate).chart.map((c) => c.code));

async function requireCategory(ledger: Ledger, orgSeq: number, code: string): Promise<ChartRow> {
  const row = await chartRowByCode(ledger, orgSeq, code);
  if (!row) throw notFound('category', code);
  return row;
}

const categoryOf = async (ledger: Ledger, orgSeq: number, code: string): Promise<DeskCategory> => (await deskChart(ledger, orgSeq)).find((c) => c.code === code)!;

/** A category as a change to its words left it, and what that change does to agents' free text (words.ts). */
export type ChartChange = DeskCategory & { warnings: string[] };

function cleanSynonyms(synonyms: string[]): string[] {
  const seen = new Set<string>();
  return synonyms.map((s) => s.trim()).filter((s) => s && !seen.has(s.toLowerCase()) && seen.add(s.toLowerCase()));
}

async function checkName(ledger: Ledger, orgSeq: number, name: string, except = -1): Promise<string> {
  const clean = name.trim();
  if (!clean || clean.length > 200) throw invalid([{ field: 'name', message: 'must be 1 to 200 characters' }]);
  const taken = (await ledger.stmt('SELECT code FROM categories WHERE org_seq = ? AND lower(name) = lower(?) AND seq <> ?').get(orgSeq, clean, except)) as
    { code: string } | undefined;
  if (taken) throw new LedgerError('conflict', `The chart already has a category named "${clean}" (${taken.code}).`, [{ field: 'name', message: 'already taken' }]);
  return clean;
}

export interface NewCategory {
  code: string;
  name: string;
  type: CategoryType;
  parentCode?: string | null;
  synonyms?: string[];
  costOfSales?: boolean;
}

/**
 * The chart as the desk shows it: what the API lists, which categories are the ontology's defaults (never archived),
 * which are reported as cost of sales, and the one above a category it has that from (null: its own mark, or none).
 */
export type DeskCategory = Category & { isDefault: boolean; retainedEarnings: boolean; costOfSales: boolean; costOfSalesFrom: string | null };

export async function deskChart(ledger: Ledger, orgSeq: number): Promise<DeskCategory[]> {
  const rows = await chartRows(ledger, orgSeq);
  const tree = new ChartTree(rows);
  const defaults = await defaultCodes(ledger, orgSeq);
  const retained = rows.find((r) => r.role === 'retained_earnings')?.code;
  return (await listCategories(ledger, orgSeq)).map((c) => {
    const from = c.code ? tree.costOfSalesFrom(tree.get(c.code)!) : undefined;
    return {
      ...c,
      isDefault: defaults.has(c.code),
      retainedEarnings: c.code !== '' && c.code === retained,
      costOfSales: from !== undefined,
      costOfSalesFrom: from && from.code !== c.code ? from.code : null,
    };
  });
}

export async function addCategory(ledger: Ledger, orgSeq: number, actor: Actor, input: NewCategory): Promise<ChartChange> {
  return ledger.write(async () => {
    const code = input.code.trim();
    if (!/^[0-9A-Za-z][0-9A-Za-z.-]{0,19}$/.test(code)) throw invalid([{ field: 'code', message: 'use 1 to 20 letters, digits, dots or dashes, e.g. 5400' }]);
    if (await ledger.stmt('SELECT 1 FROM categories WHERE org_seq = ? AND code = ?').get(orgSeq, code)) {
      throw new LedgerError('conflict', `The chart already has the code ${code}.`, [{ field: 'code', message: 'already taken' }]);
    }
    const name = await checkName(ledger, orgSeq, input.name);
    if (input.parentCode) {
      const parent = await requireCategory(ledger, orgSeq, input.parentCode);
      if (parent.type !== input.type)
        throw invalid([
          { field: 'parentCode', message: `${parent.code} ${parent.name} is ${parent.type}; ${withArticle(input.type)} category needs ${withArticle(input.type)} parent` },
        ]);
    }
    const synonyms = cleanSynonyms(input.synonyms ?? []);
    const chart = await chartRows(ledger, orgSeq);
    const clash = synonymNamingAnother(chart, -1, synonyms);
    if (clash) throw invalid([{ field: 'synonyms', message: `"${clash.name}" is the name of ${clash.code}; a synonym must not name another category` }]);
    if (input.costOfSales && input.type !== 'expense') throw invalid([{ field: 'costOfSales', message: `only an expense category is cost of sales (this one is ${input.type})` }]);
    await ledger
      .stmt('INSERT INTO categories (org_seq, code, name, type, parent_code, synonyms, cost_of_sales) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(orgSeq, code, name, input.type, input.parentCode ?? null, JSON.stringify(synonyms), input.costOfSales ? 1 : 0);
    const added = await categoryOf(ledger, orgSeq, code);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'category.created',
      targetType: 'category',
      targetId: code,
      summary: `Category ${code} ${name} (${added.costOfSales ? 'cost of sales' : input.type}${input.parentCode ? `, under ${input.parentCode}` : ''}) added${synonyms.length ? `, synonyms ${synonyms.join(', ')}` : ''}`,
    });
    const seq = (await ledger.stmt('SELECT seq FROM categories WHERE org_seq = ? AND code = ?').pluck().get(orgSeq, code)) as number;
    const parent = chart.find((c) => c.code === input.parentCode);
    // Cost of sales wherever it sits (sections.ts): under an ordinary expense, the P&L reports it apart, which is said.
    const apart =
      added.costOfSales && parent && !new ChartTree(chart).costOfSalesFrom(parent)
        ? [`${code} ${name} is cost of sales: the P&L reports it above gross profit, apart from ${parent.code} ${parent.name}, whose subtotal among the expenses leaves it out.`]
        : [];
    return { ...added, warnings: [...apart, ...wordWarnings(chart, { seq, code, name, type: input.type }, true, synonyms)] };
  });
}

/**
 * The category of this name, added (audited) under the first free code from `code` up when the chart lacks it:
 * the ones the books post to themselves (issue 30: realized and unrealized exchange gains and losses).
 */
export async function categoryNamed(ledger: Ledger, orgSeq: number, actor: Actor, name: string, code: string, type: CategoryType): Promise<number> {
  const found = (await ledger.stmt('SELECT seq FROM categories WHERE org_seq = ? AND name = ?').pluck().get(orgSeq, name)) as number | undefined;
  if (found !== undefined) return found;
  let free = code;
  while (await ledger.stmt('SELECT 1 FROM categories WHERE org_seq = ? AND code = ?').get(orgSeq, free)) free = String(Number(free) + 1);
  await addCategory(ledger, orgSeq, actor, { code: free, name, type });
  return (await ledger.stmt('SELECT seq FROM categories WHERE org_seq = ? AND code = ?').pluck().get(orgSeq, free)) as number;
}

/** Renames a category. Lines refer to it by identity: no row is rewritten, and every row and report shows the new name. */
export async function renameCategory(ledger: Ledger, orgSeq: number, actor: Human, code: string, name: string): Promise<ChartChange> {
  return ledger.write(async () => {
    const row = await requireCategory(ledger, orgSeq, code);
    const next = await checkName(ledger, orgSeq, name, row.seq);
    if (next === row.name) return { ...(await categoryOf(ledger, orgSeq, row.code)), warnings: [] };
    await ledger.stmt('UPDATE categories SET name = ? WHERE seq = ?').run(next, row.seq);
    const { n } = (await ledger.stmt('SELECT count(*) AS n FROM lines WHERE org_seq = ? AND category_seq = ?').get(orgSeq, row.seq)) as { n: number };
    await appendAudit(ledger, orgSeq, actor, {
      action: 'category.renamed',
      targetType: 'category',
      targetId: row.code,
      summary: `Category ${row.code} renamed "${row.name}" -> "${next}" (${n} line(s) carry it)`,
    });
    const renamed = wordWarnings(await chartRows(ledger, orgSeq), { ...row, name: next }, next.toLowerCase() !== row.name.toLowerCase(), []);
    return { ...(await categoryOf(ledger, orgSeq, row.code)), warnings: renamed };
  });
}

export async function setSynonyms(ledger: Ledger, orgSeq: number, actor: Human, code: string, synonyms: string[]): Promise<ChartChange> {
  return ledger.write(async () => {
    const row = await requireCategory(ledger, orgSeq, code);
    const next = cleanSynonyms(synonyms);
    const chart = await chartRows(ledger, orgSeq);
    const clash = synonymNamingAnother(chart, row.seq, next);
    if (clash) throw invalid([{ field: 'synonyms', message: `"${clash.name}" is the name of ${clash.code}; a synonym must not name another category` }]);
    const before = JSON.parse(row.synonyms) as string[];
    await ledger.stmt('UPDATE categories SET synonyms = ? WHERE seq = ?').run(JSON.stringify(next), row.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'category.updated',
      targetType: 'category',
      targetId: row.code,
      summary: `Synonyms of ${row.code} ${row.name}: ${before.join(', ') || '(none)'} -> ${next.join(', ') || '(none)'}`,
    });
    const added = next.filter((s) => !before.some((b) => b.toLowerCase() === s.toLowerCase()));
    return { ...(await categoryOf(ledger, orgSeq, row.code)), warnings: wordWarnings(chart, row, false, added) };
  });
}

/** Where an expense category is reported: above gross profit as cost of sales, or among the other expenses. */
export async function setCostOfSales(ledger: Ledger, orgSeq: number, actor: Human, code: string, costOfSales: boolean): Promise<DeskCategory> {
  return ledger.write(async () => {
    const row = await requireCategory(ledger, orgSeq, code);
    if (row.type !== 'expense') throw invalid([{ field: 'section', message: `${row.code} ${row.name} is ${row.type}; only expense categories are cost of sales` }]);
    // Marked, it and those under it are cost of sales wherever they sit: one under a marked parent goes with it.
    const tree = new ChartTree(await chartRows(ledger, orgSeq));
    const above = tree.parentOf(row) && tree.costOfSalesFrom(tree.parentOf(row)!);
    if (!costOfSales && above) {
      throw invalid([
        {
          field: 'section',
          message: `${row.code} ${row.name} is under ${above.code} ${above.name}, which is cost of sales, and is reported with it; put ${above.code} among the expenses to move them both`,
        },
      ]);
    }
    if (Boolean(row.cost_of_sales) === costOfSales) return categoryOf(ledger, orgSeq, row.code);
    await ledger.stmt('UPDATE categories SET cost_of_sales = ? WHERE seq = ?').run(costOfSales ? 1 : 0, row.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'category.updated',
      targetType: 'category',
      targetId: row.code,
      summary: `Category ${row.code} ${row.name} reported ${costOfSales ? 'as cost of sales (above gross profit)' : 'among the expenses'}`,
    });
    return categoryOf(ledger, orgSeq, row.code);
  });
}

/** Archived: kept for the transactions that have it (inUse false), no longer offered or accepted in proposals. */
export async function setCategoryArchived(ledger: Ledger, orgSeq: number, actor: Human, code: string, archived: boolean): Promise<DeskCategory> {
  return ledger.write(async () => {
    const row = await requireCategory(ledger, orgSeq, code);
    if (archived && (await defaultCodes(ledger, orgSeq)).has(row.code)) {
      throw new LedgerError('conflict', `${row.code} ${row.name} is one of its chart's default codes, which agents are told about; it stays (rename it if you like).`, {
        code: row.code,
      });
    }
    if (Boolean(row.archived_at) === archived) throw new LedgerError('conflict', `${row.code} ${row.name} is already ${archived ? 'archived' : 'in use'}.`, { code: row.code });
    await ledger.stmt('UPDATE categories SET archived_at = ? WHERE seq = ?').run(archived ? new Date().toISOString() : null, row.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: archived ? 'category.archived' : 'category.restored',
      targetType: 'category',
      targetId: row.code,
      summary: `Category ${row.code} ${row.name} ${archived ? 'archived: kept for history, no longer offered' : 'back in use'}`,
    });
    return categoryOf(ledger, orgSeq, row.code);
  });
}

/**
 * THE retained earnings account (issue 50): an equity category whose balance and the earnings of the years before the
 * fiscal year's are one "Retained earnings" line of the balance sheet and the trial balance. At most one: naming
 * another moves the mark; null: none (the earlier years' earnings are a line of their own).
 */
export async function setRetainedEarnings(ledger: Ledger, orgSeq: number, actor: Human, code: string | null): Promise<DeskCategory | null> {
  return ledger.write(async () => {
    const row = code === null ? null : await requireCategory(ledger, orgSeq, code);
    if (row && row.type !== 'equity')
      throw invalid([{ field: 'code', message: `${row.code} ${row.name} is ${withArticle(row.type)} category; the retained earnings account is an equity one` }]);
    const before = (await chartRows(ledger, orgSeq)).find((r) => r.role === 'retained_earnings');
    if (before?.seq === row?.seq) return row ? categoryOf(ledger, orgSeq, row.code) : null;
    if (before) await ledger.stmt('UPDATE categories SET role = NULL WHERE seq = ?').run(before.seq);
    if (row) await ledger.stmt("UPDATE categories SET role = 'retained_earnings' WHERE seq = ?").run(row.seq);
    const named = (r: ChartRow | null | undefined) => (r ? `${r.code} ${r.name}` : 'none');
    await appendAudit(ledger, orgSeq, actor, {
      action: 'category.updated',
      targetType: 'category',
      targetId: (row ?? before)!.code,
      summary: `The retained earnings account: ${named(before)} -> ${named(row)}`,
    });
    return row ? categoryOf(ledger, orgSeq, row.code) : null;
  });
}

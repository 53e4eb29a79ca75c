// A chart of accounts brought from another program (Xero, QuickBooks Online:
// src/main/moving/), planned against this organization's chart before
// anything is written: each account of the file is new, matches a category
// by code (or else by name) that would be updated or left, becomes a money
// account (a bank or card), or is skipped with the reason. Applied, the whole
// plan is one write with one audit entry (chart.imported); the money
// accounts it makes carry their own entries in the same transaction.
import type { SourceAccount, SourceFile } from '../../moving/types';
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { insertAccount } from '../accounts/accounts';
import type { Ledger } from '../core/sqlite/open';
import { chartRows, type ChartRow } from './categories';
import type { CategoryType } from './ontology';
import type { AccountType } from '../../../shared/accounts';
import { taxCodeFor, type TaxChoice, orgTaxCodes } from './import-tax';

export const CHART_IMPORT_ACTIONS = ['add', 'update', 'leave', 'account', 'skip'] as const;
export type ChartImportAction = (typeof CHART_IMPORT_ACTIONS)[number];

export interface ChartImportItem {
  line: number;
  /** The code it has (or will have) here; null for a money account or a skipped row without one. */
  code: string | null;
  name: string;
  /** The source's type, as the file writes it. */
  sourceType: string;
  action: ChartImportAction;
  type: CategoryType | null;
  costOfSales: boolean;
  parentCode: string | null;
  /** Its default tax code here: the one it gets, or the one it keeps. */
  taxCode: string | null;
  /** The money account's kind (action account). */
  accountType: AccountType | null;
  /** The category it matched ("5000 Operating expenses"). */
  matched: string | null;
  /** What changes, and what is left and why, in words. */
  notes: string[];
}

export interface ChartImport {
  fileName: string;
  source: SourceFile<SourceAccount>['source'];
  described: string;
  dryRun: boolean;
  counts: Record<ChartImportAction, number>;
  items: ChartImportItem[];
  /** What concerns the whole file (an organization without tax codes). */
  warnings: string[];
  /** Lines of the file that are no account (no name). */
  unread: { line: number; reason: string }[];
}

const CODE = /^[0-9A-Za-z][0-9A-Za-z.-]{0,19}$/;
/** Where a category without a code of its own gets one: the next free ten above its type's base. */
const BASE: Record<CategoryType, number> = { asset: 1000, liability: 2000, equity: 3000, revenue: 4000, expense: 5000 };

interface Planning {
  chart: ChartRow[];
  codes: Set<string>;
  names: Map<string, string>;
  /** Full source names ("Utilities:Gas") to the code each has here, for parents. */
  paths: Map<string, { code: string; type: CategoryType }>;
  taxes: TaxChoice[];
  accounts: Set<string>;
}

const labelOf = (r: ChartRow) => `${r.code} ${r.name}`;
const lower = (s: string) => s.trim().toLowerCase();

function freeCode(p: Planning, type: CategoryType): string {
  for (let n = BASE[type] + 10; ; n += 10) if (!p.codes.has(String(n))) return String(n);
}

function parentOf(p: Planning, a: SourceAccount, type: CategoryType, notes: string[]): string | null {
  if (!a.parentName) return null;
  const parent = p.paths.get(lower(a.parentName));
  if (!parent) notes.push(`its parent "${a.parentName}" is not in the chart: placed at the top`);
  else if (parent.type !== type) notes.push(`its parent "${a.parentName}" is ${parent.type}: placed at the top`);
  else return parent.code;
  return null;
}

function skip(a: SourceAccount, reason: string, code: string | null = a.code): ChartImportItem {
  return {
    line: a.line,
    code,
    name: a.name,
    sourceType: a.sourceType,
    action: 'skip',
    type: null,
    costOfSales: false,
    parentCode: null,
    taxCode: null,
    accountType: null,
    matched: null,
    notes: [reason],
  };
}

/** The path a child names its parent by ("Utilities:Gas" is under "Utilities"). */
const pathOf = (a: SourceAccount) => lower(a.parentName ? `${a.parentName}:${a.name}` : a.name);

/**
 * A category of the file that is already in the chart: by code it takes the file's name (unless another category
 * has it); by name it keeps its code. Either way it takes a default tax code only when it has none, and cost of
 * sales when the file says so; another type than the file's leaves it as it is.
 */
function planMatch(p: Planning, a: SourceAccount, item: ChartImportItem, existing: ChartRow, byCode: boolean): ChartImportItem {
  const { notes } = item;
  const fileTax = item.taxCode;
  const ownTax = existing.default_tax_code_seq === null ? null : (p.taxes.find((t) => t.seq === existing.default_tax_code_seq)?.code ?? null);
  const matched = { ...item, matched: labelOf(existing), code: existing.code, name: existing.name, taxCode: ownTax ?? fileTax };
  p.paths.set(pathOf(a), { code: existing.code, type: existing.type });
  if (existing.type !== item.type) return { ...matched, action: 'leave', notes: [`${labelOf(existing)} is ${existing.type} here, ${item.type} in the file: left as it is`] };
  if (!byCode) notes.unshift(`matches ${labelOf(existing)} by name: its code stays`);
  const wanted = a.name.trim();
  const taken = p.names.get(lower(wanted));
  const rename = byCode && existing.name !== wanted && (!taken || taken === existing.code);
  if (byCode && existing.name !== wanted && !rename) notes.push(`the name "${wanted}" is another category's: its name stays "${existing.name}"`);
  if (rename) {
    notes.unshift(`renamed from "${existing.name}"`);
    p.names.delete(lower(existing.name));
    p.names.set(lower(wanted), existing.code);
  }
  const taxSet = ownTax === null && fileTax !== null;
  if (taxSet) notes.push(`default tax code set to ${fileTax}`);
  else if (ownTax && fileTax && ownTax !== fileTax) notes.push(`keeps its default tax code ${ownTax} (the file says ${fileTax})`);
  const markCost = item.costOfSales && !existing.cost_of_sales;
  if (markCost) notes.push('reported as cost of sales');
  if (existing.archived_at) notes.push('it is archived: restore it to use it again');
  const action = rename || taxSet || markCost ? 'update' : 'leave';
  return { ...matched, action, name: rename ? wanted : existing.name, costOfSales: item.costOfSales || Boolean(existing.cost_of_sales) };
}

/** A category of the file against the chart: matched by code, else by name, else new (its code checked or given). */
function planCategory(p: Planning, a: SourceAccount, type: CategoryType, costOfSales: boolean): ChartImportItem {
  const tax = taxCodeFor(p.taxes, a.tax);
  const notes = tax.note ? [tax.note] : [];
  const item: ChartImportItem = { ...skip(a, ''), action: 'add', code: null, type, costOfSales, taxCode: tax.code, notes };
  const byCode = a.code ? p.chart.find((r) => r.code === a.code!.trim()) : undefined;
  const existing = byCode ?? p.chart.find((r) => lower(r.name) === lower(a.name));
  if (existing) return planMatch(p, a, item, existing, Boolean(byCode));
  if (p.names.has(lower(a.name))) return skip(a, `the file names "${a.name}" twice: the first is taken`);
  let code = a.code?.trim() ?? '';
  if (code && p.codes.has(code)) return skip(a, `the file gives the code ${code} twice: the first is taken`);
  if (a.name.trim().length > 200) return skip(a, 'its name is over 200 characters');
  if (!CODE.test(code)) {
    const given = freeCode(p, type);
    notes.unshift(code ? `its code "${code}" is not one Ledgerdesk takes (letters, digits, dots, dashes): given ${given}` : `the file gives no code: given ${given}`);
    code = given;
  }
  p.codes.add(code);
  p.names.set(lower(a.name), code);
  p.paths.set(pathOf(a), { code, type });
  return { ...item, code, name: a.name.trim(), parentCode: parentOf(p, a, type, notes) };
}

function planMoney(p: Planning, a: SourceAccount, accountType: AccountType): ChartImportItem {
  const item: ChartImportItem = { ...skip(a, ''), code: null, accountType };
  if (p.accounts.has(lower(a.name))) return { ...item, action: 'leave', notes: [`the account "${a.name}" is already here`] };
  if (a.name.trim().length > 100) return { ...item, action: 'skip', notes: ["its name is over 100 characters, an account's limit"] };
  p.accounts.add(lower(a.name));
  return { ...item, action: 'account', notes: ['a money account, where its statements are imported; its balance comes from Opening balances'] };
}

async function plan(ledger: Ledger, orgSeq: number, file: SourceFile<SourceAccount>): Promise<{ items: ChartImportItem[]; warnings: string[] }> {
  const chart = await chartRows(ledger, orgSeq);
  const accounts = await ledger.rows<{ name: string }>('SELECT name FROM accounts WHERE org_seq = ?', orgSeq);
  const p: Planning = {
    chart,
    codes: new Set(chart.map((r) => r.code).filter(Boolean)),
    names: new Map(chart.map((r) => [lower(r.name), r.code])),
    paths: new Map(),
    taxes: await orgTaxCodes(ledger, orgSeq),
    accounts: new Set(accounts.map((a) => lower(a.name))),
  };
  const items = file.rows.map((a) => {
    const as = a.as;
    if (as.kind === 'system' || as.kind === 'unknown') return skip(a, as.reason);
    if (as.kind === 'money') return planMoney(p, a, as.accountType);
    return planCategory(p, a, as.type, as.costOfSales);
  });
  const untaxed = !p.taxes.length && file.rows.some((a) => a.tax);
  return { items, warnings: untaxed ? ["This organization has no tax codes yet (Tax: set up its tax set): the categories' default tax codes are left unset."] : [] };
}

async function apply(ledger: Ledger, orgSeq: number, actor: Human, items: ChartImportItem[]): Promise<void> {
  const taxes = await orgTaxCodes(ledger, orgSeq);
  const taxSeq = (code: string | null) => taxes.find((t) => t.code === code)?.seq ?? null;
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  for (const i of items) {
    if (i.action === 'add')
      await ledger
        .stmt('INSERT INTO categories (org_seq, code, name, type, parent_code, synonyms, cost_of_sales, default_tax_code_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(orgSeq, i.code, i.name.trim(), i.type, i.parentCode, '[]', i.costOfSales ? 1 : 0, taxSeq(i.taxCode));
    else if (i.action === 'update')
      await ledger
        .stmt('UPDATE categories SET name = ?, cost_of_sales = ?, default_tax_code_seq = coalesce(default_tax_code_seq, ?) WHERE org_seq = ? AND code = ?')
        .run(i.name, i.costOfSales ? 1 : 0, taxSeq(i.taxCode), orgSeq, i.code);
    else if (i.action === 'account') await insertAccount(ledger, orgSeq, actor, { name: i.name, type: i.accountType!, currency });
  }
}

const countOf = (items: ChartImportItem[]) =>
  Object.fromEntries(CHART_IMPORT_ACTIONS.map((a) => [a, items.filter((i) => i.action === a).length])) as Record<ChartImportAction, number>;

/** Plans the file against the chart and, unless a dry run, applies the plan in one write with its audit entry. */
export async function importChart(ledger: Ledger, orgSeq: number, actor: Human, file: SourceFile<SourceAccount>, fileName: string, dryRun: boolean): Promise<ChartImport> {
  const answer = ({ items, warnings }: { items: ChartImportItem[]; warnings: string[] }): ChartImport => ({
    fileName,
    source: file.source,
    described: file.described,
    dryRun,
    counts: countOf(items),
    items,
    warnings,
    unread: file.unread,
  });
  if (dryRun) return answer(await plan(ledger, orgSeq, file));
  return ledger.write(async () => {
    const planned = await plan(ledger, orgSeq, file);
    const items = planned.items;
    await apply(ledger, orgSeq, actor, items);
    const c = countOf(items);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'chart.imported',
      targetType: 'organization',
      targetId: (await organizationBySeq(ledger, orgSeq)).id,
      summary: `Chart imported from ${file.described} (${fileName}): ${c.add} added, ${c.update} updated, ${c.leave} left as they were, ${c.account} money account(s) made, ${c.skip} skipped`,
    });
    return answer(planned);
  });
}

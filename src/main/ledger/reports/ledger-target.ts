// Which account of the books a general ledger reads: a ref as the reports
// name them (account:<id>, category:<code>, suspense, in-transit,
// tax-control, receivables, payables, opening-balances), a category's code or name, or a money
// account's name or id; a category with the ones the P&L reports under it
// when asked (chart/sections.ts).
import { accountRows, type AccountRow } from '../accounts/accounts';
import { chartRows } from '../chart/categories';
import { ChartTree } from '../chart/sections';
import type { Ledger } from '../core/sqlite/open';
import { notFound } from '../core/errors';
import { foldName } from '../core/text';
import { IN_TRANSIT } from '../transfers/transfers';
import { TAX_CONTROL } from '../tax/lines';
import { isLiability } from '../../../shared/accounts';
import { categoryRef, OPENING_NAME, PAYABLES_NAME, RECEIVABLES_NAME, SUSPENSE_NAME, type BookClass, type BookRef } from './positions';

/** The account as the general ledger names it; `includes`: the categories under it taken with it (withChildren), by code. */
export interface LedgerAccount {
  ref: BookRef;
  code?: string;
  name: string;
  class: BookClass;
  includes?: { code: string; name: string }[];
}

/** One account of the books, as the general ledger reads it. */
export type Target =
  | { kind: 'money'; account: AccountRow }
  | { kind: 'category'; seq: number; code: string; name: string; class: BookClass; under: { seq: number; code: string; name: string }[] }
  | { kind: 'suspense' }
  | { kind: 'transfer' }
  | { kind: 'tax' }
  | { kind: 'receivable' }
  | { kind: 'payable' }
  | { kind: 'opening' };

const fold = foldName;

/**
 * An account of the books by its ref (as the reports name them), a category's code or name, or a money account's
 * name or id; a category with the ones the P&L reports under it when asked (`under`, else empty).
 */
export async function targetOf(ledger: Ledger, orgSeq: number, ref: string, withChildren = false): Promise<Target> {
  const key = fold(ref);
  if (['suspense', 'uncategorized', fold(SUSPENSE_NAME)].includes(key)) return { kind: 'suspense' };
  if (['in-transit', fold(IN_TRANSIT)].includes(key)) return { kind: 'transfer' };
  if (['tax-control', 'tax', fold(TAX_CONTROL)].includes(key)) return { kind: 'tax' };
  if (['receivables', fold(RECEIVABLES_NAME)].includes(key)) return { kind: 'receivable' };
  if (['payables', fold(PAYABLES_NAME)].includes(key)) return { kind: 'payable' };
  if (['opening-balances', fold(OPENING_NAME)].includes(key)) return { kind: 'opening' };
  const bare = key.replace(/^(account|category):/, '');
  const chart = await chartRows(ledger, orgSeq);
  const category = key.startsWith('account:')
    ? undefined
    : (chart.find((c) => c.code && fold(c.code) === bare) ?? chart.find((c) => fold(categoryRef(c)) === key) ?? chart.find((c) => fold(c.name) === bare));
  if (category) {
    const under = withChildren ? new ChartTree(chart).reportedWith(category).slice(1) : [];
    return { kind: 'category', seq: category.seq, code: category.code, name: category.name, class: category.type, under };
  }
  const account = key.startsWith('category:') ? undefined : (await accountRows(ledger, orgSeq)).find((a) => a.id === bare || fold(a.name) === bare);
  if (account) return { kind: 'money', account };
  throw notFound('account', ref);
}

export function describeTarget(t: Target): LedgerAccount {
  if (t.kind === 'money') return { ref: `account:${t.account.id}`, name: t.account.name, class: isLiability(t.account.type) ? 'liability' : 'asset' };
  if (t.kind === 'category') {
    const includes = t.under.map((c) => ({ code: c.code, name: c.name }));
    return { ref: categoryRef({ code: t.code, seq: t.seq }), ...(t.code ? { code: t.code } : {}), name: t.name, class: t.class, ...(includes.length ? { includes } : {}) };
  }
  if (t.kind === 'tax') return { ref: 'tax-control', name: TAX_CONTROL, class: 'liability' };
  if (t.kind === 'receivable') return { ref: 'receivables', name: RECEIVABLES_NAME, class: 'asset' };
  if (t.kind === 'payable') return { ref: 'payables', name: PAYABLES_NAME, class: 'liability' };
  if (t.kind === 'opening') return { ref: 'opening-balances', name: OPENING_NAME, class: 'equity' };
  return t.kind === 'suspense' ? { ref: 'suspense', name: SUSPENSE_NAME, class: 'equity' } : { ref: 'in-transit', name: IN_TRANSIT, class: 'asset' };
}

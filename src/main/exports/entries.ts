// An exported row as the postings of one entry, for the writers of journals
// (hledger, Beancount): the money-account posting and one per line, or both
// sides of a matched transfer as one entry. Names of accounts are the writer's.
import { decimal, type ExportDocumentEntry, type ExportLine, type ExportRow } from './book';

export interface Posting {
  /** A money account (by id) or a line's account (category name, suspense, in transit). */
  account: { money: string } | { category: string } | { suspense: true } | { inTransit: true } | { tax: true } | { receivable: true } | { payable: true };
  amountMinor: number;
  /** Its own date, when it differs from the entry's (the later side of a transfer). */
  date: string | null;
  reconciled: boolean;
  memo: string | null;
  id: string | null;
  /** In another currency than the base (issue 30): the amount is the base currency's (an expense, a tax), */
  inBase?: boolean;
  /** or the entry's currency at this cost in the base currency (money, what is owed, what is in transit). */
  costMinor?: number;
}

/** The names a journal writer gives the accounts of postings. */
export interface AccountNames {
  money: Map<string, string>;
  categories: Map<string, string>;
  suspense: string;
  inTransit: string;
  tax: string;
  receivable: string;
  payable: string;
}

/** A posting's account as the writer names it (a category that left the chart: suspense). */
export function accountNameOf(a: Posting['account'], n: AccountNames): string {
  if ('money' in a) return n.money.get(a.money)!;
  if ('category' in a) return n.categories.get(a.category) ?? n.suspense;
  if ('inTransit' in a) return n.inTransit;
  if ('tax' in a) return n.tax;
  if ('receivable' in a) return n.receivable;
  return 'payable' in a ? n.payable : n.suspense;
}

/** The other side of a transfer written with this row (null: none, or it comes first and writes the pair). */
export function pairedWith(r: ExportRow): ExportLine['counterpart'] {
  const [line] = r.lines;
  return r.lines.length === 1 && line.kind === 'transfer' ? line.counterpart : null;
}

/** Whether the row was already written with its other side, met earlier in the book's order. */
export function writtenWithOther(r: ExportRow & { seq?: number }): boolean {
  const cp = pairedWith(r);
  return cp !== null && (cp.date < r.date || (cp.date === r.date && cp.seq < (r.seq ?? 0)));
}

function lineAccount(l: Pick<ExportLine, 'kind' | 'category'>): Posting['account'] {
  if (l.kind === 'category' && l.category) return { category: l.category };
  if (l.kind === 'transfer') return { inTransit: true };
  if (l.kind === 'tax') return { tax: true };
  if (l.kind === 'receivable') return { receivable: true };
  return l.kind === 'payable' ? { payable: true } : { suspense: true };
}

/** Lines whose balance is held in the entry's own currency (owed, or in transit); the others count in the base currency. */
const HELD = new Set(['transfer', 'receivable', 'payable']);

/**
 * An entry in another currency than the base, valued (issue 30): held balances at their base cost, the other
 * lines as their base amounts, so the entry balances in the base currency as the books do. Unvalued: as it is.
 */
function priced(p: Posting, kind: string | null, baseMinor: number | null, foreign: boolean): Posting {
  if (!foreign || baseMinor === null) return p;
  return kind === null || HELD.has(kind) ? { ...p, costMinor: baseMinor } : { ...p, amountMinor: baseMinor, inBase: true };
}

/** An invoice's, credit note's or bill's entry (or its reversal): its postings alone, no money account. */
export const documentPostings = (e: ExportDocumentEntry, base: string): Posting[] =>
  e.lines.map((l) =>
    priced({ account: lineAccount(l), amountMinor: l.amountMinor, date: null, reconciled: false, memo: l.memo, id: null }, l.kind, l.baseMinor, e.currency !== base),
  );

/** A row alone: its money posting and one posting per line. */
export function rowPostings(r: ExportRow, base: string): Posting[] {
  const foreign = r.currency !== base && r.baseMinor !== null;
  return [
    priced({ account: { money: r.accountId }, amountMinor: r.amountMinor, date: null, reconciled: r.reconciled, memo: null, id: null }, null, r.baseMinor, foreign),
    ...r.lines.map((l) => priced({ account: lineAccount(l), amountMinor: l.amountMinor, date: null, reconciled: false, memo: l.memo, id: null }, l.kind, l.baseMinor, foreign)),
  ];
}

/** A posting's amount as journals write it: its own (at its cost in the base currency), or the base currency's. */
export function postingAmount(p: Posting, currency: string, base: string, digits: (c: string) => number): string {
  if (p.inBase) return `${decimal(p.amountMinor, digits(base))} ${base}`;
  const own = `${decimal(p.amountMinor, digits(currency))} ${currency}`;
  return p.costMinor === undefined ? own : `${own} @@ ${decimal(Math.abs(p.costMinor), digits(base))} ${base}`;
}

/**
 * A matched transfer as one entry: both money postings; when the sides are
 * dated apart, each with its transit posting on its own date, so that every
 * balance at every date is the books' (the money is in transit between them).
 */
export function transferPostings(r: ExportRow): Posting[] {
  const cp = pairedWith(r)!;
  const apart = cp.date !== r.date;
  const mine: Posting = { account: { money: r.accountId }, amountMinor: r.amountMinor, date: null, reconciled: r.reconciled, memo: null, id: null };
  const theirs: Posting = { account: { money: cp.accountId }, amountMinor: cp.amountMinor, date: apart ? cp.date : null, reconciled: cp.reconciled, memo: null, id: cp.id };
  if (!apart) return [mine, theirs];
  const transit = (amountMinor: number, date: string | null): Posting => ({ account: { inTransit: true }, amountMinor, date, reconciled: false, memo: null, id: null });
  return [mine, transit(-r.amountMinor, null), transit(-cp.amountMinor, cp.date), theirs];
}

// An exported row as the postings of one entry, for the writers of journals
// (hledger, Beancount): the money-account posting and one per line, or both
// sides of a matched transfer as one entry. Names of accounts are the writer's.
import { decimal, type ExportCounterpart, type ExportDocumentEntry, type ExportJournalEntry, type ExportLine, type ExportRow } from './book';

export interface Posting {
  /** A money account (by id) or a line's account (category name, suspense, in transit). */
  account: { money: string } | { category: string } | { suspense: true } | { inTransit: true } | { tax: true } | { receivable: true } | { payable: true } | { opening: true };
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
  /** Its currency when set (the sides of a transfer, each in its own); else the entry's. */
  currency?: string;
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
  /** The opening balances' equity (issue 43: what the opening entry leaves over). */
  opening: string;
}

/** A posting's account as the writer names it (a category that left the chart: suspense). */
export function accountNameOf(a: Posting['account'], n: AccountNames): string {
  if ('money' in a) return n.money.get(a.money)!;
  if ('category' in a) return n.categories.get(a.category) ?? n.suspense;
  if ('inTransit' in a) return n.inTransit;
  if ('tax' in a) return n.tax;
  if ('receivable' in a) return n.receivable;
  if ('opening' in a) return n.opening;
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
  if (l.kind === 'opening') return { opening: true };
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

/** A manual journal's money row (issue 43): written with its journal, as one of that entry's money postings. */
export const isJournalRow = (r: ExportRow): boolean => r.lines.length === 1 && r.lines[0].kind === 'journal';

/** A manual journal (or the opening entry) as one entry: its money accounts' lines as money postings, the rest as lines (in the base currency). */
export const journalPostings = (e: ExportJournalEntry): Posting[] =>
  e.lines.map((l) => ({
    account: l.kind === 'journal' ? { money: l.accountId! } : lineAccount(l),
    amountMinor: l.amountMinor,
    date: null,
    reconciled: l.reconciled,
    memo: l.memo,
    id: null,
  }));

/** A row alone: its money posting and one posting per line (one paying a document in its own currency at its booked cost: issue 43). */
export function rowPostings(r: ExportRow, base: string): Posting[] {
  const foreign = r.currency !== base && r.baseMinor !== null;
  const line = (l: ExportLine): Posting => {
    const p: Posting = { account: lineAccount(l), amountMinor: l.amountMinor, date: null, reconciled: false, memo: l.memo, id: null };
    if (l.currency === undefined) return priced(p, l.kind, l.baseMinor, foreign);
    return { ...p, currency: l.currency, ...(l.currency !== base && l.baseMinor !== null ? { costMinor: l.baseMinor } : {}) };
  };
  return [
    priced({ account: { money: r.accountId }, amountMinor: r.amountMinor, date: null, reconciled: r.reconciled, memo: null, id: null }, null, r.baseMinor, foreign),
    ...r.lines.map(line),
  ];
}

/** A posting's amount as journals write it: its own (at its cost in the base currency), or the base currency's. */
export function postingAmount(p: Posting, entryCurrency: string, base: string, digits: (c: string) => number): string {
  if (p.inBase) return `${decimal(p.amountMinor, digits(base))} ${base}`;
  const currency = p.currency ?? entryCurrency;
  const own = `${decimal(p.amountMinor, digits(currency))} ${currency}`;
  return p.costMinor === undefined ? own : `${own} @@ ${decimal(Math.abs(p.costMinor), digits(base))} ${base}`;
}

/** A side of a matched transfer: an exported row, or the counterpart written with it. */
type Side = Pick<ExportCounterpart, 'id' | 'accountId' | 'date' | 'amountMinor' | 'currency' | 'baseMinor' | 'reconciled'>;

/** A side's money posting: in its own currency, at its booked cost when that is not the base currency. */
function sidePosting(s: Side, base: string, date: string | null, id: string | null): Posting {
  const p: Posting = { account: { money: s.accountId }, amountMinor: s.amountMinor, currency: s.currency, date, reconciled: s.reconciled, memo: null, id };
  return s.currency !== base && s.baseMinor !== null ? { ...p, costMinor: s.baseMinor } : p;
}

/** The same amount at the same cost, the other way, in transit (what the earlier side of a transfer dated apart sends there). */
const intoTransit = (p: Posting, sign: 1 | -1): Posting => ({
  ...p,
  account: { inTransit: true },
  amountMinor: sign * p.amountMinor,
  ...(p.costMinor === undefined ? {} : { costMinor: sign * p.costMinor }),
  date: null,
  reconciled: false,
  id: null,
});

/**
 * What the sides' postings leave unbalanced, by currency, posted to transit: what the books hold there when
 * the sides' base amounts do not cancel (one awaiting a rate: issue 30); nothing otherwise.
 */
function leftInTransit(sides: Posting[], base: string, date: string | null): Posting[] {
  const sums = new Map<string, number>();
  for (const p of sides) {
    const [currency, minor] = p.costMinor === undefined ? [p.inBase ? base : p.currency!, p.amountMinor] : [base, p.costMinor];
    sums.set(currency, (sums.get(currency) ?? 0) + minor);
  }
  return [...sums]
    .filter(([, minor]) => minor !== 0)
    .map(([currency, minor]) => ({ account: { inTransit: true }, amountMinor: -minor, currency, date, reconciled: false, memo: null, id: null }));
}

/**
 * A matched transfer as one entry (hledger): both money postings, each in its own currency at its booked cost
 * in the base currency when it is another, so the entry balances as the books do (`-3000.00 EUR @@ 2568.60 GBP`,
 * `2568.60 GBP`). Sides dated apart: the later posting on its own date. No transit: the pair is complete.
 */
export function transferPostings(r: ExportRow, base: string): Posting[] {
  const cp = pairedWith(r)!;
  const later = cp.date !== r.date ? cp.date : null;
  const sides = [sidePosting(r, base, null, null), sidePosting(cp, base, later, cp.id)];
  return [...sides, ...leftInTransit(sides, base, later)];
}

/** Transit postings without a cost in one currency as one posting, none where they cancel. */
function netted(transit: Posting[]): Posting[] {
  const out: Posting[] = [];
  for (const p of transit) {
    const same = p.costMinor === undefined ? out.find((q) => q.costMinor === undefined && q.currency === p.currency) : undefined;
    if (same) same.amountMinor += p.amountMinor;
    else out.push({ ...p });
  }
  return out.filter((p) => p.amountMinor !== 0);
}

/**
 * A side of a matched transfer dated apart as its own entry (Beancount has no posting dates): the earlier
 * sends its amount into transit, the later takes that back at the same cost, so transit holds the money
 * between the two dates, as the books do, and after them only what the books leave there.
 */
export function transferHalf(r: ExportRow, base: string): Posting[] {
  const cp = pairedWith(r)!;
  const mine = sidePosting(r, base, null, null);
  if (cp.date > r.date) return [mine, intoTransit(mine, -1)];
  const first = sidePosting(cp, base, null, null);
  return [mine, ...netted([intoTransit(first, 1), ...leftInTransit([first, mine], base, null)])];
}

// A Beancount file (checked with bean-check 2.3): the chart as Income /
// Expenses / Assets / Liabilities / Equity accounts whose names carry the
// code and name, made valid for Beancount (each part starts with a capital or
// a digit, then letters, digits and dashes: "5100-Software-And-Tools"), the
// money accounts as Assets or Liabilities, opening balances against
// Equity:Opening-Balances, each transaction its balanced entry: the money
// posting and one per line (a split's memos as posting metadata; uncategorized
// rows against Equity:Suspense:Uncategorized; a transfer in transit against
// Assets:Transfers-In-Transit). A matched transfer whose sides share a date is
// one entry with both money postings, each in its own currency (at its cost in
// the base currency when another); Beancount has no posting dates, so sides
// dated apart are two entries through the transit account, tied by a link
// (^transfer-<first side's id>), the later taking back what the earlier put
// there: every balance at every date is the books'.
import { bookCurrencies, categoryPaths, decimal, isLiability, type ExportBook, type Write } from './book';
import {
  documentPostings,
  isJournalRow,
  journalPostings,
  pairedWith,
  postingAmount,
  rowPostings,
  transferHalf,
  transferPostings,
  writtenWithOther,
  type Posting,
  accountNameOf,
} from './entries';
import { freeName } from '../ledger/core/text';

const ROOT = { revenue: 'Income', expense: 'Expenses', asset: 'Assets', liability: 'Liabilities', equity: 'Equity' } as const;
export const BEANCOUNT_SUSPENSE = 'Equity:Suspense:Uncategorized';
export const BEANCOUNT_OPENING = 'Equity:Opening-Balances';
export const BEANCOUNT_IN_TRANSIT = 'Assets:Transfers-In-Transit';
export const BEANCOUNT_TAX = 'Liabilities:Sales-Tax-Control';
export const BEANCOUNT_RECEIVABLE = 'Assets:Accounts-Receivable';
export const BEANCOUNT_PAYABLE = 'Liabilities:Accounts-Payable';
const FIXED = [BEANCOUNT_OPENING, BEANCOUNT_SUSPENSE, BEANCOUNT_IN_TRANSIT, BEANCOUNT_TAX, BEANCOUNT_RECEIVABLE, BEANCOUNT_PAYABLE];

/** One account-name part as Beancount allows it: ASCII letters, digits and dashes, starting with a capital or a digit. */
export function beancountPart(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return words.join('-') || 'X';
}

const quoted = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\s+/g, ' ').trim()}"`;

export function beancountAccountNames(book: ExportBook): { money: Map<string, string>; categories: Map<string, string> } {
  const taken = new Set<string>();
  const unique = (name: string) => {
    const out = freeName(
      name,
      (n) => taken.has(n),
      (n) => `-${n}`,
    );
    taken.add(out);
    return out;
  };
  const categories = new Map<string, string>();
  for (const [name, c] of categoryPaths(book)) categories.set(name, unique(`${ROOT[c.type]}:${c.path.map((p) => beancountPart(`${p.code} ${p.name}`)).join(':')}`));
  const money = new Map(book.accounts.map((a) => [a.id, unique(`${isLiability(a.type) ? 'Liabilities' : 'Assets'}:${beancountPart(a.name)}`)]));
  return { money, categories };
}

/**
 * The file's options: its title, its currencies, and the retained earnings account (issue 50) as where Beancount's
 * summaries (bean-query's OPEN ON, a balance sheet of a period) put the earlier years' earnings, so that they and the
 * account are one line there too (named under Equity).
 */
function options(book: ExportBook, categories: Map<string, string>): string {
  const retained = book.categories.find((c) => c.retainedEarnings);
  const name = retained && categories.get(retained.name);
  return [
    `; ${book.organization.name} (${book.organization.slug}), exported by Ledgerdesk\n`,
    `option "title" ${quoted(book.organization.name)}\n`,
    ...bookCurrencies(book).map((c) => `option "operating_currency" "${c}"\n`),
    name ? `option "account_previous_earnings" ${quoted(name.replace(/^Equity:/, ''))}\n` : '',
  ].join('');
}

export function writeBeancount(book: ExportBook, write: Write): number {
  const { money, categories } = beancountAccountNames(book);
  write(options(book, categories));
  // Every account opens before the first entry that can use it.
  const opened = '1970-01-01';
  write('\n');
  for (const name of [...money.values(), ...categories.values(), ...FIXED]) write(`${opened} open ${name}\n`);
  write('\n');
  const amount = (minor: number, currency: string) => `${decimal(minor, book.digits(currency))} ${currency}`;
  const base = book.organization.currency;
  for (const o of book.openings) {
    const a = book.accounts.find((x) => x.id === o.accountId)!;
    if (o.minor === 0) continue;
    const valued = a.currency !== base && o.baseMinor !== null;
    const cost = valued ? ` @@ ${decimal(Math.abs(o.baseMinor!), book.digits(base))} ${base}` : '';
    const other = valued ? amount(-o.baseMinor!, base) : amount(-o.minor, a.currency);
    write(`${o.date} * "Opening balance"\n  ${money.get(a.id)}  ${amount(o.minor, a.currency)}${cost}\n  ${BEANCOUNT_OPENING}  ${other}\n\n`);
  }
  for (const p of book.prices) write(`${p.date} price ${p.currency} ${p.rate} ${base}\n`);
  if (book.prices.length) write('\n');
  const names = {
    money,
    categories,
    suspense: BEANCOUNT_SUSPENSE,
    inTransit: BEANCOUNT_IN_TRANSIT,
    tax: BEANCOUNT_TAX,
    receivable: BEANCOUNT_RECEIVABLE,
    payable: BEANCOUNT_PAYABLE,
    opening: BEANCOUNT_OPENING,
  };
  const nameOf = (a: Posting['account']) => accountNameOf(a, names);
  const posting = (p: Posting, currency: string) =>
    `  ${nameOf(p.account)}  ${postingAmount(p, currency, base, book.digits)}\n${p.id ? `    id: "${p.id}"\n` : ''}${p.memo ? `    memo: ${quoted(p.memo)}\n` : ''}`;
  let n = 0;
  for (const r of book.rows) {
    if (isJournalRow(r)) continue;
    const cp = pairedWith(r);
    // Sides of one date are one entry, written by the first side met; sides dated apart are each their own, linked.
    if (cp && cp.date === r.date && writtenWithOther(r)) continue;
    const together = cp !== null && cp.date === r.date;
    const link = cp && !together ? ` ^transfer-${cp.date < r.date ? cp.id : r.id}` : '';
    const flag = r.reconciled && (!together || cp.reconciled) ? '*' : '!';
    write(`${r.date} ${flag} ${quoted(r.description)}${link}\n  id: "${r.id}"\n`);
    const postings = together ? transferPostings(r, base) : cp ? transferHalf(r, base) : rowPostings(r, base);
    for (const p of postings) write(posting(p, r.currency));
    write('\n');
    n += together ? 2 : 1;
  }
  for (const e of book.documents) {
    write(`${e.date} * ${quoted(e.description)}\n  document: "${e.id}"\n`);
    for (const p of documentPostings(e, base)) write(posting(p, e.currency));
    write('\n');
  }
  // Manual journals (issue 43): one entry each, a money account's line as its money posting.
  for (const e of book.journals) {
    write(`${e.date} * ${quoted(e.description)}\n  journal: "${e.id}"\n`);
    for (const p of journalPostings(e)) write(posting(p, base));
    write('\n');
  }
  return n;
}

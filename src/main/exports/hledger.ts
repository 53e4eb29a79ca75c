// An hledger journal: the chart as accounts under income / expenses / assets /
// liabilities / equity (each carrying its code and name, parents as parent
// accounts), the money accounts as assets or liabilities, their opening
// balances against equity:opening balances, and each transaction as its
// balanced entry: the money posting and one per line (a split's memos as
// posting comments; uncategorized rows against equity:suspense:uncategorized;
// a transfer in transit against assets:transfers in transit). A matched
// transfer is one entry with its two money postings, each in its own currency
// (at its cost in the base currency when another); when its sides are dated
// apart the later keeps its own date (a posting date). Amounts exact, the
// commodity its currency code, declared with its minor digits (else hledger
// shows every amount with as many digits as the longest rate).
import { bookCurrencies, categoryPaths, dayBefore, decimal, isLiability, type ExportBook, type Write } from './book';
import {
  documentPostings,
  isJournalRow,
  journalPostings,
  pairedWith,
  postingAmount,
  rowPostings,
  transferPostings,
  writtenWithOther,
  type Posting,
  accountNameOf,
} from './entries';
import { freeName } from '../ledger/core/text';

const ROOT = { revenue: 'income', expense: 'expenses', asset: 'assets', liability: 'liabilities', equity: 'equity' } as const;
export const HLEDGER_SUSPENSE = 'equity:suspense:uncategorized';
/** The tax control account (tax/lines.ts): what is owed to (or due from) the tax office. */
export const HLEDGER_TAX = 'liabilities:sales tax control';
export const HLEDGER_OPENING = 'equity:opening balances';
export const HLEDGER_IN_TRANSIT = 'assets:transfers in transit';
export const HLEDGER_RECEIVABLE = 'assets:accounts receivable';
export const HLEDGER_PAYABLE = 'liabilities:accounts payable';

/** One account-name part: no colon (the separator), no semicolon (a comment), no double space (ends the name). */
const part = (text: string): string => text.replace(/[:;]/g, '-').replace(/\s+/g, ' ').trim() || '-';
/** Descriptions: one line, no semicolon (it would start a comment). */
const text = (value: string): string => value.replace(/;/g, ',').replace(/\s+/g, ' ').trim();

export function hledgerAccountNames(book: ExportBook): { money: Map<string, string>; categories: Map<string, string> } {
  const taken = new Set<string>();
  const unique = (name: string) => {
    const out = freeName(name, (n) => taken.has(n.toLowerCase()));
    taken.add(out.toLowerCase());
    return out;
  };
  const categories = new Map<string, string>();
  for (const [name, c] of categoryPaths(book)) categories.set(name, unique(`${ROOT[c.type]}:${c.path.map((p) => part(`${p.code} ${p.name}`)).join(':')}`));
  const money = new Map(book.accounts.map((a) => [a.id, unique(`${isLiability(a.type) ? 'liabilities' : 'assets'}:${part(a.name)}`)]));
  return { money, categories };
}

/** Manual journals (issue 43): one entry each, a money account's line as its money posting (cleared when reconciled). */
function writeJournals(book: ExportBook, write: Write, nameOf: (a: Posting['account']) => string): void {
  const base = book.organization.currency;
  for (const e of book.journals) {
    write(`${e.date} ${text(e.description)}  ; journal:${e.id}\n`);
    for (const p of journalPostings(e))
      write(`    ${p.reconciled ? '* ' : ''}${nameOf(p.account)}    ${postingAmount(p, base, base, book.digits)}${p.memo ? `  ; ${text(p.memo)}` : ''}\n`);
    write('\n');
  }
}

export function writeHledger(book: ExportBook, write: Write): number {
  const { money, categories } = hledgerAccountNames(book);
  write(`; ${book.organization.name} (${book.organization.slug}), exported by Ledgerdesk${book.from || book.to ? ` for ${book.from ?? '...'} to ${book.to ?? '...'}` : ''}\n\n`);
  const declare = (name: string, type: string) => write(`account ${name}  ; type: ${type}\n`);
  for (const a of book.accounts) declare(money.get(a.id)!, isLiability(a.type) ? 'L' : 'A');
  for (const [, name] of categories) declare(name, { income: 'R', expenses: 'X', assets: 'A', liabilities: 'L', equity: 'E' }[name.split(':')[0] as 'income'] ?? 'E');
  declare(HLEDGER_OPENING, 'E');
  declare(HLEDGER_SUSPENSE, 'E');
  declare(HLEDGER_IN_TRANSIT, 'A');
  declare(HLEDGER_TAX, 'L');
  declare(HLEDGER_RECEIVABLE, 'A');
  declare(HLEDGER_PAYABLE, 'L');
  write('\n');
  const amount = (minor: number, currency: string) => `${decimal(minor, book.digits(currency))} ${currency}`;
  const base = book.organization.currency;
  for (const c of bookCurrencies(book)) write(`commodity ${amount(1000 * 10 ** book.digits(c), c)}\n`);
  write('\n');
  for (const o of book.openings) {
    const a = book.accounts.find((x) => x.id === o.accountId)!;
    if (o.minor === 0) continue;
    const cost = a.currency !== base && o.baseMinor !== null ? ` @@ ${decimal(Math.abs(o.baseMinor), book.digits(base))} ${base}` : '';
    write(`${o.date} opening balance\n    ${money.get(a.id)}    ${amount(o.minor, a.currency)}${cost}\n    ${HLEDGER_OPENING}\n\n`);
  }
  // The rates by day as price directives: `hledger bal -X <base> --value=end` values at them.
  for (const p of book.prices) write(`P ${p.date} ${p.currency} ${p.rate} ${base}\n`);
  if (book.prices.length) write('\n');
  const names = {
    money,
    categories,
    suspense: HLEDGER_SUSPENSE,
    inTransit: HLEDGER_IN_TRANSIT,
    tax: HLEDGER_TAX,
    receivable: HLEDGER_RECEIVABLE,
    payable: HLEDGER_PAYABLE,
    opening: HLEDGER_OPENING,
  };
  const nameOf = (a: Posting['account']) => accountNameOf(a, names);
  let n = 0;
  for (const r of book.rows) {
    if (writtenWithOther(r) || isJournalRow(r)) continue;
    const paired = pairedWith(r) !== null;
    const postings = paired ? transferPostings(r, base) : rowPostings(r, base);
    write(`${r.date} ${!paired && r.reconciled ? '* ' : ''}${text(r.description)}  ; id:${r.id}\n`);
    for (const p of postings) {
      const tags = [p.id && `id:${p.id}`, p.date && `date:${p.date}`, p.memo && text(p.memo)].filter(Boolean).join(', ');
      const mark = paired && p.reconciled ? '* ' : '';
      write(`    ${mark}${nameOf(p.account)}    ${postingAmount(p, r.currency, base, book.digits)}${tags ? `  ; ${tags}` : ''}\n`);
    }
    write('\n');
    n += paired ? 2 : 1;
  }
  for (const e of book.documents) {
    write(`${e.date} ${text(e.description)}  ; document:${e.id}\n`);
    for (const p of documentPostings(e, base)) write(`    ${nameOf(p.account)}    ${postingAmount(p, e.currency, base, book.digits)}${p.memo ? `  ; ${text(p.memo)}` : ''}\n`);
    write('\n');
  }
  writeJournals(book, write, nameOf);
  return n;
}

export { dayBefore };

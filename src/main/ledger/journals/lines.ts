// A journal's lines as a person (or an agent) enters them, and the postings
// they make (issue 43). A line names an account of the books: a category of
// any type, a money account (by name or id), the tax control account
// (`tax-control`), or the opening balances' equity (`opening-balances`);
// an amount, debit positive; a tax code (a category line only: its amount is
// then net, and its tax is posted to the tax control account on the next
// line, as an invoice's line posts it: tax/lines.ts); a memo. What a customer
// or vendor owes is refused: it moves with a document (an invoice, a credit
// note, a bill), never a bare line, so that the aging and the statements stay
// what the balance sheet says. Lines are in the organization's currency.
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { decimalMarkOf, organizationBySeq } from '../access/organizations';
import { targetOf } from '../reports/ledger-target';
import { usableTaxCode } from '../tax/codes';
import { netEntry } from '../tax/lines';
import type { LineKind } from '../transactions/lines';
import { mapInOrder } from '../core/in-order';

/** A line as entered. */
export interface JournalLineInput {
  /** A category's code or name, a money account's name or id, `tax-control`, `opening-balances` (or a report line's ref). */
  account: string;
  /** Debit positive, credit negative, as typed (the organization's decimal mark) or a number. */
  amount: TypedMoney;
  /** A category line's tax code: its amount is net, its tax posted beside it. */
  taxCode?: string | null;
  memo?: string | null;
}

/** A line resolved to what it posts to, by identity (as a repeat keeps it: a rename changes nothing). */
export interface StoredLine {
  kind: 'category' | 'money' | 'tax' | 'opening';
  /** The category's or the money account's seq; null for the tax control account and the opening balances. */
  seq: number | null;
  amountMinor: number;
  taxCodeSeq: number | null;
  memo: string | null;
}

/** A posting to write (debits positive); a money account's line is a clearing posting (kind 'journal') naming its account. */
export interface PostingDraft {
  kind: LineKind;
  categorySeq: number | null;
  accountSeq: number | null;
  amountMinor: number;
  taxCodeSeq: number | null;
  taxMinor: number | null;
  memo: string | null;
}

export const MAX_JOURNAL_LINES = 200;

const REFUSED: Record<string, string> = {
  receivable: 'what customers owe moves with an invoice or a credit note (and, at the conversion, with the open invoices of the opening balances)',
  payable: 'what is owed to vendors moves with a bill (and, at the conversion, with the open bills of the opening balances)',
  suspense: 'the suspense account holds uncategorized bank rows only: categorize them',
  transfer: 'transfers in transit are a transfer\u2019s own: make the bank rows a transfer',
};

/** One line's target, checked: a category in use, an open money account in the organization's currency, the tax control or the opening balances. */
async function targetFor(ledger: Ledger, orgSeq: number, ref: string, field: string, opening: boolean): Promise<Pick<StoredLine, 'kind' | 'seq'>> {
  let t: Awaited<ReturnType<typeof targetOf>>;
  try {
    t = await targetOf(ledger, orgSeq, ref);
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'not_found')
      throw invalid([{ field, message: `"${ref}" is no category (code or name), money account, tax-control or opening-balances of this organization` }]);
    throw error;
  }
  if (t.kind === 'money') {
    const currency = (await organizationBySeq(ledger, orgSeq)).currency;
    if (t.account.closed_at) throw invalid([{ field, message: `account "${t.account.name}" is closed (read-only): reopen it first` }]);
    if (t.account.currency !== currency && !opening)
      throw invalid([{ field, message: `account "${t.account.name}" is in ${t.account.currency}: a journal's lines are in ${currency} (enter its movements in its register)` }]);
    return { kind: 'money', seq: t.account.seq };
  }
  if (t.kind === 'category') {
    const archived = await ledger.stmt('SELECT archived_at FROM categories WHERE seq = ?').pluck().get(t.seq);
    if (archived) throw invalid([{ field, message: `category ${t.code} ${t.name} is archived: restore it or choose another` }]);
    return { kind: 'category', seq: t.seq };
  }
  if (t.kind === 'tax') return { kind: 'tax', seq: null };
  if (t.kind === 'opening') {
    if (opening) throw invalid([{ field, message: 'the opening balances take what the entry leaves over: put the difference to them (balanceToEquity) instead' }]);
    return { kind: 'opening', seq: null };
  }
  throw invalid([{ field, message: `a journal does not post to it: ${REFUSED[t.kind]}` }]);
}

/**
 * The lines as stored, each checked and named by its field (`lines[2].account`): at least two (one at the
 * opening, whose other side may be the difference), none zero, a tax code on a category line only.
 */
export async function resolveLines(
  ledger: Ledger,
  orgSeq: number,
  lines: readonly JournalLineInput[],
  options: { opening?: boolean; field?: string; min?: number } = {},
): Promise<StoredLine[]> {
  const field = options.field ?? 'lines';
  const min = options.min ?? (options.opening ? 0 : 2);
  if (lines.length < min) throw invalid([{ field, message: `a journal has at least ${min} lines` }]);
  if (lines.length > MAX_JOURNAL_LINES) throw invalid([{ field, message: `a journal has at most ${MAX_JOURNAL_LINES} lines` }]);
  const org = await organizationBySeq(ledger, orgSeq);
  const mark = await decimalMarkOf(ledger, orgSeq);
  return await mapInOrder(lines, async (line, i) => {
    const at = `${field}[${i}]`;
    const target = await targetFor(ledger, orgSeq, line.account, `${at}.account`, options.opening === true);
    const currency = target.kind === 'money' ? ((await ledger.stmt('SELECT currency FROM accounts WHERE seq = ?').pluck().get(target.seq)) as string) : org.currency;
    const amountMinor = typedToMinor(line.amount, currency, mark, `${at}.amount`);
    // At the opening, a money account's zero is its opening balance; anywhere else a zero line says nothing.
    if (amountMinor === 0 && !(options.opening && target.kind === 'money')) throw invalid([{ field: `${at}.amount`, message: 'is zero: leave the line out' }]);
    const taxCode = line.taxCode?.trim();
    if (taxCode && (target.kind !== 'category' || options.opening))
      throw invalid([{ field: `${at}.taxCode`, message: options.opening ? 'opening balances carry no tax' : 'only a category line takes a tax code' }]);
    return { ...target, amountMinor, taxCodeSeq: taxCode ? await usableTaxCode(ledger, orgSeq, taxCode, `${at}.taxCode`) : null, memo: line.memo?.trim() || null };
  });
}

/** The postings of stored lines on a date: a taxed category line net, its tax at the date's rate on the next posting. */
export async function postingsOf(ledger: Ledger, date: string, lines: readonly StoredLine[]): Promise<PostingDraft[]> {
  const out: PostingDraft[] = [];
  const plain = { categorySeq: null, accountSeq: null, taxCodeSeq: null, taxMinor: null };
  for (const l of lines) {
    if (l.kind === 'money') out.push({ ...plain, kind: 'journal', accountSeq: l.seq, amountMinor: l.amountMinor, memo: l.memo });
    else if (l.kind === 'tax' || l.kind === 'opening') out.push({ ...plain, kind: l.kind, amountMinor: l.amountMinor, memo: l.memo });
    else if (l.taxCodeSeq === null) out.push({ ...plain, kind: 'category', categorySeq: l.seq, amountMinor: l.amountMinor, memo: l.memo });
    else {
      // A net entry as a bank row would make it (debit positive is the opposite of a row's sign): the line, then its tax.
      for (const p of (await netEntry(ledger, date, l.seq!, -l.amountMinor, l.taxCodeSeq)).lines)
        out.push({
          ...plain,
          kind: p.kind,
          categorySeq: p.categorySeq ?? null,
          amountMinor: p.amountMinor,
          taxCodeSeq: p.taxCodeSeq ?? null,
          taxMinor: p.taxMinor ?? null,
          memo: l.memo,
        });
    }
  }
  return out;
}

export const totalDebit = (postings: readonly { amountMinor: number }[]): number => postings.reduce((s, p) => s + Math.max(p.amountMinor, 0), 0);

/** Refuses postings that do not balance, saying the debits, the credits and the difference. */
export function assertBalanced(postings: readonly PostingDraft[], currency: string, field = 'lines'): void {
  const debit = totalDebit(postings);
  const credit = debit - postings.reduce((s, p) => s + p.amountMinor, 0);
  if (debit === credit) return;
  const money = (minor: number) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;
  throw invalid([
    {
      field,
      message: `debits ${money(debit)} and credits ${money(credit)} differ by ${money(Math.abs(debit - credit))} (tax included): a journal is saved only when it balances`,
    },
  ]);
}

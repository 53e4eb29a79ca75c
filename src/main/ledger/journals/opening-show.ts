// The opening entry as the Opening balances screen and `opening-balances
// show` read it (issue 43): every money account's opening balance, the
// categories' and the tax control's figures, the open invoices and bills with
// what they still ask today (and the VAT inside them: issue 50), the debits
// and credits, and what is left over for Opening balances (equity): the
// balance sheet's line of that name on the entry's date (the day before the
// conversion date), the opening balances of accounts opened later included.
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { organizationBySeq } from '../access/organizations';
import { Valuer } from '../rates/valuer';
import { categoryRef, PAYABLES_NAME, RECEIVABLES_NAME, retainedEarningsAccount, type BookRef } from '../reports/positions';
import { chartRows } from '../chart/categories';
import { TAX_CONTROL } from '../tax/lines';
import type { JournalRow } from './journals';
import { openingDocumentRows } from './opening-kept';
import { openingReturn, type OpeningReturn } from './opening-tax';
import { conversionOf } from './opening-documents';
import { openingVatWarning } from './opening-vat';
import { taxSettings, type TaxBasis } from '../tax/periods';
import { mapInOrder } from '../core/in-order';

export interface OpeningLine {
  /** Its general ledger: `report ledger --account <ref>`. */
  ref: BookRef;
  code?: string;
  name: string;
  kind: 'money' | 'category' | 'tax' | 'vat' | 'receivables' | 'payables';
  /** Debit positive, in the organization's currency (a money account in another at its opening date's rate). */
  amount: number;
  debit: number;
  credit: number;
  /** A money account in another currency: its own figure. */
  own?: { amount: number; currency: string };
  /** A money account's opening date when it is not the entry's (null: from its first row). */
  date?: string | null;
  memo?: string | null;
}

export interface OpenDocument {
  id: string;
  number: string;
  contact: string;
  date: string;
  dueDate: string;
  currency: string;
  /** What was owed at the conversion. */
  outstanding: number;
  /** The VAT inside it and its tax code (issue 50); null: none given. */
  taxCode: string | null;
  tax: number | null;
  /** Paid, credited or voided since: it stays as it is when the opening balances are set again. */
  settled: boolean;
}

export interface OpeningBalances {
  /** The conversion date; null until the opening balances are set (the money accounts' opening balances stand alone). */
  date: string | null;
  /** The entry's date (issue 50): the day before the conversion date, whose balance sheet holds it. */
  asAt: string | null;
  /** The organization's tax basis: on the cash basis an open document's VAT is due when it is paid. */
  taxBasis: TaxBasis;
  /** What needs the bookkeeper's eye: on the cash basis, open documents without their VAT. */
  warnings: string[];
  currency: string;
  lines: OpeningLine[];
  invoices: OpenDocument[];
  bills: OpenDocument[];
  /** The return (filed before these books) the tax owed at the conversion is for, and whether its payment was matched. */
  taxReturn: OpeningReturn | null;
  totalDebit: number;
  totalCredit: number;
  /** What the lines leave over, at Opening balances (equity): debit positive (credits exceed: negative). */
  difference: number;
  /**
   * The chart's retained earnings account (issue 50: its balance and the earlier years' earnings are one line), or,
   * while the chart names none, the entry's equity category whose name says it is one, offered (`offered`: true).
   */
  retainedEarnings: { code: string; name: string; offered: boolean } | null;
}

/** Names a bookkeeper gives the account of earlier years' earnings (Xero: Retained Earnings; Sage: Profit and loss account). */
const RETAINED_WORDS = /retained|brought forward|profit and loss|reserves/i;

/** The retained earnings account, or one of the entry's equity categories to offer as it. */
async function retainedEarningsOf(ledger: Ledger, orgSeq: number, lines: OpeningLine[]): Promise<OpeningBalances['retainedEarnings']> {
  const account = await retainedEarningsAccount(ledger, orgSeq);
  if (account) return { code: account.code, name: account.name, offered: false };
  const named = new Set(lines.filter((l) => l.kind === 'category').map((l) => l.ref));
  const offer = (await chartRows(ledger, orgSeq)).find((c) => c.type === 'equity' && c.code && named.has(categoryRef(c)) && RETAINED_WORDS.test(c.name));
  return offer ? { code: offer.code, name: offer.name, offered: true } : null;
}

/** A line and its amount in minor units (the totals add those, exactly). */
type Figure = [OpeningLine, number];

const line = (l: Omit<OpeningLine, 'debit' | 'credit' | 'amount'>, minor: number, base: string): Figure => {
  const amount = fromMinor(minor, base);
  return [{ ...l, amount, debit: Math.max(amount, 0), credit: Math.max(-amount, 0) }, minor];
};

async function moneyLines(ledger: Ledger, orgSeq: number, date: string | null, base: string): Promise<Figure[]> {
  const valuer = new Valuer(ledger, orgSeq);
  return await mapInOrder(
    await ledger.rows<{ id: string; name: string; currency: string; opening_balance_minor: number; opening_date: string | null }>(
      'SELECT id, name, currency, opening_balance_minor, opening_date FROM accounts WHERE org_seq = ? AND opening_balance_minor <> 0 ORDER BY lower(name)',
      orgSeq,
    ),
    async (a) => {
      const minor = await valuer.value(a.opening_balance_minor, a.currency, a.opening_date ?? date ?? '9999-12-31');
      return line(
        {
          ref: `account:${a.id}`,
          name: a.name,
          kind: 'money',
          ...(a.currency !== base ? { own: { amount: fromMinor(a.opening_balance_minor, a.currency), currency: a.currency } } : {}),
          ...(a.opening_date !== date ? { date: a.opening_date } : {}),
        },
        minor,
        base,
      );
    },
  );
}

async function entryLines(ledger: Ledger, journalSeq: number, base: string): Promise<Figure[]> {
  return (
    await ledger.rows<{ kind: string; code: string | null; name: string | null; seq: number | null; amount_minor: number; memo: string | null }>(
      `SELECT p.kind, c.code, c.name, c.seq, p.amount_minor, p.memo FROM postings p LEFT JOIN categories c ON c.seq = p.category_seq
       WHERE p.journal_seq = ? AND p.kind <> 'opening' ORDER BY p.kind = 'tax', c.code, p.seq`,
      journalSeq,
    )
  ).map((p) =>
    p.kind === 'tax'
      ? line({ ref: 'tax-control', name: TAX_CONTROL, kind: 'tax', memo: p.memo }, p.amount_minor, base)
      : line({ ref: categoryRef({ code: p.code ?? '', seq: p.seq! }), ...(p.code ? { code: p.code } : {}), name: p.name!, kind: 'category', memo: p.memo }, p.amount_minor, base),
  );
}

/** The open documents and their lines on the balance sheet (receivables, payables, the VAT due when paid), in the organization's currency as booked. */
async function documentsOf(ledger: Ledger, orgSeq: number, base: string) {
  const rows = await openingDocumentRows(ledger, orgSeq);
  const booked = ledger.stmt("SELECT base_minor FROM postings WHERE document_seq = ? AND kind IN ('receivable', 'payable') ORDER BY seq LIMIT 1").pluck();
  const vat = ledger.stmt("SELECT base_minor FROM postings WHERE document_seq = ? AND kind = 'tax' ORDER BY seq LIMIT 1").pluck();
  const sums = { invoice: 0, bill: 0, vat: 0 };
  const docs = await mapInOrder(rows, async (d) => {
    sums[d.kind] += Math.abs((await booked.get(d.seq)) as number);
    sums.vat += ((await vat.get(d.seq)) as number | undefined) ?? 0;
    return {
      id: d.id,
      number: d.number,
      contact: d.contact,
      date: d.issue_date,
      dueDate: d.due_date,
      currency: d.currency,
      outstanding: fromMinor(d.total_minor, d.currency),
      taxCode: d.tax_code,
      tax: d.tax_code === null ? null : fromMinor(d.tax_minor, d.currency),
      settled: !d.untouched,
      kind: d.kind,
    };
  });
  const lines = [
    ...(sums.invoice ? [line({ ref: 'receivables', name: RECEIVABLES_NAME, kind: 'receivables' }, sums.invoice, base)] : []),
    ...(sums.bill ? [line({ ref: 'payables', name: PAYABLES_NAME, kind: 'payables' }, -sums.bill, base)] : []),
    ...(sums.vat ? [line({ ref: 'tax-control', name: `${TAX_CONTROL}: VAT in the open invoices and bills, due when paid`, kind: 'vat' }, sums.vat, base)] : []),
  ];
  const plain = ({ kind: _kind, ...d }: (typeof docs)[number]): OpenDocument => d;
  return { lines, invoices: docs.filter((d) => d.kind === 'invoice').map(plain), bills: docs.filter((d) => d.kind === 'bill').map(plain) };
}

export async function showOpeningBalances(ledger: Ledger, orgSeq: number): Promise<OpeningBalances> {
  const base = (await organizationBySeq(ledger, orgSeq)).currency;
  const row = (await ledger.stmt("SELECT * FROM journals WHERE org_seq = ? AND kind = 'opening'").get(orgSeq)) as JournalRow | undefined;
  const asAt = row?.date ?? null;
  const docs = await documentsOf(ledger, orgSeq, base);
  const figures = [...(await moneyLines(ledger, orgSeq, asAt, base)), ...(row ? await entryLines(ledger, row.seq, base) : []), ...docs.lines];
  const debit = figures.reduce((s, [, m]) => s + Math.max(m, 0), 0);
  const credit = figures.reduce((s, [, m]) => s + Math.max(-m, 0), 0);
  const warning = await openingVatWarning(ledger, orgSeq);
  const lines = figures.map(([l]) => l);
  return {
    date: asAt && conversionOf(asAt),
    asAt,
    taxBasis: (await taxSettings(ledger, orgSeq)).basis,
    warnings: warning ? [warning.message] : [],
    currency: base,
    lines,
    invoices: docs.invoices,
    bills: docs.bills,
    taxReturn: await openingReturn(ledger, orgSeq, row?.tax_return_seq ?? null),
    totalDebit: fromMinor(debit, base),
    totalCredit: fromMinor(credit, base),
    difference: fromMinor(debit - credit, base),
    retainedEarnings: await retainedEarningsOf(ledger, orgSeq, lines),
  };
}

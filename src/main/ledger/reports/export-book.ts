// The organization's books for the exports (exports/): accounts with their
// balance before the period, the chart, and the period's rows, read one by one
// (any size in bounded memory; the writer must not touch the ledger meanwhile).
import type { AccountType } from '../../../shared/accounts';
import { dayBefore } from '../../../shared/dates';
import { accountRows } from '../accounts/accounts';
import type { CategoryType } from '../chart/ontology';
import { chartRows } from '../chart/categories';
import type { Ledger } from '../core/sqlite/open';
import { minorDigits } from '../core/money';
import { organizationBySeq } from '../access/organizations';
import { accountSumBefore } from '../totals/sums';
import { Valuer } from '../rates/valuer';
import type { LineKind } from '../transactions/lines';
import { journalEntries, type ExportJournalEntry } from './export-journals';
import { mapInOrder } from '../core/in-order';

export type { ExportJournalEntry, ExportJournalLine } from './export-journals';

/** One of an entry's other lines, as the exports write it (amount: the line's own, balancing the row's). */
export interface ExportLine {
  kind: LineKind;
  /** The category's name (categories are keyed by name in the book); null for suspense and transfer lines. */
  category: string | null;
  /** A transfer's other money account. */
  accountId: string | null;
  /** A matched transfer's other side, when it is in the export too (else the line stays in transit). */
  counterpart: ExportCounterpart | null;
  amountMinor: number;
  /** In the base currency (issue 30); null while its row awaits a rate. */
  baseMinor: number | null;
  memo: string | null;
  /** Its currency when not the row's: a document paid in its own currency (issue 43). */
  currency?: string;
}

/** The other side of a matched transfer, for writing both sides as one entry. */
export interface ExportCounterpart {
  /** Its place in the book's order (date, then seq): the first side met writes the pair. */
  seq: number;
  id: string;
  accountId: string;
  date: string;
  amountMinor: number;
  currency: string;
  /** In the base currency (issue 30); null while it awaits a rate. */
  baseMinor: number | null;
  description: string;
  reconciled: boolean;
}

export interface ExportRow {
  id: string;
  accountId: string;
  date: string;
  amountMinor: number;
  currency: string;
  baseMinor: number | null;
  description: string;
  /** The category the row shows (a split's largest line's). */
  category: string | null;
  lines: ExportLine[];
  status: string;
  source: string;
  externalId: string | null;
  suggestedBy: string | null;
  confidence: number | null;
  reason: string | null;
  /** Cleared by a reconciliation: the accountant's tools mark it cleared. */
  reconciled: boolean;
}

/** An issued invoice's, credit note's or bill's entry on one date (its issue, or its reversal when voided): postings without a bank row. */
export interface ExportDocumentEntry {
  id: string;
  date: string;
  currency: string;
  description: string;
  lines: Pick<ExportLine, 'kind' | 'category' | 'amountMinor' | 'baseMinor' | 'memo'>[];
}

export interface ExportBook {
  organization: { name: string; slug: string; currency: string };
  from: string | null;
  to: string | null;
  accounts: { id: string; name: string; type: AccountType; currency: string; closedAt: string | null }[];
  /** Each account's balance before the period (opening balance + earlier movements), and its date; in the base currency too (null: not known). */
  openings: { accountId: string; date: string; minor: number; baseMinor: number | null }[];
  /** The rates of the currencies the books use, by day, up to the period's end: one unit in the base currency (issue 30). */
  prices: { date: string; currency: string; rate: string }[];
  /** retainedEarnings: the chart's retained earnings account (issue 50). */
  categories: { code: string; name: string; type: CategoryType; parentCode: string | null; retainedEarnings?: true }[];
  rows: Iterable<ExportRow>;
  /** The entries of invoices, credit notes and bills in the period (issue 29). */
  documents: ExportDocumentEntry[];
  /** Manual journals and the opening entry in the period (issue 43): each one entry; their money rows are among `rows`, written with them. */
  journals: ExportJournalEntry[];
  digits: (currency: string) => number;
}

export async function exportBook(ledger: Ledger, orgSeq: number, period: { from?: string; to?: string }): Promise<ExportBook> {
  const org = await organizationBySeq(ledger, orgSeq);
  const accounts = await accountRows(ledger, orgSeq);
  const before = period.from;
  const valuer = new Valuer(ledger, orgSeq);
  const openings = await mapInOrder(accounts, async (a) => {
    const minor = before ? await accountSumBefore(ledger, orgSeq, a.seq, before) : 0;
    const date = before ? dayBefore(before) : (a.opening_date ?? (await firstDate(ledger, a.seq)));
    let baseMinor: number | null = null;
    try {
      baseMinor = (await valuer.opening(a, date)) + (before ? await accountSumBefore(ledger, orgSeq, a.seq, before, true) : 0);
    } catch {
      // no rate for its opening balance: written in its own currency alone
    }
    return { accountId: a.id, date, minor: a.opening_balance_minor + minor, baseMinor };
  });
  const rows = await exportRows(ledger, orgSeq, period);
  return {
    organization: { name: org.name, slug: org.slug, currency: org.currency },
    from: period.from ?? null,
    to: period.to ?? null,
    accounts: accounts.map((a) => ({ id: a.id, name: a.name, type: a.type, currency: a.currency, closedAt: a.closed_at })),
    openings,
    categories: (await chartRows(ledger, orgSeq)).map((c) => ({
      code: c.code,
      name: c.name,
      type: c.type,
      parentCode: c.parent_code,
      ...(c.role === 'retained_earnings' ? { retainedEarnings: true as const } : {}),
    })),
    rows,
    documents: await documentEntries(ledger, orgSeq, period),
    journals: await journalEntries(ledger, orgSeq, period),
    prices: await ledger.rows(
      `SELECT date, currency, rate FROM exchange_rates WHERE org_seq = ? AND date <= ?
       AND currency IN (SELECT currency FROM accounts WHERE org_seq = ? UNION SELECT currency FROM documents WHERE org_seq = ?) ORDER BY date, currency`,
      orgSeq,
      period.to ?? '9999-12-31',
      orgSeq,
      orgSeq,
    ),
    digits: minorDigits,
  };
}

const DOCUMENT_TITLES: Record<string, string> = { invoice: 'Invoice', credit_note: 'Credit note', bill: 'Bill' };

/** The documents' postings in the period, one entry per document and date. */
async function documentEntries(ledger: Ledger, orgSeq: number, period: { from?: string; to?: string }): Promise<ExportDocumentEntry[]> {
  const rows = await ledger.rows<{
    document_seq: number;
    id: string;
    kind: string;
    number: string;
    contact: string;
    date: string;
    currency: string;
    voided: number;
    line_kind: LineKind;
    category: string | null;
    amount_minor: number;
    base_minor: number | null;
    memo: string | null;
  }>(
    `SELECT p.document_seq, d.id, d.kind, d.number, c.name AS contact, p.date, p.currency, (d.state = 'void' AND d.void_date = p.date)AS voided,
       p.kind AS line_kind, cat.name AS category, p.amount_minor, p.base_minor, p.memo
     FROM postings p JOIN documents d ON d.seq = p.document_seq JOIN counterparties c ON c.seq = d.contact_seq LEFT JOIN categories cat ON cat.seq = p.category_seq
     WHERE p.org_seq = ? AND p.date >= ? AND p.date <= ? ORDER BY p.date, p.document_seq, p.seq`,
    orgSeq,
    period.from ?? '0001-01-01',
    period.to ?? '9999-12-31',
  );
  const out: (ExportDocumentEntry & { seq: number })[] = [];
  let at: (ExportDocumentEntry & { seq: number }) | undefined;
  for (const r of rows) {
    // A document voided on its issue date: issue and reversal are one entry (it still balances).
    if (!at || at.seq !== r.document_seq || at.date !== r.date) {
      at = {
        seq: r.document_seq,
        id: r.id,
        date: r.date,
        currency: r.currency,
        description: `${DOCUMENT_TITLES[r.kind]} ${r.number} ${r.contact}${r.voided ? ' (voided)' : ''}`,
        lines: [],
      };
      out.push(at);
    }
    at.lines.push({ kind: r.line_kind, category: r.category, amountMinor: r.amount_minor, baseMinor: r.base_minor, memo: r.memo });
  }
  return out.map(({ seq: _seq, ...e }) => e);
}

/** The day before an account's first row (where its opening balance sits when no date was given). */
async function firstDate(ledger: Ledger, accountSeq: number): Promise<string> {
  const { first } = (await ledger.stmt('SELECT min(date) AS first FROM account_day_totals WHERE account_seq = ?').get(accountSeq)) as { first: string | null };
  return dayBefore(first ?? new Date().toISOString().slice(0, 10));
}

type RowTuple = [
  number,
  string,
  string,
  string,
  number,
  string,
  string,
  string | null,
  string,
  string,
  string | null,
  string | null,
  number | null,
  string | null,
  number,
  number | null,
];
/** A line's part: kind, category, other account, counterpart, amount, memo, base amount, currency. */
type LineTuple = [LineKind, string | null, string | null, number | null, number, string | null, number | null, string];
/** An entry's row and one of its lines, as ENTRIES reads them. */
type ExportTuple = [...RowTuple, ...LineTuple];

/** The other sides of the matched transfers dated in the period, by row seq. */
async function counterparts(ledger: Ledger, orgSeq: number, where: string, params: unknown[]): Promise<Map<number, ExportCounterpart>> {
  const rows = await ledger.rows<Omit<ExportCounterpart, 'reconciled'> & { reconciled: number }>(
    `SELECT t.seq, t.id, a.id AS "accountId", t.date, t.amount_minor AS "amountMinor", t.currency, t.base_minor AS "baseMinor", t.description, t.reconciled
     FROM lines l JOIN transactions t ON t.seq = l.transaction_seq JOIN accounts a ON a.seq = t.account_seq
     WHERE l.org_seq = ? AND l.kind = 'transfer' AND l.counterpart_seq IS NOT NULL AND ${where}`,
    orgSeq,
    ...params,
  );
  return new Map(rows.map((r) => [r.seq, { ...r, reconciled: r.reconciled === 1 }]));
}

/** Each row of the period with each of its lines (one result row per line), in the book's order. */
const ENTRIES = `SELECT t.seq, t.id, a.id, t.date, t.amount_minor, t.currency, t.description, (SELECT name FROM categories WHERE seq = t.category_seq), t.status, t.source,
         t.external_id, t.suggested_by, t.confidence, t.reason, t.reconciled, t.base_minor,
         l.kind, c.name, la.id, l.counterpart_seq, l.amount_minor, l.memo, l.base_minor, l.currency
  FROM transactions t JOIN accounts a ON a.seq = t.account_seq JOIN lines l ON l.transaction_seq = t.seq
  LEFT JOIN categories c ON c.seq = l.category_seq LEFT JOIN accounts la ON la.seq = l.account_seq
  WHERE t.org_seq = ? AND $DATED ORDER BY t.date, t.seq, l.position`;

/** A result row's transaction, its lines still to come. */
function rowOf(v: ExportTuple): ExportRow & { seq: number } {
  const [seq, id, accountId, date, amountMinor, currency, description, category, status, source, externalId, suggestedBy, confidence, reason, reconciled, baseMinor] = v;
  return {
    seq,
    id,
    accountId,
    date,
    amountMinor,
    currency,
    baseMinor,
    description,
    category,
    lines: [],
    status,
    source,
    externalId,
    suggestedBy,
    confidence,
    reason,
    reconciled: reconciled === 1,
  };
}

/** The period's rows in date order with their lines, read lazily (a big file's rows are never all in memory). */
async function exportRows(ledger: Ledger, orgSeq: number, period: { from?: string; to?: string }): Promise<Iterable<ExportRow>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (period.from) {
    where.push('t.date >= ?');
    params.push(period.from);
  }
  if (period.to) {
    where.push('t.date <= ?');
    params.push(period.to);
  }
  const dated = where.join(' AND ') || 'TRUE';
  const sides = await counterparts(ledger, orgSeq, dated, params);
  const sql = ENTRIES.replace('$DATED', dated);
  // SQLite streams the entries as the writer asks for them (a million rows are never held); PostgreSQL's driver reads them whole.
  const tuples =
    ledger.engine === 'sqlite'
      ? () =>
          ledger.sqlite
            .prepare(sql)
            .raw(true)
            .iterate(orgSeq, ...params) as Iterable<ExportTuple>
      : await readAll(ledger, sql, orgSeq, ...params);
  return {
    *[Symbol.iterator]() {
      let row = null as (ExportRow & { seq: number }) | null;
      for (const v of typeof tuples === 'function' ? tuples() : tuples) {
        const seq = v[0];
        if (row === null || row.seq !== seq) {
          if (row !== null) yield row;
          row = rowOf(v);
        }
        const [kind, lineCategory, toAccount, counterpartSeq, lineMinor, memo, lineBase, lineCurrency] = v.slice(16) as LineTuple;
        row.lines.push({
          kind,
          category: lineCategory,
          accountId: toAccount,
          counterpart: counterpartSeq === null ? null : (sides.get(counterpartSeq) ?? null),
          amountMinor: lineMinor,
          baseMinor: lineBase,
          memo,
          ...(lineCurrency !== row.currency ? { currency: lineCurrency } : {}),
        });
      }
      if (row !== null) yield row;
    },
  };
}

/** Every row of a query, as arrays. */
async function readAll(ledger: Ledger, sql: string, ...params: unknown[]): Promise<ExportTuple[]> {
  const all: ExportTuple[] = [];
  for await (const chunk of ledger.stmt(sql).iterateRaw(...params)) for (const v of chunk) all.push(v as ExportTuple);
  return all;
}

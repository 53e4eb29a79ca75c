// The organization's books for the exports (exports/): accounts with their
// balance before the period, the chart, and the period's rows, read one by one
// (any size in bounded memory; the writer must not touch the ledger meanwhile).
import type { AccountType } from '../../../shared/accounts';
import { dayBefore } from '../../../shared/dates';
import { accountRows } from '../accounts/accounts';
import type { CategoryType } from '../chart/ontology';
import { chartRows } from '../chart/categories';
import type { Ledger } from '../core/db';
import { minorDigits } from '../core/money';
import { organizationBySeq } from '../access/organizations';
import { accountSumBefore } from '../totals/sums';

export interface ExportRow {
  id: string;
  accountId: string;
  date: string;
  amountMinor: number;
  currency: string;
  description: string;
  category: string | null;
  status: string;
  source: string;
  externalId: string | null;
  suggestedBy: string | null;
  confidence: number | null;
  reason: string | null;
  /** Cleared by a reconciliation: the accountant's tools mark it cleared. */
  reconciled: boolean;
}

export interface ExportBook {
  organization: { name: string; slug: string; currency: string };
  from: string | null;
  to: string | null;
  accounts: { id: string; name: string; type: AccountType; currency: string; closedAt: string | null }[];
  /** Each account's balance before the period (opening balance + earlier movements), and its date. */
  openings: { accountId: string; date: string; minor: number }[];
  categories: { code: string; name: string; type: CategoryType; parentCode: string | null }[];
  rows: Iterable<ExportRow>;
  digits: (currency: string) => number;
}

export function exportBook(ledger: Ledger, orgSeq: number, period: { from?: string; to?: string }): ExportBook {
  const org = organizationBySeq(ledger, orgSeq);
  const accounts = accountRows(ledger, orgSeq);
  const before = period.from;
  const openings = accounts.map((a) => {
    const minor = before ? accountSumBefore(ledger, a.seq, before) : 0;
    const date = before ? dayBefore(before) : (a.opening_date ?? firstDate(ledger, a.seq));
    return { accountId: a.id, date, minor: a.opening_balance_minor + minor };
  });
  const rows = exportRows(ledger, orgSeq, period);
  return {
    organization: { name: org.name, slug: org.slug, currency: org.currency },
    from: period.from ?? null,
    to: period.to ?? null,
    accounts: accounts.map((a) => ({ id: a.id, name: a.name, type: a.type, currency: a.currency, closedAt: a.closed_at })),
    openings,
    categories: chartRows(ledger, orgSeq)
      .filter((c) => c.code !== '')
      .map((c) => ({ code: c.code, name: c.name, type: c.type, parentCode: c.parent_code })),
    rows,
    digits: minorDigits,
  };
}

/** The day before an account's first row (where its opening balance sits when no date was given). */
function firstDate(ledger: Ledger, accountSeq: number): string {
  const { first } = ledger.stmt('SELECT min(date) AS first FROM account_day_totals WHERE account_seq = ?').get(accountSeq) as { first: string | null };
  return dayBefore(first ?? new Date().toISOString().slice(0, 10));
}

type ExportTuple = [string, string, string, number, string, string, string | null, string, string, string | null, string | null, number | null, string | null, number];

/** The period's rows in date order, read lazily (a big file's rows are never all in memory). */
function exportRows(ledger: Ledger, orgSeq: number, period: { from?: string; to?: string }): Iterable<ExportRow> {
  const where = ['t.org_seq = ?'];
  const params: unknown[] = [orgSeq];
  if (period.from) {
    where.push('t.date >= ?');
    params.push(period.from);
  }
  if (period.to) {
    where.push('t.date <= ?');
    params.push(period.to);
  }
  const select = ledger.sqlite
    .prepare(
      `SELECT t.id, a.id, t.date, t.amount_minor, t.currency, t.description, t.category, t.status, t.source, t.external_id, t.suggested_by, t.confidence, t.reason, t.reconciled
       FROM transactions t JOIN accounts a ON a.seq = t.account_seq WHERE ${where.join(' AND ')} ORDER BY t.date, t.seq`,
    )
    .raw(true);
  return {
    *[Symbol.iterator]() {
      for (const v of select.iterate(...params) as Iterable<ExportTuple>) {
        const [id, accountId, date, amountMinor, currency, description, category, status, source, externalId, suggestedBy, confidence, reason, reconciled] = v;
        yield { id, accountId, date, amountMinor, currency, description, category, status, source, externalId, suggestedBy, confidence, reason, reconciled: reconciled === 1 };
      }
    },
  };
}

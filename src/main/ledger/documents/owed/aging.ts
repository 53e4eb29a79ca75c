// Aged receivables and payables at a date, and a customer's (or vendor's)
// statement (issue 29). What a contact owes at a date is the sum of the
// receivable amounts naming it dated on or before it: its invoices, credit
// notes, payments and any credit left by an overpayment. So the aging's
// total is the balance sheet's receivables, and the exports'. An open
// document goes in a bucket by the days past its due date (current: not yet
// due; then 1-30, 31-60, 61-90, over 90); a contact's credit is apart.
import { consistent } from '../../core/consistent';
import { today } from '../../core/clock';
import type { Ledger } from '../../core/sqlite/open';
import { fromMinor } from '../../core/money';
import { reportCurrency } from '../../reports/positions';
import { bookCurrencies } from '../../totals/sums';
import { flatMapInOrder } from '../../core/in-order';

export const BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
export type Bucket = (typeof BUCKETS)[number];

export interface AgedDocument {
  number: string;
  issueDate: string;
  dueDate: string;
  daysPastDue: number;
  bucket: Bucket;
  balance: number;
}

export type AgingContact = Record<Bucket, number> & {
  id: string;
  name: string;
  /** What the contact has paid beyond its documents (negative: it reduces what is owed). */
  credit: number;
  total: number;
  documents: AgedDocument[];
};

export interface Aging {
  date: string;
  side: 'receivables' | 'payables';
  currency: string;
  contacts: AgingContact[];
  totals: Record<Bucket, number> & { credit: number };
  total: number;
}

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

export function bucketOf(daysPastDue: number): Bucket {
  if (daysPastDue <= 0) return 'current';
  if (daysPastDue <= 30) return 'days1to30';
  if (daysPastDue <= 60) return 'days31to60';
  if (daysPastDue <= 90) return 'days61to90';
  return 'over90';
}

/** A currency's own amounts, or the base currency's (another currency's documents in a base-currency aging). */
type Measure = 'amount_minor' | 'base_minor';

interface OpenRow {
  seq: number;
  number: string;
  issue_date: string;
  due_date: string;
  contact_seq: number;
  minor: number;
}

/**
 * What contacts paid beyond their documents (overpayments), per contact, through a date (on lines_credits alone),
 * less what of it was applied to documents by then (apply-credit.ts: only in the organization's currency).
 */
async function creditsAt(ledger: Ledger, side: 'receivables' | 'payables', currency: string, date: string, measure: Measure) {
  const kind = side === 'payables' ? 'payable' : 'receivable';
  return ledger.rows<{ contact_seq: number; minor: number }>(
    `SELECT contact_seq, sum(minor) AS minor FROM (
       SELECT l.contact_seq, l.${measure} AS minor FROM lines l${measure === 'amount_minor' ? ' INDEXED BY lines_credits' : ''}
       WHERE l.contact_seq IS NOT NULL AND l.settles_seq IS NULL AND l.kind = @kind AND l.currency = @currency AND l.date <= @date
       UNION ALL SELECT contact_seq, CASE kind WHEN 'payable' THEN -amount_minor ELSE amount_minor END FROM credit_applications
       WHERE kind = @kind AND currency = @currency AND date <= @date
     ) AS sub GROUP BY contact_seq`,
    { kind, currency, date },
  );
}

/**
 * What was open at the date, with its balance then: one pass over the open documents (documents_open covers them)
 * and what settled them by then (one nothing ever settled asks its total, read without looking for payments).
 */
async function openAt(ledger: Ledger, params: { org: number; kind: string; currency: string; date: string; sign: number }, measure: Measure): Promise<OpenRow[]> {
  // In its own currency an untouched document asks its total; in the base currency, what it booked (read from its postings).
  const untouched = measure === 'amount_minor' ? 'o.settled_minor = 0' : 'FALSE';
  return ledger.rows<OpenRow>(
    `WITH open AS (
       SELECT d.seq, d.number, d.issue_date, d.due_date, d.contact_seq, d.total_minor, d.settled_minor FROM documents d INDEXED BY documents_open
       WHERE d.org_seq = @org AND d.kind = @kind AND d.state <> 'draft' AND d.settled_on IS NULL AND d.issued_at IS NOT NULL AND d.currency = @currency AND d.issue_date <= @date
       UNION ALL
       SELECT d.seq, d.number, d.issue_date, d.due_date, d.contact_seq, d.total_minor, d.settled_minor FROM documents d INDEXED BY documents_open
       WHERE d.org_seq = @org AND d.kind = @kind AND d.state <> 'draft' AND d.settled_on > @date AND d.issued_at IS NOT NULL AND d.currency = @currency AND d.issue_date <= @date)
     SELECT o.seq, o.number, o.issue_date, o.due_date, o.contact_seq,
       CASE WHEN ${untouched} THEN @sign * o.total_minor ELSE
         coalesce((SELECT sum(p.${measure}) FROM postings p INDEXED BY postings_settles WHERE p.settles_seq = o.seq AND p.date <= @date), 0)
         + coalesce((SELECT sum(l.${measure}) FROM lines l INDEXED BY lines_settles WHERE l.settles_seq = o.seq AND l.date <= @date), 0)
         - @sign * coalesce((SELECT sum(a.amount_minor) FROM credit_applications a WHERE a.document_seq = o.seq AND a.date <= @date), 0) END AS minor
     FROM open o`,
    params,
  );
}

/**
 * The aging in the base currency (issue 30: documents in another currency at what they booked, as the balance
 * sheet holds them), or in one currency's own amounts when it is named.
 */
export const aging = consistent(async function aging(ledger: Ledger, orgSeq: number, side: 'receivables' | 'payables', date: string = today(), only?: string): Promise<Aging> {
  const { currency, sums } = await reportCurrency(ledger, orgSeq, only);
  const kind = side === 'payables' ? 'bill' : 'invoice';
  // Each currency the documents of this side are in: its own amounts, or (another one's, in base) what they booked.
  const parts: [string, Measure][] =
    sums !== null
      ? [[sums, 'amount_minor']]
      : [[currency, 'amount_minor'], ...(await bookCurrencies(ledger, orgSeq)).filter((c) => c !== currency).map((c): [string, Measure] => [c, 'base_minor'])];
  return agingOf(ledger, orgSeq, side, date, currency, kind, parts);
});

async function agingOf(ledger: Ledger, orgSeq: number, side: 'receivables' | 'payables', date: string, currency: string, kind: string, parts: [string, Measure][]): Promise<Aging> {
  const sign = side === 'payables' ? -1 : 1;
  const zero = () => Object.fromEntries(BUCKETS.map((b) => [b, 0])) as Record<Bucket, number>;
  const byContact = new Map<number, { id: string; name: string; minor: Record<Bucket, number>; credit: number; documents: AgedDocument[] }>();
  // The organization's contacts once (a few hundred), not one look per open document.
  const names = new Map(
    (await ledger.rows<{ seq: number; id: string; name: string }>('SELECT seq, id, name FROM counterparties WHERE org_seq = ?', orgSeq)).map((c) => [c.seq, c]),
  );
  const contactOf = (seq: number) => {
    let c = byContact.get(seq);
    if (!c) byContact.set(seq, (c = { id: names.get(seq)!.id, name: names.get(seq)!.name, minor: zero(), credit: 0, documents: [] }));
    return c;
  };
  const open = await flatMapInOrder(parts, ([c, measure]) => openAt(ledger, { org: orgSeq, kind, currency: c, date, sign }, measure));
  const pastDue = new Map<string, number>();
  for (const d of open) {
    const minor = sign * d.minor;
    if (minor === 0) continue;
    // Thousands of documents share a few hundred due dates.
    const daysPastDue = pastDue.get(d.due_date) ?? pastDue.set(d.due_date, daysBetween(d.due_date, date)).get(d.due_date)!;
    const bucket = bucketOf(daysPastDue);
    const c = contactOf(d.contact_seq);
    c.minor[bucket] += minor;
    c.documents.push({ number: d.number, issueDate: d.issue_date, dueDate: d.due_date, daysPastDue: Math.max(0, daysPastDue), bucket, balance: fromMinor(minor, currency) });
  }
  for (const c of await flatMapInOrder(parts, ([c, measure]) => creditsAt(ledger, side, c, date, measure)))
    if (c.minor !== 0 && names.has(c.contact_seq)) contactOf(c.contact_seq).credit += sign * c.minor;
  const totals = { ...zero(), credit: 0 };
  const contacts = [...byContact.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => {
      for (const b of BUCKETS) totals[b] += c.minor[b];
      totals.credit += c.credit;
      const total = BUCKETS.reduce((s, b) => s + c.minor[b], 0) + c.credit;
      const money = Object.fromEntries(BUCKETS.map((b) => [b, fromMinor(c.minor[b], currency)])) as Record<Bucket, number>;
      return {
        id: c.id,
        name: c.name,
        ...money,
        credit: fromMinor(c.credit, currency),
        total: fromMinor(total, currency),
        documents: c.documents.sort((x, y) => x.dueDate.localeCompare(y.dueDate)),
      };
    });
  const total = BUCKETS.reduce((s, b) => s + totals[b], 0) + totals.credit;
  return {
    date,
    side,
    currency,
    contacts,
    totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, fromMinor(v, currency)])) as Aging['totals'],
    total: fromMinor(total, currency),
  };
}

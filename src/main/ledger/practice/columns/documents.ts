// Invoices overdue and bills due this week, counted on documents_open, the
// aging's own index (documents/owed/aging.ts): it holds the issued documents
// with whether they are settled, their due date and amounts, so these counts
// read the index alone and only the organizations' open documents of one kind,
// however many it has settled. "Overdue" moves with the day, so no count by
// due date is kept ahead: what is open today is asked today (docs/practice.md).
import { addDays } from '../../../../shared/dates';
import type { Ledger } from '../../core/storage';
import { fromMinor } from '../../core/money';
import { inList } from '../../core/dialect';
import { column, figures, NONE, place, seqsOf, type Seen } from '../column';

export interface OwedFigure {
  count: number;
  /** What they still owe, in the organization's currency (documents in it). */
  amount: number;
  /** Documents in other currencies, counted but not in `amount`: each currency's own total. */
  otherCurrencies: Record<string, number>;
}

/**
 * Each organization's open (issued, not settled, not void) documents of a kind due before a day, what they still owe
 * by currency, and how many were due before `late`.
 */
async function openDue(ledger: Ledger, seen: readonly Seen[], kind: 'invoice' | 'bill', before: string, late = before): Promise<Map<number, OwedFigure & { late: number }>> {
  const rows = await ledger.rows<{ org_seq: number; currency: string; n: number; late: number; owed: number }>(
    `SELECT d.org_seq, d.currency, count(*) AS n, sum(CASE WHEN d.due_date < ? THEN 1 ELSE 0 END) AS late, sum(d.total_minor - d.settled_minor) AS owed
     FROM documents d INDEXED BY documents_open
     WHERE ${inList(ledger, 'd.org_seq')} AND d.kind = ? AND d.state <> 'draft' AND d.state = 'issued' AND d.settled_on IS NULL AND d.issued_at IS NOT NULL AND d.due_date < ?
     GROUP BY d.org_seq, d.currency`,
    late,
    seqsOf(seen),
    kind,
    before,
  );
  return figures(seen, rows, (mine, { org }) => {
    const figure = { count: 0, amount: 0, otherCurrencies: {} as Record<string, number>, late: 0 };
    for (const r of mine) {
      figure.count += Number(r.n);
      figure.late += Number(r.late);
      const owed = fromMinor(Number(r.owed), r.currency);
      if (r.currency === org.currency) figure.amount = owed;
      else figure.otherCurrencies[r.currency] = owed;
    }
    return figure;
  });
}

const owedText = (f: OwedFigure, currency: string) =>
  [`${f.amount.toFixed(2)} ${currency}`, ...Object.entries(f.otherCurrencies).map(([c, a]) => `${a.toFixed(2)} ${c}`)].join(' + ');

export const invoicesOverdue = column<OwedFigure>({
  id: 'invoicesOverdue',
  label: 'Invoices overdue',
  async read(ledger, seen, day) {
    const due = await openDue(ledger, seen, 'invoice', day);
    return new Map([...due].map(([seq, { late: _late, ...figure }]) => [seq, figure]));
  },
  cell: (f, org) => ({
    text: f.count === 0 ? NONE : `${f.count}: ${owedText(f, org.currency)}`,
    red: f.count > 0,
    href: place(org, 'aging'),
    sort: f.amount,
  }),
});

export interface BillsDueFigure extends OwedFigure {
  /** Of them, those due before today. */
  overdue: number;
}

export const billsDue = column<BillsDueFigure>({
  id: 'billsDue',
  label: 'Bills due this week',
  async read(ledger, seen, day) {
    // Due by the seventh day from today, those already overdue included (still to pay this week).
    const due = await openDue(ledger, seen, 'bill', addDays(day, 7), day);
    return new Map([...due].map(([seq, { late, ...week }]) => [seq, { ...week, overdue: late }]));
  },
  cell: (f, org) => ({
    text: f.count === 0 ? NONE : `${f.count}${f.overdue ? ` (${f.overdue} overdue)` : ''}: ${owedText(f, org.currency)}`,
    red: f.overdue > 0,
    href: place(org, 'bills'),
    sort: f.amount,
  }),
});

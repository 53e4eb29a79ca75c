// Repeating invoices (issue 53) that need the person: an occurrence that could
// not be made (its reason recorded), or one made late and held back from
// sending until they say so. Red when any waits. Read from the occurrence
// records, which are as many as the invoices the schedules made.
import { inList } from '../../core/dialect';
import { column, figures, NONE, place, seqsOf } from '../column';

export interface RepeatingFigure {
  failed: number;
  held: number;
}

export const repeating = column<RepeatingFigure>({
  id: 'repeating',
  label: 'Repeating invoices',
  read: async (ledger, seen) => {
    const rows = await ledger.rows<{ org_seq: number; failed: number | string; held: number | string }>(
      `SELECT org_seq, count(CASE WHEN failure IS NOT NULL THEN 1 END) AS failed, count(CASE WHEN sending = 'held' THEN 1 END) AS held
       FROM invoice_repeat_occurrences WHERE ${inList(ledger, 'org_seq')} AND (failure IS NOT NULL OR sending = 'held') GROUP BY org_seq`,
      seqsOf(seen),
    );
    return figures(seen, rows, ([row]) => ({ failed: Number(row?.failed ?? 0), held: Number(row?.held ?? 0) }));
  },
  cell: (f, org) => {
    const words = [f.failed ? `${f.failed} not made` : null, f.held ? `${f.held} held to send` : null].filter(Boolean).join(', ');
    return { text: words || NONE, red: f.failed + f.held > 0, href: place(org, 'repeating'), sort: f.failed + f.held || null };
  },
});

// Repeating invoices (issue 53) that need the person: an occurrence that could
// not be made (its reason recorded), or one made late and held back from
// sending until they say so. Red when any waits. Read from the occurrence
// records, which are as many as the invoices the schedules made.
import { column, NONE, place } from '../column';

export interface RepeatingFigure {
  failed: number;
  held: number;
}

export const repeating = column<RepeatingFigure>({
  id: 'repeating',
  label: 'Repeating invoices',
  read: async (ledger, org) => {
    const row = (await ledger
      .stmt(
        "SELECT count(CASE WHEN failure IS NOT NULL THEN 1 END) AS failed, count(CASE WHEN sending = 'held' THEN 1 END) AS held FROM invoice_repeat_occurrences WHERE org_seq = ? AND (failure IS NOT NULL OR sending = 'held')",
      )
      .get(org.seq)) as { failed: number | string; held: number | string };
    return { failed: Number(row.failed), held: Number(row.held) };
  },
  cell: (f, org) => {
    const words = [f.failed ? `${f.failed} not made` : null, f.held ? `${f.held} held to send` : null].filter(Boolean).join(', ');
    return { text: words || NONE, red: f.failed + f.held > 0, href: place(org, 'repeating'), sort: f.failed + f.held || null };
  },
});

// The next VAT return HMRC expects (issue 55), where the organization is
// connected to HMRC: its open obligation due soonest, as HMRC's last list of
// them said (kept by every fetch of obligations: ledger/hmrc/obligations.ts),
// never asked of HMRC while the screen is built. Red once its due date has
// passed. Beside it, "Next return due" stays Ledgerdesk's own period: the two
// differ where the tax settings are not HMRC's periods.
import { keptObligationsOf, type KeptObligation } from '../../hmrc/obligations';
import { column, NONE, place, seqsOf } from '../column';

export interface HmrcFigure {
  /** The open obligation due soonest; null: HMRC listed none open. */
  next: KeptObligation | null;
  /** How many are open. */
  open: number;
  /** When HMRC listed them. */
  fetchedAt: string;
}

export const hmrc = column<HmrcFigure | null>({
  id: 'hmrc',
  label: "HMRC's next return",
  async read(ledger, seen) {
    const kept = await keptObligationsOf(ledger, seqsOf(seen));
    return new Map(
      seen.map(({ org }) => {
        const k = kept.get(org.seq);
        return [org.seq, k ? { next: k.open[0] ?? null, open: k.open.length, fetchedAt: k.fetchedAt } : null];
      }),
    );
  },
  cell: (f, org, day) => {
    const asOf = f ? ` (HMRC, ${f.fetchedAt.slice(0, 10)})` : '';
    const more = f && f.open > 1 ? `; ${f.open} open` : '';
    return {
      text: !f ? NONE : f.next ? `${f.next.periodKey}: ${f.next.start} to ${f.next.end}, due ${f.next.due}${more}${asOf}` : `none open${asOf}`,
      red: Boolean(f?.next && f.next.due < day),
      href: place(org, 'tax'),
      sort: f?.next?.due ?? null,
    };
  },
});

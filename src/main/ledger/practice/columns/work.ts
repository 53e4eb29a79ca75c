// The work waiting in an organization's own queues: rows to review (the
// Transactions screen's status counts) and proposals waiting in Approvals, by
// kind, with how many the viewer may approve. Both from maintained totals
// (transaction_status_counts, proposal_kind_counts: ledger/totals/declared.ts).
import { inList } from '../../core/dialect';
import { column, figures, NONE, place, seqsOf } from '../column';

export interface ReviewFigure {
  uncategorized: number;
  suggested: number;
}

export const review = column<ReviewFigure>({
  id: 'review',
  label: 'Rows to review',
  async read(ledger, seen) {
    const rows = await ledger.rows<{ org_seq: number; status: string; n: number }>(
      `SELECT org_seq, status, sum(n) AS n FROM transaction_status_counts
       WHERE ${inList(ledger, 'org_seq')} AND status IN ('uncategorized', 'agent_suggested') GROUP BY org_seq, status`,
      seqsOf(seen),
    );
    return figures(seen, rows, (mine) => {
      const count = (status: string) => Number(mine.find((r) => r.status === status)?.n ?? 0);
      return { uncategorized: count('uncategorized'), suggested: count('agent_suggested') };
    });
  },
  cell: (f, org) => ({
    text: f.uncategorized + f.suggested === 0 ? NONE : `${f.uncategorized} uncategorized, ${f.suggested} suggested`,
    red: false,
    // The uncategorized first (the suggested wait in Approvals too).
    href: place(org, 'transactions', { status: f.uncategorized > 0 || f.suggested === 0 ? 'uncategorized' : 'agent_suggested' }),
    sort: f.uncategorized + f.suggested,
  }),
});

export interface ProposalsFigure {
  waiting: number;
  byKind: Record<string, number>;
  /** Of those waiting, the ones the viewer may approve: their role may make the change, and they are not their own. */
  mayApprove: number;
}

export const proposals = column<ProposalsFigure>({
  id: 'proposals',
  label: 'Proposals waiting',
  async read(ledger, seen) {
    const rows = await ledger.rows<{ org_seq: number; type: string; proposed_by: string; n: number }>(
      `SELECT org_seq, type, proposed_by, n FROM proposal_kind_counts WHERE ${inList(ledger, 'org_seq')} AND status = 'pending' AND n <> 0`,
      seqsOf(seen),
    );
    return figures(seen, rows, (mine, { viewer }) => {
      const byKind: Record<string, number> = {};
      let mayApprove = 0;
      for (const r of mine) {
        const n = Number(r.n);
        byKind[r.type] = (byKind[r.type] ?? 0) + n;
        if (viewer.approves(r.type) && !viewer.own.includes(r.proposed_by)) mayApprove += n;
      }
      return { waiting: Object.values(byKind).reduce((a, b) => a + b, 0), byKind, mayApprove };
    });
  },
  cell: (f, org) => ({
    text:
      f.waiting === 0
        ? NONE
        : `${f.waiting} (${Object.entries(f.byKind)
            .map(([kind, n]) => `${n} ${kind.replaceAll('_', ' ')}`)
            .join(', ')}); ${f.mayApprove} yours to approve`,
    red: false,
    href: place(org, 'approvals'),
    sort: f.waiting,
  }),
});

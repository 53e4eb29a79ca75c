// Each money account's oldest month holding rows no reconciliation cleared
// (account_month_totals keeps them apart, reconciled = 0) and the statement
// date of its last reconciliation still standing (reconciliations, a few rows
// an account). Red: an account with such rows from before last month, i.e.
// not reconciled since last month's statement.
import { inList } from '../../core/dialect';
import { column, figures, NONE, place, seqsOf } from '../column';

export interface AccountReconciled {
  id: string;
  name: string;
  /** YYYY-MM; null: every row is reconciled. */
  oldestUnreconciled: string | null;
  lastReconciled: string | null;
}

export interface ReconciledFigure {
  accounts: AccountReconciled[];
}

/** The month before the day's: rows of it may still wait for its statement. */
const lastMonth = (day: string) => {
  const d = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 2, 1));
  return d.toISOString().slice(0, 7);
};

const late = (a: AccountReconciled, day: string) => a.oldestUnreconciled !== null && a.oldestUnreconciled < lastMonth(day);

export const reconciled = column<ReconciledFigure>({
  id: 'reconciled',
  label: 'Unreconciled since',
  async read(ledger, seen) {
    const accounts = await ledger.rows<{ org_seq: number; id: string; name: string; oldest: string | null; last: string | null }>(
      `SELECT a.org_seq, a.id, a.name,
         (SELECT min(m.month) FROM account_month_totals m WHERE m.org_seq = a.org_seq AND m.account_seq = a.seq AND m.reconciled = 0 AND m.n <> 0) AS oldest,
         (SELECT r.statement_date FROM reconciliations r WHERE r.org_seq = a.org_seq AND r.account_seq = a.seq AND r.undone_at IS NULL ORDER BY r.seq DESC LIMIT 1) AS last
       FROM accounts a WHERE ${inList(ledger, 'a.org_seq')} AND a.closed_at IS NULL ORDER BY a.org_seq, lower(a.name), a.seq`,
      seqsOf(seen),
    );
    return figures(seen, accounts, (mine) => ({ accounts: mine.map((a) => ({ id: a.id, name: a.name, oldestUnreconciled: a.oldest, lastReconciled: a.last })) }));
  },
  cell(f, org, day) {
    const waiting = f.accounts.filter((a) => a.oldestUnreconciled !== null).sort((a, b) => a.oldestUnreconciled!.localeCompare(b.oldestUnreconciled!));
    const oldest = waiting[0];
    return {
      text: oldest ? waiting.map((a) => `${a.name} ${a.oldestUnreconciled} (last ${a.lastReconciled ?? 'never'})`).join('; ') : f.accounts.length ? 'all reconciled' : NONE,
      red: f.accounts.some((a) => late(a, day)),
      href: place(org, 'reconcile', oldest ? { account: oldest.id } : {}),
      sort: oldest?.oldestUnreconciled ?? null,
    };
  },
});

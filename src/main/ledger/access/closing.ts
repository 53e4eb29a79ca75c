// The closing date (a lock date): once a period is filed, nothing dated on or
// before it is created, edited, deleted, split, categorized, made a transfer,
// imported, approved or reversed, nor is a statement dated there reconciled or
// its reconciliation undone. Every such write asks assertOpen first and
// is refused with `period_locked` (409), the dates named. Locking and
// unlocking are the person's, audited with their reason.
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { appendAudit, type Human } from './audit';
import { organizationBySeq } from './organizations';

export const lockedThrough = async (ledger: Ledger, orgSeq: number): Promise<string | null> =>
  ((await ledger.stmt('SELECT locked_through FROM organizations WHERE seq = ?').pluck().get(orgSeq)) as string | null | undefined) ?? null;

export function periodLocked(date: string, through: string, what: string): LedgerError {
  return new LedgerError(
    'period_locked',
    `${date} is on or before the closing date ${through}: the books are closed through it, so nothing there can be ${what}. Unlock the period first (ledgerdesk period unlock) if it must change.`,
    { date, lockedThrough: through },
  );
}

/** Refuses a write touching any of these dates when one is on or before the closing date. `what`: what the write would do ("edited", "imported"). */
export async function assertOpen(ledger: Ledger, orgSeq: number, dates: readonly string[], what: string): Promise<void> {
  const through = await lockedThrough(ledger, orgSeq);
  if (!through) return;
  const closed = dates.filter((d) => d <= through).sort()[0];
  if (closed) throw periodLocked(closed, through, what);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Closes the books through a date (a later or earlier date moves it); the reason goes to the Log. */
export async function lockPeriod(ledger: Ledger, orgSeq: number, actor: Human, through: string, reason?: string): Promise<string> {
  if (!DATE.test(through) || Number.isNaN(Date.parse(`${through}T00:00:00Z`)) || new Date(`${through}T00:00:00Z`).toISOString().slice(0, 10) !== through) {
    throw invalid([{ field: 'through', message: 'must be a date, YYYY-MM-DD' }]);
  }
  return ledger.write(async () => {
    const org = await organizationBySeq(ledger, orgSeq);
    if (org.lockedThrough === through) return through;
    await ledger.stmt('UPDATE organizations SET locked_through = ? WHERE seq = ?').run(through, orgSeq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'period.locked',
      targetType: 'organization',
      targetId: org.id,
      summary: `Books closed through ${through}${org.lockedThrough ? ` (were closed through ${org.lockedThrough})` : ''}${reason?.trim() ? `: ${reason.trim()}` : ''}`,
    });
    return through;
  });
}

/** Opens the books again (no closing date); the reason goes to the Log. */
export async function unlockPeriod(ledger: Ledger, orgSeq: number, actor: Human, reason?: string): Promise<null> {
  return ledger.write(async () => {
    const org = await organizationBySeq(ledger, orgSeq);
    if (!org.lockedThrough) return null;
    await ledger.stmt('UPDATE organizations SET locked_through = NULL WHERE seq = ?').run(orgSeq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'period.unlocked',
      targetType: 'organization',
      targetId: org.id,
      summary: `Books opened again (were closed through ${org.lockedThrough})${reason?.trim() ? `: ${reason.trim()}` : ''}`,
    });
    return null;
  });
}

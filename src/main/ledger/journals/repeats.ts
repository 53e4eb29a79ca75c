// Repeating journals (issue 43): each occurrence is made on its date, not
// before (a future-dated journal would move the reports' default period and
// the balance sheet at a later date), by catching up: when the app starts
// and hourly while it runs, when journals are listed or entered, and when an
// owner command opens the books. A local app may be closed on the day, so
// every occurrence due by today is made, in date order, each with its audit
// entry; the next date moves on with it in the same write, and a repeat and a
// date name at most one journal (a unique index), so catching up twice makes
// nothing twice. An occurrence that cannot be written on its date (the books
// are closed through it, a filed return covers it, a line's account is gone,
// or its tax at that date's rate no longer balances it) is passed over,
// audited with the reason, and the repeat goes on.
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { addDays, isCalendarDate } from '../../../shared/dates';
import { assertDateOpen } from './checks';
import { assertBalanced, postingsOf, type StoredLine } from './lines';
import { journalNumber } from './numbers';
import { dueRepeats, nextOccurrence, repeatBySeq, type RepeatEvery, type RepeatRow } from './repeat-row';
import { writeJournal, writeReversal } from './write';
import { journalAudit } from './audit';

export interface RepeatInput {
  every: RepeatEvery;
  /** The last date an occurrence may fall on. */
  until?: string;
  /** How many occurrences in all, the first included. */
  count?: number;
}

/** Stores a repeat whose first occurrence is being written now; answers its seq. */
export async function startRepeat(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  r: RepeatInput & { first: string; narration: string; lines: readonly StoredLine[]; reverseDays: number | null },
): Promise<number> {
  if (r.until !== undefined && (!isCalendarDate(r.until) || r.until < r.first)) throw invalid([{ field: 'repeat.until', message: `must be a date on or after ${r.first}` }]);
  if (r.count !== undefined && (!Number.isInteger(r.count) || r.count < 2 || r.count > 600))
    throw invalid([{ field: 'repeat.count', message: 'must be a whole number from 2 to 600' }]);
  const row = { first_date: r.first, until: r.until ?? null, count: r.count ?? null };
  return Number(
    await ledger
      .stmt(
        `INSERT INTO journal_repeats (id, org_seq, narration, lines, first_date, until, count, reverse_days, made, next_date, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
      )
      .insert(newId(), orgSeq, r.narration, JSON.stringify(r.lines), r.first, row.until, row.count, r.reverseDays, nextOccurrence(row, 1), nowIso(), actor.name),
  );
}

/** Writes one occurrence (and its reversal, for an accrual); throws what refuses it. */
async function occur(ledger: Ledger, r: RepeatRow, actor: Human, date: string): Promise<void> {
  const lines = JSON.parse(r.lines) as StoredLine[];
  for (const l of lines) {
    const gone =
      l.kind === 'category'
        ? await ledger.stmt('SELECT archived_at FROM categories WHERE seq = ?').pluck().get(l.seq)
        : l.kind === 'money'
          ? await ledger.stmt('SELECT closed_at FROM accounts WHERE seq = ?').pluck().get(l.seq)
          : null;
    if (gone) throw new LedgerError('conflict', `a line's ${l.kind === 'money' ? 'account is closed' : 'category is archived'}`);
  }
  const postings = await postingsOf(ledger, date, lines);
  assertBalanced(postings, (await organizationBySeq(ledger, r.org_seq)).currency);
  await assertDateOpen(ledger, r.org_seq, date, postings, 'entered');
  const seq = await writeJournal(ledger, r.org_seq, actor, { kind: 'journal', date, narration: r.narration, repeatSeq: r.seq }, postings);
  await journalAudit(ledger, r.org_seq, actor, seq, 'repeated', ` (repeating monthly from ${r.first_date}, set up by ${r.created_by})`);
  if (r.reverse_days === null) return;
  const on = addDays(date, r.reverse_days);
  await assertDateOpen(ledger, r.org_seq, on, postings, 'reversed');
  const number = (await ledger.stmt('SELECT number FROM journals WHERE seq = ?').pluck().get(seq)) as number;
  const reversal = await writeReversal(ledger, r.org_seq, actor, { seq, number, narration: r.narration }, on);
  await journalAudit(ledger, r.org_seq, actor, reversal, 'reversed', ` (reverses ${journalNumber(number)})`);
}

/** Makes one repeat's occurrences due by `today`, inside the caller's write; answers how many were made. */
export async function catchUpRepeat(ledger: Ledger, repeatSeq: number, actor: Human, today: string): Promise<number> {
  let made = 0;
  for (let r = await repeatBySeq(ledger, repeatSeq); r.next_date !== null && r.next_date <= today && r.stopped_at === null; r = await repeatBySeq(ledger, repeatSeq)) {
    const date = r.next_date;
    try {
      await ledger.write(() => occur(ledger, r, actor, date));
      made++;
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      await appendAudit(ledger, r.org_seq, actor, {
        action: 'journal.repeat_skipped',
        targetType: 'journal_repeat',
        targetId: r.id,
        summary: `Repeating journal "${r.narration}" not made for ${date}: ${error.message}`,
      });
    }
    await ledger.stmt('UPDATE journal_repeats SET made = made + 1, next_date = ? WHERE seq = ?').run(nextOccurrence(r, r.made + 1), r.seq);
  }
  return made;
}

/** Every repeat's occurrences due by `today` (of one organization, or all), each repeat in its own write; answers how many were made. */
export async function catchUpRepeats(ledger: Ledger, actor: Human, today: string, orgSeq?: number): Promise<number> {
  // Every organization's, each in its own scope (a server's row-level security shows one at a time).
  const orgs = orgSeq === undefined ? ((await ledger.forOrg('all', () => ledger.stmt('SELECT seq FROM organizations').pluck().all())) as number[]) : [orgSeq];
  let made = 0;
  for (const org of orgs) {
    made += await ledger.forOrg(org, async () => {
      const due = await dueRepeats(ledger, org, today);
      let n = 0;
      for (const seq of due) n += await ledger.write(() => catchUpRepeat(ledger, seq, actor, today));
      return n;
    });
  }
  return made;
}

/** Stops a journal's repeat: no occurrence after today's is made (those made stay; reverse them one by one if need be). */
export async function stopRepeat(ledger: Ledger, orgSeq: number, actor: Human, repeatSeq: number): Promise<void> {
  const r = await repeatBySeq(ledger, repeatSeq);
  if (r.stopped_at !== null || r.next_date === null) throw new LedgerError('conflict', `The repeat of "${r.narration}" has already ${r.stopped_at ? 'been stopped' : 'ended'}.`);
  await ledger.stmt('UPDATE journal_repeats SET stopped_at = ?, next_date = NULL WHERE seq = ?').run(nowIso(), repeatSeq);
  await appendAudit(ledger, orgSeq, actor, {
    action: 'journal.repeat_stopped',
    targetType: 'journal_repeat',
    targetId: r.id,
    summary: `Repeating journal "${r.narration}" stopped after ${r.made} occurrence(s)`,
  });
}

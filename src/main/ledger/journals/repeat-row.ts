// A journal repeated monthly (issue 43), as stored and as shown: its
// occurrences fall on the first one's day of the month (the month's last day
// when it has no such day: from January 31, February 28, March 31), counted
// from the first date, never from the one before, so a short month does not
// move the later ones.
import type { Ledger } from '../core/sqlite/open';
import { journalNumberSql } from './numbers';

export const REPEAT_EVERY = ['monthly'] as const;
export type RepeatEvery = (typeof REPEAT_EVERY)[number];

export interface RepeatRow {
  seq: number;
  id: string;
  org_seq: number;
  narration: string;
  lines: string;
  first_date: string;
  until: string | null;
  count: number | null;
  reverse_days: number | null;
  made: number;
  next_date: string | null;
  stopped_at: string | null;
  created_at: string;
  created_by: string;
}

export interface JournalRepeat {
  id: string;
  every: RepeatEvery;
  firstDate: string;
  until: string | null;
  count: number | null;
  /** Each occurrence reversed this many days after its date, or null. */
  reverseDays: number | null;
  /** Occurrences made (or passed over, dated where nothing could be written), the first included. */
  made: number;
  /** The next occurrence's date; null when the repeat ended or was stopped. */
  nextDate: string | null;
  stoppedAt: string | null;
  /** The journals it made, oldest first. */
  journals: string[];
}

const daysIn = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

/** The k-th occurrence's date (the first is k = 0). */
export function occurrenceDate(first: string, k: number): string {
  const months = Number(first.slice(0, 4)) * 12 + Number(first.slice(5, 7)) - 1 + k;
  const [year, month0] = [Math.floor(months / 12), months % 12];
  const day = Math.min(Number(first.slice(8, 10)), daysIn(year, month0));
  return `${String(year).padStart(4, '0')}-${String(month0 + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The date of the occurrence after `made` of them, or null past its count or its end date. */
export function nextOccurrence(r: Pick<RepeatRow, 'first_date' | 'until' | 'count'>, made: number): string | null {
  if (r.count !== null && made >= r.count) return null;
  const date = occurrenceDate(r.first_date, made);
  return r.until !== null && date > r.until ? null : date;
}

/** The repeats of an organization with an occurrence due by `today` (in its scope): a cheap look before loading the journal writer. */
export const dueRepeats = async (ledger: Ledger, orgSeq: number, today: string): Promise<number[]> =>
  (await ledger
    .stmt('SELECT seq FROM journal_repeats WHERE org_seq = ? AND next_date IS NOT NULL AND next_date <= ? AND stopped_at IS NULL')
    .pluck()
    .all(orgSeq, today)) as number[];

export const repeatBySeq = async (ledger: Ledger, seq: number): Promise<RepeatRow> => (await ledger.stmt('SELECT * FROM journal_repeats WHERE seq = ?').get(seq)) as RepeatRow;

export async function repeatOf(ledger: Ledger, seq: number): Promise<JournalRepeat> {
  const r = await repeatBySeq(ledger, seq);
  return {
    id: r.id,
    every: 'monthly',
    firstDate: r.first_date,
    until: r.until,
    count: r.count,
    reverseDays: r.reverse_days,
    made: r.made,
    nextDate: r.next_date,
    stoppedAt: r.stopped_at,
    journals: (await ledger
      .stmt(`SELECT ${journalNumberSql('j')} FROM journals j WHERE j.repeat_seq = ? ORDER BY j.date, j.seq`)
      .pluck()
      .all(seq)) as string[],
  };
}

// A repeating invoice's schedule (issue 53), as pure dates: the domain makes
// what falls due, the command and the screen show the next three before
// saving, all from these functions. Plain code (the screens bundle it too);
// no clock: every "today" is a parameter.
//
// Rules (docs/invoices.md "Repeating invoices"):
// - Every N weeks: the start date, then every 7 x N days.
// - Every N months: on a day of the month (default: the start's), or the
//   month's last day. A month without that day takes its last day (the 31st:
//   Feb 28 or 29, Apr 30), and the next month goes back to the 31st: each date
//   is worked out from the start, never from the one before.
// - Months are counted from the start's month; the first occurrence is the
//   first of those dates on or after the start (the start's own month when its
//   day is not passed, else N months on).
// - It ends after a count of occurrences, or with the last date on or before
//   an end date, or never.
import { addDays } from './dates';

export interface Schedule {
  unit: 'week' | 'month';
  /** Every this many weeks or months (1 or more). */
  every: number;
  /** Months: the day of the month (1-31); absent: the start's. */
  monthDay?: number | null;
  /** Months: the month's last day. */
  monthEnd?: boolean;
  /** The first day it may fall on (YYYY-MM-DD). */
  start: string;
  /** Ends after this many occurrences. */
  endCount?: number | null;
  /** Ends with the last occurrence on or before this date. */
  endDate?: string | null;
}

const daysIn = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A month counted from year 0 (year x 12 + month0), on a day: that day, or the month's last when it has none. */
function dayOfMonth(months: number, day: number | 'last'): string {
  const [year, month0] = [Math.floor(months / 12), months % 12];
  const last = daysIn(year, month0);
  return `${pad(year, 4)}-${pad(month0 + 1)}-${pad(day === 'last' ? last : Math.min(day, last))}`;
}

/** The k-th occurrence's date (the first is k = 0), the end not applied. */
export function occurrenceAt(s: Schedule, k: number): string {
  if (s.unit === 'week') return addDays(s.start, 7 * s.every * k);
  const day = s.monthEnd ? 'last' : (s.monthDay ?? Number(s.start.slice(8, 10)));
  const startMonths = Number(s.start.slice(0, 4)) * 12 + Number(s.start.slice(5, 7)) - 1;
  // The start's own month when its date there is not before the start, else one period on.
  const shift = dayOfMonth(startMonths, day) < s.start ? 1 : 0;
  return dayOfMonth(startMonths + s.every * (k + shift), day);
}

/** Whether the k-th occurrence is within the schedule's end. */
export const withinEnd = (s: Schedule, k: number, date = occurrenceAt(s, k)): boolean => (s.endCount == null || k < s.endCount) && (s.endDate == null || date <= s.endDate);

/** The occurrences (index and date) from `from` (default: the start) through `through`, at most `limit`, within the end. */
export function occurrences(s: Schedule, range: { from?: string; through?: string; limit?: number } = {}): { k: number; date: string }[] {
  const out: { k: number; date: string }[] = [];
  const limit = range.limit ?? 1000;
  for (let k = 0; out.length < limit; k++) {
    const date = occurrenceAt(s, k);
    if (!withinEnd(s, k, date) || (range.through !== undefined && date > range.through)) break;
    if (range.from === undefined || date >= range.from) out.push({ k, date });
  }
  return out;
}

/** The next `n` dates on or after `from` (what the screen and the command show before saving). */
export const nextDates = (s: Schedule, from: string, n = 3): string[] => occurrences(s, { from, limit: n }).map((o) => o.date);

/** More than one period late on `asOf`: the occurrence after it was due too (made late, it is not sent without the person's word). */
export const moreThanOnePeriodLate = (s: Schedule, k: number, asOf: string): boolean => occurrenceAt(s, k + 1) <= asOf;

/** What a person reads: "every 2 weeks", "monthly on the 31st (the last day of shorter months)", "every 3 months on the last day". */
export function scheduleText(s: Schedule): string {
  const every = s.every === 1 ? (s.unit === 'week' ? 'weekly' : 'monthly') : `every ${s.every} ${s.unit}s`;
  if (s.unit === 'week') return `${every} from ${s.start}`;
  const day = s.monthEnd ? null : (s.monthDay ?? Number(s.start.slice(8, 10)));
  const on = day === null ? "on the month's last day" : `on the ${ordinal(day)}${day > 28 ? ' (the last day of shorter months)' : ''}`;
  return `${every} ${on} from ${s.start}`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

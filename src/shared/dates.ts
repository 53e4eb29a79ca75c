// Calendar days as the books write them (YYYY-MM-DD), computed in UTC so that
// no time zone moves a day. Plain code (the screens bundle it too).

const DAY_MS = 86_400_000;

/** A real calendar day written YYYY-MM-DD (not 2025-02-30). */
export const isCalendarDate = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** The day before a date (an opening balance sits before a period's first day). */
export const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** A date moved by a number of days. */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

// Calendar days as the books write them (YYYY-MM-DD), computed in UTC so that
// no time zone moves a day. Plain code (the screens bundle it too).

const DAY_MS = 86_400_000;

/** The day before a date (an opening balance sits before a period's first day). */
export const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** A date moved by a number of days. */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

// Numbers and dates as a bookkeeper reads them: amounts the way the current
// organization writes them (1,234.56 or 1.234,56), whatever the browser's locale.
import type { DecimalMark } from '../../shared/amounts';

const money = new Map<string, Intl.NumberFormat>();
let locale = 'en-US';

/** Set with the organization (App): every amount on screen is then written its way. */
export function setDecimalMark(mark: DecimalMark): void {
  const next = mark === ',' ? 'de-DE' : 'en-US';
  if (next !== locale) money.clear();
  locale = next;
}

export function formatMoney(amount: number, currency: string): string {
  let f = money.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2 });
    }
    money.set(currency, f);
  }
  return f.format(amount);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A month of the books (YYYY-MM) as a column or a chart names it: "Nov 2025", in English like the rest of the screens. */
export const formatMonth = (month: string): string => {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  return m ? `${MONTHS[Number(m[2]) - 1]} ${m[1]}` : month;
};
/** A month's name alone (1 is "January"), for a setting such as the month tax returns start from. */
export const monthName = (n: number): string => new Date(Date.UTC(2000, n - 1, 1)).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });

const pad = (n: number) => String(n).padStart(2, '0');
/** Today on the person's own calendar (not UTC's), as date fields take it: 2026-03-02. */
export const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
/** Local date and time as the screens write dates: 2026-03-02 14:05. */
export const formatDateTime = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const formatPercent = (value: number | null): string => (value === null ? '—' : `${Math.round(value * 100)}%`);
export const formatBytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

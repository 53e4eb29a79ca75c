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

const pad = (n: number) => String(n).padStart(2, '0');
/** Local date and time as the screens write dates: 2026-03-02 14:05. */
export const formatDateTime = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const formatPercent = (value: number | null): string => (value === null ? '—' : `${Math.round(value * 100)}%`);
export const formatBytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

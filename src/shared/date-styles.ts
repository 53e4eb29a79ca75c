// How an organization's documents write dates (issue 43): an invoice says
// "10 August 2026" to a British client and "August 10, 2026" to an American
// one, never 2026-08-10 unless asked. English month names, written out here
// rather than by Intl, so a PDF reads the same on every machine. Plain code:
// the screens bundle it too.
import type { DecimalMark } from './amounts';

export const DATE_STYLES = ['long', 'long-us', 'dd/mm/yyyy', 'mm/dd/yyyy', 'dd.mm.yyyy', 'yyyy-mm-dd'] as const;
export type DateStyle = (typeof DATE_STYLES)[number];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A YYYY-MM-DD date in a style: 10 August 2026, August 10, 2026, 10/08/2026, 08/10/2026, 10.08.2026, 2026-08-10. */
export function writeDate(iso: string, style: DateStyle): string {
  const [y, m, d] = iso.split('-');
  const month = MONTHS[Number(m) - 1];
  switch (style) {
    case 'long':
      return `${Number(d)} ${month} ${y}`;
    case 'long-us':
      return `${month} ${Number(d)}, ${y}`;
    case 'dd/mm/yyyy':
      return `${d}/${m}/${y}`;
    case 'mm/dd/yyyy':
      return `${m}/${d}/${y}`;
    case 'dd.mm.yyyy':
      return `${d}.${m}.${y}`;
    case 'yyyy-mm-dd':
      return iso;
  }
}

/**
 * The style an organization that chose none writes in: the United States' month first for US dollars; the
 * numeric day.month.year of continental Europe where amounts take a decimal comma; else the day, the month's
 * name and the year, as the United Kingdom, Ireland, Australia and most of the world write an invoice's date.
 */
export const defaultDateStyle = (currency: string, decimalMark: DecimalMark): DateStyle => (currency === 'USD' ? 'long-us' : decimalMark === ',' ? 'dd.mm.yyyy' : 'long');

// A split's parts as people and agents type and read them (issue 42). A part is
// a positive figure: its share of the row, in the row's direction (a payment of
// 389.98 splits into 329.99 and 59.99). A line going the other way (a refund
// inside a payment, a charge inside a receipt) is a negative figure, typed on
// purpose and shown marked. A payment's lines may instead all be written
// negative, in the row's own sign (the agent API's v1 form: -60 and -40 of
// -100): the same parts. The books keep each line's share in the row's sign
// (what the API's `lines` answer: they add up to the row's amount); these
// turn one into the other. Plain code: the screens bundle it.

/** How a set of figures is written: as parts, or (a payment's, every one negative) in the row's sign. */
export type PartsForm = 'parts' | 'row-sign';

export function partsForm(rowMinor: number, figures: readonly number[]): PartsForm {
  const given = figures.filter((f) => f !== 0);
  return rowMinor < 0 && given.length > 0 && given.every((f) => f < 0) ? 'row-sign' : 'parts';
}

/** A line's share of the row (in the row's sign) as the figure people read: positive with the row, negative against it. */
export const partOf = (rowMinor: number, shareMinor: number): number => (rowMinor < 0 ? -shareMinor : shareMinor);

/** A figure written in `form` as its share in the row's sign. */
export const shareOf = (rowMinor: number, figure: number, form: PartsForm): number => (form === 'row-sign' ? figure : partOf(rowMinor, figure));

export const goesAgainst = (rowMinor: number, shareMinor: number): boolean => partOf(rowMinor, shareMinor) < 0;

/** A line against its row in words, its amount (positive) as the caller writes money: "a refund of 20.00 inside the payment". */
export const againstWords = (rowMinor: number, amount: string): string => (rowMinor < 0 ? `a refund of ${amount} inside the payment` : `a charge of ${amount} inside the receipt`);

/** What the row is, in words, for "the parts of the payment". */
export const rowKind = (rowMinor: number): 'payment' | 'receipt' => (rowMinor < 0 ? 'payment' : 'receipt');

export interface PartsReading {
  form: PartsForm;
  /** Each figure's share in the row's sign. */
  shares: number[];
  /** What is left to assign, as a part (negative: the figures are over the row by that much). */
  left: number;
  /**
   * Figures that add up only when read in the row's sign with a positive one going against a payment (329.99 and
   * -719.97 of -389.98: a remainder worked out in the wrong sign): the positive figures' indexes. Refused, never guessed.
   */
  onlyAgainst: number[] | null;
}

export function readParts(rowMinor: number, figures: readonly number[]): PartsReading {
  const form = partsForm(rowMinor, figures);
  const shares = figures.map((f) => shareOf(rowMinor, f, form));
  const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
  const left = partOf(rowMinor, rowMinor - sum(shares)) || 0; // never -0
  const onlyAgainst = left !== 0 && form === 'parts' && rowMinor < 0 && sum(figures) === rowMinor ? figures.flatMap((f, i) => (f > 0 ? [i] : [])) : null;
  return { form, shares, left, onlyAgainst };
}

/**
 * "Remainder to the last line": the last line's figure that makes the lines add up to the row, written in the
 * others' form; or why there is none. A remainder going against the row is never filled in: the person types it.
 */
export function remainderFigure(rowMinor: number, others: readonly number[]): { figure: number } | { over: number } | { none: true } {
  const { form, left } = readParts(rowMinor, others);
  if (left < 0) return { over: -left };
  if (left === 0) return { none: true };
  return { figure: form === 'row-sign' ? -left : left };
}

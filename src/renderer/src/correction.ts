// A change to a row whose tax a filed return took is made as a correction in
// the next open return, deliberately (issue 43): the ledger refuses it first
// (period_locked naming the return), the screen asks, and sends it again with
// the flag. A no leaves the refusal to be shown, which says the same.
import { DeskError } from './desk';
import { formatMonth } from './format';

interface FiledReturn {
  taxReturn: string;
  from: string;
  to: string;
  filedAt: string;
}

const filedReturnOf = (err: unknown): FiledReturn | null => {
  const details = err instanceof DeskError && err.code === 'period_locked' ? (err.details as Partial<FiledReturn> | null) : null;
  return typeof details?.taxReturn === 'string' ? (details as FiledReturn) : null;
};

/** A return's period as people say it: "Q1 2026" (a calendar quarter), "Mar 2026", "Feb 2026 to Apr 2026", or its dates. */
export function periodName(from: string, to: string): string {
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  const wholeMonths = fd === 1 && new Date(Date.UTC(ty, tm, 1) - 86_400_000).toISOString().slice(0, 10) === to;
  if (!wholeMonths) return `${from} to ${to}`;
  const months = (ty - fy) * 12 + tm - fm + 1;
  if (months === 1) return formatMonth(from.slice(0, 7));
  if (months === 3 && fm % 3 === 1) return `Q${(fm + 2) / 3} ${fy}`;
  return `${formatMonth(from.slice(0, 7))} to ${formatMonth(to.slice(0, 7))}`;
}

export const correctionQuestion = (f: Pick<FiledReturn, 'from' | 'to' | 'filedAt'>): string =>
  `This row is in the return for ${periodName(f.from, f.to)}, filed ${f.filedAt.slice(0, 10)}: save as a correction in the next return?`;

/** Runs a change of a row; refused for a filed return's row, asks the person and, on yes, runs it as a correction. */
export async function withCorrection<T>(change: (flags: { correction?: boolean }) => Promise<T>): Promise<T> {
  try {
    return await change({});
  } catch (err) {
    const filed = filedReturnOf(err);
    if (!filed || !window.confirm(correctionQuestion(filed))) throw err;
    return change({ correction: true });
  }
}

// Tax on lines (issue 28): a part of a row (gross, as the bank shows it, in
// the row's sign) with a tax code becomes its category line at the net amount
// and a tax line posting the tax to the tax control account. The tax of a
// gross amount is gross x rate / (100 + rate), rounded per line half away from
// zero to the minor unit; net = gross - tax, so the lines always add up to the
// row exactly. Decisions:
// - One tax control account ("Sales tax control", a liability): output tax
//   credits it, input tax debits it, and its balance is what is owed (or due
//   back), as Xero's single GST/VAT account; the return's boxes come from the
//   lines' codes, not from the account.
// - A reverse-charge purchase is paid without tax: the whole amount is net and
//   its notional tax (net x rate) is on the category line only, for boxes 1
//   and 4; it posts nothing (output and input tax cancel).
// - Input tax not recoverable (a code's recoverable share under 100%) stays in
//   the cost: only the recoverable part is a tax line.
// - Sales or purchases: by the category's type (revenue is sales; everything
//   else bought is purchases). A refund is the same side with the other sign.
import type { Ledger } from '../core/sqlite/open';
import { categoryLine, type LineInput } from '../transactions/lines';
import { rateOn } from './codes';

/** What the control account is called on the balance sheet, the ledger and the exports. */
export const TAX_CONTROL = 'Sales tax control';

export interface TaxedPart {
  categorySeq: number;
  /** Its part of the row, gross, in the row's sign (-120.00 of a -120.00 purchase). */
  grossMinor: number;
  memo?: string | null;
  taxCodeSeq: number | null;
}

interface CodeFacts {
  kind: string;
  recoverable_percent: number;
}

/** x / y rounded half away from zero, for integers (BigInt: a rate times a large amount is past 2^53). */
function divideRounded(x: bigint, y: bigint): bigint {
  const negative = x < 0n !== y < 0n;
  const [ax, ay] = [x < 0n ? -x : x, y < 0n ? -y : y];
  const q = (ax * 2n + ay) / (ay * 2n);
  return negative ? -q : q;
}

/**
 * a x b / d rounded half away from zero, for integers and d > 0: in floating point while every step is an exact
 * integer (the quotient's floor corrected by its remainder), else by divideRounded. The same answers, a tenth of
 * the time: a file of invoices works out three lines each.
 */
export function mulDivRounded(a: number, b: number, d: number): number {
  const x = a * b;
  const n = 2 * Math.abs(x) + d;
  if (!Number.isSafeInteger(x) || !Number.isSafeInteger(n) || !(d > 0)) return Number(divideRounded(BigInt(a) * BigInt(b), BigInt(d)));
  const m = 2 * d;
  let q = Math.floor(n / m);
  const r = n - q * m;
  if (r < 0) q--;
  else if (r >= m) q++;
  return x < 0 && q !== 0 ? -q : q;
}

/** The tax in a gross amount at a rate in ten-thousandths of a percent (20% = 200000). */
export const taxInGross = (grossMinor: number, rateE4: number): number => mulDivRounded(grossMinor, rateE4, 1_000_000 + rateE4);

/** The tax on a net amount at a rate (the reverse charge's notional tax, net entries by hand). */
export const taxOnNet = (netMinor: number, rateE4: number): number => mulDivRounded(netMinor, rateE4, 1_000_000);

/** The share of input tax that may be reclaimed (the rest stays in the cost), rounded like the tax. */
export const recoverablePart = (taxMinor: number, percent: number): number =>
  percent >= 100 ? taxMinor : Number(divideRounded(BigInt(taxMinor) * BigInt(Math.round(percent * 100)), 10_000n));

/** The entry's lines of taxed parts, dated `date` (the tax date: the rate in force then). */
export async function taxedLines(ledger: Ledger, date: string, parts: readonly TaxedPart[]): Promise<LineInput[]> {
  const facts = ledger.stmt('SELECT kind, recoverable_percent FROM tax_codes WHERE seq = ?');
  const out: LineInput[] = [];
  for (const p of parts) {
    if (p.taxCodeSeq === null) {
      out.push(categoryLine(p.categorySeq, p.grossMinor, p.memo ?? null));
      continue;
    }
    const code = (await facts.get(p.taxCodeSeq)) as CodeFacts;
    const rate = await rateOn(ledger, p.taxCodeSeq, date);
    const tagged = (line: LineInput, taxMinor: number): LineInput => ({ ...line, taxCodeSeq: p.taxCodeSeq, taxMinor: -taxMinor });
    if (code.kind === 'reverse_charge') {
      out.push(tagged(categoryLine(p.categorySeq, p.grossMinor, p.memo ?? null), taxOnNet(p.grossMinor, rate)));
      continue;
    }
    const tax = taxInGross(p.grossMinor, rate);
    const recoverable = recoverablePart(tax, code.recoverable_percent);
    out.push(tagged(categoryLine(p.categorySeq, p.grossMinor - recoverable, p.memo ?? null), recoverable));
    if (recoverable !== 0) out.push({ kind: 'tax', taxCodeSeq: p.taxCodeSeq, amountMinor: -recoverable });
  }
  return out;
}

/** How many category lines an entry has: more than one is a split (tax lines are not parts of it). */
export const categoryLineCount = (lines: readonly { kind: string }[]): number => lines.filter((l) => l.kind === 'category').length;

/** A category's default tax code, or null. */
export const defaultTaxOf = async (ledger: Ledger, categorySeq: number): Promise<number | null> =>
  ((await ledger.stmt('SELECT default_tax_code_seq FROM categories WHERE seq = ?').pluck().get(categorySeq)) as number | null | undefined) ?? null;

/**
 * The lines of a row given one category (null: the suspense line): with the tax code named, or (undefined) the
 * category's default; null names no tax.
 */
export async function categorizedLines(ledger: Ledger, date: string, categorySeq: number | null, amountMinor: number, taxCodeSeq?: number | null): Promise<LineInput[]> {
  if (categorySeq === null) return [{ kind: 'suspense', amountMinor: -amountMinor }];
  const code = taxCodeSeq === undefined ? await defaultTaxOf(ledger, categorySeq) : taxCodeSeq;
  return taxedLines(ledger, date, [{ categorySeq, grossMinor: amountMinor, taxCodeSeq: code }]);
}

/**
 * A hand entry typed net (issue 28: hand entries may be gross or net): the row's gross amount and its lines,
 * the category line exactly the net typed and the tax on it (net x rate, rounded per line half away from zero).
 */
export async function netEntry(
  ledger: Ledger,
  date: string,
  categorySeq: number,
  netMinor: number,
  taxCodeSeq: number | null,
): Promise<{ grossMinor: number; lines: LineInput[] }> {
  if (taxCodeSeq === null) return { grossMinor: netMinor, lines: [categoryLine(categorySeq, netMinor)] };
  const code = (await ledger.stmt('SELECT kind, recoverable_percent FROM tax_codes WHERE seq = ?').get(taxCodeSeq)) as CodeFacts;
  const tax = taxOnNet(netMinor, await rateOn(ledger, taxCodeSeq, date));
  if (code.kind === 'reverse_charge') return { grossMinor: netMinor, lines: await taxedLines(ledger, date, [{ categorySeq, grossMinor: netMinor, taxCodeSeq }]) };
  if (code.recoverable_percent < 100 || tax === 0)
    return { grossMinor: netMinor + tax, lines: await taxedLines(ledger, date, [{ categorySeq, grossMinor: netMinor + tax, taxCodeSeq }]) };
  return {
    grossMinor: netMinor + tax,
    lines: [
      { ...categoryLine(categorySeq, netMinor), taxCodeSeq, taxMinor: -tax },
      { kind: 'tax', taxCodeSeq, amountMinor: -tax },
    ],
  };
}

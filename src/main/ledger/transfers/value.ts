// What a transfer is worth in the base currency (issue 30). A transfer moves
// value, it makes none: the later side (by date, then entry) takes the earlier
// side's base amount, negated, so nothing is left in transit in the base
// currency and no gain or loss arises. Between two currencies that is the rate
// the two amounts imply, kept as that day's rate of the later side's currency
// when the day has none (source "transfer"). Undone, each row is worth its own
// date's rate again.
import type { Ledger } from '../core/db';
import { impliedRate, rateText } from '../rates/decimal';
import { baseCurrency, baseOf } from '../rates/valuer';
import { rebaseLines, type EntryHead } from '../transactions/lines';
import { nowIso } from '../core/clock';
import { fromMinor } from '../core/money';

type Side = EntryHead & { id: string };

function setBase(ledger: Ledger, row: Side, base: number | null): void {
  ledger.stmt('UPDATE transactions SET base_minor = ? WHERE seq = ?').run(base, row.seq);
  rebaseLines(ledger, { ...row, base_minor: base });
}

/** Carries the earlier side's value to the later one; says what rate that implied, for the audit entry. */
export function carryTransferValue(ledger: Ledger, a: Side, b: Side): string {
  const [first, later] = a.date < b.date || (a.date === b.date && a.seq < b.seq) ? [a, b] : [b, a];
  if (first.base_minor === null || later.base_minor === -first.base_minor) return '';
  setBase(ledger, later, -first.base_minor);
  const base = baseCurrency(ledger, later.org_seq);
  if (later.currency === first.currency || later.currency === base || later.amount_minor === 0) return '';
  const rate = rateText(impliedRate(later.amount_minor, later.currency, -first.base_minor, base));
  ledger
    .stmt("INSERT INTO exchange_rates (org_seq, currency, date, rate, source, set_at) VALUES (?, ?, ?, ?, 'transfer', ?) ON CONFLICT DO NOTHING")
    .run(later.org_seq, later.currency, later.date, rate, nowIso());
  return `; at ${rate} ${base} per ${later.currency} (${fromMinor(-first.base_minor, base).toFixed(2)} ${base}), the rate its two amounts imply`;
}

/** A row that no longer carries another's value: worth its own date's rate again (a row awaiting a rate stays so). */
export function ownValue(ledger: Ledger, row: Side): void {
  let base: number | null = null;
  try {
    base = baseOf(ledger, row.org_seq, row.amount_minor, row.currency, row.date);
  } catch {
    // no rate serves its date
  }
  if (base !== row.base_minor) setBase(ledger, row, base);
}

// What a transfer is worth in the base currency (issue 30). A transfer moves
// value, it makes none: one side takes the other's base amount, negated, so
// nothing is left in transit in the base currency and no gain or loss arises.
// A side in the base currency is worth its own amount, so it sets the value
// (issue 42: else pounds that arrived were booked at the euros' rate);
// otherwise the earlier side (by date, then entry) does. Between two
// currencies that is the rate the two amounts imply, kept as that day's rate
// of the taking side's currency when the day has none (source "transfer").
// Undone, each row is worth its own date's rate again.
import type { Ledger } from '../core/sqlite/open';
import { impliedRate, rateText } from '../rates/decimal';
import { baseCurrency, baseOf } from '../rates/valuer';
import { rebaseLines, type EntryHead } from '../transactions/lines';
import { nowIso } from '../core/clock';
import { fromMinor } from '../core/money';

type Side = EntryHead & { id: string };

async function setBase(ledger: Ledger, row: Side, base: number | null): Promise<void> {
  await ledger.stmt('UPDATE transactions SET base_minor = ? WHERE seq = ?').run(base, row.seq);
  await rebaseLines(ledger, { ...row, base_minor: base });
}

/** Carries one side's value to the other (see above); says what rate that implied, for the audit entry. */
export async function carryTransferValue(ledger: Ledger, a: Side, b: Side): Promise<string> {
  const base = await baseCurrency(ledger, a.org_seq);
  const [first, later] = a.date < b.date || (a.date === b.date && a.seq < b.seq) ? [a, b] : [b, a];
  const [from, to] = later.currency === base && first.currency !== base ? [later, first] : [first, later];
  const value = from.currency === base ? from.amount_minor : from.base_minor;
  if (value === null || to.base_minor === -value) return '';
  await setBase(ledger, to, -value);
  if (to.currency === from.currency || to.currency === base || to.amount_minor === 0) return '';
  const rate = rateText(impliedRate(to.amount_minor, to.currency, -value, base));
  await ledger
    .stmt("INSERT INTO exchange_rates (org_seq, currency, date, rate, source, set_at) VALUES (?, ?, ?, ?, 'transfer', ?) ON CONFLICT DO NOTHING")
    .run(to.org_seq, to.currency, to.date, rate, nowIso());
  return `; at ${rate} ${base} per ${to.currency} (${fromMinor(-value, base).toFixed(2)} ${base}), the rate its two amounts imply`;
}

/** A row that no longer carries another's value: worth its own date's rate again (a row awaiting a rate stays so). */
export async function ownValue(ledger: Ledger, row: Side): Promise<void> {
  let base: number | null = null;
  try {
    base = await baseOf(ledger, row.org_seq, row.amount_minor, row.currency, row.date);
  } catch {
    // no rate serves its date
  }
  if (base !== row.base_minor) await setBase(ledger, row, base);
}

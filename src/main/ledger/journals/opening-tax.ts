// The VAT (sales tax) owed at the conversion (issue 43): the opening entry's
// tax control line, and the return it was filed in before these books, kept
// as a filed return of that period (no lines, its payable the amount owed) so
// that the next payment to the tax office is matched with it like any filed
// return's (`tax return payments`, `tax return pay`) and settles the control
// account. By default the return is the tax period ending the day before the
// conversion, when the conversion starts a period; otherwise the period is
// named, or none (the balance alone).
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { newId, nowIso } from '../core/clock';
import { fromMinor } from '../core/money';
import { organizationBySeq } from '../access/organizations';
import { periodOf, taxSettings } from '../tax/periods';
import { dayBefore, isCalendarDate } from '../../../shared/dates';

export interface TaxPeriodInput {
  from: string;
  to: string;
}

export interface OpeningReturn {
  id: string;
  from: string;
  to: string;
  /** What was owed to the tax office (negative: due back). */
  payable: number;
  paid: boolean;
}

/** The return before these books that the VAT owed at the conversion is for: given, null (none), or the period ending the day before. */
export async function openingTaxPeriod(ledger: Ledger, orgSeq: number, conversion: string, given: TaxPeriodInput | null | undefined): Promise<TaxPeriodInput | null> {
  if (given === null) return null;
  if (given) {
    if (!isCalendarDate(given.from) || !isCalendarDate(given.to) || given.from > given.to) throw invalid([{ field: 'taxReturn', message: 'is a period: from and to, YYYY-MM-DD' }]);
    if (given.to >= conversion) throw invalid([{ field: 'taxReturn.to', message: `must be before the conversion date ${conversion}: it is a return filed before these books` }]);
    return given;
  }
  const before = periodOf(await taxSettings(ledger, orgSeq), dayBefore(conversion));
  if (before.to === dayBefore(conversion)) return before;
  throw invalid([
    {
      field: 'taxReturn',
      message: `${conversion} does not start a tax period: name the return the tax owed was filed in (--tax-return ${before.from}..${dayBefore(conversion)}), or none (--tax-return none) to keep it a balance only`,
    },
  ]);
}

export async function openingReturn(ledger: Ledger, orgSeq: number, seq: number | null): Promise<OpeningReturn | null> {
  if (seq === null) return null;
  const r = (await ledger.stmt('SELECT id, period_from, period_to, payable_minor, payment_transaction_seq FROM tax_returns WHERE seq = ?').get(seq)) as
    { id: string; period_from: string; period_to: string; payable_minor: number; payment_transaction_seq: number | null } | undefined;
  if (!r) return null;
  return {
    id: r.id,
    from: r.period_from,
    to: r.period_to,
    payable: fromMinor(r.payable_minor, (await organizationBySeq(ledger, orgSeq)).currency),
    paid: r.payment_transaction_seq !== null,
  };
}

/**
 * The opening entry's return replaced: the old one taken away unless it was paid (then it must stay as it is), the new
 * one (tax control credited `taxMinor`: owed) filed as of before these books. Answers the return's seq, or null.
 */
export async function replaceOpeningReturn(
  ledger: Ledger,
  orgSeq: number,
  filedBy: string,
  old: number | null,
  taxMinor: number,
  period: TaxPeriodInput | null,
): Promise<number | null> {
  const payable = -taxMinor;
  const was =
    old === null
      ? undefined
      : ((await ledger.stmt('SELECT period_from, period_to, payable_minor, payment_transaction_seq FROM tax_returns WHERE seq = ?').get(old)) as
          { period_from: string; period_to: string; payable_minor: number; payment_transaction_seq: number | null } | undefined);
  if (was && was.payment_transaction_seq !== null) {
    if (period && was.period_from === period.from && was.period_to === period.to && was.payable_minor === payable) return old;
    throw new LedgerError('conflict', `The tax owed at the conversion (the return for ${was.period_from} to ${was.period_to}) was paid since: it stays as it is.`, {
      taxReturn: old,
    });
  }
  if (was) {
    await ledger.stmt('UPDATE journals SET tax_return_seq = NULL WHERE tax_return_seq = ?').run(old);
    await ledger.stmt('DELETE FROM tax_returns WHERE seq = ?').run(old);
  }
  if (payable === 0 || period === null) return null;
  const clash = (await ledger
    .stmt('SELECT period_from, period_to FROM tax_returns WHERE org_seq = ? AND period_from <= ? AND period_to >= ? LIMIT 1')
    .get(orgSeq, period.to, period.from)) as { period_from: string; period_to: string } | undefined;
  if (clash)
    throw new LedgerError('conflict', `A return for ${clash.period_from} to ${clash.period_to} is already filed; it overlaps ${period.from} to ${period.to}.`, {
      field: 'taxReturn',
    });
  const org = await organizationBySeq(ledger, orgSeq);
  const report = {
    from: period.from,
    to: period.to,
    currency: org.currency,
    basis: (await taxSettings(ledger, orgSeq)).basis,
    set: org.taxSet,
    boxes: {},
    boxTitles: {},
    codes: [],
    payable: fromMinor(payable, org.currency),
    lateLines: 0,
    corrections: [],
    correctionThreshold: null,
    warnings: [],
    filedBeforeTheseBooks: true,
  };
  return Number(
    await ledger
      .stmt('INSERT INTO tax_returns (id, org_seq, period_from, period_to, basis, report, payable_minor, line_count, filed_at, filed_by) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)')
      .insert(newId(), orgSeq, period.from, period.to, report.basis, JSON.stringify(report), payable, nowIso(), `${filedBy} (opening balances: filed before these books)`),
  );
}

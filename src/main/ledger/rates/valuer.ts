// What an amount in another currency is in the organization's base currency
// (issue 30), at the rate of its date: that day's, or the latest of the
// RATE_LOOKBACK_DAYS before it; older than that, or none, is a clear error
// naming the currency and the date, never a silent 1. Every entry is valued
// here when it is booked, and the base amounts stay as booked: a later rate
// never rewrites them.
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { addDays } from '../../../shared/dates';
import { readRate, shareOf, toBase, type Rate } from './decimal';

/** How many days back a rate still serves: a week covers weekends and the longest run of bank holidays (Easter, Christmas). */
export const RATE_LOOKBACK_DAYS = 7;

export const baseCurrency = async (ledger: Ledger, orgSeq: number): Promise<string> => (await organizationBySeq(ledger, orgSeq)).currency;

/** The refusal when a date has no rate: which currency, which date, and how to give one. */
export const missingRate = (currency: string, date: string, latest: string | null): LedgerError =>
  new LedgerError(
    'conflict',
    `No ${currency} rate for ${date}${latest ? ` (the latest before it is ${latest}, more than ${RATE_LOOKBACK_DAYS} days earlier)` : ''}: set one (ledgerdesk rate set ${currency} ${date} <rate>) or import a rates file.`,
    { reason: 'rate_missing', currency, date },
  );

/** The rate serving a date: that day's or the latest of the RATE_LOOKBACK_DAYS before it. */
export async function exchangeRateOn(ledger: Ledger, orgSeq: number, currency: string, date: string): Promise<{ date: string; rate: Rate }> {
  const hit = (await ledger
    .stmt('SELECT date, rate FROM exchange_rates WHERE org_seq = ? AND currency = ? AND date <= ? ORDER BY date DESC LIMIT 1')
    .get(orgSeq, currency, date)) as { date: string; rate: string } | undefined;
  if (!hit || hit.date < addDays(date, -RATE_LOOKBACK_DAYS)) throw missingRate(currency, date, hit?.date ?? null);
  return { date: hit.date, rate: readRate(hit.rate) as Rate };
}

/** Values amounts of one organization in its base currency, each currency and date's rate read once. */
export class Valuer {
  #base: string | null = null;
  private readonly rates = new Map<string, Rate>();

  constructor(
    private readonly ledger: Ledger,
    private readonly orgSeq: number,
  ) {}

  /** The organization's base currency, read once. */
  async base(): Promise<string> {
    return (this.#base ??= await baseCurrency(this.ledger, this.orgSeq));
  }

  async value(minor: number, currency: string, date: string): Promise<number> {
    const base = await this.base();
    if (currency === base) return minor;
    const key = currency + date;
    let rate = this.rates.get(key);
    if (!rate) this.rates.set(key, (rate = (await exchangeRateOn(this.ledger, this.orgSeq, currency, date)).rate));
    return toBase(minor, currency, rate, base);
  }

  /** A money account's opening balance in the base currency: at its opening date's rate (`at` when it has none). */
  async opening(a: { opening_balance_minor: number; currency: string; opening_date: string | null }, at: string): Promise<number> {
    return a.opening_balance_minor === 0 ? 0 : await this.value(a.opening_balance_minor, a.currency, a.opening_date ?? at);
  }
}

/** An amount in the base currency at its date's rate (one lookup: many use a Valuer). */
export const baseOf = (ledger: Ledger, orgSeq: number, minor: number, currency: string, date: string): Promise<number> => new Valuer(ledger, orgSeq).value(minor, currency, date);

/**
 * The base amounts of an entry's other lines: each its share of the row's, the
 * rounding left on the largest line so they balance the row's exactly (null
 * while the row awaits a rate; the same amounts when the row is in the base currency).
 */
export function linesBase(amounts: readonly number[], rowMinor: number, rowBase: number | null): (number | null)[] {
  if (rowBase === null) return amounts.map(() => null);
  if (rowBase === rowMinor) return [...amounts];
  const out = amounts.map((a) => (rowMinor === 0 ? 0 : shareOf(a, rowBase, rowMinor)));
  const left = -rowBase - out.reduce((s, b) => s + b, 0);
  if (left !== 0 && out.length) {
    let largest = 0;
    amounts.forEach((a, i) => Math.abs(a) > Math.abs(amounts[largest]) && (largest = i));
    out[largest] += left;
  }
  return out;
}

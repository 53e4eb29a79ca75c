// Exchange rates by day (issue 30): one unit of a currency in the
// organization's base currency. A date's rate is that day's, or the latest of
// the RATE_LOOKBACK_DAYS before it (a weekend, a bank holiday, Easter's four
// days); older than that, or none, is a clear error naming the currency and
// the date, never a silent 1. Rates are set by hand, from a file, or implied
// by a transfer between two currencies; setting one again replaces it, and
// what was booked at the old rate stays as booked.
import { appendAudit, type Actor } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { nowIso } from '../core/clock';
import type { Ledger } from '../core/db';
import { invalid, LedgerError } from '../core/errors';
import { addDays, isCalendarDate } from '../../../shared/dates';
import type { RateSource } from '../../../../db/values';
import { requireCurrency } from './currencies';
import { readRate, rateText, type Rate } from './decimal';

/** How many days back a rate still serves: a week covers weekends and the longest run of bank holidays (Easter, Christmas). */
export const RATE_LOOKBACK_DAYS = 7;

export interface RateInput {
  currency: string;
  date: string;
  rate: Rate;
}

export interface StoredRate {
  currency: string;
  date: string;
  /** One unit of the currency in the base currency, exact. */
  rate: string;
  source: RateSource;
}

export interface RatesWritten {
  added: number;
  changed: number;
  unchanged: number;
  currencies: string[];
  from: string | null;
  to: string | null;
}

export const baseCurrency = (ledger: Ledger, orgSeq: number): string => organizationBySeq(ledger, orgSeq).currency;

/** A rate as typed, or a validation error naming the field. */
export function parseRate(text: string, field = 'rate'): Rate {
  const rate = readRate(text);
  if (typeof rate === 'string') throw invalid([{ field, message: rate }]);
  return rate;
}

/** Writes rates (all or none) with one audit entry: `what` says where they came from. */
export function writeRates(ledger: Ledger, orgSeq: number, actor: Actor, rates: readonly RateInput[], source: RateSource, what: string): RatesWritten {
  const base = baseCurrency(ledger, orgSeq);
  const out: RatesWritten = { added: 0, changed: 0, unchanged: 0, currencies: [], from: null, to: null };
  const currencies = new Set<string>();
  return ledger.write(() => {
    const before = ledger.stmt('SELECT rate FROM exchange_rates WHERE org_seq = ? AND currency = ? AND date = ?');
    const upsert = ledger.stmt(
      'INSERT INTO exchange_rates (org_seq, currency, date, rate, source, set_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (org_seq, currency, date) DO UPDATE SET rate = excluded.rate, source = excluded.source, set_at = excluded.set_at',
    );
    const at = nowIso();
    for (const r of rates) {
      if (r.currency === base) continue; // the base currency's rate is 1 by definition
      const text = rateText(r.rate);
      const old = before.get(orgSeq, r.currency, r.date) as { rate: string } | undefined;
      if (old?.rate === text) {
        out.unchanged++;
        continue;
      }
      upsert.run(orgSeq, r.currency, r.date, text, source, at);
      if (old) out.changed++;
      else out.added++;
      currencies.add(r.currency);
      if (!out.from || r.date < out.from) out.from = r.date;
      if (!out.to || r.date > out.to) out.to = r.date;
    }
    out.currencies = [...currencies].sort();
    if (out.added + out.changed) {
      const span = out.from === out.to ? out.from : `${out.from} to ${out.to}`;
      const summary = `${what}: ${out.added} rate(s) added, ${out.changed} changed (${out.currencies.join(', ')}; ${span}) in ${base}`;
      appendAudit(ledger, orgSeq, actor, {
        action: source === 'hand' ? 'rate.set' : 'rate.imported',
        targetType: 'organization',
        targetId: organizationBySeq(ledger, orgSeq).id,
        summary,
      });
    }
    return out;
  });
}

/** One rate typed by a person (`ledgerdesk rate set EUR 2026-03-31 1.0856`). */
export function setRate(ledger: Ledger, orgSeq: number, actor: Actor, input: { currency: string; date: string; rate: string }): StoredRate {
  const currency = requireCurrency(input.currency);
  if (!isCalendarDate(input.date)) throw invalid([{ field: 'date', message: 'must be a date (YYYY-MM-DD)' }]);
  const base = baseCurrency(ledger, orgSeq);
  if (currency === base) throw invalid([{ field: 'currency', message: `${currency} is the base currency: its rate is 1` }]);
  const rate = parseRate(input.rate);
  writeRates(ledger, orgSeq, actor, [{ currency, date: input.date, rate }], 'hand', `${currency} on ${input.date} set to ${rateText(rate)}`);
  return { currency, date: input.date, rate: rateText(rate), source: 'hand' };
}

export function listRates(ledger: Ledger, orgSeq: number, q: { currency?: string; from?: string; to?: string; limit?: number; offset?: number } = {}) {
  const filters: [string, unknown][] = [['org_seq = ?', orgSeq]];
  if (q.currency) filters.push(['currency = ?', requireCurrency(q.currency)]);
  if (q.from) filters.push(['date >= ?', q.from]);
  if (q.to) filters.push(['date <= ?', q.to]);
  const params = filters.map(([, v]) => v);
  const sql = `FROM exchange_rates WHERE ${filters.map(([w]) => w).join(' AND ')}`;
  const { total } = ledger.stmt(`SELECT count(*) AS total ${sql}`).get(...params) as { total: number };
  const rates = ledger.rows<StoredRate>(`SELECT currency, date, rate, source ${sql} ORDER BY date DESC, currency LIMIT ? OFFSET ?`, ...params, q.limit ?? 100, q.offset ?? 0);
  const currencies = ledger.rows<{ currency: string; first: string; last: string; n: number }>(
    'SELECT currency, min(date) AS first, max(date) AS last, count(*) AS n FROM exchange_rates WHERE org_seq = ? GROUP BY currency ORDER BY currency',
    orgSeq,
  );
  return { base: baseCurrency(ledger, orgSeq), rates, total, currencies };
}

/** The refusal when a date has no rate: which currency, which date, and how to give one. */
export const missingRate = (currency: string, date: string, latest: string | null): LedgerError =>
  new LedgerError(
    'conflict',
    `No ${currency} rate for ${date}${latest ? ` (the latest before it is ${latest}, more than ${RATE_LOOKBACK_DAYS} days earlier)` : ''}: set one (ledgerdesk rate set ${currency} ${date} <rate>) or import a rates file.`,
    { reason: 'rate_missing', currency, date },
  );

/** The rate serving a date: that day's or the latest of the RATE_LOOKBACK_DAYS before it. */
export function exchangeRateOn(ledger: Ledger, orgSeq: number, currency: string, date: string): { date: string; rate: Rate } {
  const hit = ledger.stmt('SELECT date, rate FROM exchange_rates WHERE org_seq = ? AND currency = ? AND date <= ? ORDER BY date DESC LIMIT 1').get(orgSeq, currency, date) as
    { date: string; rate: string } | undefined;
  if (!hit || hit.date < addDays(date, -RATE_LOOKBACK_DAYS)) throw missingRate(currency, date, hit?.date ?? null);
  return { date: hit.date, rate: readRate(hit.rate) as Rate };
}

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
import type { Ledger } from '../core/sqlite/open';
import { invalid } from '../core/errors';
import { isCalendarDate } from '../../../shared/dates';
import type { RateSource } from '../../../../db/values';
import { requireCurrency } from './currencies';
import { readRate, rateText, type Rate } from './decimal';
import { baseCurrency, linesBase, Valuer } from './valuer';

export { baseCurrency, exchangeRateOn, missingRate, RATE_LOOKBACK_DAYS } from './valuer';

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
  /** Rows in another currency from before rates that the new rates valued. */
  valued: number;
}

/** A rate as typed, or a validation error naming the field. */
export function parseRate(text: string, field = 'rate'): Rate {
  const rate = readRate(text);
  if (typeof rate === 'string') throw invalid([{ field, message: rate }]);
  return rate;
}

/** Writes rates (all or none) with one audit entry: `what` says where they came from. */
export async function writeRates(ledger: Ledger, orgSeq: number, actor: Actor, rates: readonly RateInput[], source: RateSource, what: string): Promise<RatesWritten> {
  const base = await baseCurrency(ledger, orgSeq);
  const out: RatesWritten = { added: 0, changed: 0, unchanged: 0, currencies: [], from: null, to: null, valued: 0 };
  const currencies = new Set<string>();
  return ledger.write(async () => {
    const before = ledger.stmt('SELECT rate FROM exchange_rates WHERE org_seq = ? AND currency = ? AND date = ?');
    const upsert = ledger.stmt(
      'INSERT INTO exchange_rates (org_seq, currency, date, rate, source, set_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (org_seq, currency, date) DO UPDATE SET rate = excluded.rate, source = excluded.source, set_at = excluded.set_at',
    );
    const at = nowIso();
    for (const r of rates) {
      if (r.currency === base) continue; // the base currency's rate is 1 by definition
      const text = rateText(r.rate);
      const old = (await before.get(orgSeq, r.currency, r.date)) as { rate: string } | undefined;
      if (old?.rate === text) {
        out.unchanged++;
        continue;
      }
      await upsert.run(orgSeq, r.currency, r.date, text, source, at);
      if (old) out.changed++;
      else out.added++;
      currencies.add(r.currency);
      if (!out.from || r.date < out.from) out.from = r.date;
      if (!out.to || r.date > out.to) out.to = r.date;
    }
    out.currencies = [...currencies].sort();
    out.valued = await valueAwaiting(ledger, orgSeq, out.currencies);
    if (out.added + out.changed) {
      const span = out.from === out.to ? out.from : `${out.from} to ${out.to}`;
      const summary = `${what}: ${out.added} rate(s) added, ${out.changed} changed (${out.currencies.join(', ')}; ${span}) in ${base}${out.valued ? `; ${out.valued} row(s) awaiting a rate valued` : ''}`;
      await appendAudit(ledger, orgSeq, actor, {
        action: source === 'hand' ? 'rate.set' : 'rate.imported',
        targetType: 'organization',
        targetId: (await organizationBySeq(ledger, orgSeq)).id,
        summary,
      });
    }
    return out;
  });
}

/** One rate typed by a person (`ledgerdesk rate set EUR 2026-03-31 1.0856`). */
export async function setRate(ledger: Ledger, orgSeq: number, actor: Actor, input: { currency: string; date: string; rate: string }): Promise<StoredRate> {
  const currency = requireCurrency(input.currency);
  if (!isCalendarDate(input.date)) throw invalid([{ field: 'date', message: 'must be a date (YYYY-MM-DD)' }]);
  const base = await baseCurrency(ledger, orgSeq);
  if (currency === base) throw invalid([{ field: 'currency', message: `${currency} is the base currency: its rate is 1` }]);
  const rate = parseRate(input.rate);
  await writeRates(ledger, orgSeq, actor, [{ currency, date: input.date, rate }], 'hand', `${currency} on ${input.date} set to ${rateText(rate)}`);
  return { currency, date: input.date, rate: rateText(rate), source: 'hand' };
}

export async function listRates(ledger: Ledger, orgSeq: number, q: { currency?: string; from?: string; to?: string; limit?: number; offset?: number } = {}) {
  const filters: [string, unknown][] = [['org_seq = ?', orgSeq]];
  if (q.currency) filters.push(['currency = ?', requireCurrency(q.currency)]);
  if (q.from) filters.push(['date >= ?', q.from]);
  if (q.to) filters.push(['date <= ?', q.to]);
  const params = filters.map(([, v]) => v);
  const sql = `FROM exchange_rates WHERE ${filters.map(([w]) => w).join(' AND ')}`;
  const { total } = (await ledger.stmt(`SELECT count(*) AS total ${sql}`).get(...params)) as { total: number };
  const rates = await ledger.rows<StoredRate>(`SELECT currency, date, rate, source ${sql} ORDER BY date DESC, currency LIMIT ? OFFSET ?`, ...params, q.limit ?? 100, q.offset ?? 0);
  const currencies = await ledger.rows<{ currency: string; first: string; last: string; n: number }>(
    'SELECT currency, min(date) AS first, max(date) AS last, count(*) AS n FROM exchange_rates WHERE org_seq = ? GROUP BY currency ORDER BY currency',
    orgSeq,
  );
  return { base: await baseCurrency(ledger, orgSeq), rates, total, currencies };
}

/**
 * Rows in another currency booked before there were rates (an upgraded file) have no base amount yet: the first
 * rates that serve their dates value them and their lines. Rows already valued keep what they were booked at.
 */
async function valueAwaiting(ledger: Ledger, orgSeq: number, currencies: readonly string[]): Promise<number> {
  const valuer = new Valuer(ledger, orgSeq);
  const setRow = ledger.stmt('UPDATE transactions SET base_minor = ? WHERE seq = ?');
  const setLine = ledger.stmt('UPDATE lines SET base_minor = ? WHERE transaction_seq = ? AND position = ?');
  let valued = 0;
  for (const currency of currencies) {
    const rows = await ledger.rows<{ seq: number; date: string; amount_minor: number }>(
      'SELECT seq, date, amount_minor FROM transactions WHERE org_seq = ? AND currency = ? AND base_minor IS NULL',
      orgSeq,
      currency,
    );
    for (const row of rows) {
      let base: number;
      try {
        base = await valuer.value(row.amount_minor, currency, row.date);
      } catch {
        continue; // no rate serves its date yet
      }
      await setRow.run(base, row.seq);
      const lines = await ledger.rows<{ position: number; amount_minor: number }>('SELECT position, amount_minor FROM lines WHERE transaction_seq = ? ORDER BY position', row.seq);
      const bases = linesBase(
        lines.map((l) => l.amount_minor),
        row.amount_minor,
        base,
      );
      for (const [i, b] of bases.entries()) await setLine.run(b, row.seq, lines[i].position);
      valued++;
    }
  }
  return valued;
}

// Unrealized exchange gains and losses (issue 30): at a date, every money
// account in another currency and what is owed in another currency (open
// receivables and payables, per currency) valued at that date's rate; the
// difference from their booked base amounts is posted to "Unrealized exchange
// gains and losses" on that date and reversed the next day, as QuickBooks and
// Xero do: the balance sheet at the date shows them at the day's rate, the
// books go on at booked rates. On request (`fx revalue --date`), undone whole
// (`fx undo --date`); both refused in a closed period. The reports read the
// few revaluation lines directly (sums.ts, positions.ts).
import { accountRows } from '../accounts/accounts';
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { organizationBySeq } from '../access/organizations';
import { categoryNamed } from '../chart/edit';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import { addDays, isCalendarDate } from '../../../shared/dates';
import { accountSumsThrough } from '../totals/sums';
import { exchangeRateOn, Valuer } from './valuer';
import { rateText } from './decimal';
import { mapInOrder } from '../core/in-order';

export const UNREALIZED_NAME = 'Unrealized exchange gains and losses';

export interface RevaluedItem {
  /** A money account's name, or "Accounts receivable" / "Accounts payable". */
  name: string;
  currency: string;
  /** Its balance in its own currency. */
  balance: number;
  rate: string;
  booked: number;
  revalued: number;
  difference: number;
}

export interface Revaluation {
  date: string;
  currency: string;
  items: RevaluedItem[];
  /** The gain (positive) or loss over all items, in the base currency. */
  gain: number;
  /** The revaluation's id, or null when nothing needed it. */
  id: string | null;
}

/** What earlier revaluations added to each money account (by seq) and to what is owed (by kind and currency) through a date. */
async function revaluedThrough(ledger: Ledger, orgSeq: number, date: string) {
  const rows = await ledger.rows<{ kind: string; account_seq: number | null; currency: string; base: number }>(
    "SELECT kind, account_seq, currency, sum(base_minor) AS base FROM revaluation_lines WHERE org_seq = ? AND date <= ? AND kind <> 'category' GROUP BY kind, account_seq, currency",
    orgSeq,
    date,
  );
  return new Map(rows.map((r) => [r.kind === 'money' ? `money:${r.account_seq}` : `${r.kind}:${r.currency}`, r.base]));
}

/** The items to revalue and each difference, in minor units (nothing is written). */
async function itemsAt(ledger: Ledger, orgSeq: number, date: string, base: string) {
  const valuer = new Valuer(ledger, orgSeq);
  const earlier = await revaluedThrough(ledger, orgSeq, date);
  const out: { kind: string; accountSeq: number | null; name: string; currency: string; own: number; booked: number; revalued: number }[] = [];
  const own = new Map<number, number>();
  const booked = new Map<number, number>();
  for (const r of await accountSumsThrough(ledger, orgSeq, date)) own.set(r.account_seq, (own.get(r.account_seq) ?? 0) + r.minor);
  for (const r of await accountSumsThrough(ledger, orgSeq, date, true)) booked.set(r.account_seq, (booked.get(r.account_seq) ?? 0) + r.minor);
  for (const a of await accountRows(ledger, orgSeq)) {
    if (a.currency === base) continue;
    const opened = a.opening_date === null || a.opening_date <= date;
    const balance = (opened ? a.opening_balance_minor : 0) + (own.get(a.seq) ?? 0);
    const openingBase = opened ? await valuer.opening(a, date) : 0;
    const was = openingBase + (booked.get(a.seq) ?? 0) + (earlier.get(`money:${a.seq}`) ?? 0);
    out.push({ kind: 'money', accountSeq: a.seq, name: a.name, currency: a.currency, own: balance, booked: was, revalued: await valuer.value(balance, a.currency, date) });
  }
  const owed = await ledger.rows<{ kind: string; currency: string; own: number; base: number }>(
    "SELECT kind, currency, sum(sum_minor) AS own, sum(sum_base) AS base FROM line_day_totals WHERE org_seq = ? AND date <= ? AND kind IN ('receivable', 'payable') AND currency <> ? GROUP BY kind, currency ORDER BY kind DESC, currency",
    orgSeq,
    date,
    base,
  );
  for (const r of owed) {
    const was = r.base + (earlier.get(`${r.kind}:${r.currency}`) ?? 0);
    out.push({
      kind: r.kind,
      accountSeq: null,
      name: r.kind === 'receivable' ? 'Accounts receivable' : 'Accounts payable',
      currency: r.currency,
      own: r.own,
      booked: was,
      revalued: await valuer.value(r.own, r.currency, date),
    });
  }
  return out;
}

/** One entry (the revaluation, or its reversal: sign -1) and its lines. */
async function writeEntry(
  ledger: Ledger,
  orgSeq: number,
  date: string,
  reverses: number | null,
  lines: { kind: string; accountSeq: number | null; categorySeq: number | null; currency: string; base: number }[],
  sign: 1 | -1,
): Promise<number> {
  const seq = Number(
    await ledger.stmt('INSERT INTO revaluations (id, org_seq, date, reverses_seq, created_at) VALUES (?, ?, ?, ?, ?)').insert(newId(), orgSeq, date, reverses, nowIso()),
  );
  const insert = ledger.stmt(
    'INSERT INTO revaluation_lines (revaluation_seq, position, org_seq, date, kind, account_seq, category_seq, currency, base_minor, memo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const [i, l] of lines.entries())
    await insert.run(
      seq,
      i,
      orgSeq,
      date,
      l.kind,
      l.accountSeq,
      l.categorySeq,
      l.currency,
      sign * l.base,
      sign > 0 ? 'Unrealized exchange revaluation' : 'Reversal of the revaluation',
    );
  return seq;
}

export async function revalue(ledger: Ledger, orgSeq: number, actor: Human, date: string): Promise<Revaluation> {
  if (!isCalendarDate(date)) throw invalid([{ field: 'date', message: 'must be a date (YYYY-MM-DD)' }]);
  return ledger.write(async () => {
    const base = (await organizationBySeq(ledger, orgSeq)).currency;
    await assertOpen(ledger, orgSeq, [date, addDays(date, 1)], 'revalued');
    if (await ledger.stmt('SELECT 1 FROM revaluations WHERE org_seq = ? AND date = ? AND reverses_seq IS NULL').get(orgSeq, date)) {
      throw new LedgerError('conflict', `The books were already revalued on ${date}: undo that first (ledgerdesk fx undo --date ${date}).`, { date, reason: 'revalued' });
    }
    const found = await itemsAt(ledger, orgSeq, date, base);
    const money = (minor: number) => fromMinor(minor, base);
    const items: RevaluedItem[] = await mapInOrder(found, async (f) => ({
      name: f.name,
      currency: f.currency,
      balance: fromMinor(f.own, f.currency),
      rate: rateText((await exchangeRateOn(ledger, orgSeq, f.currency, date)).rate),
      booked: money(f.booked),
      revalued: money(f.revalued),
      difference: money(f.revalued - f.booked),
    }));
    const moved = found.filter((f) => f.revalued !== f.booked);
    // Debits positive: more worth in an asset, less owed, is a gain; its counterpart credits the category.
    const gain = moved.reduce((s, f) => s + f.revalued - f.booked, 0);
    if (moved.length === 0) return { date, currency: base, items, gain: 0, id: null };
    const lines = [
      ...moved.map((f) => ({ kind: f.kind, accountSeq: f.accountSeq, categorySeq: null, currency: f.currency, base: f.revalued - f.booked })),
      { kind: 'category', accountSeq: null, categorySeq: await categoryNamed(ledger, orgSeq, actor, UNREALIZED_NAME, '7910', 'expense'), currency: base, base: -gain },
    ];
    const seq = await writeEntry(ledger, orgSeq, date, null, lines, 1);
    await writeEntry(ledger, orgSeq, addDays(date, 1), seq, lines, -1);
    const id = (await ledger.stmt('SELECT id FROM revaluations WHERE seq = ?').pluck().get(seq)) as string;
    await appendAudit(ledger, orgSeq, actor, {
      action: 'fx.revalued',
      targetType: 'organization',
      targetId: (await organizationBySeq(ledger, orgSeq)).id,
      summary: `Revalued on ${date} (reversed ${addDays(date, 1)}): ${items.map((i) => `${i.name} ${i.balance.toFixed(2)} ${i.currency} at ${i.rate}: ${i.difference.toFixed(2)} ${base}`).join('; ')}; ${money(gain).toFixed(2)} ${base} unrealized`,
    });
    return { date, currency: base, items, gain: money(gain), id };
  });
}

/** Takes a date's revaluation and its reversal out of the books. */
export async function undoRevaluation(ledger: Ledger, orgSeq: number, actor: Human, date: string): Promise<{ date: string; undone: boolean }> {
  return ledger.write(async () => {
    const seq = (await ledger.stmt('SELECT seq FROM revaluations WHERE org_seq = ? AND date = ? AND reverses_seq IS NULL').pluck().get(orgSeq, date)) as number | undefined;
    if (seq === undefined) throw new LedgerError('not_found', `The books were not revalued on ${date}.`, { resource: 'revaluation', id: date });
    await assertOpen(ledger, orgSeq, [date, addDays(date, 1)], 'changed (undoing the revaluation)');
    await ledger.stmt('DELETE FROM revaluation_lines WHERE revaluation_seq IN (SELECT seq FROM revaluations WHERE seq = ? OR reverses_seq = ?)').run(seq, seq);
    await ledger.stmt('DELETE FROM revaluations WHERE reverses_seq = ?').run(seq);
    await ledger.stmt('DELETE FROM revaluations WHERE seq = ?').run(seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'fx.revaluation_undone',
      targetType: 'organization',
      targetId: (await organizationBySeq(ledger, orgSeq)).id,
      summary: `The revaluation of ${date} and its reversal undone`,
    });
    return { date, undone: true };
  });
}

// A document paid in another currency than its own (issue 43): a EUR invoice
// paid into the GBP current account, the bank converting on arrival (a bill
// the same way from it). The row is in the organization's base currency; the
// person says how much of the document it settles, in the document's currency
// (default: its balance), and what of the row pays it (default: what is left
// of the row), so the two amounts imply the rate. The receivable (payable)
// line is in the document's currency, valued at the document's booked rate,
// so its balance, the aging, the statement, the cash basis, the revaluation
// and the exports read it as any payment in that currency; what the row paid
// differs from that booked value by a realized exchange gain or loss (the
// category a payment in the document's own currency uses).
import { anyOf } from '../../core/dialect';
import { decimalMarkOf } from '../../access/organizations';
import type { Ledger } from '../../core/sqlite/open';
import { invalid, LedgerError } from '../../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../../core/money';
import { impliedRate, rateText, shareOf, toBase } from '../../rates/decimal';
import { baseCurrency, exchangeRateOn } from '../../rates/valuer';
import type { LineInput, LineRecord } from '../../transactions/lines';
import { booked } from '../currency';
import { sharesOf } from './paid';
import type { DocumentRow } from '../documents';
import { mapInOrder } from '../../core/in-order';

/** A rate further than this from the row's day's rate is taken for a slip (a decimal point, the other amount) and refused. */
export const RATE_BAND = 0.25;

/** What a row paid of a document in another currency, and what it settled: minor units, positive. */
export interface ExchangePart {
  number: string;
  currency: string;
  settles: number;
  /** In the row's currency (the base currency). */
  paid: number;
  /** What settles is worth at the document's booked rate, in the base currency. */
  booked: number;
}

/** A document paid in another currency, as the answers show it (decimal amounts). */
export interface Exchange {
  document: string;
  /** The document's currency: what `settles` is in. */
  currency: string;
  settles: number;
  /** The organization's currency (the row's): what paid, booked and difference are in. */
  baseCurrency: string;
  /** What of the row paid it. */
  paid: number;
  /** What `settles` was booked at (the document's rate). */
  booked: number;
  /** The realized gain (positive) or loss (negative). */
  difference: number;
  /** The rate the two amounts imply: the organization's currency per unit of the document's. */
  rate: string;
  /** The rate of the row's day for the document's currency, when there is one. */
  dayRate: string | null;
}

const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

/** A rate as people read it: six significant digits at most. */
const shortRate = (text: string) => String(Number(Number(text).toPrecision(6)));

/**
 * Refuses what a payment in another currency cannot be: a row in another currency than the base, documents of
 * several currencies, or a row that already pays other documents (a row paying in another currency pays its
 * documents together: their shares of it are not known apart).
 */
export async function assertExchangeable(
  ledger: Ledger,
  orgSeq: number,
  row: { id: string; currency: string },
  docs: readonly DocumentRow[],
  kept: readonly Pick<LineRecord, 'settles_seq'>[],
): Promise<void> {
  const base = await baseCurrency(ledger, orgSeq);
  const i = docs.findIndex((d) => d.currency !== row.currency);
  if (i >= 0 && row.currency !== base) {
    throw invalid([
      {
        field: `documents[${i}]`,
        message: `${docs[i].number} is in ${docs[i].currency}, the row in ${row.currency}: a document is paid in its own currency, or from an account in ${base} (the organization's currency)`,
      },
    ]);
  }
  const currencies = [...new Set(docs.map((d) => d.currency))];
  if (currencies.length > 1) throw invalid([{ field: 'documents', message: `are in ${currencies.join(' and ')}: a row pays documents of one currency at a time` }]);
  if (kept.length === 0) return;
  const numbers = (await ledger
    .stmt(`SELECT number FROM documents WHERE seq ${anyOf(ledger)}`)
    .pluck()
    .all(kept.map((l) => l.settles_seq))) as string[];
  throw new LedgerError(
    'conflict',
    `Transaction ${row.id} already pays ${numbers.join(', ')}: a row paying in another currency pays its documents together. Name them all, or undo its payment first (ledgerdesk payment undo ${row.id}).`,
    { id: row.id, reason: 'payment', documents: numbers },
  );
}

/** The rate of a day for a currency, or null when none serves it. */
async function dayRateOf(ledger: Ledger, orgSeq: number, currency: string, date: string) {
  try {
    return (await exchangeRateOn(ledger, orgSeq, currency, date)).rate;
  } catch {
    return null;
  }
}

interface PayingRow {
  seq: number;
  id: string;
  date: string;
  currency: string;
}

/**
 * The lines of a base-currency row that pays documents in another currency, out of `left` (what the row has for
 * them): each settles what was given or its balance (`opens`), paid by what was given or by what is left shared in
 * proportion. Every line carries its base amount; the caller adds the realized difference.
 */
export async function exchangeLines(
  ledger: Ledger,
  orgSeq: number,
  row: PayingRow,
  kind: 'invoice' | 'bill',
  docs: readonly DocumentRow[],
  given: readonly { amount?: TypedMoney; settles?: TypedMoney }[],
  opens: readonly number[],
  left: number,
): Promise<{ lines: LineInput[]; parts: ExchangePart[]; left: number }> {
  const s = kind === 'bill' ? 1 : -1;
  const mark = await decimalMarkOf(ledger, orgSeq);
  const settles = docs.map((doc, i) => {
    const text = given[i].settles;
    const minor = text === undefined ? opens[i] : typedToMinor(text, doc.currency, mark, `documents[${i}].settles`);
    if (minor <= 0) throw invalid([{ field: `documents[${i}].settles`, message: 'must be more than zero' }]);
    if (minor > opens[i]) throw invalid([{ field: `documents[${i}].settles`, message: `is more than ${kind} ${doc.number} still asks (${money(opens[i], doc.currency)})` }]);
    return minor;
  });
  if (docs.length > 1 && given.some((g) => g.amount !== undefined || g.settles !== undefined)) {
    throw invalid([{ field: 'documents', message: 'an amount or what it settles names one document: pay several in another currency with their balances, or one by one' }]);
  }
  const typed = given[0].amount;
  const paid = typed === undefined ? sharesOf(left, settles) : [typedToMinor(typed, row.currency, mark, 'documents[0].amount')];
  const parts = await mapInOrder(docs, async (doc, i): Promise<ExchangePart> => {
    const field = `documents[${i}].amount`;
    if (paid[i] <= 0) throw invalid([{ field, message: 'nothing of the row is left to pay it' }]);
    if (paid[i] > left) throw invalid([{ field, message: `is more than is left of the row (${money(left, row.currency)})` }]);
    left -= paid[i];
    const value = await booked(ledger, doc);
    if (!value || value.amount === 0) throw new LedgerError('conflict', `${doc.number} has no value in the organization's currency: it awaits a rate.`, { number: doc.number });
    // What settles the balance takes what is left of the booked value: parts rounded one by one would leave a penny.
    const worth = settles[i] === opens[i] ? await openBase(ledger, doc.seq, row.seq) : shareOf(settles[i], value.base, value.amount);
    const part = { number: doc.number, currency: doc.currency, settles: settles[i], paid: paid[i], booked: Math.abs(worth) };
    await assertNear(ledger, orgSeq, row, part, given[i].settles === undefined ? field : `documents[${i}].settles`);
    return part;
  });
  const lines = docs.map((doc, i): LineInput => ({
    kind: kind === 'bill' ? 'payable' : 'receivable',
    currency: doc.currency,
    amountMinor: s * settles[i],
    baseMinor: s * parts[i].booked,
    settlesSeq: doc.seq,
    contactSeq: doc.contact_seq,
    memo: `Payment of ${kind} ${doc.number} (${money(settles[i], doc.currency)} for ${money(paid[i], row.currency)})`,
  }));
  return { lines, parts, left };
}

/** What a document still holds in the base currency (its booked value less what settled it), but for one row's lines. */
const openBase = async (ledger: Ledger, docSeq: number, rowSeq: number): Promise<number> =>
  (await ledger
    .stmt(
      'SELECT coalesce((SELECT sum(base_minor) FROM postings WHERE settles_seq = ?), 0) + coalesce((SELECT sum(base_minor) FROM lines WHERE settles_seq = ? AND transaction_seq <> ?), 0)',
    )
    .pluck()
    .get(docSeq, docSeq, rowSeq)) as number;

/** Refuses amounts whose rate is far from the day's (a slip), naming the field; a day without a rate is not checked. */
async function assertNear(ledger: Ledger, orgSeq: number, row: PayingRow, p: ExchangePart, field: string): Promise<void> {
  const day = await dayRateOf(ledger, orgSeq, p.currency, row.date);
  if (!day) return;
  const fair = Math.abs(toBase(p.settles, p.currency, day, row.currency));
  if (Math.abs(p.paid - fair) <= RATE_BAND * fair) return;
  const rate = shortRate(rateText(impliedRate(p.settles, p.currency, p.paid, row.currency)));
  throw invalid([
    {
      field,
      message: `${money(p.paid, row.currency)} for ${money(p.settles, p.currency)} is ${rate} ${row.currency} per ${p.currency}, more than ${RATE_BAND * 100}% from the rate of ${row.date} (${shortRate(rateText(day))}): check the amounts`,
    },
  ]);
}

/** The gain (positive) or loss of a part, in the base currency: more received for an invoice, less paid for a bill. */
export const differenceOf = (kind: 'invoice' | 'bill', p: ExchangePart): number => (kind === 'bill' ? p.booked - p.paid : p.paid - p.booked);

/** The parts as the answers show them. */
export async function exchangesOf(ledger: Ledger, orgSeq: number, row: PayingRow, kind: 'invoice' | 'bill', parts: readonly ExchangePart[]): Promise<Exchange[]> {
  return await mapInOrder(parts, async (p) => {
    const day = await dayRateOf(ledger, orgSeq, p.currency, row.date);
    return {
      document: p.number,
      currency: p.currency,
      settles: fromMinor(p.settles, p.currency),
      baseCurrency: row.currency,
      paid: fromMinor(p.paid, row.currency),
      booked: fromMinor(p.booked, row.currency),
      difference: fromMinor(differenceOf(kind, p), row.currency),
      rate: shortRate(rateText(impliedRate(p.settles, p.currency, p.paid, row.currency))),
      dayRate: day ? shortRate(rateText(day)) : null,
    };
  });
}

/** What the audit entry says of a part. */
export function exchangeSaid(kind: 'invoice' | 'bill', p: ExchangePart, base: string): string {
  const d = differenceOf(kind, p);
  const realized = d === 0 ? 'no difference' : `realized ${d > 0 ? 'gain' : 'loss'} ${money(Math.abs(d), base)}`;
  return `${kind} ${p.number} (${money(p.settles, p.currency)} for ${money(p.paid, base)}, booked at ${money(p.booked, base)}: ${realized})`;
}

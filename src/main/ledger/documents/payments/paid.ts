// What of a bank row paid each document it pays in another currency (issue
// 43, exchange.ts): its lines hold what each document settled in its own
// currency; the row's amount, less the credit it left, is shared among them
// in proportion to that, the way the payment shared it.
import type { Ledger } from '../../core/sqlite/open';
import { shareOf } from '../../rates/decimal';

/** A total shared in proportion to weights, half away from zero, the rounding on the last. */
export function sharesOf(total: number, weights: readonly number[]): number[] {
  let rest = total;
  let weight = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w, i) => {
    const part = i === weights.length - 1 ? rest : shareOf(rest, w, weight);
    rest -= part;
    weight -= w;
    return part;
  });
}

/**
 * What of a row paid each document it pays in another currency, in the row's currency (by the document's seq):
 * the row less the credit it left, shared as exchangeLines shares it. Empty for a row paying in its own currency.
 */
export async function paidByRow(ledger: Ledger, transactionSeq: number): Promise<Map<number, number>> {
  const row = (await ledger.stmt('SELECT amount_minor, currency FROM transactions WHERE seq = ?').get(transactionSeq)) as { amount_minor: number; currency: string };
  const lines = await ledger.rows<{ settles_seq: number | null; currency: string; amount_minor: number }>(
    "SELECT settles_seq, currency, amount_minor FROM lines WHERE transaction_seq = ? AND kind IN ('receivable', 'payable') ORDER BY position",
    transactionSeq,
  );
  const exchanged = lines.filter((l) => l.currency !== row.currency && l.settles_seq !== null);
  if (!exchanged.length) return new Map();
  const credit = lines.filter((l) => l.currency === row.currency && l.settles_seq === null).reduce((sum, l) => sum + Math.abs(l.amount_minor), 0);
  const parts = sharesOf(
    Math.abs(row.amount_minor) - credit,
    exchanged.map((l) => Math.abs(l.amount_minor)),
  );
  return new Map(exchanged.map((l, i) => [l.settles_seq!, parts[i]]));
}

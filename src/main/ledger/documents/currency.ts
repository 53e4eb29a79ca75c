// Invoices and bills in another currency (issue 30). A document books its
// entry at its issue date's rate; a credit note at its invoice's booked rate
// (it takes back part of that invoice, so nothing is left on receivables in
// the base currency). A payment in the document's currency settles it at the
// document's booked rate: the receivable (payable) line takes exactly its
// share of what was booked, the bank row is at its own date's rate, and the
// difference is a realized exchange gain or loss, a line of no amount in the
// currency and that difference in the base currency, to the category
// "Realized exchange gains and losses" (made when first needed, audited).
import type { Actor } from '../access/audit';
import { categoryNamed } from '../chart/edit';
import type { Ledger } from '../core/sqlite/open';
import { shareOf } from '../rates/decimal';
import { baseCurrency, Valuer } from '../rates/valuer';
import type { LineInput } from '../transactions/lines';
import type { DocumentRow } from './documents';
import { mapInOrder } from '../core/in-order';

export const REALIZED_NAME = 'Realized exchange gains and losses';
const REALIZED_CODE = '7900';

/** What a document's own receivable (payable) posting booked: its amount and base amount (the document's rate). */
export async function booked(ledger: Ledger, doc: Pick<DocumentRow, 'seq'>): Promise<{ amount: number; base: number } | undefined> {
  return (await ledger
    .stmt(
      "SELECT amount_minor AS amount, base_minor AS base FROM postings WHERE document_seq = ? AND kind IN ('receivable', 'payable') AND base_minor IS NOT NULL ORDER BY seq LIMIT 1",
    )
    .get(doc.seq)) as { amount: number; base: number } | undefined;
}

/** How a document's postings are valued: a credit note at its invoice's booked rate, any other at its issue date's. */
export async function documentValue(ledger: Ledger, doc: DocumentRow, valuer?: Valuer): Promise<(minor: number) => Promise<number>> {
  const invoice = doc.kind === 'credit_note' && doc.credits_seq !== null ? await booked(ledger, { seq: doc.credits_seq }) : undefined;
  if (invoice && invoice.amount !== 0) return async (minor) => shareOf(minor, invoice.base, invoice.amount);
  const rates = valuer ?? new Valuer(ledger, doc.org_seq);
  return (minor) => rates.value(minor, doc.currency, doc.issue_date);
}

/**
 * The base amounts of a paying row's lines in another currency than the base: each settling line at its
 * document's booked rate, a line it keeps at what it holds, any other (a credit on the contact) at the row's rate;
 * and the realized gain or loss line that balances them. Unchanged when the row is in the base currency or awaits a rate.
 */
export async function withRealized(
  ledger: Ledger,
  orgSeq: number,
  actor: Actor,
  row: { amount_minor: number; base_minor: number | null; currency: string },
  lines: (LineInput & { kept?: number | null })[],
  docs: readonly DocumentRow[],
): Promise<LineInput[]> {
  const base = await baseCurrency(ledger, orgSeq);
  if (row.currency === base || row.base_minor === null) return lines.map(({ kept: _kept, ...l }) => l);
  const bySeq = new Map(await mapInOrder(docs, async (d) => [d.seq, await booked(ledger, d)]));
  const valued = await mapInOrder(lines, async ({ kept, ...l }) => {
    const doc = l.settlesSeq ? bySeq.get(l.settlesSeq) : undefined;
    const baseMinor = kept ?? (doc && doc.amount !== 0 ? shareOf(l.amountMinor, doc.base, doc.amount) : shareOf(l.amountMinor, row.base_minor!, row.amount_minor));
    return { ...l, baseMinor };
  });
  const gain = -row.base_minor - valued.reduce((s, l) => s + l.baseMinor, 0);
  return gain === 0 ? valued : [...valued, await realizedLine(ledger, orgSeq, actor, 0, gain)];
}

/** The realized gain or loss line (debit positive: a loss): no amount in a row's other currency, its own in the base. */
export const realizedLine = async (ledger: Ledger, orgSeq: number, actor: Actor, amountMinor: number, baseMinor: number): Promise<LineInput> => ({
  kind: 'category',
  categorySeq: await categoryNamed(ledger, orgSeq, actor, REALIZED_NAME, REALIZED_CODE, 'expense'),
  amountMinor,
  baseMinor,
  memo: 'Realized exchange gain or loss',
});

// What a split row was before its split (issue 42: table split_origins), so
// that unsplitting puts it back. Kept when an entry becomes a split, by every
// path that writes a row's lines again (the register, `tx split`, an approval,
// a reversal, a rule); kept while the split is edited (unsplit means "as it
// was before it was split", not the split before this one); gone once the row
// is no longer split. Only what a person would want back is kept: the row
// uncategorized, or its category with its tax. A row that paid an invoice is
// not (putting that back could pay the invoice twice): unsplit then asks.
import type { Ledger } from '../core/sqlite/open';
import type { LineKind } from '../../../../db/values';

type Kinded = { kind: LineKind };

const KEPT: ReadonlySet<LineKind> = new Set(['suspense', 'category', 'tax']);

export const isSplit = (lines: readonly Kinded[]): boolean => lines.filter((l) => l.kind === 'category').length > 1;

const forget = (ledger: Ledger, seq: number) => ledger.stmt('DELETE FROM split_origins WHERE transaction_seq = ?').run(seq);

/** As a row's lines become `next`: `before` (its lines until now) is read only when `next` is a split. */
export async function followSplitOrigin(ledger: Ledger, seq: number, next: readonly Kinded[], before: () => Promise<readonly Kinded[]>): Promise<void> {
  if (!isSplit(next)) return void (await forget(ledger, seq));
  const was = await before();
  if (isSplit(was)) return;
  if (!was.every((l) => KEPT.has(l.kind))) return void (await forget(ledger, seq));
  // Its base amounts follow the row's when put back (a rate may have come since).
  const json = JSON.stringify(was, (key, value: unknown) => (key === 'baseMinor' ? undefined : value));
  await forget(ledger, seq);
  await ledger.stmt('INSERT INTO split_origins (org_seq, transaction_seq, lines) SELECT org_seq, seq, ? FROM transactions WHERE seq = ?').run(json, seq);
}

/** The lines a split row had before its split, or null when that is not known (split before issue 42, or from a payment of an invoice). */
export async function splitOriginOf<L>(ledger: Ledger, seq: number): Promise<L[] | null> {
  const json = (await ledger.stmt('SELECT lines FROM split_origins WHERE transaction_seq = ?').pluck().get(seq)) as string | undefined;
  return json === undefined ? null : (JSON.parse(json) as L[]);
}

// Splitting a row by hand (the register's split editor, `ledgerdesk tx split`)
// and unsplitting it. The parts are typed as parts of the row and checked once
// (split.ts); the row keeps its money-account line, and its other lines become
// the split's. Unsplit puts back what the row was before its split
// (split-origin.ts), or the person says what it becomes: a category, or
// uncategorized. Guessing (the largest line's category) moved money between
// categories without a word.
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { resolveCategory } from '../chart/categories';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { decimalMarkOf } from '../access/organizations';
import { handRow, type HandRow } from './hand';
import { linesOf, refuseTransfer, replaceLines, type LineInput } from './lines';
import { categorizedLines } from '../tax/lines';
import { resolveSplit, splitLines, type ResolvedPart, type SplitPart } from './split';
import { isSplit, splitOriginOf } from './split-origin';
import { describeTransaction } from './transactions';
import { asCorrection, type Correcting } from '../tax/corrections';
import { againstWords, partOf } from '../../../shared/split-parts';

/** A part as the audit log says it: its figure as typed (positive with the row), a line against the row marked. */
const partText = (row: HandRow) => (p: ResolvedPart) => {
  const part = partOf(row.amount_minor, p.amountMinor);
  const figure = `${fromMinor(part, row.currency).toFixed(2)}`;
  const against = part < 0 ? ` [against the row: ${againstWords(row.amount_minor, fromMinor(-part, row.currency).toFixed(2))}]` : '';
  return `${figure} ${p.category.code} ${p.category.name}${p.memo ? ` (${p.memo})` : ''}${against}`;
};

/** A part as a person types it: its figure ("329.99"; "-20.00" for a refund inside a payment), as text or a number. */
export type TypedSplitPart = Omit<SplitPart, 'amountMinor'> & { amount: TypedMoney };

/** Splits a row into category lines that add up to its amount exactly (parts of a -100.00 payment: 60 and 40). */
export async function splitTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string, typed: readonly TypedSplitPart[], flags: Correcting = {}): Promise<HandRow> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, id);
    await assertOpen(ledger, orgSeq, [row.date], 'split');
    await refuseTransfer(ledger, row, 'split');
    const mark = await decimalMarkOf(ledger, orgSeq);
    const parts = typed.map(({ amount, ...p }, i) => ({ ...p, amountMinor: typedToMinor(amount, row.currency, mark, `lines[${i}].amount`) }));
    const resolved = await resolveSplit(ledger, orgSeq, row, parts, 'typed');
    await asCorrection(ledger, orgSeq, actor, row, flags, async () => replaceLines(ledger, row, await splitLines(ledger, row.date, resolved)));
    await ledger.stmt('UPDATE transactions SET suggested_by = NULL, confidence = NULL, reason = NULL WHERE seq = ?').run(row.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.split',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Split by hand: ${describeTransaction(row)} (was ${row.category ?? '(uncategorized)'}) -> ${resolved.map(partText(row)).join('; ')}`,
    });
    return handRow(ledger, orgSeq, row.id);
  });
}

/** What an unsplit row becomes: what it was before its split (absent), a category by code, or uncategorized (null). */
export type UnsplitTo = { categoryCode?: string | null };

/** A split row back to what it was before its split; when that is not known, the person says what it becomes. */
export async function unsplitTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string, to: UnsplitTo = {}, flags: Correcting = {}): Promise<HandRow> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, id);
    if (!isSplit(await linesOf(ledger, row.seq))) throw new LedgerError('conflict', `${describeTransaction(row)} is not split.`, { id: row.id, reason: 'not split' });
    await assertOpen(ledger, orgSeq, [row.date], 'unsplit');
    const before = to.categoryCode === undefined ? await splitOriginOf<LineInput>(ledger, row.seq) : null;
    if (to.categoryCode === undefined && !before) {
      throw invalid([
        {
          field: 'categoryCode',
          message: `what ${describeTransaction(row)} was before its split is not known (it was split before this version kept it): name its category (--category-code 5100), or leave it uncategorized (--uncategorized)`,
        },
      ]);
    }
    const category = to.categoryCode ? await resolveCategory(ledger, orgSeq, { categoryCode: to.categoryCode }) : null;
    await asCorrection(ledger, orgSeq, actor, row, flags, async () =>
      replaceLines(ledger, row, before ?? (await categorizedLines(ledger, row.date, category?.seq ?? null, row.amount_minor))),
    );
    const now = await handRow(ledger, orgSeq, row.id);
    const said = before ? `as before its split: ${now.category ?? '(uncategorized)'}` : `one line: ${now.category ?? '(uncategorized)'}`;
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.unsplit',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Unsplit by hand: ${describeTransaction(row)}, ${said}`,
    });
    return now;
  });
}

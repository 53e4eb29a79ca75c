// Splitting a row by hand (the register's split editor, `ledgerdesk tx split`)
// and unsplitting it. The parts are checked once (split.ts); the row keeps
// its money-account line, and its other lines become the split's. Unsplit
// leaves one line: the category the row shows (its largest line's), so the
// books keep a category rather than falling back to uncategorized.
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import type { Ledger } from '../core/db';
import { LedgerError } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { decimalMarkOf } from '../access/organizations';
import { handRow, type HandRow } from './hand';
import { linesOf, refuseTransfer, replaceLines } from './lines';
import { categorizedLines, categoryLineCount } from '../tax/lines';
import { resolveSplit, splitLines, type ResolvedPart, type SplitPart } from './split';
import { describeTransaction } from './transactions';

const partText = (currency: string) => (p: ResolvedPart) => `${fromMinor(p.amountMinor, currency).toFixed(2)} ${p.category.code} ${p.category.name}${p.memo ? ` (${p.memo})` : ''}`;

/** A part as a person types it: the amount in the row's sign, as text ("-1.234,56") or a number. */
export type TypedSplitPart = Omit<SplitPart, 'amountMinor'> & { amount: TypedMoney };

/** Splits a row into category lines that add up to its amount exactly (row sign: -60 and -40 of -100). */
export function splitTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string, typed: readonly TypedSplitPart[]): HandRow {
  return ledger.write(() => {
    const row = handRow(ledger, orgSeq, id);
    assertOpen(ledger, orgSeq, [row.date], 'split');
    refuseTransfer(ledger, row, 'split');
    const mark = decimalMarkOf(ledger, orgSeq);
    const parts = typed.map(({ amount, ...p }, i) => ({ ...p, amountMinor: typedToMinor(amount, row.currency, mark, `lines[${i}].amount`) }));
    const resolved = resolveSplit(ledger, orgSeq, row, parts);
    replaceLines(ledger, row, splitLines(ledger, row.date, resolved));
    ledger.stmt('UPDATE transactions SET suggested_by = NULL, confidence = NULL, reason = NULL WHERE seq = ?').run(row.seq);
    appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.split',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Split by hand: ${describeTransaction(row)} (was ${row.category ?? '(uncategorized)'}) -> ${resolved.map(partText(row.currency)).join('; ')}`,
    });
    return handRow(ledger, orgSeq, row.id);
  });
}

/** A split row back to one line: the category it shows (its largest line's). */
export function unsplitTransaction(ledger: Ledger, orgSeq: number, actor: Human, id: string): HandRow {
  return ledger.write(() => {
    const row = handRow(ledger, orgSeq, id);
    if (categoryLineCount(linesOf(ledger, row.seq)) < 2) throw new LedgerError('conflict', `${describeTransaction(row)} is not split.`, { id: row.id, reason: 'not split' });
    assertOpen(ledger, orgSeq, [row.date], 'unsplit');
    replaceLines(ledger, row, categorizedLines(ledger, row.date, row.category_seq, row.amount_minor));
    appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.unsplit',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Unsplit by hand: ${describeTransaction(row)}, one line: ${row.category ?? '(uncategorized)'}`,
    });
    return handRow(ledger, orgSeq, row.id);
  });
}

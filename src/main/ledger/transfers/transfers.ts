// Transfers between the organization's own money accounts. Each side is its
// own row (each account's statement shows it, and each reconciles in its own
// account); its one line is a transfer line naming the other account, posted
// to "Transfers in transit" until the other side's row is its counterpart.
// A matched pair's transit lines cancel: the money left one account and
// arrived in the other, and neither profit nor loss saw it. Each change here
// is the person's, audited, and refused in a closed period.
import { requireOpenAccount } from '../accounts/accounts';
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { handRow, type HandRow } from '../transactions/hand';
import { accountName, linesOf, replaceLines, suspenseLine, transferLineOf, type LineInput } from '../transactions/lines';
import { describeTransaction } from '../transactions/transactions';
import { openSides, shownSide, SidePool, windowAround } from './candidates';
import { categoryLineCount } from '../tax/lines';
import { carryTransferValue, ownValue } from './value';

/** What the balance sheet and the reports call the clearing account a transfer waits on. */
export const IN_TRANSIT = 'Transfers in transit';

/** A row's one line when it is a transfer to another account (in transit while counterpartSeq is null). */
export const transferLine = (toAccountSeq: number, amountMinor: number, counterpartSeq: number | null): LineInput => ({
  kind: 'transfer',
  accountSeq: toAccountSeq,
  counterpartSeq,
  amountMinor: -amountMinor,
});

/** A row that is not split and not yet a matched transfer: what a transfer can be made of. */
async function refuseUnpairable(ledger: Ledger, row: HandRow, otherAccountSeq: number | null): Promise<void> {
  const lines = await linesOf(ledger, row.seq);
  if (categoryLineCount(lines) > 1)
    throw new LedgerError('conflict', `${describeTransaction(row)} is split: unsplit it before making it a transfer.`, { id: row.id, reason: 'split' });
  const [line] = lines;
  if (line.kind === 'transfer' && (line.counterpart_seq !== null || (otherAccountSeq !== null && line.account_seq !== otherAccountSeq))) {
    throw new LedgerError(
      'conflict',
      `${describeTransaction(row)} is already a transfer to "${await accountName(ledger, line.account_seq!)}"${line.counterpart_seq !== null ? ', matched with its other side' : ''}: undo it first (ledgerdesk transfer undo ${row.id}).`,
      { id: row.id, reason: 'transfer' },
    );
  }
}

/** Both sides made one transfer: each row's line names the other's account and row; the value carried across (value.ts). */
async function pair(ledger: Ledger, a: HandRow, b: HandRow): Promise<string> {
  await replaceLines(ledger, a, [transferLine(b.account_seq, a.amount_minor, b.seq)]);
  await replaceLines(ledger, b, [transferLine(a.account_seq, b.amount_minor, a.seq)]);
  return carryTransferValue(ledger, a, b);
}

export interface TransferResult {
  id: string;
  /** The other side's row, when it is in the books; null: in transit. */
  counterpartId: string | null;
  /** Rows that could have been the other side, when more than one did (none was chosen). */
  candidates: number;
}

/**
 * Makes a row a transfer to another money account. Its other side, when the
 * books hold exactly one row that can be it (transfer/candidates.ts), is
 * matched at once; otherwise the row waits in transit for that account's
 * statement (an import matches it) or for `matchTransfer`.
 */
export async function makeTransfer(ledger: Ledger, orgSeq: number, actor: Human, id: string, accountRef: string): Promise<TransferResult> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, id);
    await assertOpen(ledger, orgSeq, [row.date], 'made a transfer');
    const to = await requireOpenAccount(ledger, orgSeq, accountRef);
    if (to.seq === row.account_seq) throw invalid([{ field: 'account', message: 'is the row\u2019s own account: a transfer goes to another one' }]);
    await refuseUnpairable(ledger, row, to.seq);
    const [from, until] = windowAround(row.date, row.date);
    const side = { ...row, to_account: to.seq };
    const partners = new SidePool(await openSides(ledger, orgSeq, from, until, new Set([-row.amount_minor]))).partnersOf(side).filter((p) => p.account_seq === to.seq);
    const other = partners.length === 1 ? await handRow(ledger, orgSeq, (await shownSide(ledger, partners[0])).id) : null;
    if (other) {
      await assertOpen(ledger, orgSeq, [other.date], 'made a transfer');
      await pair(ledger, row, other);
    } else await replaceLines(ledger, row, [transferLine(to.seq, row.amount_minor, null)]);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.transfer',
      targetType: 'transaction',
      targetId: row.id,
      summary: `Made a transfer to "${to.name}": ${describeTransaction(row)}${other ? `, matched with ${describeTransaction(other)}` : `, in transit${partners.length > 1 ? ` (${partners.length} rows could be its other side: match one)` : ''}`}`,
    });
    return { id: row.id, counterpartId: other?.id ?? null, candidates: other ? 1 : partners.length };
  });
}

/** Matches two rows as the two sides of one transfer (a person's choice: any dates; the amounts exactly opposite). */
export async function matchTransfer(ledger: Ledger, orgSeq: number, actor: Human, idA: string, idB: string): Promise<TransferResult> {
  return ledger.write(async () => {
    const a = await handRow(ledger, orgSeq, idA);
    const b = await handRow(ledger, orgSeq, idB);
    await assertOpen(ledger, orgSeq, [a.date, b.date], 'made a transfer');
    if (a.account_seq === b.account_seq) throw invalid([{ field: 'ids', message: 'both rows are in one account: a transfer is between two of your accounts' }]);
    // One currency: exactly opposite amounts. Two currencies (issue 30): money out of one, into the other, at the rate they imply.
    const fits = a.currency === b.currency ? a.amount_minor === -b.amount_minor : Math.sign(a.amount_minor) === -Math.sign(b.amount_minor);
    if (a.amount_minor === 0 || !fits) {
      const rule = a.currency === b.currency ? 'exactly opposite' : 'one out and one in';
      throw invalid([{ field: 'ids', message: `the amounts must be ${rule} (${describeTransaction(a)} and ${describeTransaction(b)})` }]);
    }
    await refuseUnpairable(ledger, a, b.account_seq);
    await refuseUnpairable(ledger, b, a.account_seq);
    const valued = await pair(ledger, a, b);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.transfer',
      targetType: 'transaction',
      targetId: a.id,
      summary: `Matched as one transfer: ${describeTransaction(a)} and ${describeTransaction(b)}${valued}`,
    });
    return { id: a.id, counterpartId: b.id, candidates: 1 };
  });
}

/** A row is no longer a transfer: it (and its other side, when matched) is uncategorized again. */
export async function undoTransfer(ledger: Ledger, orgSeq: number, actor: Human, id: string): Promise<{ id: string; counterpartId: string | null }> {
  return ledger.write(async () => {
    const row = await handRow(ledger, orgSeq, id);
    const line = await transferLineOf(ledger, row.seq);
    if (!line) throw new LedgerError('conflict', `${describeTransaction(row)} is not a transfer.`, { id: row.id, reason: 'not a transfer' });
    const other = line.counterpart_seq === null ? null : ((await ledger.stmt('SELECT id FROM transactions WHERE seq = ?').get(line.counterpart_seq)) as { id: string });
    const otherRow = other ? await handRow(ledger, orgSeq, other.id) : null;
    await assertOpen(ledger, orgSeq, otherRow ? [row.date, otherRow.date] : [row.date], 'changed (undoing the transfer)');
    await replaceLines(ledger, row, [suspenseLine(row.amount_minor)]);
    if (otherRow) {
      await replaceLines(ledger, otherRow, [suspenseLine(otherRow.amount_minor)]);
      for (const r of [row, otherRow]) await ownValue(ledger, r);
    }
    await appendAudit(ledger, orgSeq, actor, {
      action: 'transaction.transfer_undone',
      targetType: 'transaction',
      targetId: row.id,
      summary: `No longer a transfer to "${await accountName(ledger, line.account_seq!)}": ${describeTransaction(row)}${otherRow ? ` and its other side ${describeTransaction(otherRow)}` : ''}, uncategorized again`,
    });
    return { id: row.id, counterpartId: otherRow?.id ?? null };
  });
}

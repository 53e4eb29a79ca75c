// An entry's other lines (migration 0014). The transaction row is the entry's
// money-account line; its lines say where the money went, and the row's amount
// plus its lines' amounts is zero, in integer minor units (a line paying a
// document in another currency balances it in the base currency: issue 43).
// An entry has one suspense line (uncategorized), one category line, two or more category lines
// (a split), or one transfer line (to another money account of the
// organization: in transit until its counterpart, the other side's row, is
// known). Every line is written here, and with them what the row shows of
// them: its category (the largest category line's: transactions.category_seq)
// and its status (status.ts).
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import type { LineKind } from '../../../../db/values';
import type { Track } from '../totals/declared';
import { statusOf, type TransactionStatus } from './status';
import { refreshSettled, settledBy } from '../documents/payments/settled';
import { assertCreditsCover, creditsOnRow } from '../documents/payments/applied';
import { linesBase } from '../rates/valuer';
import { followSplitOrigin } from './split-origin';
import { journalNumber } from '../journals/numbers';

export { LINE_KINDS, type LineKind } from '../../../../db/values';

export interface LineInput {
  kind: LineKind;
  categorySeq?: number | null;
  /** A transfer's other money account. */
  accountSeq?: number | null;
  /** A matched transfer's other side; null while in transit. */
  counterpartSeq?: number | null;
  amountMinor: number;
  /** Its base amount when the caller values it (a payment at its documents' rates, issue 30); else its share of the row's. */
  baseMinor?: number | null;
  memo?: string | null;
  /** A category line's tax code and its tax (in the line's sign); a tax line's code. */
  taxCodeSeq?: number | null;
  taxMinor?: number | null;
  /** A receivable or payable line's invoice or bill (issue 29); none: a credit on the contact. */
  settlesSeq?: number | null;
  contactSeq?: number | null;
  /** The line's currency when not the row's: a document paid in its own currency from the base currency (issue 43). */
  currency?: string;
}

/** The money-account line a row's lines balance. */
export interface EntryHead {
  seq: number;
  org_seq: number;
  date: string;
  currency: string;
  amount_minor: number;
  /** In the base currency (issue 30); null: awaiting a rate. */
  base_minor: number | null;
}

/** The facts of a row besides its lines that its status is a view of. */
export type RowFacts = { receipt_needed: number; reconciled: number; status: TransactionStatus };

export const suspenseLine = (amountMinor: number): LineInput => ({ kind: 'suspense', amountMinor: -amountMinor });
export const categoryLine = (categorySeq: number, amountMinor: number, memo: string | null = null): LineInput => ({
  kind: 'category',
  categorySeq,
  amountMinor: -amountMinor,
  memo,
});

/** The lines of a row entered with a category (or without: the suspense line). */
export const linesFor = (categorySeq: number | null, amountMinor: number): LineInput[] => [
  categorySeq === null ? suspenseLine(amountMinor) : categoryLine(categorySeq, amountMinor),
];

/** The category a row shows: its category line's, or a split's largest line's (the first of equals); null for none. */
export function shownCategory(lines: readonly LineInput[]): number | null {
  let best: LineInput | null = null;
  for (const l of lines) if (l.kind === 'category' && (!best || Math.abs(l.amountMinor) > Math.abs(best.amountMinor))) best = l;
  return best?.categorySeq ?? null;
}

export const isCategorized = (lines: readonly Pick<LineInput, 'kind'>[]): boolean => !lines.some((l) => l.kind === 'suspense');

/**
 * Refuses lines that do not make a balanced entry of one of the shapes (one suspense or transfer line; category
 * lines with their tax lines). A bug, not a person's input: those are checked where they are read.
 */
function checkEntry(head: EntryHead, lines: readonly LineInput[]): void {
  const sum = lines.reduce((s, l) => s + l.amountMinor, 0);
  const kinds = new Set(lines.map((l) => l.kind));
  // A lone tax line settles the tax control account: the payment to (or refund from) the tax office.
  // A manual journal's money-account row holds one clearing line, which the journal's posting cancels (issue 43).
  const single = lines.length === 1 && (kinds.has('suspense') || kinds.has('transfer') || kinds.has('category') || kinds.has('tax') || kinds.has('journal'));
  // Category lines with their tax, and the parts that settle invoices or bills (a payment less a bank fee).
  const parts = kinds.has('category') || kinds.has('receivable') || kinds.has('payable');
  const shaped = single || (parts && [...kinds].every((k) => k === 'category' || k === 'tax' || k === 'receivable' || k === 'payable'));
  // A line in another currency settles a document in its own (issue 43): the entry balances in the base currency.
  const other = lines.filter((l) => l.currency !== undefined && l.currency !== head.currency);
  const balanced = other.length
    ? givenBases(head, lines) !== null && other.every((l) => (l.kind === 'receivable' || l.kind === 'payable') && l.settlesSeq)
    : sum === -head.amount_minor;
  if (!balanced || !shaped || lines.some((l) => !Number.isSafeInteger(l.amountMinor))) {
    throw new Error(`unbalanced entry for transaction ${head.seq}: ${head.amount_minor} + ${sum} minor units in ${lines.length} line(s)`);
  }
}

const INSERT_LINE = `INSERT INTO lines (transaction_seq, position, org_seq, kind, category_seq, account_seq, counterpart_seq, date, currency, amount_minor, base_minor, memo, tax_code_seq, tax_minor, settles_seq, contact_seq)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The lines' own base amounts, when every line has one and they balance the row's exactly. */
function givenBases(head: EntryHead, lines: readonly LineInput[]): number[] | null {
  if (head.base_minor === null || lines.some((l) => l.baseMinor === undefined || l.baseMinor === null)) return null;
  const bases = lines.map((l) => l.baseMinor!);
  return bases.reduce((s, b) => s + b, 0) === -head.base_minor ? bases : null;
}

/** Writes a new entry's lines (its row just inserted); track, in a bulk load, counts them for the totals. */
export async function insertLines(ledger: Ledger, head: EntryHead, lines: readonly LineInput[], track?: Track): Promise<void> {
  checkEntry(head, lines);
  const insert = ledger.stmt(INSERT_LINE);
  const bases =
    givenBases(head, lines) ??
    linesBase(
      lines.map((l) => l.amountMinor),
      head.amount_minor,
      head.base_minor,
    );
  for (const [position, l] of lines.entries()) {
    await insert.run(
      head.seq,
      position,
      head.org_seq,
      l.kind,
      l.categorySeq ?? null,
      l.accountSeq ?? null,
      l.counterpartSeq ?? null,
      head.date,
      l.currency ?? head.currency,
      l.amountMinor,
      bases[position],
      l.memo ?? null,
      l.taxCodeSeq ?? null,
      l.taxMinor ?? null,
      l.settlesSeq ?? null,
      l.contactSeq ?? null,
    );
    track?.line({
      orgSeq: head.org_seq,
      currency: l.currency ?? head.currency,
      date: head.date,
      kind: l.kind,
      categorySeq: l.categorySeq ?? null,
      amountMinor: l.amountMinor,
      baseMinor: bases[position],
    });
  }
}

/**
 * Replaces an entry's lines, and brings what the row shows of them up to date:
 * its category and its status (`categorizing`: a person or an approval
 * decided, which drops the legacy agent_suggested). The totals follow by their triggers.
 */
export async function replaceLines(ledger: Ledger, head: EntryHead & RowFacts, lines: readonly LineInput[], categorizing = true): Promise<TransactionStatus> {
  checkEntry(head, lines);
  await refuseJournalRow(ledger, head.seq);
  await assertNotFiled(ledger, head.seq);
  const settled = await settledBy(ledger, head.seq);
  const credits = await creditsOnRow(ledger, head.seq);
  await followSplitOrigin(ledger, head.seq, lines, async () => (await linesOf(ledger, head.seq)).map(asInput));
  await ledger.stmt('DELETE FROM lines WHERE transaction_seq = ?').run(head.seq);
  await insertLines(ledger, head, lines);
  await assertCreditsCover(ledger, credits);
  await refreshSettled(ledger, [...settled, ...lines.flatMap((l) => (l.settlesSeq ? [l.settlesSeq] : []))]);
  // A row that no longer settles the tax control account no longer pays a return.
  if (!(lines.length === 1 && lines[0].kind === 'tax')) await ledger.stmt('UPDATE tax_returns SET payment_transaction_seq = NULL WHERE payment_transaction_seq = ?').run(head.seq);
  const status = statusOf({ ...head, categorized: isCategorized(lines) }, categorizing);
  await ledger.stmt('UPDATE transactions SET category_seq = ?, status = ? WHERE seq = ?').run(shownCategory(lines), status, head.seq);
  return status;
}

/** After a row's base amount changed with its date (another day's rate): its lines' shares follow. */
export async function rebaseLines(ledger: Ledger, head: EntryHead): Promise<void> {
  const lines = await linesOf(ledger, head.seq);
  const bases = linesBase(
    lines.map((l) => l.amount_minor),
    head.amount_minor,
    head.base_minor,
  );
  const set = ledger.stmt('UPDATE lines SET base_minor = ? WHERE transaction_seq = ? AND position = ?');
  for (const [i, l] of lines.entries()) await set.run(bases[i], head.seq, l.position);
}

/** A stored line, as the general ledger and the detail read it. */
export interface LineRecord {
  transaction_seq: number;
  position: number;
  kind: LineKind;
  category_seq: number | null;
  account_seq: number | null;
  counterpart_seq: number | null;
  amount_minor: number;
  base_minor: number | null;
  memo: string | null;
  tax_code_seq: number | null;
  tax_minor: number | null;
  settles_seq: number | null;
  contact_seq: number | null;
  currency: string;
}

export async function linesOf(ledger: Ledger, transactionSeq: number): Promise<LineRecord[]> {
  return ledger.rows<LineRecord>(
    'SELECT transaction_seq, position, kind, category_seq, account_seq, counterpart_seq, amount_minor, base_minor, memo, tax_code_seq, tax_minor, settles_seq, contact_seq, currency FROM lines WHERE transaction_seq = ? ORDER BY position',
    transactionSeq,
  );
}

/** A stored line as an input again (to write it back changed). */
export const asInput = (l: LineRecord): LineInput => ({
  kind: l.kind,
  categorySeq: l.category_seq,
  accountSeq: l.account_seq,
  counterpartSeq: l.counterpart_seq,
  amountMinor: l.amount_minor,
  baseMinor: l.base_minor,
  memo: l.memo,
  taxCodeSeq: l.tax_code_seq,
  taxMinor: l.tax_minor,
  settlesSeq: l.settles_seq,
  contactSeq: l.contact_seq,
  currency: l.currency,
});

/** A money account's name by its seq (for messages). */
export const accountName = async (ledger: Ledger, seq: number | null): Promise<string> =>
  ((await ledger.stmt('SELECT name FROM accounts WHERE seq = ?').get(seq)) as { name: string } | undefined)?.name ?? 'another account';

/** The transfer line of a row, if it is a transfer. */
export const transferLineOf = async (ledger: Ledger, seq: number): Promise<LineRecord | undefined> => (await linesOf(ledger, seq)).find((l) => l.kind === 'transfer');

/** Refuses to change a transfer's row as if it were a categorized one: the transfer is undone first. */
export async function refuseTransfer(ledger: Ledger, row: { seq: number; id: string }, verb: string): Promise<void> {
  const line = await transferLineOf(ledger, row.seq);
  if (!line) return;
  throw new LedgerError(
    'conflict',
    `This row is a transfer to "${await accountName(ledger, line.account_seq)}": undo the transfer first (ledgerdesk transfer undo ${row.id}), then it can be ${verb}.`,
    { id: row.id, reason: 'transfer' },
  );
}

/** After a row's amount changed by hand: its one line follows (a split or a matched transfer is changed first, by its lines). */
export async function followAmount(ledger: Ledger, row: EntryHead & RowFacts & { id: string }): Promise<void> {
  const lines = await linesOf(ledger, row.seq);
  const [only] = lines;
  const other = lines.find((l) => l.currency !== row.currency);
  if (other) {
    const message = `This row pays a document in ${other.currency}: undo the payment first (ledgerdesk payment undo ${row.id}).`;
    throw new LedgerError('conflict', message, { id: row.id, reason: 'payment' });
  }
  if (lines.length > 1) throw new LedgerError('conflict', 'This row is split: change its lines (or unsplit it) together with its amount.', { id: row.id, reason: 'split' });
  if (only.kind === 'transfer' && only.counterpart_seq !== null) {
    throw new LedgerError('conflict', `This row is a transfer matched with its other side: undo the transfer first (ledgerdesk transfer undo ${row.id}).`, {
      id: row.id,
      reason: 'transfer',
    });
  }
  await replaceLines(ledger, row, [{ ...asInput(only), amountMinor: -row.amount_minor }], false);
}

/**
 * Refuses to change a row whose tax a filed return took (issue 28): its lines are what was filed. The details name
 * the row's date (as a closing date's refusal does) and the return, for a client that only knows period_locked.
 * A person's change made as a correction (tax/corrections.ts, issue 43) passes: the row is unstamped while it changes.
 */
export async function assertNotFiled(ledger: Ledger, seq: number): Promise<void> {
  const filed = (await ledger
    .stmt('SELECT r.id, r.period_from, r.period_to, r.filed_at, l.date FROM lines l JOIN tax_returns r ON r.seq = l.tax_return_seq WHERE l.transaction_seq = ? LIMIT 1')
    .get(seq)) as { id: string; period_from: string; period_to: string; filed_at: string; date: string } | undefined;
  if (!filed) return;
  throw new LedgerError(
    'period_locked',
    `This row's tax was filed in the return for ${filed.period_from} to ${filed.period_to} (filed ${filed.filed_at.slice(0, 10)}): it changes only as a correction in the next open return, which a person makes deliberately (--correction; the screens ask).`,
    { date: filed.date, taxReturn: filed.id, from: filed.period_from, to: filed.period_to, filedAt: filed.filed_at },
  );
}

/** Refuses to change or delete a manual journal's money-account row (issue 43): the journal is reversed instead, whole. */
export async function refuseJournalRow(ledger: Ledger, seq: number): Promise<void> {
  const journal = (await ledger.stmt('SELECT j.number FROM transactions t JOIN journals j ON j.seq = t.journal_seq WHERE t.seq = ?').pluck().get(seq)) as number | null | undefined;
  if (journal === undefined) return;
  const name = journalNumber(journal);
  throw new LedgerError('conflict', `This row is a line of journal ${name}: reverse the journal instead (ledgerdesk journal reverse ${name}).`, {
    reason: 'journal',
    journal: name,
  });
}

/** Deletes a row with its lines; a transfer matched with it goes back in transit. */
export async function removeEntry(ledger: Ledger, seq: number): Promise<void> {
  await refuseJournalRow(ledger, seq);
  await assertNotFiled(ledger, seq);
  await ledger.stmt('UPDATE tax_returns SET payment_transaction_seq = NULL WHERE payment_transaction_seq = ?').run(seq);
  await ledger.stmt('UPDATE lines SET counterpart_seq = NULL WHERE counterpart_seq = ?').run(seq);
  const settled = await settledBy(ledger, seq);
  const credits = await creditsOnRow(ledger, seq);
  await ledger.stmt('DELETE FROM lines WHERE transaction_seq = ?').run(seq);
  await ledger.stmt('DELETE FROM transactions WHERE seq = ?').run(seq);
  await assertCreditsCover(ledger, credits);
  await refreshSettled(ledger, settled);
}

// A preparer's changes (issue 45): what a bookkeeper would write at once becomes
// proposals of the kinds an agent files (kinds/), waiting in Approvals under the
// person's name until a bookkeeper, accountant or owner approves them. Amounts
// come as the person typed them (the organization's decimal mark) and are read
// here, so the proposal holds what an agent's would.
import type { Human } from '../access/audit';
import { decimalMarkOf, organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { invalid } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { mapInOrder } from '../core/in-order';
import type { JournalInput } from '../journals/add';
import { postingsOf, resolveLines, totalDebit } from '../journals/lines';
import { requireTransactionRow } from '../transactions/transactions';
import { proposeCategorization, proposeJournalEntry, type Proposal } from './proposals';

/** Categorizing rows: one proposal a row, all filed or none. */
export async function proposeCategories(
  ledger: Ledger,
  orgSeq: number,
  person: Human,
  ids: readonly string[],
  categoryCode: string | null,
  taxCode: string | null | undefined,
): Promise<Proposal[]> {
  if (!categoryCode) throw invalid([{ field: 'categoryCode', message: "a proposal names a category (leaving rows uncategorized is a bookkeeper's change)" }]);
  return ledger.write(() => mapInOrder(ids, (transactionId) => proposeCategorization(ledger, orgSeq, person, { transactionId, categoryCode, ...(taxCode ? { taxCode } : {}) })));
}

/** A split: a categorization with lines, its parts read as typed (positive with the row). */
export async function proposeSplit(
  ledger: Ledger,
  orgSeq: number,
  person: Human,
  transactionId: string,
  typed: readonly { categoryCode: string; amount: TypedMoney; memo?: string; taxCode?: string }[],
): Promise<Proposal> {
  const row = await requireTransactionRow(ledger, orgSeq, transactionId);
  const mark = await decimalMarkOf(ledger, orgSeq);
  const lines = typed.map(({ amount, memo, taxCode, categoryCode }, i) => ({
    categoryCode,
    amount: fromMinor(typedToMinor(amount, row.currency, mark, `lines[${i}].amount`), row.currency),
    ...(memo ? { memo } : {}),
    ...(taxCode ? { taxCode } : {}),
  }));
  return proposeCategorization(ledger, orgSeq, person, { transactionId, lines });
}

/** A manual journal: its lines resolved and balanced now, its total the debits (tax included), as an agent proposes one. */
export async function proposeJournal(ledger: Ledger, orgSeq: number, person: Human, input: JournalInput): Promise<Proposal> {
  if (input.reverseOn) throw invalid([{ field: 'reverseOn', message: 'a proposed journal is entered once: its reversal is a second journal, proposed on its date' }]);
  if (input.repeat) throw invalid([{ field: 'repeat', message: 'a repeating journal is set up by an accountant' }]);
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  const mark = await decimalMarkOf(ledger, orgSeq);
  const postings = await postingsOf(ledger, input.date, await resolveLines(ledger, orgSeq, input.lines));
  const lines = input.lines.map((l, i) => ({
    account: l.account,
    amount: fromMinor(typedToMinor(l.amount, currency, mark, `lines[${i}].amount`), currency),
    ...(l.taxCode ? { taxCode: l.taxCode } : {}),
    ...(l.memo ? { memo: l.memo } : {}),
  }));
  return proposeJournalEntry(ledger, orgSeq, person, {
    date: input.date,
    description: input.narration.trim(),
    amount: fromMinor(totalDebit(postings), currency),
    lines,
  });
}

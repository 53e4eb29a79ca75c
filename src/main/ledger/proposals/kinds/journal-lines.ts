// A journal entry with lines (issue 43, an additive extension of v1's
// propose_journal_entry): an agent proposes a balanced manual journal
// (accruals, depreciation, a reclassification) rather than a new bank row.
// Each line names a category by code or an account (a money account, or
// tax-control), an amount (debit positive), a tax code and a memo; `amount` is
// then the journal's total, its debits, as a check. It is checked when it is
// proposed (balanced, its tax at the date's rate), entered as one journal when
// approved, and reversed on its own date when the approval is reversed.
import type { Human } from '../../access/audit';
import { deskActor, organizationBySeq } from '../../access/organizations';
import type { Ledger } from '../../core/sqlite/open';
import { invalid, LedgerError } from '../../core/errors';
import { fromMinor, toMinor } from '../../core/money';
import { addJournal, reverseOnDate } from '../../journals/add';
import { previewLines, requireJournal } from '../../journals/journals';
import { assertBalanced, postingsOf, resolveLines, totalDebit, type JournalLineInput, type StoredLine } from '../../journals/lines';
import { journalNumber } from '../../journals/numbers';
import type { ChangeView } from '../kind';
import { mapInOrder } from '../../core/in-order';

/** A line as an agent sends it. */
export interface ProposedLine {
  categoryCode?: string;
  account?: string;
  amount: number;
  taxCode?: string;
  memo?: string;
}

/** A line as the proposal keeps it: what it posts to by a ref the books resolve (category:<code>, account:<id>, tax-control), and its name then. */
export interface JournalPayloadLine {
  account: string;
  name: string;
  amount: number;
  taxCode: string | null;
  memo: string | null;
}

const refOf = async (ledger: Ledger, l: StoredLine): Promise<{ account: string; name: string }> => {
  if (l.kind === 'category') {
    const c = (await ledger.stmt('SELECT code, name FROM categories WHERE seq = ?').get(l.seq)) as { code: string; name: string };
    return { account: c.code ? `category:${c.code}` : `category:#${l.seq}`, name: c.code ? `${c.code} ${c.name}` : c.name };
  }
  if (l.kind === 'money') {
    const a = (await ledger.stmt('SELECT id, name FROM accounts WHERE seq = ?').get(l.seq)) as { id: string; name: string };
    return { account: `account:${a.id}`, name: a.name };
  }
  return l.kind === 'tax' ? { account: 'tax-control', name: 'Sales tax control' } : { account: 'opening-balances', name: 'Opening balances' };
};

/** The lines as the journal takes them. */
const asInput = (lines: readonly JournalPayloadLine[]): JournalLineInput[] => lines.map((l) => ({ account: l.account, amount: l.amount, taxCode: l.taxCode, memo: l.memo }));

/** Checks the proposed lines at the date (balanced, tax included; `amount` their debits) and keeps them by ref. */
export async function draftLines(
  ledger: Ledger,
  orgSeq: number,
  input: { date: string; amount: number; currency?: string; lines: readonly ProposedLine[] },
): Promise<JournalPayloadLine[]> {
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  if (input.currency && input.currency.toUpperCase() !== currency)
    throw invalid([{ field: 'currency', message: `a journal with lines is in the organization's currency, ${currency}` }]);
  const given = input.lines.map((l, i) => {
    if ((l.categoryCode === undefined) === (l.account === undefined)) throw invalid([{ field: `lines[${i}].categoryCode`, message: 'name one of categoryCode or account' }]);
    toMinor(l.amount, currency, `lines[${i}].amount`);
    return { account: l.categoryCode ?? l.account!, amount: l.amount, taxCode: l.taxCode ?? null, memo: l.memo ?? null };
  });
  const stored = await resolveLines(ledger, orgSeq, given);
  const postings = await postingsOf(ledger, input.date, stored);
  assertBalanced(postings, currency);
  const debits = totalDebit(postings);
  if (toMinor(input.amount, currency) !== debits)
    throw invalid([{ field: 'amount', message: `with lines, amount is the journal's total (its debits, tax included): ${fromMinor(debits, currency).toFixed(2)}` }]);
  return await mapInOrder(stored, async (l, i) => ({ ...(await refOf(ledger, l)), amount: given[i].amount, taxCode: given[i].taxCode, memo: given[i].memo }));
}

/** Approval: the journal, entered by the reviewer; answers its id and number. */
export async function enterProposedJournal(ledger: Ledger, orgSeq: number, reviewer: Human, p: { date: string; description: string; lines: readonly JournalPayloadLine[] }) {
  const j = await addJournal(ledger, orgSeq, reviewer, { date: p.date, narration: p.description, lines: asInput(p.lines) });
  return { journalId: j.id, number: j.number };
}

/** A reversed approval: the journal reversed on its own date (as if it had not been), unless it was reversed since. */
export async function reverseProposedJournal(ledger: Ledger, orgSeq: number, journalId: string, refuse: (why: string) => LedgerError): Promise<string> {
  const journal = await requireJournal(ledger, orgSeq, journalId);
  const number = journalNumber(journal.number);
  if (await ledger.stmt('SELECT 1 FROM journals WHERE reverses_seq = ?').get(journal.seq)) throw refuse(`journal ${number} was reversed since`);
  const seq = await reverseOnDate(ledger, orgSeq, deskActor(), journal, journal.date);
  return `journal ${number} reversed by ${journalNumber((await ledger.stmt('SELECT number FROM journals WHERE seq = ?').pluck().get(seq)) as number)} on ${journal.date}`;
}

/** What the card shows of the journal: each line debit or credit, the tax worked out at the date's rate. */
export async function journalView(ledger: Ledger, orgSeq: number, p: { date: string; lines: readonly JournalPayloadLine[] }): Promise<ChangeView['journal']> {
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  try {
    const lines = await previewLines(ledger, await postingsOf(ledger, p.date, await resolveLines(ledger, orgSeq, asInput(p.lines))), currency);
    return { lines: lines.map((l) => ({ account: l.name, code: l.code ?? null, debit: l.debit, credit: l.credit, taxCode: l.taxCode, memo: l.memo })) };
  } catch {
    // A category archived or an account closed since: the lines as proposed.
    return { lines: p.lines.map((l) => ({ account: l.name, code: null, debit: Math.max(l.amount, 0), credit: Math.max(-l.amount, 0), taxCode: l.taxCode, memo: l.memo })) };
  }
}

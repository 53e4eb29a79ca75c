// Entering and reversing manual journals (issue 43). A journal is saved only
// when its postings balance (tax included), in one write with its audit
// entry: with its reversal when it is to be reversed on a date (an accrual
// taken back next month, as Xero's auto-reversing journals), and with its
// repeat when it repeats monthly (depreciation): the occurrences already due
// are made at once, the later ones on their dates (repeats.ts). A journal is
// never deleted or edited: a wrong one is reversed, which is itself a journal.
import type { Human } from '../access/audit';
import { journalAudit } from './audit';
import { organizationBySeq } from '../access/organizations';
import { today } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import { isCalendarDate } from '../../../shared/dates';
import { assertDateOpen } from './checks';
import { journalBySeq, previewLines, requireJournal, toJournal, type Journal, type JournalLine, type JournalRow } from './journals';
import { assertBalanced, postingsOf, resolveLines, totalDebit, type JournalLineInput } from './lines';
import { journalNumber } from './numbers';
import { catchUpRepeat, startRepeat, stopRepeat, type RepeatInput } from './repeats';
import { storedPostings, writeJournal, writeReversal } from './write';

export interface JournalInput {
  date: string;
  narration: string;
  lines: readonly JournalLineInput[];
  /** Reverse it on this date (after its own), written with it. */
  reverseOn?: string;
  repeat?: RepeatInput;
}

const dateField = (value: string | undefined, field: string) => {
  if (value !== undefined && !isCalendarDate(value)) throw invalid([{ field, message: 'must be a date, YYYY-MM-DD' }]);
};

export async function addJournal(ledger: Ledger, orgSeq: number, actor: Human, input: JournalInput): Promise<Journal> {
  dateField(input.date, 'date');
  dateField(input.reverseOn, 'reverseOn');
  const narration = input.narration.trim();
  if (!narration) throw invalid([{ field: 'narration', message: 'must not be empty: say what the journal is for' }]);
  return ledger.write(async () => {
    const lines = await resolveLines(ledger, orgSeq, input.lines);
    const postings = await postingsOf(ledger, input.date, lines);
    assertBalanced(postings, (await organizationBySeq(ledger, orgSeq)).currency);
    await assertDateOpen(ledger, orgSeq, input.date, postings, 'entered');
    const reverseDays = input.reverseOn ? Math.round((Date.parse(input.reverseOn) - Date.parse(input.date)) / 86_400_000) : null;
    const repeat = input.repeat ? await startRepeat(ledger, orgSeq, actor, { ...input.repeat, first: input.date, narration, lines, reverseDays }) : null;
    const seq = await writeJournal(ledger, orgSeq, actor, { kind: 'journal', date: input.date, narration, repeatSeq: repeat }, postings);
    await journalAudit(ledger, orgSeq, actor, seq, 'entered', repeat ? ', repeating monthly' : '');
    if (input.reverseOn) {
      if (input.reverseOn <= input.date) throw invalid([{ field: 'reverseOn', message: `must be after the journal's date ${input.date}` }]);
      await reverseOnDate(ledger, orgSeq, actor, await journalBySeq(ledger, seq), input.reverseOn);
    }
    if (repeat !== null) await catchUpRepeat(ledger, repeat, actor, today());
    return toJournal(ledger, await journalBySeq(ledger, seq));
  });
}

/** Reverses a journal on a date (default: today, or its own date when later): once, never a reversal, never the opening entry. */
export async function reverseJournal(ledger: Ledger, orgSeq: number, actor: Human, ref: string, date?: string): Promise<Journal> {
  dateField(date, 'date');
  return ledger.write(async () => {
    const journal = await requireJournal(ledger, orgSeq, ref);
    const name = journalNumber(journal.number);
    if (journal.kind === 'opening') throw new LedgerError('conflict', 'The opening entry is not reversed: set the opening balances again (ledgerdesk opening-balances set).');
    const by = (await ledger.stmt('SELECT number FROM journals WHERE reverses_seq = ?').pluck().get(journal.seq)) as number | undefined;
    if (by !== undefined) throw new LedgerError('conflict', `${name} is already reversed by ${journalNumber(by)}.`, { journal: name, reversedBy: journalNumber(by) });
    if (journal.reverses_seq !== null) {
      const of = journalNumber((await journalBySeq(ledger, journal.reverses_seq)).number);
      throw new LedgerError('conflict', `${name} is the reversal of ${of}: enter ${of} again instead of reversing its reversal.`, { journal: name, reverses: of });
    }
    const on = date ?? (today() < journal.date ? journal.date : today());
    const seq = await reverseOnDate(ledger, orgSeq, actor, journal, on);
    return toJournal(ledger, await journalBySeq(ledger, seq));
  });
}

/** A reversal on a date not before the journal's own (its own date: as if it had not been; an approval reversed). */
export async function reverseOnDate(ledger: Ledger, orgSeq: number, actor: Human, journal: JournalRow, date: string): Promise<number> {
  if (date < journal.date) throw invalid([{ field: 'date', message: `is before the journal's date ${journal.date}` }]);
  const postings = await storedPostings(ledger, journal.seq);
  await assertDateOpen(ledger, orgSeq, date, postings, 'reversed');
  const seq = await writeReversal(ledger, orgSeq, actor, journal, date);
  await journalAudit(ledger, orgSeq, actor, seq, 'reversed', ` (reverses ${journalNumber(journal.number)})`);
  return seq;
}

/** Stops the repeat a journal belongs to (named by it or by any of its occurrences); answers the journal. */
export async function stopJournalRepeat(ledger: Ledger, orgSeq: number, actor: Human, ref: string): Promise<Journal> {
  return ledger.write(async () => {
    const journal = await requireJournal(ledger, orgSeq, ref);
    if (journal.repeat_seq === null) throw new LedgerError('conflict', `${journalNumber(journal.number)} does not repeat.`, { journal: journalNumber(journal.number) });
    await stopRepeat(ledger, orgSeq, actor, journal.repeat_seq);
    return toJournal(ledger, journal);
  });
}

export interface JournalPreview {
  /** The postings the lines make (a taxed line's tax worked out beside it), as a journal shows its lines. */
  lines: JournalLine[];
  totalDebit: number;
  totalCredit: number;
  /** Debits less credits: saved only at zero. */
  difference: number;
}

/** What lines would post on a date, with the tax worked out and the difference: the form's live totals (nothing written). */
export async function previewJournal(ledger: Ledger, orgSeq: number, date: string, input: readonly JournalLineInput[]): Promise<JournalPreview> {
  dateField(date, 'date');
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  const postings = await postingsOf(ledger, date, await resolveLines(ledger, orgSeq, input, { min: 0 }));
  const debit = totalDebit(postings);
  const credit = debit - postings.reduce((s, p) => s + p.amountMinor, 0);
  return {
    lines: await previewLines(ledger, postings, currency),
    totalDebit: fromMinor(debit, currency),
    totalCredit: fromMinor(credit, currency),
    difference: fromMinor(debit - credit, currency),
  };
}

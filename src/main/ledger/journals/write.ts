// Writing a journal into the books (issue 43): its header, its postings
// (summed into the line totals by the postings' triggers, as documents'
// are) and, for each money account's line, a row on that account
// (origin 'journal') whose one line is a clearing line the journal's clearing
// posting cancels: the register, the balances and the reconciliation read the
// row like any other; the reports never show the clearing (it nets to zero in
// every journal, on its date). A reversal is a journal of the same postings
// negated, on its own date, naming the journal it reverses.
import type { Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { newId, newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import type { JournalKind } from '../../../../db/values';
import { insertTransaction } from '../transactions/insert';
import type { Track } from '../totals/declared';
import type { PostingDraft } from './lines';
import { journalNumber } from './numbers';

export interface JournalHead {
  kind: JournalKind;
  date: string;
  narration: string;
  reversesSeq?: number | null;
  repeatSeq?: number | null;
}

const INSERT_POSTING = `INSERT INTO postings (journal_seq, org_seq, kind, category_seq, account_seq, date, currency, amount_minor, base_minor, memo, tax_code_seq, tax_minor)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * The next journal number of an organization: journals are never deleted, so the highest plus one is never a number
 * used before. Read from the end of the numbers' index (`number IS NOT NULL` lets SQLite use it: one step, not a scan).
 */
const nextNumber = async (ledger: Ledger, orgSeq: number): Promise<number> =>
  (await ledger.stmt('SELECT coalesce(max(number), 0) + 1 FROM journals WHERE org_seq = ? AND number IS NOT NULL').pluck().get(orgSeq)) as number;

/** A journal's postings, in the organization's currency, dated its date (`track`: a bulk write keeping the totals itself). */
export async function insertPostings(
  ledger: Ledger,
  journalSeq: number,
  orgSeq: number,
  date: string,
  currency: string,
  postings: readonly PostingDraft[],
  track?: Track,
): Promise<void> {
  const insert = ledger.stmt(INSERT_POSTING);
  for (const p of postings) {
    await insert.run(journalSeq, orgSeq, p.kind, p.categorySeq, p.accountSeq, date, currency, p.amountMinor, p.amountMinor, p.memo, p.taxCodeSeq, p.taxMinor);
    track?.line({ orgSeq, currency, date, kind: p.kind, categorySeq: p.categorySeq, amountMinor: p.amountMinor, baseMinor: p.amountMinor });
  }
}

/** Each money account's line as a row on its account: the amount the line debits (money in), its one line the clearing. */
async function moneyRows(ledger: Ledger, orgSeq: number, journalSeq: number, head: JournalHead, currency: string, postings: readonly PostingDraft[]): Promise<void> {
  const link = ledger.stmt('UPDATE transactions SET journal_seq = ? WHERE seq = ?');
  for (const p of postings.filter((q) => q.kind === 'journal')) {
    const seq = await insertTransaction(ledger, orgSeq, {
      id: newId(),
      accountSeq: p.accountSeq!,
      origin: 'journal',
      date: head.date,
      amountMinor: p.amountMinor,
      currency,
      baseMinor: p.amountMinor,
      description: p.memo ?? head.narration,
      categorySeq: null,
      lines: [{ kind: 'journal', amountMinor: -p.amountMinor }],
      source: 'manual_csv',
      createdAt: nowIso(),
    });
    await link.run(journalSeq, seq);
  }
}

/** Writes a journal (numbered when it is one, not the opening entry) with its postings and money rows; answers its seq. */
export async function writeJournal(ledger: Ledger, orgSeq: number, actor: Human, head: JournalHead, postings: readonly PostingDraft[]): Promise<number> {
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  const number = head.kind === 'journal' ? await nextNumber(ledger, orgSeq) : null;
  const seq = Number(
    await ledger
      .stmt(
        `INSERT INTO journals (id, org_seq, kind, number, date, narration, reverses_seq, repeat_seq, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .insert(newTimeOrderedId(), orgSeq, head.kind, number, head.date, head.narration, head.reversesSeq ?? null, head.repeatSeq ?? null, nowIso(), actor.name),
  );
  await insertPostings(ledger, seq, orgSeq, head.date, currency, postings);
  await moneyRows(ledger, orgSeq, seq, head, currency, postings);
  return seq;
}

/** A journal's postings as drafts again (to reverse them), in their order. */
export async function storedPostings(ledger: Ledger, journalSeq: number): Promise<PostingDraft[]> {
  return (
    await ledger.rows<{
      kind: PostingDraft['kind'];
      category_seq: number | null;
      account_seq: number | null;
      amount_minor: number;
      tax_code_seq: number | null;
      tax_minor: number | null;
      memo: string | null;
    }>('SELECT kind, category_seq, account_seq, amount_minor, tax_code_seq, tax_minor, memo FROM postings WHERE journal_seq = ? ORDER BY seq', journalSeq)
  ).map((p) => ({
    kind: p.kind,
    categorySeq: p.category_seq,
    accountSeq: p.account_seq,
    amountMinor: p.amount_minor,
    taxCodeSeq: p.tax_code_seq,
    taxMinor: p.tax_minor,
    memo: p.memo,
  }));
}

/** Writes the reversal of a journal on a date: every posting (and money row) negated; answers its seq. */
export async function writeReversal(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  journal: { seq: number; number: number | null; narration: string },
  date: string,
): Promise<number> {
  const negated = (await storedPostings(ledger, journal.seq)).map((p) => ({ ...p, amountMinor: -p.amountMinor, taxMinor: p.taxMinor === null ? null : -p.taxMinor }));
  const narration = `Reversal of ${journalNumber(journal.number)}: ${journal.narration}`;
  return writeJournal(ledger, orgSeq, actor, { kind: 'journal', date, narration, reversesSeq: journal.seq }, negated);
}

// A journal entry: an agent proposes a row the books are missing. Approval
// enters it in an account of its currency (the reviewer's pick, or the default
// account for its source); a reversal removes it while nothing rests on it.
// With lines (issue 43) it is a balanced manual journal instead (journal-lines.ts).
import * as z from 'zod';
import { entryAccount, requireOpenAccount, defaultAccountFor } from '../../accounts/accounts';
import { resolveCategory, categoryNow } from '../../chart/categories';
import { newId, nowIso } from '../../core/clock';
import { invalid, LedgerError } from '../../core/errors';
import { toMinor } from '../../core/money';
import { excerpt } from '../../core/text';
import { organizationBySeq } from '../../access/organizations';
import { handRow } from '../../transactions/hand';
import { refuseTransfer, removeEntry } from '../../transactions/lines';
import { describeTransaction, TRANSACTION_SOURCES, type TransactionSource } from '../../transactions/transactions';
import { insertTransaction } from '../../transactions/insert';
import { NO_VIEW, type ProposalKind } from '../kind';
import { draftLines, enterProposedJournal, journalView, reverseProposedJournal, type ProposedLine } from './journal-lines';
import type { Ledger } from '../../core/sqlite/open';

export interface JournalEntryInput {
  date: string;
  description: string;
  amount: number;
  currency?: string;
  categoryCode?: string;
  category?: string;
  source?: TransactionSource;
  /** A balanced journal instead of a row (issue 43): `amount` is then its debits' total. */
  lines?: ProposedLine[];
}

const Payload = z
  .object({
    date: z.string().meta({ format: 'date' }),
    description: z.string(),
    amount: z.number(),
    currency: z.string().length(3),
    categoryCode: z.string().nullable(),
    category: z.string().nullable(),
    source: z.enum(TRANSACTION_SOURCES),
    lines: z
      .array(z.object({ account: z.string(), name: z.string(), amount: z.number(), taxCode: z.string().nullable(), memo: z.string().nullable() }))
      .optional()
      .describe('A journal (ext.): debit positive'),
  })
  .meta({ id: 'JournalEntryPayload', description: 'type journal_entry' });
export type JournalEntryPayload = z.infer<typeof Payload>;

type Outcome = { kind: 'journal_entry'; transactionId: string } | { kind: 'journal_entry'; journalId: string };

const refuse = (id: string, why: string) => new LedgerError('conflict', `This approval cannot be reversed: ${why}.`, { id, reason: why });

/** A journal with lines as drafted: checked now, its lines kept by ref. */
async function draftJournal(ledger: Ledger, orgSeq: number, input: JournalEntryInput & { lines: ProposedLine[] }) {
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  const lines = await draftLines(ledger, orgSeq, { date: input.date, amount: input.amount, currency: input.currency, lines: input.lines });
  return {
    payload: { date: input.date, description: input.description, amount: input.amount, currency, categoryCode: null, category: null, source: input.source ?? 'manual_csv', lines },
    transactionSeq: null,
    summary: `Proposed journal "${excerpt(input.description, 60)}" ${input.date}: ${lines.length} lines, ${input.amount.toFixed(2)} ${currency}`,
  };
}

export const journalEntry: ProposalKind<'journal_entry', JournalEntryInput, JournalEntryPayload, Outcome> = {
  type: 'journal_entry',
  approvedAs: 'addJournal',
  payload: Payload,

  async draft({ ledger, orgSeq }, input) {
    if (input.lines) return draftJournal(ledger, orgSeq, input as JournalEntryInput & { lines: ProposedLine[] });
    const currency = (input.currency ?? (await organizationBySeq(ledger, orgSeq)).currency).toUpperCase();
    toMinor(input.amount, currency); // refuses more decimals than the currency has
    const named = input.categoryCode !== undefined || input.category !== undefined;
    const resolved = named ? await resolveCategory(ledger, orgSeq, input, input.amount < 0 ? 'outflow' : 'inflow') : null;
    return {
      payload: {
        date: input.date,
        description: input.description,
        amount: input.amount,
        currency,
        categoryCode: resolved?.code ?? null,
        category: resolved?.name ?? null,
        source: input.source ?? 'manual_csv',
      },
      transactionSeq: null,
      summary: `Proposed journal entry "${excerpt(input.description, 60)}" ${input.date} ${input.amount.toFixed(2)} ${currency}${resolved ? ` -> ${resolved.code} ${resolved.name}` : ''}`,
    };
  },

  changeKey: (p) => ['journal_entry', p.date, p.amount, p.currency, p.categoryCode ?? '', p.source, p.description, ...(p.lines ? [JSON.stringify(p.lines)] : [])].join('|'),
  transactionId: () => null,
  datesChanged: (_ctx, p) => [p.date],

  async apply({ ledger, orgSeq }, row, p, { reviewer, account: chosen }) {
    if (p.lines) {
      const j = await enterProposedJournal(ledger, orgSeq, reviewer, { date: p.date, description: p.description, lines: p.lines });
      return {
        summary: `journal ${j.number} "${excerpt(p.description, 60)}" ${p.date} ${p.amount.toFixed(2)} ${p.currency} entered`,
        outcome: { kind: 'journal_entry', journalId: j.journalId },
      };
    }
    const account = chosen ? await requireOpenAccount(ledger, orgSeq, chosen) : await entryAccount(ledger, orgSeq, reviewer, p.currency, p.source);
    if (account.currency !== p.currency) throw invalid([{ field: 'accountId', message: `account "${account.name}" is in ${account.currency}; this entry is in ${p.currency}` }]);
    const category = await categoryNow(ledger, orgSeq, p.categoryCode);
    const id = newId();
    await insertTransaction(ledger, orgSeq, {
      id,
      accountSeq: account.seq,
      origin: 'agent',
      date: p.date,
      amountMinor: toMinor(p.amount, p.currency),
      currency: p.currency,
      description: p.description,
      categorySeq: category?.seq ?? null,
      source: p.source,
      suggestedBy: row.proposed_by,
      confidence: row.confidence,
      reason: row.reason,
      createdAt: nowIso(),
    });
    return {
      summary: `transaction ${id} "${excerpt(p.description, 60)}" ${p.date} ${p.amount.toFixed(2)} ${p.currency} created in account "${account.name}", status ${category ? 'matched' : 'uncategorized'}`,
      outcome: { kind: 'journal_entry', transactionId: id },
    };
  },

  async undo({ ledger, orgSeq }, row, p, outcome) {
    if ('journalId' in outcome) return reverseProposedJournal(ledger, orgSeq, outcome.journalId, (why) => refuse(row.id, why));
    const { transactionId } = outcome;
    const found = await ledger.stmt('SELECT id FROM transactions WHERE id = ? AND org_seq = ?').get(transactionId ?? '', orgSeq);
    if (!found) throw refuse(row.id, 'the transaction it created is gone');
    const tx = await handRow(ledger, orgSeq, transactionId);
    if (tx.reconciled) throw refuse(row.id, 'the transaction it created is reconciled');
    if (tx.date !== p.date || tx.description !== p.description || tx.import_batch_seq !== null)
      throw refuse(row.id, 'the transaction it created was edited or matched to a statement line since');
    const count = async (sql: string) => ((await ledger.stmt(sql).get(tx.seq)) as { n: number }).n;
    if ((await count('SELECT count(*) AS n FROM notes WHERE transaction_seq = ?')) || (await count('SELECT count(*) AS n FROM receipts WHERE transaction_seq = ?'))) {
      throw refuse(row.id, 'the transaction it created has notes or receipts since');
    }
    await refuseTransfer(ledger, tx, 'removed');
    await removeEntry(ledger, tx.seq);
    return `transaction ${tx.id} ${describeTransaction(tx)} removed`;
  },

  async view({ ledger, orgSeq }, p) {
    if (p.lines)
      return {
        ...NO_VIEW,
        lead: 'New journal',
        subject: { id: null, date: p.date, description: p.description, amount: p.amount, currency: p.currency, account: null, category: null },
        journal: await journalView(ledger, orgSeq, { date: p.date, lines: p.lines }),
      };
    return {
      ...NO_VIEW,
      lead: 'New entry',
      subject: { id: null, date: p.date, description: p.description, amount: p.amount, currency: p.currency, account: null, category: null },
      result: p.category ? { text: p.category, code: p.categoryCode } : null,
      account: { currency: p.currency, defaultId: (await defaultAccountFor(ledger, orgSeq, p.currency, p.source))?.id ?? null },
    };
  },
};

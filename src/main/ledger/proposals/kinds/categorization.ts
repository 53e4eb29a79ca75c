// A categorization: an agent (or a person's rule) says which category a row
// belongs in, or (an extension of v1: `lines`) how it splits across several.
// Approval makes the entry's lines (one category line, or the split) and keeps
// who suggested it; a reversal puts back the lines and the suggestion it replaced.
import * as z from 'zod';
import { categoryByName, categoryNow, resolveCategory } from '../../chart/categories';
import type { Ledger } from '../../core/sqlite/open';
import { LedgerError } from '../../core/errors';
import { fromMinor, toMinor } from '../../core/money';
import { handRow } from '../../transactions/hand';
import { categorizedLines } from '../../tax/lines';
import { requireTaxCode, usableTaxCode, usableTaxCodeRow } from '../../tax/codes';
import { asInput, assertNotFiled, linesFor, linesOf, refuseJournalRow, refuseTransfer, replaceLines, type LineInput } from '../../transactions/lines';
import { resolveSplit, splitLines } from '../../transactions/split';
import { describeTransaction, requireTransactionRow, TRANSACTION_COLUMNS, type TransactionRow } from '../../transactions/transactions';
import { documentNamedBy } from '../../documents/payments/match';
import { settlementLines } from '../../documents/payments/settle';
import { glanceOf, keyTarget, NO_VIEW, type ChangeView, type ProposalKind } from '../kind';
import { partOf } from '../../../../shared/split-parts';
import { mapInOrder } from '../../core/in-order';
import { notFound } from '../../core/errors';

export const EVIDENCE_TYPES = ['counterparty_match', 'rule', 'historical', 'keyword', 'receipt'] as const;

export interface EvidenceItem {
  type: (typeof EVIDENCE_TYPES)[number];
  value: string;
  detail?: string;
}

/** One line of a proposed split: a category (by code) and its part of the row (split-parts.ts: positive, or all in the row's sign). */
export interface SplitLineInput {
  categoryCode: string;
  amount: number;
  memo?: string;
  taxCode?: string;
}

export interface CategorizationInput {
  transactionId: string;
  categoryCode?: string;
  category?: string;
  /** A split instead of one category (at least two lines adding up to the row's amount). */
  lines?: SplitLineInput[];
  /** Its tax code (issue 28); absent: the category's default. */
  taxCode?: string;
  evidence?: EvidenceItem[];
}

const PayloadLine = z.object({ categoryCode: z.string(), amount: z.number(), memo: z.string().nullable(), taxCode: z.string().optional() });

const Payload = z
  .object({
    transactionId: z.uuid(),
    categoryCode: z.string(),
    category: z.string(),
    evidence: z.array(z.object({ type: z.enum(EVIDENCE_TYPES), value: z.string(), detail: z.string().optional() })),
    // A split (an extension of v1); categoryCode and category then name its largest line.
    lines: z.array(PayloadLine).optional(),
    // A tax code named by the proposer (issue 28); without it the category's default applies.
    taxCode: z.string().optional(),
  })
  .meta({ id: 'CategorizationPayload', description: 'type categorization' });
export type CategorizationPayload = z.infer<typeof Payload>;

/** What the row had before, put back by a reversal. */
interface Outcome {
  kind: 'categorization';
  previous: {
    /** Its lines as they were (outcomes recorded before lines: the category name, resolved again on reversal). */
    lines?: LineInput[];
    category?: string | null;
    status: string;
    suggestedBy: string | null;
    confidence: number | null;
    reason: string | null;
  };
}

/** A split's lines for the audit log, as parts of the row (positive with it), a line against the row marked. */
const partsText = (rowMinor: number, currency: string, lines: readonly { categoryCode: string; amount: number }[]) =>
  lines
    .map((l) => {
      const part = partOf(rowMinor, toMinor(l.amount, currency));
      return `${l.categoryCode} ${fromMinor(part, currency).toFixed(2)}${part < 0 ? ' (against the row)' : ''}`;
    })
    .join(' / ');

/** The lines a payload makes of a row. */
async function linesOfPayload(ctx: Ledger, orgSeq: number, tx: { amount_minor: number; currency: string; date: string }, p: CategorizationPayload): Promise<LineInput[]> {
  // The category's default tax code applies (issue 28).
  if (!p.lines)
    return categorizedLines(
      ctx,
      tx.date,
      (await categoryNow(ctx, orgSeq, p.categoryCode))!.seq,
      tx.amount_minor,
      p.taxCode ? await usableTaxCode(ctx, orgSeq, p.taxCode) : undefined,
    );
  const parts = await mapInOrder(p.lines, async (l, i) => {
    await categoryNow(ctx, orgSeq, l.categoryCode, `lines[${i}].categoryCode`);
    return { categoryCode: l.categoryCode, amountMinor: toMinor(l.amount, tx.currency, `lines[${i}].amount`), memo: l.memo, taxCode: l.taxCode };
  });
  return splitLines(ctx, tx.date, await resolveSplit(ctx, orgSeq, tx, parts, 'shares'));
}

/** What approving would post as tax: the net and tax of the row at its code (named, or the category's default); null when untaxed. */
async function taxView(ledger: Ledger, orgSeq: number, p: CategorizationPayload): Promise<ChangeView['tax']> {
  if (p.lines) return null;
  try {
    const tx = await requireTransactionRow(ledger, orgSeq, p.transactionId);
    const [line] = await linesOfPayload(ledger, orgSeq, tx, p);
    if (line.taxCodeSeq == null) return null;
    const code = (await ledger.stmt('SELECT code FROM tax_codes WHERE seq = ?').pluck().get(line.taxCodeSeq)) as string;
    return { code, net: fromMinor(-line.amountMinor, tx.currency), tax: fromMinor(-(line.taxMinor ?? 0), tx.currency) };
  } catch {
    return null; // the category or code is gone: the card says so elsewhere
  }
}

/**
 * The row a proposal is about and whether each of draft's refusals applies (a transfer's line, a manual journal's
 * row, a line in a filed return), in one read instead of four: a proposal holds its organization's lock while it
 * reads. A refusal that applies is then made by its own check, with its own message.
 */
const DRAFT_ROW = `SELECT ${TRANSACTION_COLUMNS},
  EXISTS (SELECT 1 FROM lines l WHERE l.transaction_seq = transactions.seq AND l.kind = 'transfer') AS is_transfer,
  EXISTS (SELECT 1 FROM journals j WHERE j.seq = transactions.journal_seq) AS in_journal,
  EXISTS (SELECT 1 FROM lines l JOIN tax_returns r ON r.seq = l.tax_return_seq WHERE l.transaction_seq = transactions.seq) AS filed
  FROM transactions WHERE id = ? AND org_seq = ?`;

async function draftRow(ledger: Ledger, orgSeq: number, id: string): Promise<TransactionRow> {
  const found = (await ledger.stmt(DRAFT_ROW).get(id, orgSeq)) as (TransactionRow & { is_transfer: number; in_journal: number; filed: number }) | undefined;
  if (!found) throw notFound('transaction', id);
  const { is_transfer, in_journal, filed, ...tx } = found;
  if (is_transfer) await refuseTransfer(ledger, tx, 'categorized');
  if (in_journal) await refuseJournalRow(ledger, tx.seq); // a manual journal's row changes with its journal (issue 43)
  if (filed) await assertNotFiled(ledger, tx.seq); // refused now, not at approval: its approval could only fail
  return tx;
}

/** The date of the row a payload was drafted from, for datesChanged in the same write (read once, not twice). */
const draftedDate = new WeakMap<CategorizationPayload, string>();

export const categorization: ProposalKind<'categorization', CategorizationInput, CategorizationPayload, Outcome> = {
  type: 'categorization',
  approvedAs: 'categorizeTransactions',
  payload: Payload,

  async draft({ ledger, orgSeq }, input) {
    const tx = await draftRow(ledger, orgSeq, input.transactionId);
    const drafted = <P extends CategorizationPayload>(payload: P): P => (draftedDate.set(payload, tx.date), payload);
    if (input.lines) {
      const parts = await resolveSplit(
        ledger,
        orgSeq,
        tx,
        input.lines.map((l, i) => ({ ...l, amountMinor: toMinor(l.amount, tx.currency, `lines[${i}].amount`) })),
        'typed',
      );
      const largest = parts.reduce((a, b) => (Math.abs(b.amountMinor) > Math.abs(a.amountMinor) ? b : a));
      const lines = await mapInOrder(parts, async (p, i) => ({
        categoryCode: p.category.code,
        amount: fromMinor(p.amountMinor, tx.currency),
        memo: p.memo,
        ...(input.lines![i].taxCode ? { taxCode: (await requireTaxCode(ledger, orgSeq, input.lines![i].taxCode!)).code } : {}), // checked by resolveSplit
      }));
      return {
        payload: drafted({ transactionId: tx.id, categoryCode: largest.category.code, category: largest.category.name, evidence: input.evidence ?? [], lines }),
        transactionSeq: tx.seq,
        summary: `Proposed split of ${describeTransaction(tx)}: ${tx.category ?? '(uncategorized)'} -> ${partsText(tx.amount_minor, tx.currency, lines)}`,
      };
    }
    const resolved = await resolveCategory(ledger, orgSeq, input, tx.amount_minor < 0 ? 'outflow' : 'inflow');
    const taxCode = input.taxCode ? (await usableTaxCodeRow(ledger, orgSeq, input.taxCode)).code : undefined;
    return {
      payload: drafted({ transactionId: tx.id, categoryCode: resolved.code, category: resolved.name, evidence: input.evidence ?? [], ...(taxCode ? { taxCode } : {}) }),
      transactionSeq: tx.seq,
      summary: `Proposed categorization of ${describeTransaction(tx)}: ${tx.category ?? '(uncategorized)'} -> ${resolved.code} ${resolved.name}`,
    };
  },

  changeKey: (p, transactionSeq) =>
    p.lines
      ? `categorization|${keyTarget(transactionSeq)}|split|${p.lines.map((l) => `${l.categoryCode}=${l.amount}`).join('|')}`
      : `categorization|${keyTarget(transactionSeq)}|${p.categoryCode}${p.taxCode ? `@${p.taxCode}` : ''}`,
  transactionId: (p) => p.transactionId,
  datesChanged: async ({ ledger, orgSeq }, p) => {
    const date = draftedDate.get(p);
    draftedDate.delete(p); // once: a later check (an approval) reads the row as it is then
    return [date ?? (await requireTransactionRow(ledger, orgSeq, p.transactionId)).date];
  },

  async apply({ ledger, orgSeq }, row, p, { reviewer }) {
    const tx = await handRow(ledger, orgSeq, p.transactionId);
    await refuseTransfer(ledger, tx, 'categorized');
    const before = (await linesOf(ledger, tx.seq)).map(asInput);
    // Evidence naming an open invoice (bill) the row can pay: the row pays it instead (issue 29).
    const pays = p.lines
      ? null
      : await documentNamedBy(
          ledger,
          orgSeq,
          tx,
          p.evidence.flatMap((e) => [e.value, e.detail ?? '']),
        );
    const settling = pays ? await settlementLines(ledger, orgSeq, reviewer, tx, pays.kind, [{ document: pays.number }]) : null;
    // A reconciled row stays reconciled (locked): only its lines change.
    const status = await replaceLines(ledger, tx, settling?.lines ?? (await linesOfPayload(ledger, orgSeq, tx, p)));
    await ledger.stmt('UPDATE transactions SET suggested_by = ?, confidence = ?, reason = ? WHERE seq = ?').run(row.proposed_by, row.confidence, row.reason, tx.seq);
    const what = settling ? settling.said : p.lines ? `split ${partsText(tx.amount_minor, tx.currency, p.lines)}` : `categorized as ${p.categoryCode} ${p.category}`;
    return {
      summary: `${describeTransaction(tx)} ${what}, status ${status}`,
      outcome: {
        kind: 'categorization',
        previous: { lines: before, status: tx.status, suggestedBy: tx.suggested_by, confidence: tx.confidence, reason: tx.reason },
      },
    };
  },

  async undo({ ledger, orgSeq }, row, p, { previous }) {
    const tx = await handRow(ledger, orgSeq, p.transactionId);
    if (tx.suggested_by !== row.proposed_by || tx.reason !== row.reason) {
      throw new LedgerError('conflict', 'This approval cannot be reversed: the transaction was categorized again since; change its category by hand.', {
        id: row.id,
        reason: 'categorized again since',
      });
    }
    // Outcomes recorded before lines existed name the category the row had.
    const named = previous.category ? await categoryByName(ledger, orgSeq, previous.category) : null;
    const lines = previous.lines ?? linesFor(named?.seq ?? null, tx.amount_minor);
    // Its facts stand (reconciled, receipt needed); the status is their view with the lines it had.
    const status = await replaceLines(ledger, { ...tx, status: previous.status as typeof tx.status }, lines, false);
    await ledger.stmt('UPDATE transactions SET suggested_by = ?, confidence = ?, reason = ? WHERE seq = ?').run(previous.suggestedBy, previous.confidence, previous.reason, tx.seq);
    return `${describeTransaction(tx)} back to ${(await handRow(ledger, orgSeq, tx.id)).category ?? '(uncategorized)'}${lines.length > 1 ? ' (split)' : ''}, status ${status}`;
  },

  async view(ctx, p) {
    const nameOf = async (code: string) =>
      (await ctx.ledger.stmt('SELECT name FROM categories WHERE org_seq = ? AND code = ?').pluck().get(ctx.orgSeq, code)) as string | undefined;
    const subject = await glanceOf(ctx, p.transactionId);
    // The payload keeps shares in the row's sign (they add up to it): the card shows parts, a line against the row marked.
    const rowSign = Math.sign(subject?.amount ?? p.lines?.reduce((s, l) => s + l.amount, 0) ?? 0) || 1;
    const split = p.lines
      ? await mapInOrder(p.lines, async (l) => ({
          code: l.categoryCode,
          name: (await nameOf(l.categoryCode)) ?? l.categoryCode,
          amount: rowSign * l.amount,
          against: partOf(rowSign, l.amount) < 0,
          memo: l.memo ?? null,
        }))
      : null;
    return {
      ...NO_VIEW,
      subject,
      result: { text: p.category, code: p.categoryCode },
      split,
      tax: await taxView(ctx.ledger, ctx.orgSeq, p),
      rememberable: !p.lines,
    };
  },
};

// What Stripe's rows are known to be, settled in the sync's own write (issue
// 52): a fee is an expense of the organization's payment-processing fees
// account; a charge naming one of the organization's open invoices (a payment
// link's, or any charge whose metadata carries `invoice_number`) pays it.
// Everything else (a charge naming nothing, a refund, a dispute, a payout)
// arrives uncategorized: whether a charge is revenue, and which, is a
// person's or a rule's call, and a payout is a transfer the matcher pairs with
// the bank's deposit. Each change is audited with the batch.
import { appendAudit, type Actor } from '../../ledger/access/audit';
import { categoryNamed } from '../../ledger/chart/edit';
import { foldName } from '../../ledger/core/text';
import type { Ledger } from '../../ledger/core/storage';
import { payDocuments } from '../../ledger/documents/payments/settle';
import { categorizedLines } from '../../ledger/tax/lines';
import { handRow } from '../../ledger/transactions/hand';
import { replaceLines } from '../../ledger/transactions/lines';
import { describeTransaction } from '../../ledger/transactions/transactions';
import type { SettledRow } from '../provider';

export const FEES_NAME = 'Payment processing fees';
/** Where it is added when the chart lacks it: beside the UK chart's 6700 Bank charges, the first free code from here. */
const FEES_CODE = '6720';

/**
 * The payment-processing fees account: a category of that name, or one that has it (or "Stripe fees", "Merchant
 * fees") as a synonym, so a person may point the fees at their own account; else added, audited.
 */
export async function feesCategory(ledger: Ledger, orgSeq: number, actor: Actor): Promise<number> {
  const names = new Set([FEES_NAME, 'Stripe fees', 'Merchant fees', 'Card processing fees'].map(foldName));
  const chart = await ledger.rows<{ seq: number; name: string; synonyms: string; type: string }>(
    "SELECT seq, name, synonyms, type FROM categories WHERE org_seq = ? AND type = 'expense' AND archived_at IS NULL ORDER BY seq",
    orgSeq,
  );
  const hit = chart.find((c) => foldName(c.name) === foldName(FEES_NAME)) ?? chart.find((c) => (JSON.parse(c.synonyms) as string[]).some((s) => names.has(foldName(s))));
  return hit ? hit.seq : categoryNamed(ledger, orgSeq, actor, FEES_NAME, FEES_CODE, 'expense');
}

async function settleFee(ledger: Ledger, orgSeq: number, actor: Actor, transactionId: string, categorySeq: number): Promise<void> {
  const row = await handRow(ledger, orgSeq, transactionId);
  await replaceLines(ledger, row, await categorizedLines(ledger, row.date, categorySeq, row.amount_minor));
  const category = (await ledger.stmt('SELECT code, name FROM categories WHERE seq = ?').get(categorySeq)) as { code: string; name: string };
  await appendAudit(ledger, orgSeq, actor, {
    action: 'transaction.categorized',
    targetType: 'transaction',
    targetId: row.id,
    summary: `Categorized as Stripe stated it: ${describeTransaction(row)}: a processing fee -> ${category.code} ${category.name}`,
  });
}

/** The open invoice of this number, in the row's currency, that a charge can pay; null when there is none (the charge stays uncategorized). */
async function payableInvoice(ledger: Ledger, orgSeq: number, number: string, currency: string): Promise<string | null> {
  const doc = (await ledger
    .stmt("SELECT number, currency, state, total_minor, settled_minor FROM documents WHERE org_seq = ? AND kind = 'invoice' AND lower(number) = lower(?)")
    .get(orgSeq, number.trim())) as { number: string; currency: string; state: string; total_minor: number; settled_minor: number } | undefined;
  if (!doc || doc.state !== 'issued' || doc.currency !== currency || doc.settled_minor >= doc.total_minor) return null;
  return doc.number;
}

/** The sync's settle hook for Stripe's rows (provider.ts), and the webhook's for the rows of one payment (webhook.ts). */
export async function settleStripe(ledger: Ledger, orgSeq: number, actor: Actor, imported: readonly SettledRow[]): Promise<void> {
  let fees: number | null = null;
  for (const { transactionId, row } of imported) {
    if (row.kind === 'fee') {
      fees ??= await feesCategory(ledger, orgSeq, actor);
      await settleFee(ledger, orgSeq, actor, transactionId, fees);
    } else if (row.kind === 'charge' && row.invoiceNumber) {
      const currency = ((await ledger.stmt('SELECT currency FROM transactions WHERE org_seq = ? AND id = ?').pluck().get(orgSeq, transactionId)) as string) ?? '';
      const invoice = await payableInvoice(ledger, orgSeq, row.invoiceNumber, currency);
      if (invoice) await payDocuments(ledger, orgSeq, actor, 'invoice', transactionId, [{ document: invoice }], `paid through Stripe (${row.externalId})`);
    }
  }
}

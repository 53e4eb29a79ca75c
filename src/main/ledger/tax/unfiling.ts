// Undoing a filing recorded by mistake (issue 50): a return marked filed here
// that went nowhere (filed too soon, the wrong period) is taken back, with the
// reason, audited. What it did is undone: the lines it stamped (its own and
// the late ones) are open again, and belong to its period's return as they
// are now; the corrections it included of earlier returns are open again, for
// the next return to include (a row corrected again since has one correction
// again, against what the earlier return filed); the corrections made of it
// since are dropped (what they corrected was never filed: their rows are in
// its period's return as they are).
//
// Refused, saying why: a return a later filed return follows (undo the latest
// first: that one's figures rest on this one's, its late lines and the
// corrections it included); one whose payment to the tax office is matched
// (it was filed in earnest); one the tax office has a receipt of (a submitted
// return is corrected in a later one, never undone); and the return of the
// tax owed at a conversion (the opening balances keep it: set them again).
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import { figureDifferences, type TaxFigure } from './figures';

export interface UnfiledReturn {
  id: string;
  from: string;
  to: string;
  /** Corrections of earlier returns it had included, open again for the next return. */
  correctionsReopened: number;
  /** Corrections made of it since it was filed, dropped: their rows are in its period's return as they are. */
  correctionsDropped: number;
}

interface ReturnRow {
  seq: number;
  id: string;
  period_from: string;
  period_to: string;
  payable_minor: number;
  line_count: number;
  filed_at: string;
  filed_by: string;
  payment_transaction_seq: number | null;
  submission_receipt: string | null;
}

/** Why the filing cannot be undone, or nothing. */
async function refusal(ledger: Ledger, orgSeq: number, r: ReturnRow): Promise<LedgerError | null> {
  const period = `The return for ${r.period_from} to ${r.period_to}`;
  if (r.submission_receipt !== null)
    return new LedgerError('conflict', `${period} was submitted to the tax office: a submitted return is not undone; correct it in a later return.`, { reason: 'submitted' });
  if (await ledger.stmt('SELECT 1 FROM journals WHERE tax_return_seq = ?').get(r.seq))
    return new LedgerError('conflict', `${period} is the tax owed at the conversion, filed before these books: set the opening balances again to change it.`, {
      reason: 'opening',
    });
  if (r.payment_transaction_seq !== null)
    return new LedgerError(
      'conflict',
      `${period} is paid: its payment to the tax office is matched. Categorize that bank row otherwise first, if the filing really was a mistake.`,
      { reason: 'paid' },
    );
  const later = (await ledger
    .stmt(
      `SELECT id, period_from, period_to FROM tax_returns WHERE org_seq = ? AND period_from > ? AND NOT EXISTS (SELECT 1 FROM journals j WHERE j.tax_return_seq = tax_returns.seq)
       ORDER BY period_to DESC LIMIT 1`,
    )
    .get(orgSeq, r.period_to)) as { id: string; period_from: string; period_to: string } | undefined;
  if (later)
    return new LedgerError(
      'conflict',
      `The return for ${later.period_from} to ${later.period_to} was filed after it and rests on it: undo the latest filing first, then this one.`,
      { reason: 'later', taxReturn: later.id },
    );
  return null;
}

/**
 * The corrections it included are open again: one whose row was corrected again since (an open correction of the same
 * row, against the earlier return) becomes one correction from what the earlier return filed to what the row says
 * now, or none when they cancel. Answers how many are open again.
 */
async function reopenCorrections(ledger: Ledger, returnSeq: number): Promise<number> {
  const included = await ledger.rows<{ seq: number; transaction_seq: number | null; before: string }>(
    'SELECT seq, transaction_seq, before FROM tax_corrections WHERE filed_in_seq = ? ORDER BY seq',
    returnSeq,
  );
  let open = 0;
  for (const c of included) {
    const since = (
      c.transaction_seq === null ? undefined : await ledger.stmt('SELECT seq, after FROM tax_corrections WHERE transaction_seq = ? AND filed_in_seq IS NULL').get(c.transaction_seq)
    ) as { seq: number; after: string } | undefined;
    if (since) {
      await ledger.stmt('DELETE FROM tax_corrections WHERE seq = ?').run(since.seq);
      if (!figureDifferences(JSON.parse(c.before) as TaxFigure[], JSON.parse(since.after) as TaxFigure[]).length) {
        await ledger.stmt('DELETE FROM tax_corrections WHERE seq = ?').run(c.seq);
        continue;
      }
      await ledger.stmt('UPDATE tax_corrections SET after = ? WHERE seq = ?').run(since.after, c.seq);
    }
    await ledger.stmt('UPDATE tax_corrections SET filed_in_seq = NULL WHERE seq = ?').run(c.seq);
    open++;
  }
  return open;
}

/** Undoes the filing of a return (the latest, unpaid, not submitted), with the reason: audited, in one transaction. */
export async function unfileTaxReturn(ledger: Ledger, orgSeq: number, actor: Human, returnId: string, reason: string): Promise<UnfiledReturn> {
  const why = reason.trim();
  if (!why) throw invalid([{ field: 'reason', message: 'is required: say why the filing is undone (it goes to the Log)' }]);
  return ledger.write(async () => {
    const r = (await ledger.stmt('SELECT * FROM tax_returns WHERE org_seq = ? AND id = ?').get(orgSeq, returnId)) as ReturnRow | undefined;
    if (!r) throw new LedgerError('not_found', `No filed return ${returnId}.`, { resource: 'tax return', id: returnId });
    const refused = await refusal(ledger, orgSeq, r);
    if (refused) throw refused;
    // Made of it since it was filed: what they corrected was never filed.
    const dropped = (await ledger.stmt('DELETE FROM tax_corrections WHERE tax_return_seq = ?').run(r.seq)).changes;
    const reopened = await reopenCorrections(ledger, r.seq);
    await ledger.stmt('UPDATE lines SET tax_return_seq = NULL WHERE tax_return_seq = ?').run(r.seq);
    await ledger.stmt('UPDATE postings SET tax_return_seq = NULL WHERE tax_return_seq = ?').run(r.seq);
    await ledger.stmt('DELETE FROM tax_returns WHERE seq = ?').run(r.seq);
    const { currency } = await organizationBySeq(ledger, orgSeq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.return_unfiled',
      targetType: 'tax_return',
      targetId: r.id,
      summary: `Filing undone of the return for ${r.period_from} to ${r.period_to} (filed ${r.filed_at.slice(0, 10)} by ${r.filed_by}: ${r.line_count} line(s), payable ${fromMinor(r.payable_minor, currency).toFixed(2)} ${currency}${reopened ? `; ${reopened} correction(s) of earlier returns open again` : ''}${dropped ? `; ${dropped} correction(s) of it dropped` : ''}): ${why}`,
    });
    return { id: r.id, from: r.period_from, to: r.period_to, correctionsReopened: reopened, correctionsDropped: dropped };
  });
}

// A VAT return sent to HMRC (issue 54). The row is taken BEFORE the call, one
// per organization and period key (a unique key), so a retried or
// double-clicked submission, or another process, sends it once: whoever finds
// it `sending` is told it is on its way; one left `unanswered` (the answer was
// lost), or `sending` past the lease (a process stopped mid-call), is checked
// with HMRC before it is sent again. HMRC's acceptance files the return with its
// receipt, audited, in one transaction: the filing lock applies only then. A
// refusal leaves the return unfiled with HMRC's words, to send again.
import { appendAudit, type Human } from '../access/audit';
import { newId, nowIso } from '../core/clock';
import { LedgerError } from '../core/errors';
import type { Ledger } from '../core/storage';
import { fileTaxReturn } from '../tax/filing';
import { fulfilObligation } from './obligations';

/** Longer than a call to HMRC may take (its timeout): a `sending` row older than this was left by a stopped process. */
export const SENDING_LEASE_MS = 120_000;

export interface Submission {
  seq: number;
  id: string;
  periodKey: string;
  from: string;
  to: string;
  status: 'sending' | 'unanswered' | 'accepted' | 'refused';
  startedAt: string;
  errorCode: string | null;
  errorMessage: string | null;
}

interface SubmissionRow {
  seq: number;
  id: string;
  period_key: string;
  period_from: string;
  period_to: string;
  status: Submission['status'];
  started_at: string;
  error_code: string | null;
  error_message: string | null;
}

const toSubmission = (r: SubmissionRow): Submission => ({
  seq: r.seq,
  id: r.id,
  periodKey: r.period_key,
  from: r.period_from,
  to: r.period_to,
  status: r.status,
  startedAt: r.started_at,
  errorCode: r.error_code,
  errorMessage: r.error_message,
});

const submissionOf = async (ledger: Ledger, orgSeq: number, periodKey: string) =>
  (await ledger.stmt('SELECT * FROM hmrc_submissions WHERE org_seq = ? AND period_key = ?').get(orgSeq, periodKey)) as SubmissionRow | undefined;

/** The submission of a period key, or null. */
export async function findSubmission(ledger: Ledger, orgSeq: number, periodKey: string): Promise<Submission | null> {
  const row = await submissionOf(ledger, orgSeq, periodKey);
  return row ? toSubmission(row) : null;
}

export async function listSubmissions(ledger: Ledger, orgSeq: number): Promise<Submission[]> {
  return (await ledger.rows<SubmissionRow>('SELECT * FROM hmrc_submissions WHERE org_seq = ? ORDER BY period_to DESC', orgSeq)).map(toSubmission);
}

/** What taking the row allows: send it, or first ask HMRC whether it already holds it (an answer was lost). */
export interface Claim {
  submission: Submission;
  askFirst: boolean;
}

/**
 * Takes the period key's row for this attempt, or refuses: accepted already (conflict `submitted`), or being sent
 * now by another click or process (conflict `submitting`).
 */
export async function claimSubmission(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  input: { periodKey: string; from: string; to: string; body: unknown },
  now = new Date(),
): Promise<Claim> {
  return ledger.write(async () => {
    const at = now.toISOString();
    const body = JSON.stringify(input.body);
    const inserted = await ledger
      .stmt(
        `INSERT INTO hmrc_submissions (id, org_seq, period_key, period_from, period_to, status, body, started_at, started_by) VALUES (?, ?, ?, ?, ?, 'sending', ?, ?, ?)
         ON CONFLICT (org_seq, period_key) DO NOTHING`,
      )
      .run(newId(), orgSeq, input.periodKey, input.from, input.to, body, at, actor.name);
    const row = (await submissionOf(ledger, orgSeq, input.periodKey))!;
    if (inserted.changes) return { submission: toSubmission(row), askFirst: false };
    if (row.status === 'accepted') {
      throw new LedgerError('conflict', `HMRC already accepted the return for period ${input.periodKey} (${row.period_from} to ${row.period_to}).`, {
        reason: 'submitted',
        periodKey: input.periodKey,
      });
    }
    const stale = row.status === 'sending' && Date.parse(row.started_at) + SENDING_LEASE_MS <= now.getTime();
    if (row.status === 'sending' && !stale) {
      throw new LedgerError('conflict', `The return for period ${input.periodKey} is being sent to HMRC (since ${row.started_at}): wait for its answer.`, {
        reason: 'submitting',
        periodKey: input.periodKey,
      });
    }
    // Taken over only if unchanged meanwhile (another process may take it at the same moment).
    const taken = await ledger
      .stmt(
        "UPDATE hmrc_submissions SET status = 'sending', started_at = ?, started_by = ?, body = ?, error_code = NULL, error_message = NULL WHERE seq = ? AND started_at = ? AND status = ?",
      )
      .run(at, actor.name, body, row.seq, row.started_at, row.status);
    if (!taken.changes) throw new LedgerError('conflict', `The return for period ${input.periodKey} is being sent to HMRC: wait for its answer.`, { reason: 'submitting' });
    return { submission: toSubmission({ ...row, status: 'sending', started_at: at }), askFirst: row.status !== 'refused' };
  });
}

/** HMRC's answer to a submission that may be lost (no answer came): HMRC is asked before it is sent again. */
export async function markUnanswered(ledger: Ledger, orgSeq: number, s: Submission, words: string): Promise<void> {
  await ledger.write(async () => {
    await ledger.stmt("UPDATE hmrc_submissions SET status = 'unanswered', error_message = ? WHERE seq = ? AND status = 'sending'").run(words, s.seq);
  });
}

/** HMRC refused it (or could not take it): unfiled, with HMRC's code and words; sent again later. */
export async function markRefused(ledger: Ledger, orgSeq: number, actor: Human, s: Submission, code: string | null, words: string): Promise<void> {
  await ledger.write(async () => {
    await ledger.stmt("UPDATE hmrc_submissions SET status = 'refused', error_code = ?, error_message = ? WHERE seq = ? AND status = 'sending'").run(code, words, s.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.return_refused',
      targetType: 'hmrc_submission',
      targetId: s.id,
      summary: `HMRC did not take the return for period ${s.periodKey} (${s.from} to ${s.to}): ${words}`.slice(0, 500),
    });
  });
}

/**
 * HMRC accepted it: the return is filed with the receipt (or the receipt is added to the return already filed for
 * exactly this period in Ledgerdesk), the row says accepted, audited: one transaction. Should filing fail (the books
 * changed under it), the acceptance and its receipt are kept on the row all the same, with why it is not filed.
 */
export async function recordAcceptance(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  s: Submission,
  receipt: Record<string, unknown>,
  options: { confirmCorrections?: boolean } = {},
): Promise<{ returnId: string | null; notFiled: string | null }> {
  const stored = JSON.stringify({ ...receipt, periodKey: s.periodKey, submittedAt: nowIso(), submittedBy: actor.name });
  try {
    return await ledger.write(async () => {
      const returnId = await fileWithReceipt(ledger, orgSeq, actor, s, stored, options);
      await fulfilObligation(ledger, orgSeq, s.periodKey);
      await appendAudit(ledger, orgSeq, actor, {
        action: 'tax.return_submitted',
        targetType: 'tax_return',
        targetId: returnId,
        summary: `HMRC accepted the VAT return for period ${s.periodKey} (${s.from} to ${s.to}): form bundle ${String(receipt.formBundleNumber ?? '?')}, receipt ${String(receipt.receiptId ?? 'none')}${receipt.chargeRefNumber ? `, charge reference ${String(receipt.chargeRefNumber)}` : ''}`,
      });
      return { returnId, notFiled: null };
    });
  } catch (error) {
    const why = `HMRC accepted it, but Ledgerdesk could not file it: ${(error as Error).message}`;
    await ledger.write(async () => {
      await ledger.stmt("UPDATE hmrc_submissions SET status = 'accepted', receipt = ?, error_message = ? WHERE seq = ?").run(stored, why, s.seq);
      await appendAudit(ledger, orgSeq, actor, { action: 'tax.return_submitted', targetType: 'hmrc_submission', targetId: s.id, summary: why.slice(0, 500) });
    });
    return { returnId: null, notFiled: why };
  }
}

async function fileWithReceipt(ledger: Ledger, orgSeq: number, actor: Human, s: Submission, stored: string, options: { confirmCorrections?: boolean }): Promise<string> {
  const existing = (await ledger
    .stmt('SELECT seq, id FROM tax_returns WHERE org_seq = ? AND period_from = ? AND period_to = ? AND submission_receipt IS NULL')
    .get(orgSeq, s.from, s.to)) as { seq: number; id: string } | undefined;
  // HMRC holds it now: the corrections it carried were sent, so they are filed with it.
  const id = existing?.id ?? (await fileTaxReturn(ledger, orgSeq, actor, { from: s.from, to: s.to, confirmCorrections: options.confirmCorrections ?? true })).id;
  const seq = existing?.seq ?? ((await ledger.stmt('SELECT seq FROM tax_returns WHERE org_seq = ? AND id = ?').pluck().get(orgSeq, id)) as number);
  await ledger.stmt('UPDATE tax_returns SET submission_receipt = ? WHERE seq = ?').run(stored, seq);
  await ledger
    .stmt("UPDATE hmrc_submissions SET status = 'accepted', receipt = ?, error_code = NULL, error_message = NULL, tax_return_seq = ? WHERE seq = ?")
    .run(stored, seq, s.seq);
  return id;
}

/** Whether the return of a period could be filed now (its checks run in a write that is then undone): throws why not. */
export async function assertFileable(ledger: Ledger, orgSeq: number, actor: Human, period: { from: string; to: string; confirmCorrections?: boolean }): Promise<void> {
  const filed = await ledger
    .stmt('SELECT 1 FROM tax_returns WHERE org_seq = ? AND period_from = ? AND period_to = ? AND submission_receipt IS NULL')
    .get(orgSeq, period.from, period.to);
  if (filed) return;
  const dry = new Error('dry run');
  try {
    await ledger.write(async () => {
      await fileTaxReturn(ledger, orgSeq, actor, period);
      throw dry;
    });
  } catch (error) {
    if (error !== dry) throw error;
  }
}

/** A filed return's receipt from HMRC, or null. */
export async function submissionReceipt(ledger: Ledger, orgSeq: number, returnId: string): Promise<Record<string, unknown> | null> {
  const text = (await ledger.stmt('SELECT submission_receipt FROM tax_returns WHERE org_seq = ? AND id = ?').pluck().get(orgSeq, returnId)) as string | null | undefined;
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
}

// The VAT calls an organization makes (issue 54): obligations beside the
// periods Ledgerdesk knows, liabilities and payments for a date range, and the
// submission: the declaration confirmed, the period key an open obligation's,
// its dates one of Ledgerdesk's periods (said before anything is sent), the
// row taken before the call (ledger/hmrc/submissions.ts), a lost answer checked
// with GET .../returns/{periodKey} before sending again, and HMRC's answer kept.
import type { Human } from '../ledger/access/audit';
import { invalid, LedgerError } from '../ledger/core/errors';
import type { Ledger } from '../ledger/core/storage';
import { assertFileable, claimSubmission, findSubmission, markRefused, markUnanswered, recordAcceptance, type Submission } from '../ledger/hmrc/submissions';
import { keepObligations } from '../ledger/hmrc/obligations';
import { filedView } from '../ledger/tax/filing';
import { periodOf, taxSettings } from '../ledger/tax/periods';
import { taxReturn } from '../ledger/tax/return';
import { accessFor } from './access';
import { vatReturnBody } from './boxes';
import { fraudHeaders, type FraudInput } from './fraud';
import type { HmrcSettings } from './settings';
import * as V from './vat';

export interface HmrcCaller {
  settings: HmrcSettings;
  fraud: FraudInput;
  /** Tests against HMRC's sandbox or a double only. */
  scenario?: string;
  now?: Date;
}

async function vatCall(ledger: Ledger, orgSeq: number, c: HmrcCaller): Promise<V.VatCall> {
  const fraud = fraudHeaders(c.fraud, c.now);
  const tokens = await accessFor(ledger, orgSeq, c.settings, c.now);
  return { apiBase: c.settings.apiBase, vrn: tokens.vrn, accessToken: tokens.accessToken, fraud, scenario: c.scenario };
}

export interface ObligationView extends V.Obligation {
  /** Whether the obligation's dates are one of Ledgerdesk's periods (its tax settings); said where not. */
  matchesPeriod: boolean;
  mismatch: string | null;
}

/** Why an obligation's dates are not a period Ledgerdesk files, or null. */
async function mismatch(ledger: Ledger, orgSeq: number, o: V.Obligation): Promise<string | null> {
  const ours = periodOf(await taxSettings(ledger, orgSeq), o.start);
  if (ours.from === o.start && ours.to === o.end) return null;
  return `HMRC's period ${o.periodKey} runs ${o.start} to ${o.end}; Ledgerdesk's period for ${o.start} runs ${ours.from} to ${ours.to}: set the tax settings (monthly or quarterly, start month) to HMRC's periods before submitting.`;
}

/** HMRC's obligations (open ones when no dates are given), each said to match a period of Ledgerdesk's or not. */
export async function hmrcObligations(ledger: Ledger, orgSeq: number, c: HmrcCaller, q: { from?: string; to?: string; status?: 'O' | 'F' } = {}): Promise<ObligationView[]> {
  const status = q.from || q.to ? q.status : (q.status ?? 'O');
  const list = await V.obligations(await vatCall(ledger, orgSeq, c), { ...q, status });
  // Kept for the Practice screen, which never calls HMRC: open ones without dates are every open obligation.
  await keepObligations(ledger, orgSeq, list, { complete: status === 'O' && !q.from && !q.to, at: (c.now ?? new Date()).toISOString() });
  const views: ObligationView[] = [];
  for (const o of list) {
    const words = await mismatch(ledger, orgSeq, o);
    views.push({ ...o, matchesPeriod: words === null, mismatch: words });
  }
  return views;
}

export const hmrcLiabilities = async (ledger: Ledger, orgSeq: number, c: HmrcCaller, q: { from: string; to: string }) => V.liabilities(await vatCall(ledger, orgSeq, c), q);

export const hmrcPayments = async (ledger: Ledger, orgSeq: number, c: HmrcCaller, q: { from: string; to: string }) => V.payments(await vatCall(ledger, orgSeq, c), q);

export interface SubmitInput {
  periodKey: string;
  /** The person ticked HMRC's declaration (HMRC_DECLARATION) in its words. */
  confirmDeclaration: boolean;
  confirmCorrections?: boolean;
}

export interface Submitted {
  /** The filed return; null (with notFiled saying why) where HMRC accepted it and filing it here failed. */
  returnId: string | null;
  notFiled: string | null;
  periodKey: string;
  from: string;
  to: string;
  body: V.VatReturnBody;
  receipt: Record<string, unknown>;
}

/** The declaration HMRC requires the person to make before a return is sent, in HMRC's words. */
export const HMRC_DECLARATION =
  'When you submit this VAT information you are making a legal declaration that the information is true and complete. A false declaration can result in prosecution.';

/** The boxes for the period: as filed where Ledgerdesk filed exactly it already, else as the return computes them now. */
async function bodyFor(ledger: Ledger, orgSeq: number, o: V.Obligation): Promise<V.VatReturnBody> {
  const period = { from: o.start, to: o.end };
  const report = (await filedView(ledger, orgSeq, period)) ?? (await taxReturn(ledger, orgSeq, period));
  return vatReturnBody(report, o.periodKey);
}

/** Sends the VAT return of an open obligation to HMRC, once; HMRC's receipt filed with it. */
export async function submitVatReturn(ledger: Ledger, orgSeq: number, actor: Human, c: HmrcCaller, input: SubmitInput): Promise<Submitted> {
  if (!input.confirmDeclaration) throw invalid([{ field: 'confirmDeclaration', message: `is required: the person makes HMRC's declaration ("${HMRC_DECLARATION}")` }]);
  const call = await vatCall(ledger, orgSeq, c);
  const open = await obligationFor(ledger, orgSeq, call, input.periodKey);
  const body = await bodyFor(ledger, orgSeq, open);
  // Whatever would stop Ledgerdesk filing it (an overlap, corrections over the threshold unconfirmed) stops it before it is sent.
  await assertFileable(ledger, orgSeq, actor, { from: open.start, to: open.end, confirmCorrections: input.confirmCorrections });
  const claim = await claimSubmission(ledger, orgSeq, actor, { periodKey: open.periodKey, from: open.start, to: open.end, body });
  const s = claim.submission;
  const done = async (receipt: Record<string, unknown>): Promise<Submitted> => {
    const { returnId, notFiled } = await recordAcceptance(ledger, orgSeq, actor, s, receipt, { confirmCorrections: input.confirmCorrections });
    return { returnId, notFiled, periodKey: s.periodKey, from: s.from, to: s.to, body, receipt };
  };
  if (claim.askFirst) {
    const held = await ask(ledger, orgSeq, actor, s, () => V.viewReturn(call, s.periodKey));
    if (held) return done({ processingDate: held.processingDate ?? null, recovered: true, receiptId: null, receiptTimestamp: null, formBundleNumber: null });
  }
  const receipt = await ask(ledger, orgSeq, actor, s, () => V.submitReturn(call, body));
  return done({ ...receipt });
}

/**
 * The obligation a submission answers: an open one of HMRC's, its dates one of Ledgerdesk's periods. One sent
 * before whose answer was lost (HMRC may show it fulfilled now) is taken from its row, to be asked about first.
 */
async function obligationFor(ledger: Ledger, orgSeq: number, call: V.VatCall, periodKey: string): Promise<V.Obligation> {
  const prior = await findSubmission(ledger, orgSeq, periodKey);
  if (prior?.status === 'accepted') {
    throw new LedgerError('conflict', `HMRC already accepted the return for period ${periodKey} (${prior.from} to ${prior.to}).`, { reason: 'submitted', periodKey });
  }
  if (prior && prior.status !== 'refused') return { periodKey, start: prior.from, end: prior.to, due: '', status: 'O' };
  const open = (await V.obligations(call, { status: 'O' })).find((o) => o.periodKey === periodKey);
  if (!open) throw invalid([{ field: 'periodKey', message: `HMRC has no open obligation ${periodKey} for this VAT registration number (ledgerdesk hmrc obligations)` }]);
  const words = await mismatch(ledger, orgSeq, open);
  if (words) throw new LedgerError('conflict', words, { reason: 'period_mismatch', periodKey: open.periodKey, start: open.start, end: open.end });
  return open;
}

/** A call made for a taken submission: a refusal or no answer is kept on its row before it is thrown. */
async function ask<T>(ledger: Ledger, orgSeq: number, actor: Human, s: Submission, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const e = V.hmrcError(error);
    const d = (e.details ?? {}) as { status?: number | null; hmrcCode?: string | null };
    // No answer at all: HMRC may hold it; it is asked before it is sent again.
    if (e.code === 'hmrc_unavailable' && !d.status) await markUnanswered(ledger, orgSeq, s, e.message);
    else await markRefused(ledger, orgSeq, actor, s, d.hmrcCode ?? (d.status ? String(d.status) : null), e.message);
    throw e;
  }
}

// HMRC's VAT (MTD) API, version 1.0 (hmrc/vat-api: resources/public/api/conf/1.0/application.yaml):
// obligations, a return submitted and viewed, liabilities and payments. Each
// call carries the access token, the API version in Accept and the fraud
// prevention headers; an error comes back as a LedgerError with HMRC's code and
// words (hmrc_refused), or hmrc_unavailable for what may pass (429, 5xx, no answer).
import { asOutside, callService, type CallOptions } from '../edge/http';
import { LedgerError } from '../ledger/core/errors';
import { HMRC, HMRC_ACCEPT } from './settings';

export interface Obligation {
  periodKey: string;
  start: string;
  end: string;
  due: string;
  /** O: open, F: fulfilled. */
  status: 'O' | 'F';
  received?: string;
}

/** The nine boxes as HMRC receives them (VATReturnDeclaration), with the period key and the declaration. */
export interface VatReturnBody {
  periodKey: string;
  vatDueSales: number;
  vatDueAcquisitions: number;
  totalVatDue: number;
  vatReclaimedCurrPeriod: number;
  netVatDue: number;
  totalValueSalesExVAT: number;
  totalValuePurchasesExVAT: number;
  totalValueGoodsSuppliedExVAT: number;
  totalAcquisitionsExVAT: number;
  finalised: boolean;
}

/** HMRC's receipt of a submitted return: its answer and the Receipt-ID and Receipt-Timestamp headers. */
export interface HmrcReceipt {
  processingDate: string;
  formBundleNumber: string;
  chargeRefNumber?: string;
  paymentIndicator?: string;
  receiptId: string | null;
  receiptTimestamp: string | null;
  correlationId: string | null;
}

export interface Liability {
  taxPeriod?: { from: string; to: string };
  type: string;
  originalAmount: number;
  outstandingAmount?: number;
  due?: string;
}

export interface Payment {
  amount: number;
  received?: string;
}

export interface VatCall {
  apiBase: string;
  vrn: string;
  accessToken: string;
  fraud: Record<string, string>;
  /** Tests only: HMRC's sandbox Gov-Test-Scenario. */
  scenario?: string;
}

/** An outside failure as the ledger's error: HMRC's own code and words where it answered. */
export function hmrcError(error: unknown): LedgerError {
  if (error instanceof LedgerError) return error;
  const e = asOutside(HMRC, error);
  const body = (e.extra.body ?? {}) as { code?: unknown; message?: unknown };
  const hmrcCode = typeof body.code === 'string' ? body.code : null;
  if (e.reason === 'rate_limited' || e.reason === 'unavailable' || e.reason === 'malformed') {
    return new LedgerError('hmrc_unavailable', `${e.message} Nothing was filed: try again${e.extra.retryAfterSeconds ? ` in ${e.extra.retryAfterSeconds} s` : ''}.`, {
      status: e.extra.status ?? null,
      retryAfterSeconds: e.extra.retryAfterSeconds ?? null,
      hmrcCode,
    });
  }
  const words = typeof body.message === 'string' ? body.message : e.message;
  return new LedgerError('hmrc_refused', `HMRC refused it${hmrcCode ? ` (${hmrcCode})` : ''}: ${words}`, { status: e.extra.status ?? null, hmrcCode, hmrcMessage: words });
}

async function vat<T>(c: VatCall, path: string, o: Partial<CallOptions> = {}) {
  try {
    return await callService<T>(`${c.apiBase}/organisations/vat/${c.vrn}${path}`, {
      service: HMRC,
      ...o,
      headers: { accept: HMRC_ACCEPT, authorization: `Bearer ${c.accessToken}`, ...c.fraud, ...(c.scenario ? { 'Gov-Test-Scenario': c.scenario } : {}) },
    });
  } catch (error) {
    throw hmrcError(error);
  }
}

const range = (q: Record<string, string | undefined>) => {
  const p = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => Boolean(e[1])));
  return p.size ? `?${p}` : '';
};

export async function obligations(c: VatCall, q: { from?: string; to?: string; status?: 'O' | 'F' }): Promise<Obligation[]> {
  try {
    return (await vat<{ obligations?: Obligation[] }>(c, `/obligations${range(q)}`)).body?.obligations ?? [];
  } catch (error) {
    // HMRC answers 404 NOT_FOUND where it has no obligation in the range.
    if (error instanceof LedgerError && (error.details as { status?: number }).status === 404) return [];
    throw error;
  }
}

/** Sends a return, once (a POST is not retried here: a lost answer is checked with viewReturn first). */
export async function submitReturn(c: VatCall, body: VatReturnBody): Promise<HmrcReceipt> {
  const answer = await vat<{ processingDate: string; formBundleNumber: string; chargeRefNumber?: string; paymentIndicator?: string }>(c, '/returns', {
    method: 'POST',
    body,
    attempts: 1,
  });
  const h = answer.headers;
  return { ...answer.body, receiptId: h.get('receipt-id'), receiptTimestamp: h.get('receipt-timestamp'), correlationId: h.get('x-correlationid') };
}

/** The return HMRC holds for a period key, or null where it holds none (404). */
export async function viewReturn(c: VatCall, periodKey: string): Promise<(VatReturnBody & { processingDate?: string }) | null> {
  try {
    return (await vat<VatReturnBody & { processingDate?: string }>(c, `/returns/${encodeURIComponent(periodKey)}`)).body;
  } catch (error) {
    if (error instanceof LedgerError && (error.details as { status?: number }).status === 404) return null;
    throw error;
  }
}

export async function liabilities(c: VatCall, q: { from: string; to: string }): Promise<Liability[]> {
  try {
    return (await vat<{ liabilities?: Liability[] }>(c, `/liabilities${range(q)}`)).body?.liabilities ?? [];
  } catch (error) {
    if (error instanceof LedgerError && (error.details as { status?: number }).status === 404) return [];
    throw error;
  }
}

export async function payments(c: VatCall, q: { from: string; to: string }): Promise<Payment[]> {
  try {
    return (await vat<{ payments?: Payment[] }>(c, `/payments${range(q)}`)).body?.payments ?? [];
  } catch (error) {
    if (error instanceof LedgerError && (error.details as { status?: number }).status === 404) return [];
    throw error;
  }
}

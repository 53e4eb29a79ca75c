// The accounts another program keeps for itself that Ledgerdesk keeps its own
// way: an import leaves them out, saying why (the same reasons for every source).
import type { SourceKind, SourceTax } from './types';

export const WHY = {
  receivable: 'Ledgerdesk keeps what customers owe itself, from invoices and credit notes (no category)',
  payable: 'Ledgerdesk keeps what is owed to vendors itself, from bills (no category)',
  tax: 'Ledgerdesk posts VAT and sales tax to its own tax control account (no category)',
  retained: 'Ledgerdesk works retained earnings out itself from the profit and loss of closed years',
  opening: "Ledgerdesk's opening balances post to their own opening equity",
  currency: 'Ledgerdesk makes its exchange gains and losses categories itself when it first posts one',
  internal: "an account of the other program's own workings, with nothing to match here",
} as const;

/** The accounts told by name (any case), whatever type the file gives them. */
const BY_NAME: [RegExp, string][] = [
  [/^(accounts? receivable|trade debtors|debtors control)( \(a\/r\))?$/, WHY.receivable],
  [/^(accounts? payable|trade creditors|creditors control)( \(a\/p\))?$/, WHY.payable],
  [/^(vat|gst|sales tax( payable)?|vat (control|suspense|liability)|gst (control|payable)|hst payable)$/, WHY.tax],
  [/^retained (earnings|profits?)$/, WHY.retained],
  [/^(opening balance equity|opening balances?)$/, WHY.opening],
  [/^(realised|realized|unrealised|unrealized) (currency|exchange|fx) (gains?|losses?|gains and losses)$|^bank revaluations$/, WHY.currency],
  [/^(historical adjustment|rounding|tracking transfers|unpaid expense claims)$/, WHY.internal],
];

/** Why an account of this name is left out, or null. */
export function systemAccount(name: string): SourceKind | null {
  const key = name.trim().toLowerCase().replace(/\s+/g, ' ');
  const hit = BY_NAME.find(([re]) => re.test(key));
  return hit ? { kind: 'system', reason: hit[1] } : null;
}

/**
 * A tax type's name read as a kind and a rate: "20% (VAT on Income)", "Reverse Charge Expenses (20%)", "Zero Rated
 * Income", "Exempt Expenses", "No VAT", "GST on Income", "BAS Excluded". EC acquisitions ("20% ECG", "Zero Rated EC
 * Services") have no code of a set here: their kind stays null and the preview says the default is left unset.
 */
export function readTaxType(text: string): SourceTax | null {
  const t = text.trim();
  if (!t) return null;
  const percent = /(\d+(?:\.\d+)?)\s*%/.exec(t);
  const rate = percent ? Number(percent[1]) : null;
  const lower = t.toLowerCase();
  const kind = /\bec\b|ecg|\bec (goods|services)\b/.test(lower)
    ? null
    : /reverse charge/.test(lower)
      ? 'reverse_charge'
      : /zero[- ]rated|gst[- ]free|\b0%/.test(lower)
        ? 'zero_rated'
        : /exempt|input[- ]taxed/.test(lower) && !/^tax exempt$/.test(lower)
          ? 'exempt'
          : /^(no (vat|gst|tax)|tax exempt|bas excluded|out of scope|outside the scope)/.test(lower)
            ? 'outside_scope'
            : rate !== null || /(vat|gst|tax) on (income|expenses|sales|purchases)/.test(lower)
              ? 'standard'
              : null;
  return { text: t, kind, rate: kind === 'zero_rated' || kind === 'exempt' || kind === 'outside_scope' ? 0 : rate };
}

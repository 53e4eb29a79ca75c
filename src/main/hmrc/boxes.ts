// The nine boxes as HMRC receives them (issue 54). Boxes 1 to 5 in pounds and
// pence, as the return computes them (box 3 = 1 + 2); box 5 sent as HMRC's
// netVatDue, the absolute difference of boxes 3 and 4 (HMRC tells a payment
// from a repayment itself). Boxes 6 to 9 in whole pounds: HMRC's schema takes
// them with zeroed pence, and its VAT guidance (VAT Notice 700/12) says to leave
// the pence out, so they are cut to the pound toward zero, never rounded up.
import { invalid } from '../ledger/core/errors';
import type { TaxReturn } from '../ledger/tax/return';
import type { VatReturnBody } from './vat';

const pence = (n: number) => Math.round(n * 100) / 100;
const pounds = (n: number) => Math.trunc(n) + 0;

/** The body of POST .../returns for a return of the UK VAT set, with its period key, finalised. */
export function vatReturnBody(report: TaxReturn, periodKey: string): VatReturnBody {
  if (report.set !== 'uk-vat') {
    throw invalid([{ field: 'periodKey', message: 'the organization does not use the UK VAT set (ledgerdesk tax setup uk-vat): HMRC takes its nine boxes' }]);
  }
  const b = (box: string) => report.boxes[box] ?? 0;
  const totalVatDue = pence(b('1') + b('2'));
  const reclaimed = pence(b('4'));
  return {
    periodKey,
    vatDueSales: pence(b('1')),
    vatDueAcquisitions: pence(b('2')),
    totalVatDue,
    vatReclaimedCurrPeriod: reclaimed,
    netVatDue: pence(Math.abs(totalVatDue - reclaimed)),
    totalValueSalesExVAT: pounds(b('6')),
    totalValuePurchasesExVAT: pounds(b('7')),
    totalValueGoodsSuppliedExVAT: pounds(b('8')),
    totalAcquisitionsExVAT: pounds(b('9')),
    finalised: true,
  };
}

// Books with accounts in another currency need rates for their dates (issue 30): a steady weekly rate.
import * as L from '../../src/main/ledger';
import { addDays } from '../../src/shared/dates';

/** A plain rates file (date,currency,rate): the same rate every 7 days over [from, to]. */
export function steadyRatesCsv(currency: string, rate: string, from = '2020-01-01', to = '2027-12-31'): string {
  const lines = ['date,currency,rate'];
  for (let d = from; d <= to; d = addDays(d, 7)) lines.push(`${d},${currency},${rate}`);
  return `${lines.join('\n')}\n`;
}

/** Writes a steady weekly rate for a currency into an organization's rates. */
export async function steadyRate(ledger: L.Ledger, orgSeq: number, currency: string, rate: string, from?: string, to?: string): Promise<void> {
  await L.importRates(ledger, orgSeq, L.deskActor(), steadyRatesCsv(currency, rate, from, to));
}

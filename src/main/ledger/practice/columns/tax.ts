// The next VAT or GST return to file: the period after the last one filed (or
// the one today falls in), from the organization's return periods (the Tax
// screen's own current period: tax/periods.ts' periodToFile), and the day it is due. Red once
// that day has passed. HMRC's obligations replace this where a connection gives
// them (a later column or a change to this one).
import { addDays } from '../../../../shared/dates';
import { inList } from '../../core/dialect';
import { periodToFile, TAX_SETTINGS_COLUMNS, taxSettingsOf, type TaxSettingsRow } from '../../tax/periods';
import { column, figures, NONE, place, seqsOf } from '../column';

export interface TaxFigure {
  from: string;
  to: string;
  due: string;
}

const monthAfter = (date: string) => {
  const d = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))));
  return d.toISOString().slice(0, 10);
};

/**
 * When a period's return is due: Australia's BAS on the 28th of the month after the period; UK VAT (and any other
 * tax set, until it says otherwise) one calendar month and seven days after the period ends.
 */
export function returnDue(taxSet: string | null, to: string): string {
  const next = addDays(to, 1);
  if (taxSet === 'au-gst') return `${next.slice(0, 7)}-28`;
  return addDays(monthAfter(next), 6);
}

export const tax = column<TaxFigure | null>({
  id: 'tax',
  label: 'Next return due',
  async read(ledger, seen, day) {
    // Books without sales tax file no return.
    const taxed = seen.filter(({ org }) => org.taxSet && org.taxSet !== 'plain');
    const rows = taxed.length
      ? await ledger.rows<TaxSettingsRow & { org_seq: number; filed: string | null }>(
          `SELECT o.seq AS org_seq, ${TAX_SETTINGS_COLUMNS}, (SELECT max(t.period_to) FROM tax_returns t WHERE t.org_seq = o.seq) AS filed
           FROM organizations o WHERE ${inList(ledger, 'o.seq')}`,
          seqsOf(taxed),
        )
      : [];
    return figures(seen, rows, ([r], { org }) => {
      if (!r || !org.taxSet || org.taxSet === 'plain') return null;
      const period = periodToFile(taxSettingsOf(r), r.filed ?? '', day);
      return { ...period, due: returnDue(org.taxSet, period.to) };
    });
  },
  cell: (f, org, day) => ({
    text: f ? `${f.from} to ${f.to}, due ${f.due}` : NONE,
    red: f !== null && f.due < day,
    href: place(org, 'tax'),
    sort: f?.due ?? null,
  }),
});

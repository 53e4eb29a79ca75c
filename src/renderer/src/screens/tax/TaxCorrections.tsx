// The corrections of earlier returns a return includes (issue 43), apart from
// its own lines: each adjustment names its row and the filed return it
// corrects, with the differences it puts in the boxes above; and the tax
// office's threshold flag when their net value is over it.
import type { CorrectionThresholdCheck, TaxCorrectionLine } from '../../../../main/ledger/tax/adjustments';
import { Money, Notice, TableFrame, Words } from '../../components';
import { periodName } from '../../correction';
import { formatMoney } from '../../format';

/** The flag, as the screen and the filing confirmation say it. */
export const thresholdFlag = (t: CorrectionThresholdCheck | null, currency: string): string | null =>
  t?.exceeded ? `${t.message} (net value ${formatMoney(t.netValue, currency)}, threshold ${formatMoney(t.limit, currency)}).` : null;

export function TaxCorrections({ corrections, threshold, currency }: { corrections: TaxCorrectionLine[]; threshold: CorrectionThresholdCheck | null; currency: string }) {
  if (!corrections.length) return null;
  const flag = thresholdFlag(threshold, currency);
  return (
    <>
      <h4>Corrections of earlier returns</h4>
      <p className="hint">Changes made to rows of filed returns: the differences are in the boxes above; the filed returns stay as filed.</p>
      {flag && <Notice kind="error">{flag}</Notice>}
      <TableFrame>
        <table className="grid" aria-label="Corrections of earlier returns">
          <thead>
            <tr>
              <th>Row</th>
              <th>Corrects</th>
              <th>Code</th>
              <th>Side</th>
              <th className="num">Net</th>
              <th className="num">Tax</th>
            </tr>
          </thead>
          <tbody>
            {corrections.map((c, i) => (
              <tr key={`${c.correctionId}-${i}`}>
                <td>
                  <span className="nowrap">{c.date}</span> <Words text={c.description} />
                  {c.deleted && <span className="badge">deleted</span>}
                </td>
                <td>
                  The return for {periodName(c.taxReturn.from, c.taxReturn.to)}, filed {c.taxReturn.filedAt.slice(0, 10)}
                </td>
                <td>{c.code}</td>
                <td>{c.side}</td>
                <td className="num">
                  <Money amount={c.net} currency={currency} plain />
                </td>
                <td className="num">
                  <Money amount={c.tax} currency={currency} plain />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
    </>
  );
}

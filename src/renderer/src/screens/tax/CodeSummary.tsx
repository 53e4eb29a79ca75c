// The return's per-code summary on the Tax screen: each tax code's net and tax
// on sales and on purchases; a code opens the lines behind it.
import { Money, TableFrame } from '../../components';
import type { TaxReturn } from '../../../../main/ledger/tax/return';

export function CodeSummary({ codes, currency, onPick }: { codes: TaxReturn['codes']; currency: string; onPick: (code: string) => void }) {
  return (
    <TableFrame>
      <table className="grid" aria-label="By tax code">
        <thead>
          <tr>
            <th>Code</th>
            <th className="num">Rate</th>
            <th className="num">Net sales</th>
            <th className="num">Tax on sales</th>
            <th className="num">Net purchases</th>
            <th className="num">Tax on purchases</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((c) => (
            <tr key={c.code}>
              <td>
                <button className="link" onClick={() => onPick(c.code)}>
                  {c.code}
                </button>{' '}
                {c.name}
              </td>
              <td className="num">{c.rate}%</td>
              {[c.netSales, c.taxSales, c.netPurchases, c.taxPurchases].map((amount, i) => (
                <td key={i} className="num">
                  <Money amount={amount} currency={currency} plain />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

// The profit and loss as an accountant reads it: sections (revenue, cost of
// sales when used, expenses), each category under its parent with the
// parent's subtotal in every column, gross profit and net per column, the
// uncategorized rows apart. Names stay on one line; a wide table scrolls in
// its frame with the names kept in view. Every figure opens its rows.
import type { PlLine, ProfitAndLoss } from '../../../main/ledger/reports/profit-and-loss';
import { Money } from '../components';

const drill = (l: PlLine | null, from: string, to: string) =>
  `#/transactions?${new URLSearchParams({ category: l ? l.name.replace(/ \(other\)$/, '') : '__uncategorized__', dateFrom: from, dateTo: to })}`;

function Figures({ months, values, total, currency }: { months: string[] | null; values?: Record<string, number>; total: number; currency: string }) {
  return (
    <>
      {months?.map((m) => (
        <td key={m} className="num">
          <Money amount={values?.[m] ?? 0} currency={currency} plain />
        </td>
      ))}
      <td className="num">
        <Money amount={total} currency={currency} plain />
      </td>
    </>
  );
}

export function ProfitAndLossTable({ pl: r }: { pl: ProfitAndLoss }) {
  return (
    <div className="table-frame">
      <table className="grid pl">
        <thead>
          <tr>
            <th>Category</th>
            {r.months?.map((m) => (
              <th key={m} className="num">
                {m}
              </th>
            ))}
            <th className="num">Total</th>
          </tr>
        </thead>
        {r.sections.map((s) => (
          <tbody key={s.section}>
            <tr className="section">
              <th colSpan={(r.months?.length ?? 0) + 2}>{s.title}</th>
            </tr>
            {r.lines
              .filter((l) => l.section === s.section)
              .map((l) => (
                <tr key={`${l.code}${l.direct ? '-other' : ''}`} className={l.parent ? 'parent' : 'child'} data-depth={l.depth}>
                  <td style={{ paddingLeft: `${10 + 18 * l.depth}px` }}>
                    <a href={drill(l, r.from, r.to)}>{l.direct ? l.name : `${l.code} ${l.name}`}</a>
                  </td>
                  <Figures months={r.months} values={l.months} total={l.total} currency={r.currency} />
                </tr>
              ))}
            <tr className="subtotal">
              <td>Total {s.title.toLowerCase()}</td>
              <Figures months={r.months} values={s.months} total={s.total} currency={r.currency} />
            </tr>
            {s.section === 'cost_of_sales' && r.grossProfit && (
              <tr className="total">
                <td>Gross profit</td>
                <Figures months={r.months} values={r.grossProfit.months} total={r.grossProfit.total} currency={r.currency} />
              </tr>
            )}
          </tbody>
        ))}
        <tbody>
          <tr className="total">
            <td>Net profit</td>
            <Figures months={r.months} values={r.netMonths} total={r.net} currency={r.currency} />
          </tr>
          <tr className="apart">
            <td>
              <a href={drill(null, r.from, r.to)}>Uncategorized</a> <span className="muted small">(not in net: categorize these rows)</span>
            </td>
            <Figures months={r.months} values={r.uncategorized.months} total={r.uncategorized.amount} currency={r.currency} />
          </tr>
        </tbody>
      </table>
    </div>
  );
}

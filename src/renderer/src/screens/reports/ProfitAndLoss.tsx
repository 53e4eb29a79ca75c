// The profit and loss as an accountant reads it: sections (revenue, cost of
// sales when used, expenses), each category under its parent with the
// parent's subtotal in every column, gross profit and net per column, the
// uncategorized rows apart. Names stay on one line; a wide table scrolls in
// its frame with the names kept in view. Every figure (a category's, in total
// or in a month) opens the general-ledger postings that add up to it: the
// category, with those reported under it for a parent's subtotal, on the
// report's basis; the uncategorized rows open the suspense lines.
import type { PlLine, ProfitAndLoss } from '../../../../main/ledger/reports/profit-and-loss';
import { Money } from '../../components';
import { formatMonth } from '../../format';

/** A month's last day (YYYY-MM-DD). */
const endOf = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

/** The general ledger behind a line's figure: over the report's period, or one month of it (no further than the period). */
function drill(pl: ProfitAndLoss, l: PlLine | null, month?: string): string {
  const from = month && `${month}-01` > pl.from ? `${month}-01` : pl.from;
  const to = month && endOf(month) < pl.to ? endOf(month) : pl.to;
  const query = new URLSearchParams({ account: l ? `category:${l.code}` : 'suspense', from, to });
  if (l) query.set('basis', pl.basis);
  if (l?.parent && !l.direct) query.set('children', '1');
  return `#/ledger?${query}`;
}

/** A row's figures, each opening its postings when `open` says where (totals of several lines open none). */
function Figures({
  months,
  values,
  total,
  currency,
  open,
}: {
  months: string[] | null;
  values?: Record<string, number>;
  total: number;
  currency: string;
  open?: (month?: string) => string;
}) {
  const figure = (amount: number, month?: string) =>
    open ? (
      <a href={open(month)} className="figure">
        <Money amount={amount} currency={currency} plain />
      </a>
    ) : (
      <Money amount={amount} currency={currency} plain />
    );
  return (
    <>
      {months?.map((m) => (
        <td key={m} className="num">
          {figure(values?.[m] ?? 0, m)}
        </td>
      ))}
      <td className="num">{figure(total)}</td>
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
                {formatMonth(m)}
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
                    <a href={drill(r, l)}>{l.direct ? l.name : `${l.code} ${l.name}`}</a>
                  </td>
                  <Figures months={r.months} values={l.months} total={l.total} currency={r.currency} open={(m) => drill(r, l, m)} />
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
              <a href={drill(r, null)}>Uncategorized</a> <span className="muted small">(not in net: categorize these rows)</span>
            </td>
            <Figures months={r.months} values={r.uncategorized.months} total={r.uncategorized.amount} currency={r.currency} open={(m) => drill(r, null, m)} />
          </tr>
        </tbody>
      </table>
    </div>
  );
}

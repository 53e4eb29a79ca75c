// Charts beside the numbers: revenue and expenses by month, and where the
// expenses went. Plain SVG; each bar names its figure for screen readers. A
// month can be negative (a void or a credit note that outweighs the month's
// sales, a refund): its bar goes below the zero line.
import type { ProfitAndLoss } from '../../../../main/ledger/reports/profit-and-loss';
import { formatMoney, formatMonth } from '../../format';

/** `words`: what the two bars are (revenue and expenses, on the dashboard as in the P&L). */
export function TrendChart({
  trend,
  currency,
  label,
  words = ['Revenue', 'Expenses'],
}: {
  trend: { month: string; revenue: number; expenses: number }[];
  currency: string;
  label: string;
  words?: [string, string];
}) {
  const values = trend.flatMap((m) => [m.revenue, m.expenses]);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const W = 720;
  const H = 220;
  const slot = W / Math.max(1, trend.length);
  const bar = Math.max(4, slot / 2 - 6);
  // From the lowest figure (or zero) at the bottom to the highest (or zero) at the top, 16 units above the labels.
  const y = (v: number) => H - 24 - ((v - min) / (max - min || 1)) * (H - 40);
  const zero = y(0);
  /** A bar from the zero line up to a positive figure or down to a negative one (an SVG height is never negative). */
  const span = (v: number) => ({ y: Math.min(y(v), zero), height: Math.abs(zero - y(v)) });
  // "Nov 2025" under each bar while they fit (a label and its gap take about 58 units: twelve months do); beyond, under every second or third.
  const every = Math.ceil(58 / slot);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        {trend.map((m, i) => (
          <g key={m.month} transform={`translate(${i * slot + 4},0)`}>
            <rect className="rev" x={0} width={bar} {...span(m.revenue)}>
              <title>{`${formatMonth(m.month)} ${words[0].toLowerCase()} ${formatMoney(m.revenue, currency)}`}</title>
            </rect>
            <rect className="exp" x={bar + 2} width={bar} {...span(m.expenses)}>
              <title>{`${formatMonth(m.month)} ${words[1].toLowerCase()} ${formatMoney(m.expenses, currency)}`}</title>
            </rect>
            {i % every === 0 && (
              <text x={bar + 1} y={H - 6} textAnchor="middle">
                {formatMonth(m.month)}
              </text>
            )}
          </g>
        ))}
        {min < 0 && <line className="zero" x1={0} x2={W} y1={zero} y2={zero} />}
      </svg>
      <figcaption>
        <span className="key rev" /> {words[0]} <span className="key exp" /> {words[1]}
      </figcaption>
    </figure>
  );
}

/** The P&L's months as chart bars: revenue and expenses (positive) per month. */
export function trendOf(pl: ProfitAndLoss): { month: string; revenue: number; expenses: number }[] {
  const of = (month: string, revenue: boolean) => pl.sections.filter((s) => (s.section === 'revenue') === revenue).reduce((sum, s) => sum + (s.months?.[month] ?? 0), 0);
  return (pl.months ?? []).map((month) => ({ month, revenue: of(month, true), expenses: -of(month, false) }));
}

export function ExpenseBreakdown({ pl }: { pl: ProfitAndLoss }) {
  // Each category's own rows once: a parent's own are its "(other)" line. One whose refunds outweigh its costs (a
  // credit) is no share of where the expenses went: the P&L shows it.
  const leaves = pl.lines.filter((l) => l.type === 'expense' && !l.parent && l.amount < 0).sort((a, b) => a.amount - b.amount);
  const total = leaves.reduce((sum, l) => sum - l.amount, 0);
  if (!leaves.length) return null;
  return (
    <figure className="chart breakdown" aria-label="Where the expenses went">
      <figcaption>Where the expenses went</figcaption>
      {leaves.map((l) => {
        const share = total ? -l.amount / total : 0;
        return (
          <div key={`${l.code}${l.direct ? '-other' : ''}`} className="share">
            <span className="share-name">
              {l.code} {l.name}
            </span>
            <span className="share-bar" role="img" aria-label={`${Math.round(share * 100)}%`}>
              <span style={{ width: `${Math.max(1, share * 100)}%` }} />
            </span>
            <span className="num">{formatMoney(-l.amount, pl.currency)}</span>
          </div>
        );
      })}
    </figure>
  );
}

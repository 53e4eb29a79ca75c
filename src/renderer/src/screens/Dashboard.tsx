// Dashboard: the summary, with the monthly trend drawn as a chart.
import type { DashboardSummary } from '../../../main/ledger/dashboard';
import { Empty, Money, Show } from '../components';
import { desk } from '../desk';
import { formatMoney } from '../format';
import { useLoad } from '../hooks';

function TrendChart({ trend, currency }: { trend: DashboardSummary['monthlyTrend']; currency: string }) {
  const max = Math.max(1, ...trend.flatMap((m) => [m.revenue, m.expenses]));
  const W = 720;
  const H = 220;
  const slot = W / Math.max(1, trend.length);
  const bar = Math.max(4, slot / 2 - 6);
  const y = (v: number) => H - 24 - (v / max) * (H - 40);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Revenue and expenses per month, ${trend[0]?.month ?? ''} to ${trend.at(-1)?.month ?? ''}`}>
        {trend.map((m, i) => (
          <g key={m.month} transform={`translate(${i * slot + 4},0)`}>
            <rect className="rev" x={0} y={y(m.revenue)} width={bar} height={H - 24 - y(m.revenue)}>
              <title>{`${m.month} revenue ${formatMoney(m.revenue, currency)}`}</title>
            </rect>
            <rect className="exp" x={bar + 2} y={y(m.expenses)} width={bar} height={H - 24 - y(m.expenses)}>
              <title>{`${m.month} expenses ${formatMoney(m.expenses, currency)}`}</title>
            </rect>
            <text x={bar} y={H - 6} textAnchor="middle">
              {m.month.slice(2)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        <span className="key rev" /> Revenue <span className="key exp" /> Expenses
      </figcaption>
    </figure>
  );
}

export function Dashboard({ orgId, go }: { orgId: string; go: (screen: string) => void }) {
  const loaded = useLoad(() => desk.dashboard({ orgId }), [orgId], 10_000);
  return (
    <section aria-labelledby="dashboard-title">
      <div className="screen-head">
        <h2 id="dashboard-title">Dashboard</h2>
      </div>
      <Show
        loaded={loaded}
        what="the summary"
        empty={(d) =>
          d.recentTransactions.length === 0 ? (
            <Empty title="These books are empty.">
              Start with the money: <a href="#/accounts">add an account</a> and <a href="#/import">import its statement</a>. Agents then have work to propose on.
            </Empty>
          ) : undefined
        }
      >
        {(d) => (
          <>
            <div className="tiles">
              <div className="tile">
                <span>Revenue (12 months)</span>
                <Money amount={d.revenue} currency={d.currency} />
              </div>
              <div className="tile">
                <span>Expenses (12 months)</span>
                <Money amount={-d.expenses} currency={d.currency} />
              </div>
              <div className="tile">
                <span>Cash position</span>
                <Money amount={d.cashPosition} currency={d.currency} />
              </div>
              <button className="tile" onClick={() => go('approvals')}>
                <span>Proposals to review</span>
                <strong>{d.agentSuggested}</strong>
              </button>
              <button className="tile" onClick={() => go('transactions')}>
                <span>Need review</span>
                <strong>{d.pendingReview}</strong>
                <small>
                  {d.uncategorized} uncategorized · {d.missingReceipts} missing receipts
                </small>
              </button>
            </div>
            {d.monthlyTrend.length ? <TrendChart trend={d.monthlyTrend} currency={d.currency} /> : <Empty title="No transactions yet." />}
            {d.notifications.length > 0 && (
              <ul className="notifications">
                {d.notifications.map((n, i) => (
                  <li key={i} className={n.severity}>
                    {n.message}
                  </li>
                ))}
              </ul>
            )}
            <h3>Recent transactions</h3>
            <table className="grid">
              <tbody>
                {d.recentTransactions.map((t) => (
                  <tr key={t.id}>
                    <td className="nowrap">{t.date}</td>
                    <td>{t.description}</td>
                    <td className="num">
                      <Money amount={t.amount} currency={d.currency} />
                    </td>
                    <td>{t.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Show>
    </section>
  );
}

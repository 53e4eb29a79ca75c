// Dashboard: the summary, with the monthly trend drawn as a chart.
import { Empty, Money, Show } from '../components';
import { STATUS_LABELS, label } from '../../../shared/words';
import { desk } from '../desk';
import { useLoad } from '../hooks';
import { TrendChart } from './ReportCharts';

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
                <span>Money in (12 months)</span>
                <Money amount={d.revenue} currency={d.currency} plain />
              </div>
              <div className="tile">
                <span>Money out (12 months)</span>
                <Money amount={d.expenses} currency={d.currency} plain />
              </div>
              <div className="tile">
                <span>Cash position (all accounts)</span>
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
            <p className="hint">
              Money in and money out: every inflow and outflow of the accounts in {d.currency} over the 12 months to the latest transaction (cash basis, uncategorized rows and
              transfers included), as the API's <code>revenue</code> and <code>expenses</code>. Cash position: what the accounts hold, opening balances included. The profit and
              loss by category is in <a href="#/reports">Reports</a>.
            </p>
            {d.monthlyTrend.length ? (
              <TrendChart trend={d.monthlyTrend} currency={d.currency} label="Money in and out per month" words={['Money in', 'Money out']} />
            ) : (
              <Empty title="No transactions yet." />
            )}
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
                    <td>{label(STATUS_LABELS, t.status)}</td>
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

// Dashboard: the summary, with the monthly trend drawn as a chart. Its
// revenue and expenses are the profit and loss's (docs/api-decisions.md
// "Dashboard period and figures"), and its caption says so in those words.
import { Empty, Money, Show, Words } from '../../components';
import { STATUS_LABELS, label } from '../../../../shared/words';
import { desk } from '../../desk';
import { formatMonth } from '../../format';
import { useLoad } from '../../hooks';
import { useOrg } from '../../org';
import { useCan } from '../../can';
import { TrendChart } from './ReportCharts';
import type { DashboardSummary } from '../../../../main/ledger/reports/dashboard';

/** "USD (US Dollar)": the code as the books write it, with its name for whoever does not know it. */
const currencyNamed = (code: string) => `${code} (${new Intl.DisplayNames(['en'], { type: 'currency' }).of(code) ?? code})`;

/** What the books are kept in, and (while they hold no money) where that changes. */
function BooksCurrency({ currency }: { currency: string }) {
  const { canChangeCurrency } = useOrg();
  const may = useCan()('updateOrganization') && canChangeCurrency;
  return (
    <p className="hint">
      Books in {currencyNamed(currency)}
      {may ? (
        <>
          : while they hold no money, <a href="#/organizations">change the currency in Organizations</a>.
        </>
      ) : (
        '.'
      )}
    </p>
  );
}

/** The latest rows of the books, for whom reads them. */
function RecentTransactions({ rows, currency }: { rows: DashboardSummary['recentTransactions']; currency: string }) {
  return (
    <>
      <h3>Recent transactions</h3>
      <table className="grid">
        <tbody>
          {rows.map((t) => (
            <tr key={t.id}>
              <td className="nowrap">{t.date}</td>
              <td>
                <Words text={t.description} />
              </td>
              <td className="num">
                <Money amount={t.amount} currency={currency} />
              </td>
              <td>{label(STATUS_LABELS, t.status)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function Dashboard({ orgId, go }: { orgId: string; go: (screen: string) => void }) {
  const { reportBasis = 'accrual', canChangeCurrency } = useOrg();
  const can = useCan();
  // A client reads no rows (issue 50): their summary has none, and the books are empty while they hold no money.
  const seesRows = can('listTransactions');
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
          (seesRows ? d.recentTransactions.length === 0 : canChangeCurrency) ? (
            <>
              <Empty title="These books are empty.">
                {can('createAccount') ? (
                  <>
                    Start with the money: <a href="#/accounts">add an account</a> and <a href="#/import">import its statement</a>. Agents then have work to propose on.
                  </>
                ) : (
                  'Their figures appear here once the books are kept.'
                )}
              </Empty>
              <BooksCurrency currency={d.currency} />
            </>
          ) : undefined
        }
      >
        {(d) => (
          <>
            <div className="tiles">
              <div className="tile">
                <span>Revenue (12 months)</span>
                <Money amount={d.revenue} currency={d.currency} plain />
              </div>
              <div className="tile">
                <span>Expenses (12 months)</span>
                <Money amount={d.expenses} currency={d.currency} plain />
              </div>
              <div className="tile">
                <span>Cash position (all accounts)</span>
                <Money amount={d.cashPosition} currency={d.currency} />
              </div>
              {can('listProposals') && (
                <button className="tile" onClick={() => go('approvals')}>
                  <span>Proposals to review</span>
                  <strong>{d.agentSuggested}</strong>
                </button>
              )}
              {can('register') && (
                <button className="tile" onClick={() => go('transactions')}>
                  <span>Need review</span>
                  <strong>{d.pendingReview}</strong>
                  <small>
                    {d.uncategorized} uncategorized · {d.missingReceipts} missing receipts
                  </small>
                </button>
              )}
            </div>
            <p className="hint">
              Revenue and expenses are the profit and loss's over the twelve months {formatMonth(d.monthlyTrend[0]?.month ?? '')} to{' '}
              {formatMonth(d.monthlyTrend.at(-1)?.month ?? '')} (to the latest transaction), on the {reportBasis} basis, in {d.currency}: transfers between the organization's own
              accounts and uncategorized rows are neither. Cash position: what the money accounts hold, opening balances included (a card's debt counts against it). The profit and
              loss by category is in <a href="#/reports">Reports</a>.
            </p>
            {d.monthlyTrend.length ? <TrendChart trend={d.monthlyTrend} currency={d.currency} label="Revenue and expenses per month" /> : <Empty title="No transactions yet." />}
            {d.notifications.length > 0 && (
              <ul className="notifications">
                {d.notifications.map((n, i) => (
                  <li key={i} className={n.severity}>
                    {n.message}
                  </li>
                ))}
              </ul>
            )}
            {seesRows && <RecentTransactions rows={d.recentTransactions} currency={d.currency} />}
          </>
        )}
      </Show>
    </section>
  );
}

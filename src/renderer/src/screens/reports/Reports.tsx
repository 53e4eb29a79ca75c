// Reports: the profit and loss of a period (parents with their subtotals, a
// figure opens the general-ledger postings behind it), by month with a chart, the
// balance sheet and the trial balance (Books.tsx), the balances of every account at a date, CSV downloads and exports for the
// accountant. The browser's print gives a clean page (see styles.css).
import { useState } from 'react';
import { balancesCsv, profitAndLossCsv } from '../../../../main/exports/report-csv';
import { DateField, Money, Show, TableFrame } from '../../components';
import { desk } from '../../desk';
import { formatMoney } from '../../format';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { ExportPanel, saveText } from './ExportPanel';
import { ProfitAndLossTable } from './ProfitAndLoss';
import { BalanceSheetPanel, TrialBalancePanel } from './Books';
import { ExpenseBreakdown, TrendChart, trendOf } from './ReportCharts';

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

/** The usual periods, as [from, to]; null means the server's default (the 12 months ending with the latest transaction). */
function periodOf(choice: string, today = new Date()): [string, string] | null {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const q = Math.floor(m / 3) * 3;
  switch (choice) {
    case 'this-month':
      return [iso(utc(y, m, 1)), iso(utc(y, m + 1, 0))];
    case 'last-quarter':
      return [iso(utc(y, q - 3, 1)), iso(utc(y, q, 0))];
    case 'this-year':
      return [`${y}-01-01`, `${y}-12-31`];
    case 'last-year':
      return [`${y - 1}-01-01`, `${y - 1}-12-31`];
    default:
      return null;
  }
}

export function Reports({ orgId }: { orgId: string }) {
  const can = useCan();
  const [choice, setChoice] = useState('latest');
  const [custom, setCustom] = useState({ from: '', to: '' });
  const [byMonth, setByMonth] = useState(true);
  const [balanceDate, setBalanceDate] = useState('');
  const range = choice === 'custom' ? (custom.from && custom.to ? ([custom.from, custom.to] as [string, string]) : null) : periodOf(choice);
  const pl = useLoad(() => desk.profitAndLoss({ orgId, from: range?.[0], to: range?.[1], by: byMonth ? 'month' : 'total' }), [orgId, range?.join(), byMonth]);
  const balances = useLoad(() => desk.balancesReport({ orgId, date: balanceDate || undefined }), [orgId, balanceDate]);
  return (
    <section aria-labelledby="reports-title" className="reports">
      <div className="screen-head">
        <h2 id="reports-title">Reports</h2>
        <button className="no-print" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <form className="filters no-print" onSubmit={(e) => e.preventDefault()}>
        <label>
          Period
          <select value={choice} onChange={(e) => setChoice(e.target.value)}>
            <option value="latest">The 12 months to the latest transaction</option>
            <option value="this-month">This month</option>
            <option value="last-quarter">Last quarter</option>
            <option value="this-year">This year</option>
            <option value="last-year">Last year</option>
            <option value="custom">Custom</option>
          </select>
        </label>
        {choice === 'custom' && (
          <>
            <DateField label="From" value={custom.from} onChange={(from) => setCustom((c) => ({ ...c, from }))} />
            <DateField label="To" value={custom.to} onChange={(to) => setCustom((c) => ({ ...c, to }))} />
          </>
        )}
        <label className="check">
          <input type="checkbox" checked={byMonth} onChange={(e) => setByMonth(e.target.checked)} /> By month
        </label>
      </form>
      <Show loaded={pl} what="the profit and loss">
        {(r) => (
          <>
            <h3>
              Profit and loss, {r.from} to {r.to} ({r.currency})
            </h3>
            {r.months && <TrendChart trend={trendOf(r)} currency={r.currency} label={`Revenue and expenses per month, ${r.from} to ${r.to}`} />}
            <ProfitAndLossTable pl={r} />
            {r.transfers !== 0 && (
              <p className="muted small">Left out: {formatMoney(r.transfers, r.currency)} categorized to asset, liability or equity categories (transfers, owner's money).</p>
            )}
            <ExpenseBreakdown pl={r} />
            <button className="no-print" onClick={() => saveText(`profit-and-loss-${r.from}-${r.to}.csv`, profitAndLossCsv(r))}>
              Download CSV
            </button>
          </>
        )}
      </Show>
      <BalanceSheetPanel orgId={orgId} />
      <TrialBalancePanel orgId={orgId} />
      <h3>Balances</h3>
      <form className="filters no-print" onSubmit={(e) => e.preventDefault()}>
        <DateField label="At (YYYY-MM-DD, default today)" value={balanceDate} onChange={setBalanceDate} />
      </form>
      <Show loaded={balances} what="the balances">
        {(b) => (
          <>
            <TableFrame>
              <table className="grid balances">
                <thead>
                  <tr>
                    <th>Account</th>
                    <th className="num">Balance at {b.date}</th>
                    <th className="num" title="Rows a bank statement has shown (imported or matched), and reconciled rows">
                      Cleared
                    </th>
                    <th className="num">Reconciled</th>
                    <th className="num">Not yet reconciled</th>
                  </tr>
                </thead>
                <tbody>
                  {b.accounts.map((a) => (
                    <tr key={a.id}>
                      <td>{can('register') ? <a href={`#/transactions?account=${a.id}`}>{a.name}</a> : a.name}</td>
                      <td className="num">
                        <Money amount={a.balance} currency={a.currency} plain />
                      </td>
                      <td className="num">
                        <Money amount={a.cleared} currency={a.currency} plain />
                      </td>
                      <td className="num">
                        <Money amount={a.reconciled} currency={a.currency} plain />
                      </td>
                      <td className="num">
                        <Money amount={a.unreconciled} currency={a.currency} plain />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
            <button className="no-print" onClick={() => saveText(`balances-${b.date}.csv`, balancesCsv(b))}>
              Download CSV
            </button>
          </>
        )}
      </Show>
      {can('exportBooks') && <ExportPanel orgId={orgId} from={range?.[0]} to={range?.[1]} />}
    </section>
  );
}

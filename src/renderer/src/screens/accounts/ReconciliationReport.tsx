// A finished reconciliation as a report to file: the balance reconciled
// before, the cleared deposits and payments, the statement balance and the
// difference at zero, then the rows cleared and those still outstanding.
// The browser's print gives a clean page.
import type { ReconciliationReport } from '../../../../main/ledger/accounts/reconcile';
import type { Transaction } from '../../../../main/ledger/transactions/transactions';
import { Money, Show, TableFrame } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

function Rows({ title, rows }: { title: string; rows: Transaction[] }) {
  return (
    <>
      <h4>{title}</h4>
      {rows.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <TableFrame>
          <table className="grid">
            <tbody>
              {rows.map((t) => (
                <tr key={t.id}>
                  <td className="nowrap">{t.date}</td>
                  <td>{t.description}</td>
                  <td className="num">
                    <Money amount={t.amount} currency={t.currency} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
    </>
  );
}

export function ReconciliationReportView({ orgId, accountId, reconciliationId }: { orgId: string; accountId: string; reconciliationId: string }) {
  const loaded = useLoad(() => desk.reconciliationReport({ orgId, account: accountId, reconciliation: reconciliationId }), [orgId, accountId, reconciliationId]);
  return (
    <section aria-labelledby="recon-report-title">
      <Show loaded={loaded} what="the reconciliation report">
        {(r: ReconciliationReport) => {
          const c = r.account.currency;
          const line = (label: string, amount: number, strong = false) => (
            <tr className={strong ? 'total' : undefined}>
              <td>{label}</td>
              <td className="num">
                <Money amount={amount} currency={c} plain />
              </td>
            </tr>
          );
          return (
            <>
              <div className="screen-head">
                <h2 id="recon-report-title">
                  Reconciliation of {r.account.name} through {r.reconciliation.statementDate}
                </h2>
                <button className="no-print" onClick={() => window.print()}>
                  Print
                </button>
                <a className="button no-print" href={`#/reconcile?account=${r.account.id}`}>
                  Back to Reconcile
                </a>
              </div>
              <p className="muted">
                Finished by {r.reconciliation.createdBy} on {r.reconciliation.createdAt.slice(0, 10)}; {r.reconciliation.rows} row(s) cleared.
              </p>
              <table className="grid pl summary">
                <tbody>
                  {line('Reconciled balance before', r.previousBalance)}
                  {line(`Cleared deposits (${r.deposits.count})`, r.deposits.total)}
                  {line(`Cleared payments (${r.payments.count})`, r.payments.total)}
                  {line('Cleared balance', r.clearedBalance, true)}
                  {line('Statement balance', r.reconciliation.statementBalance)}
                  {line('Difference', r.difference, true)}
                  {line(`Outstanding rows (${r.outstanding.length})`, r.bookBalance - r.clearedBalance)}
                  {line(`Books balance on ${r.reconciliation.statementDate}`, r.bookBalance, true)}
                </tbody>
              </table>
              <Rows title="Cleared" rows={r.cleared} />
              <Rows title={`Outstanding on ${r.reconciliation.statementDate}`} rows={r.outstanding} />
            </>
          );
        }}
      </Show>
    </section>
  );
}

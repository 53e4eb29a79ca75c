// An account's pending rows in its register (issue 52): what the bank reports
// but has not booked. Read-only, marked "Pending", counted in no total (no
// balance, report or export reads them); each leaves this list when the bank
// books it, as the booked row arrives.
import { Money, TableFrame, Words } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

export function PendingRows({ orgId, account }: { orgId: string; account: string }) {
  const loaded = useLoad(() => desk.listPendingRows({ orgId, account }), [orgId, account]);
  const rows = loaded.data ?? [];
  if (!rows.length) return null;
  return (
    <section aria-labelledby="pending-title" className="pending-rows">
      <h3 id="pending-title">Pending at the bank ({rows.length})</h3>
      <p className="hint">Not booked yet: shown here only, counted in no balance or total until the bank books them.</p>
      <TableFrame>
        <table className="grid register" aria-label="Pending rows">
          <thead>
            <tr>
              <th>Date</th>
              <th>Description</th>
              <th className="num">Amount</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.externalId} className="pending">
                <td className="nowrap">{r.date}</td>
                <td className="wrap">
                  <Words text={r.description} />
                </td>
                <td className="num">
                  <Money amount={r.amount} currency={r.currency} />
                </td>
                <td>
                  <span className="status pending">Pending</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
    </section>
  );
}

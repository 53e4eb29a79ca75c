// What HMRC says is owed and was paid for VAT in the last 12 months (issue 54),
// beside the returns: a small table each (hmrcLiabilities, hmrcPayments).
import { addDays } from '../../../../../shared/dates';
import { Show, TableFrame } from '../../../components';
import { desk } from '../../../desk';
import { formatMoney } from '../../../format';
import { useLoad } from '../../../hooks';
import { clientFacts } from './browser';

const money = (n: number | undefined) => (n === undefined ? '' : formatMoney(n, 'GBP'));

export function OwedAndPaid({ orgId }: { orgId: string }) {
  const to = new Date().toISOString().slice(0, 10);
  const range = { orgId, from: addDays(to, -365), to };
  const owed = useLoad(() => desk.hmrcLiabilities({ ...range, client: clientFacts() }), [orgId, to]);
  const paid = useLoad(() => desk.hmrcPayments({ ...range, client: clientFacts() }), [orgId, to]);
  return (
    <>
      <h4>Owed to HMRC, the last 12 months</h4>
      <Show loaded={owed} what="HMRC's liabilities">
        {(ls) =>
          ls.length === 0 ? (
            <p className="muted">HMRC lists no liability.</p>
          ) : (
            <TableFrame>
              <table className="grid" aria-label="HMRC liabilities">
                <thead>
                  <tr>
                    <th>Period</th>
                    <th>Type</th>
                    <th className="num">Charged</th>
                    <th className="num">Outstanding</th>
                    <th>Due</th>
                  </tr>
                </thead>
                <tbody>
                  {ls.map((l, i) => (
                    <tr key={i}>
                      <td>{l.taxPeriod ? `${l.taxPeriod.from} to ${l.taxPeriod.to}` : ''}</td>
                      <td>{l.type}</td>
                      <td className="num">{money(l.originalAmount)}</td>
                      <td className="num">{money(l.outstandingAmount)}</td>
                      <td>{l.due ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          )
        }
      </Show>
      <h4>Paid to HMRC, the last 12 months</h4>
      <Show loaded={paid} what="HMRC's payments">
        {(ps) =>
          ps.length === 0 ? (
            <p className="muted">HMRC lists no payment.</p>
          ) : (
            <ul aria-label="HMRC payments">
              {ps.map((p, i) => (
                <li key={i}>
                  {p.received ?? 'date not given'}: {money(p.amount)}
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </>
  );
}

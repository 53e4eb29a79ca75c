// HMRC's obligations beside Ledgerdesk's periods (issue 54): the open ones and
// those fulfilled in the last year, each saying whether its dates are one of
// Ledgerdesk's periods (and why not); an open one that is offers its Submit
// form to whom may submit. HMRC's receipt is shown once it accepts.
import { useState } from 'react';
import type { DeskResult } from '../../../../../main/desk/operations';
import type { ObligationView } from '../../../../../main/hmrc/submit';
import { addDays } from '../../../../../shared/dates';
import { Show, TableFrame } from '../../../components';
import { desk } from '../../../desk';
import { useLoad } from '../../../hooks';
import { useCan } from '../../../can';
import { clientFacts } from './browser';
import { Receipt, SubmitReturn } from './SubmitReturn';

/** Open obligations, then the fulfilled ones of the last 12 months (HMRC answers at most 366 days at once). */
async function obligations(orgId: string): Promise<ObligationView[]> {
  const today = new Date().toISOString().slice(0, 10);
  const open = await desk.hmrcObligations({ orgId, client: clientFacts() });
  const fulfilled = await desk.hmrcObligations({ orgId, status: 'F', from: addDays(today, -365), to: today, client: clientFacts() });
  return [...open, ...fulfilled];
}

export function Obligations(props: { orgId: string; declaration: string; fail: (words: string) => void; onSubmitted: () => void }) {
  const { orgId, declaration, fail } = props;
  const can = useCan();
  const list = useLoad(() => obligations(orgId), [orgId]);
  const [open, setOpen] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<DeskResult<'submitTaxReturn'> | null>(null);
  const chosen = list.data?.find((o) => o.periodKey === open && o.status === 'O');
  return (
    <Show loaded={list} what="HMRC's obligations">
      {(os) => (
        <>
          {os.length === 0 ? (
            <p className="muted">HMRC lists no obligation.</p>
          ) : (
            <TableFrame>
              <table className="grid" aria-label="HMRC obligations">
                <thead>
                  <tr>
                    <th>Period</th>
                    <th>Due</th>
                    <th>Status</th>
                    <th>Ledgerdesk's period</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {os.map((o) => (
                    <tr key={`${o.status}-${o.periodKey}`}>
                      <td className="nowrap">
                        {o.start} to {o.end} <span className="muted small">{o.periodKey}</span>
                      </td>
                      <td>{o.due}</td>
                      <td>{o.status === 'O' ? 'open' : `fulfilled${o.received ? ` ${o.received}` : ''}`}</td>
                      <td>{o.matchesPeriod ? 'matches' : o.mismatch}</td>
                      <td>
                        {o.status === 'O' && o.matchesPeriod && can('submitTaxReturn') && (
                          <button type="button" onClick={() => (setOpen(o.periodKey), setReceipt(null))} aria-label={`Submit ${o.periodKey}…`}>
                            Submit…
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          )}
          {receipt && <Receipt r={receipt} />}
          {chosen && (
            <SubmitReturn
              key={chosen.periodKey}
              orgId={orgId}
              o={chosen}
              declaration={declaration}
              fail={fail}
              onSubmitted={(r) => {
                setReceipt(r);
                setOpen(null);
                list.reload();
                props.onSubmitted();
              }}
            />
          )}
        </>
      )}
    </Show>
  );
}

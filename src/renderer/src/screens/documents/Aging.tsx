// Aged receivables and aged payables at a date (issue 29): per contact what
// is current and what is 1-30, 31-60, 61-90 and over 90 days past due, the
// contact's credit apart; each contact opens the documents behind its figures.
import { Fragment, useState } from 'react';
import type { Aging as AgingReport } from '../../../../main/ledger/documents/owed/aging';
import { DateField, Money, Show, TableFrame, Words } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

const COLUMNS = [
  ['current', 'Current'],
  ['days1to30', '1-30'],
  ['days31to60', '31-60'],
  ['days61to90', '61-90'],
  ['over90', 'Over 90'],
  ['credit', 'Credit'],
  ['total', 'Total'],
] as const;

export function Aging({ orgId }: { orgId: string }) {
  const [side, setSide] = useState<'receivables' | 'payables'>('receivables');
  const [date, setDate] = useState('');
  const [open, setOpen] = useState<string>();
  const report = useLoad(() => desk.aging({ orgId, [side]: true, ...(date ? { date } : {}) }), [orgId, side, date]);
  return (
    <section aria-labelledby="aging-title">
      <div className="screen-head">
        <h2 id="aging-title">Aged {side}</h2>
        <button onClick={() => window.print()}>Print</button>
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Report
          <select value={side} onChange={(e) => setSide(e.target.value as 'receivables' | 'payables')}>
            <option value="receivables">Aged receivables (customers)</option>
            <option value="payables">Aged payables (vendors)</option>
          </select>
        </label>
        <DateField label="At" value={date} onChange={setDate} />
      </form>
      <Show loaded={report} what={`the aged ${side}`}>
        {(a: AgingReport) => (
          <TableFrame>
            <table className="grid" aria-label={`Aged ${side} at ${a.date}`}>
              <thead>
                <tr>
                  <th>Contact</th>
                  {COLUMNS.map(([k, title]) => (
                    <th key={k} className="num">
                      {title}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {a.contacts.map((c) => (
                  <Fragment key={c.id}>
                    <tr>
                      <td>
                        <button className="link" aria-expanded={open === c.id} onClick={() => setOpen(open === c.id ? undefined : c.id)}>
                          {c.name}
                        </button>
                      </td>
                      {COLUMNS.map(([k]) => (
                        <td key={k} className="num">
                          <Money amount={c[k]} currency={a.currency} plain />
                        </td>
                      ))}
                    </tr>
                    {open === c.id &&
                      c.documents.map((d) => (
                        <tr key={`${c.id}:${d.number}`} className="detail">
                          <td>
                            <Words text={`${d.number} · due ${d.dueDate}${d.daysPastDue ? ` · ${d.daysPastDue} days late` : ''}`} />
                          </td>
                          {COLUMNS.map(([k]) => (
                            <td key={k} className="num">
                              {k === d.bucket ? <Money amount={d.balance} currency={a.currency} plain /> : ''}
                            </td>
                          ))}
                        </tr>
                      ))}
                  </Fragment>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  {COLUMNS.map(([k]) => (
                    <td key={k} className="num">
                      <Money amount={k === 'total' ? a.total : a.totals[k]} currency={a.currency} plain />
                    </td>
                  ))}
                </tr>
              </tfoot>
            </table>
          </TableFrame>
        )}
      </Show>
    </section>
  );
}

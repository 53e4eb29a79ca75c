// Log: the audit log, newest first, filtered by actor, action and date.
import { useState } from 'react';
import { Empty, Pager, Show } from '../components';
import { desk } from '../desk';
import { formatDateTime } from '../format';
import { useLoad } from '../hooks';

const LIMIT = 50;

export function Log({ orgId }: { orgId: string }) {
  const [filters, setFilters] = useState({ actor: '', action: '', dateFrom: '', dateTo: '' });
  const [offset, setOffset] = useState(0);
  const loaded = useLoad(
    () =>
      desk.listAudit({
        orgId,
        limit: LIMIT,
        offset,
        ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')),
      }),
    [orgId, offset, JSON.stringify(filters)],
    5000,
  );
  const set = (key: keyof typeof filters) => (value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setOffset(0);
  };
  const facets = loaded.data?.facets ?? { actors: [], actions: [] };
  return (
    <section aria-labelledby="log-title">
      <div className="screen-head">
        <h2 id="log-title">Log</h2>
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Actor
          <select value={filters.actor} onChange={(e) => set('actor')(e.target.value)}>
            <option value="">Everyone</option>
            {facets.actors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.type === 'token' ? 'agent token' : 'person'})
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <select value={filters.action} onChange={(e) => set('action')(e.target.value)}>
            <option value="">All actions</option>
            {facets.actions.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={filters.dateFrom} onChange={(e) => set('dateFrom')(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={filters.dateTo} onChange={(e) => set('dateTo')(e.target.value)} />
        </label>
      </form>
      <Show loaded={loaded} what="the log" empty={(d) => (d.entries.length === 0 ? <Empty title="No log entries match.">Every agent write and every review is recorded here.</Empty> : undefined)}>
        {(data) => (
          <>
            <table className="grid log">
              <thead>
                <tr>
                  <th>Time</th>
                  <th>Actor</th>
                  <th>Action</th>
                  <th>Summary</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.id}>
                    <td className="nowrap">{formatDateTime(e.at)}</td>
                    <td>
                      {e.actor.name}
                      <div className="muted small">
                        {e.actor.type === 'token' ? 'agent token' : 'person'} · {e.channel}
                      </div>
                    </td>
                    <td>
                      <code>{e.action}</code>
                    </td>
                    <td>{e.summary}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={offset} limit={LIMIT} total={data.totalCount} onChange={setOffset} />
          </>
        )}
      </Show>
    </section>
  );
}

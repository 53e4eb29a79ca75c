// Log: the audit log, newest first, filtered by actor, action and date.
import { DateRange, Empty, Pager, SelectField, Show, TableFrame, Words } from '../../components';
import { desk } from '../../desk';
import { formatDateTime } from '../../format';
import { useFilters, useLoad } from '../../hooks';

const LIMIT = 50;
const CHANNEL: Record<string, string> = { rest: 'REST API', mcp: 'MCP', desk: 'desk' };

export function Log({ orgId }: { orgId: string }) {
  const { filters, set, offset, setOffset, query, key } = useFilters({ actor: '', action: '', dateFrom: '', dateTo: '' });
  const loaded = useLoad(() => desk.listAudit({ orgId, limit: LIMIT, offset, ...query }), [orgId, offset, key], 5000);
  const facets = loaded.data?.facets ?? { actors: [], actions: [] };
  const chain = useLoad(() => desk.verifyAudit({ orgId }), [orgId]);
  return (
    <section aria-labelledby="log-title">
      <div className="screen-head">
        <h2 id="log-title">Log</h2>
        {chain.data && (
          <span className={`chain ${chain.data.ok ? 'ok' : 'bad'}`} role="status">
            {chain.data.ok
              ? `Chain verified: ${chain.data.entries} entries, each chained to the one before`
              : `Chain broken at entry ${chain.data.firstBad!.id} (${chain.data.firstBad!.action}, ${chain.data.firstBad!.at}): the log was changed outside Ledgerdesk`}
          </span>
        )}
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label="Actor"
          anyLabel="Everyone"
          value={filters.actor}
          onChange={set('actor')}
          options={facets.actors.map((a) => ({ value: a.id, label: `${a.name} (${a.type === 'token' ? 'agent token' : 'person'})` }))}
        />
        <SelectField label="Action" anyLabel="All actions" value={filters.action} onChange={set('action')} options={facets.actions} />
        <DateRange from={filters.dateFrom} to={filters.dateTo} onFrom={set('dateFrom')} onTo={set('dateTo')} />
      </form>
      <Show
        loaded={loaded}
        what="the log"
        empty={(d) => (d.entries.length === 0 ? <Empty title="No log entries match.">Every agent write and every review is recorded here.</Empty> : undefined)}
      >
        {(data) => (
          <>
            <TableFrame>
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
                          {e.actor.type === 'token' ? 'agent token' : 'person'} · {CHANNEL[e.channel] ?? e.channel}
                        </div>
                      </td>
                      <td>
                        <code>{e.action}</code>
                      </td>
                      <td>
                        <Words text={e.summary} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
            <Pager offset={offset} limit={LIMIT} total={data.totalCount} onChange={setOffset} />
          </>
        )}
      </Show>
    </section>
  );
}

// Transactions: the ledger with the API's filters and paging; a row opens its notes and receipts.
import { Fragment, useState } from 'react';
import type { DeskInput } from '../../../main/desk/operations';
import { DateRange, Empty, Money, Pager, SelectField, Show } from '../components';
import { desk } from '../desk';
import { formatBytes, formatDateTime } from '../format';
import { useFilters, useLoad } from '../hooks';

const LIMIT = 50;
const STATUSES = ['uncategorized', 'matched', 'receipt_missing', 'agent_suggested', 'reconciled'] as const;
const SOURCES = ['bankfeed', 'paymentproc', 'manual_csv'] as const;
/** The selects offer only valid values; the server validates the rest. */
type Filters = Omit<DeskInput<'listTransactions'>, 'orgId'>;
const EMPTY = { account: '', status: '', source: '', dateFrom: '', dateTo: '', category: '', description: '' };

function Detail({ orgId, id }: { orgId: string; id: string }) {
  const loaded = useLoad(() => desk.getTransaction({ orgId, id }), [orgId, id]);
  return (
    <Show loaded={loaded} what="the transaction">
      {({ transaction: t, notes, receipts }) => (
        <div className="detail">
          {t.reason && (
            <p>
              Categorized on the suggestion of <code>{t.suggestedBy}</code> ({Math.round((t.confidence ?? 0) * 100)}%): “{t.reason}”
            </p>
          )}
          <h4>Notes</h4>
          {notes.length ? (
            <ul>
              {notes.map((n) => (
                <li key={n.id}>
                  {n.content} <span className="muted small">{formatDateTime(n.createdAt)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No notes.</p>
          )}
          <h4>Receipts</h4>
          {receipts.length ? (
            <ul>
              {receipts.map((r) => (
                <li key={r.id}>
                  {r.fileName} <span className="muted small">{r.mimeType}, {formatBytes(r.sizeBytes)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No receipt linked.</p>
          )}
        </div>
      )}
    </Show>
  );
}

export function Transactions({ orgId, accountId }: { orgId: string; accountId?: string }) {
  const { filters, set, reset, offset, setOffset, query, key } = useFilters({ ...EMPTY, account: accountId ?? '' });
  const accounts = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const [open, setOpen] = useState<string>();
  const loaded = useLoad(() => desk.listTransactions({ orgId, ...(query as Filters), limit: LIMIT, offset }), [orgId, offset, key]);
  return (
    <section aria-labelledby="transactions-title">
      <div className="screen-head">
        <h2 id="transactions-title">Transactions</h2>
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="Account" anyLabel="All accounts" value={filters.account} onChange={set('account')} options={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))} />
        <SelectField label="Status" anyLabel="Any" value={filters.status} onChange={set('status')} options={STATUSES} />
        <SelectField label="Source" anyLabel="Any" value={filters.source} onChange={set('source')} options={SOURCES} />
        <DateRange from={filters.dateFrom} to={filters.dateTo} onFrom={set('dateFrom')} onTo={set('dateTo')} />
        <label>
          Category
          <input value={filters.category} placeholder="exact name or __uncategorized__" onChange={(e) => set('category')(e.target.value)} />
        </label>
        <label>
          Description
          <input type="search" value={filters.description} placeholder="contains…" onChange={(e) => set('description')(e.target.value)} />
        </label>
        <button type="button" onClick={reset}>
          Clear
        </button>
      </form>
      <Show loaded={loaded} what="transactions" empty={(d) => (d.data.length === 0 ? <Empty title="No transactions match these filters." /> : undefined)}>
        {(page) => (
          <>
            <table className="grid">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Description</th>
                  <th className="num">Amount</th>
                  <th>Category</th>
                  <th>Status</th>
                  <th>Source</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((t) => (
                  <Fragment key={t.id}>
                    <tr className="clickable" tabIndex={0} aria-expanded={open === t.id} onClick={() => setOpen(open === t.id ? undefined : t.id)} onKeyDown={(e) => e.key === 'Enter' && setOpen(open === t.id ? undefined : t.id)}>
                      <td className="nowrap">{t.date}</td>
                      <td>{t.description}</td>
                      <td className="num">
                        <Money amount={t.amount} currency={t.currency} />
                      </td>
                      <td>{t.category ?? <span className="muted">—</span>}</td>
                      <td>
                        <span className={`status ${t.status}`}>{t.status}</span>
                      </td>
                      <td>{t.source}</td>
                    </tr>
                    {open === t.id && (
                      <tr>
                        <td colSpan={6}>
                          <Detail orgId={orgId} id={t.id} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
            <Pager offset={offset} limit={LIMIT} total={page.meta.totalCount} onChange={setOffset} />
          </>
        )}
      </Show>
    </section>
  );
}

// The general ledger: one account of the books (a money account, a category,
// the suspense or in-transit lines) over a period, oldest first, with the
// running balance and each entry's other side; paged like the register. The
// reports' figures open it (#/ledger?account=<ref>&from=&to=; a P&L figure
// adds basis= and, for a parent's subtotal, children=1: the categories the
// P&L reports under it, each posting naming its own); a row opens its
// transaction in the register.
import { useState } from 'react';
import { generalLedgerCsv } from '../../../../main/exports/books-csv';
import { DateField, Empty, Money, Pager, Show, TableFrame, Words } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { saveText } from './ExportPanel';

const LIMIT = 100;

export function GeneralLedger({ orgId, initial }: { orgId: string; initial: Record<string, string> }) {
  const [query, setQuery] = useState({ account: initial.account ?? '', from: initial.from ?? '', to: initial.to ?? '' });
  // What a P&L figure adds (kept while the account stays; another account is read plainly).
  const [figure, setFigure] = useState({ withChildren: initial.children === '1' || undefined, basis: initial.basis as 'cash' | 'accrual' | undefined });
  const [typed, setTyped] = useState(query.account);
  const [offset, setOffset] = useState(0);
  // The accounts' names to pick from, for whom may list them (anyone may type one).
  const listing = useCan()('listChart');
  const chart = useLoad(() => (listing ? Promise.all([desk.listAccounts({ orgId }), desk.listChart({ orgId })]) : Promise.resolve(null)), [orgId, listing]);
  const loaded = useLoad(
    () =>
      query.account
        ? desk.generalLedger({ orgId, account: query.account, from: query.from || undefined, to: query.to || undefined, ...figure, limit: LIMIT, offset })
        : Promise.resolve(null),
    [orgId, query.account, query.from, query.to, figure, offset],
  );
  const choose = (account: string) => {
    setOffset(0);
    if (account !== query.account) setFigure({ withChildren: undefined, basis: undefined });
    setQuery((q) => ({ ...q, account }));
  };
  return (
    <section aria-labelledby="ledger-title" className="reports">
      <div className="screen-head">
        <h2 id="ledger-title">General ledger</h2>
        <button className="no-print" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <form
        className="filters no-print"
        onSubmit={(e) => {
          e.preventDefault();
          choose(typed.trim());
        }}
      >
        <label>
          Account
          <input list="ledger-accounts" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="5100, Checking, suspense, in-transit" />
          <datalist id="ledger-accounts">
            {chart.data?.[0].map((a) => (
              <option key={a.id} value={a.name} />
            ))}
            {chart.data?.[1].map((c) => (
              <option key={c.code} value={c.code}>{`${c.code} ${c.name}`}</option>
            ))}
            <option value="suspense">Uncategorized (suspense)</option>
            <option value="in-transit">Transfers in transit</option>
          </datalist>
        </label>
        <DateField label="From" value={query.from} onChange={(from) => setQuery((q) => ({ ...q, from }))} />
        <DateField label="To" value={query.to} onChange={(to) => setQuery((q) => ({ ...q, to }))} />
        <button type="submit">Show</button>
      </form>
      <Show
        loaded={loaded}
        what="the general ledger"
        empty={(gl) => (gl ? null : <Empty title="Choose an account">A money account, a category, the suspense or the in-transit lines.</Empty>)}
      >
        {(gl) =>
          gl && (
            <>
              <h3>
                {gl.account.code ? `${gl.account.code} ` : ''}
                {gl.account.name}
                {gl.account.includes && ` with ${gl.account.includes.map((c) => `${c.code} ${c.name}`).join(', ')}`},{' '}
                {gl.from === '0001-01-01' ? 'from the beginning' : `from ${gl.from}`} to {gl.to} ({gl.currency}
                {gl.basis === 'cash' ? ', cash basis' : ''})
              </h3>
              <TableFrame>
                <table className="grid ledger">
                  <thead>
                    <tr>
                      <th>Date</th>
                      {gl.account.includes && <th>Category</th>}
                      <th>Description</th>
                      <th>Other side</th>
                      <th className="num">Debit</th>
                      <th className="num">Credit</th>
                      <th className="num">Balance</th>
                    </tr>
                  </thead>
                  <tbody>
                    <tr className="apart">
                      <td colSpan={gl.account.includes ? 6 : 5}>Starting balance</td>
                      <td className="num">
                        <Money amount={gl.startingBalance} currency={gl.currency} plain />
                      </td>
                    </tr>
                    {gl.data.map((p, i) => (
                      <tr key={`${p.transactionId}-${i}`}>
                        <td className="nowrap">{p.date}</td>
                        {gl.account.includes && <td>{p.category && `${p.category.code} ${p.category.name}`}</td>}
                        <td>
                          {/* A journal's posting opens its journal (the opening entry, its screen); a row's, the register. */}
                          <a
                            href={
                              p.journal
                                ? p.journal.number.startsWith('JNL-')
                                  ? `#/journals?number=${p.journal.number}`
                                  : '#/opening'
                                : `#/transactions?${new URLSearchParams({ description: p.description, dateFrom: p.date, dateTo: p.date })}`
                            }
                          >
                            <Words text={p.description} />
                          </a>
                          {p.memo && <span className="muted small"> — {p.memo}</span>}
                        </td>
                        <td>{p.other}</td>
                        <td className="num">{p.debit !== 0 && <Money amount={p.debit} currency={gl.currency} plain />}</td>
                        <td className="num">{p.credit !== 0 && <Money amount={p.credit} currency={gl.currency} plain />}</td>
                        <td className="num">
                          <Money amount={p.balance} currency={gl.currency} plain />
                        </td>
                      </tr>
                    ))}
                    <tr className="subtotal" aria-label="Net for the period">
                      <td colSpan={gl.account.includes ? 4 : 3}>Net for the period</td>
                      <td className="num">{gl.net > 0 && <Money amount={gl.net} currency={gl.currency} plain />}</td>
                      <td className="num">{gl.net < 0 && <Money amount={-gl.net} currency={gl.currency} plain />}</td>
                      <td />
                    </tr>
                    <tr className="total">
                      <td colSpan={gl.account.includes ? 6 : 5}>Ending balance</td>
                      <td className="num">
                        <Money amount={gl.endingBalance} currency={gl.currency} plain />
                      </td>
                    </tr>
                  </tbody>
                </table>
              </TableFrame>
              <Pager offset={offset} limit={LIMIT} total={gl.meta.totalCount} onChange={setOffset} />
              <button className="no-print" onClick={() => saveText(`ledger-${gl.account.code ?? gl.account.name}.csv`, generalLedgerCsv(gl))}>
                Download CSV
              </button>
            </>
          )
        }
      </Show>
    </section>
  );
}

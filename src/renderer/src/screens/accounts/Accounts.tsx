// Accounts: the organization's money accounts with their balances, last import
// and last statement balance; add, rename, close and reopen.
import { useState, type FormEvent } from 'react';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import { ACCOUNT_TYPE_LABELS } from '../../../../shared/accounts';
import { AmountField, Empty, Money, Notice, Show, TableFrame, Words, messageOf, useTypedAmount } from '../../components';
import { desk } from '../../desk';
import { formatDateTime } from '../../format';
import { useLoad } from '../../hooks';
import { useOrg } from '../../org';
import { useCan } from '../../can';

const EMPTY_FORM = { name: '', type: 'checking' as Account['type'], currency: '', openingBalance: '', openingDate: '', maskedNumber: '' };

function NewAccount({ orgId, onDone }: { orgId: string; onDone: (text: string, kind: 'ok' | 'error') => void }) {
  const [form, setForm] = useState(EMPTY_FORM);
  const set = (key: keyof typeof EMPTY_FORM) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const org = useOrg();
  const currency = /^[A-Z]{3}$/.test(form.currency) ? form.currency : org.currency;
  const opening = useTypedAmount(form.openingBalance, currency);
  const owed = form.type === 'credit_card' || form.type === 'other_liability';
  async function create(e: FormEvent) {
    e.preventDefault();
    if (opening?.ok === false) return onDone(`Opening balance ${opening.message}`, 'error');
    try {
      const a = await desk.createAccount({
        orgId,
        name: form.name,
        type: form.type,
        currency: form.currency || undefined,
        openingBalance: form.openingBalance.trim() || undefined,
        openingDate: form.openingDate || undefined,
        maskedNumber: form.maskedNumber || undefined,
      });
      setForm(EMPTY_FORM);
      onDone(`Added ${a.name}. Import its statement next.`, 'ok');
    } catch (error) {
      onDone(messageOf(error), 'error');
    }
  }
  return (
    <form className="inline-form" onSubmit={create} aria-label="New account">
      <label>
        Name
        <input required maxLength={100} value={form.name} onChange={(e) => set('name')(e.target.value)} placeholder="Business checking" />
      </label>
      <label>
        Type
        <select value={form.type} onChange={(e) => set('type')(e.target.value)}>
          {Object.entries(ACCOUNT_TYPE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Currency
        <input maxLength={3} size={4} value={form.currency} onChange={(e) => set('currency')(e.target.value.toUpperCase())} placeholder="default" />
      </label>
      <AmountField
        label={owed ? 'Opening balance (negative: owed)' : 'Opening balance'}
        value={form.openingBalance}
        onChange={set('openingBalance')}
        currency={currency}
        placeholder="0"
      />
      <label>
        On (YYYY-MM-DD)
        <input pattern="\d{4}-\d{2}-\d{2}" value={form.openingDate} onChange={(e) => set('openingDate')(e.target.value)} placeholder="2024-01-01" />
      </label>
      <label>
        Number as shown
        <input maxLength={40} value={form.maskedNumber} onChange={(e) => set('maskedNumber')(e.target.value)} placeholder="****1234" />
      </label>
      <button type="submit">Add account</button>
    </form>
  );
}

function Row({ account: a, orgId, onDone }: { account: Account; orgId: string; onDone: (text: string, kind: 'ok' | 'error') => void }) {
  const can = useCan();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(a.name);
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      onDone(done, 'ok');
    } catch (error) {
      onDone(messageOf(error), 'error');
    }
  };
  return (
    <tr className={a.closedAt ? 'closed' : undefined}>
      <td>
        {renaming ? (
          <form onSubmit={(e) => (e.preventDefault(), setRenaming(false), void act(() => desk.updateAccount({ orgId, account: a.id, name }), `Renamed to ${name}.`))}>
            <input maxLength={100} aria-label={`New name for ${a.name}`} autoFocus value={name} onChange={(e) => setName(e.target.value)} />
            <button type="submit">Save</button>
          </form>
        ) : (
          <a href={`#/transactions?account=${a.id}`}>{a.name}</a>
        )}
        {a.maskedNumber && !a.name.includes(a.maskedNumber) && <span className="muted small"> {a.maskedNumber}</span>}
        {a.closedAt && <span className="status closed-badge">closed</span>}
      </td>
      <td>{ACCOUNT_TYPE_LABELS[a.type]}</td>
      <td className="num">
        <Money amount={a.balance} currency={a.currency} />
      </td>
      <td className="num">{a.transactionCount.toLocaleString()}</td>
      <td>{a.lastImportAt ? <Words text={formatDateTime(a.lastImportAt)} /> : <span className="muted">never</span>}</td>
      <td>
        {a.lastStatement ? (
          <>
            <Money amount={a.lastStatement.balance} currency={a.currency} />{' '}
            <span className="muted small">
              <Words text={`on ${a.lastStatement.date}`} />
            </span>
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        {a.lastReconciliation ? (
          <>
            <span className="nowrap">{a.lastReconciliation.date}</span> <Money amount={a.lastReconciliation.balance} currency={a.currency} plain />
          </>
        ) : (
          <span className="muted">never</span>
        )}
      </td>
      <td className="actions">
        <div className="row-actions">
          {!a.closedAt && can('importStatement') && (
            <a className="button" href={`#/import?account=${a.id}`}>
              Import statement
            </a>
          )}
          {!a.closedAt && (
            <a className="button" href={`#/reconcile?account=${a.id}`}>
              Reconcile
            </a>
          )}
          {!a.closedAt && can('updateAccount') && <button onClick={() => setRenaming(!renaming)}>Rename</button>}
          {!can('closeAccount') ? null : a.closedAt ? (
            <button onClick={() => act(() => desk.reopenAccount({ orgId, account: a.id }), `Reopened ${a.name}.`)}>Reopen</button>
          ) : (
            <button
              onClick={() => window.confirm(`Close ${a.name}? It is kept with its rows, read-only.`) && act(() => desk.closeAccount({ orgId, account: a.id }), `Closed ${a.name}.`)}
            >
              Close
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

export function Accounts({ orgId }: { orgId: string }) {
  const can = useCan();
  const loaded = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const done = (text: string, kind: 'ok' | 'error') => {
    setNotice({ kind, text });
    loaded.reload();
  };
  return (
    <section aria-labelledby="accounts-title">
      <div className="screen-head">
        <h2 id="accounts-title">Accounts</h2>
        {can('importStatement') && (
          <a className="button" href="#/import">
            Import a statement
          </a>
        )}
      </div>
      <p className="hint">Each account's balance is its opening balance plus every transaction in it. A closed account keeps its rows, read-only.</p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <Show
        loaded={loaded}
        what="accounts"
        empty={(d) => (d.length === 0 ? <Empty title="No accounts yet.">Add an account below, then import its bank statement.</Empty> : undefined)}
      >
        {(accounts) => (
          <TableFrame>
            <table className="grid accounts">
              <thead>
                <tr>
                  <th>Account</th>
                  <th>Type</th>
                  <th className="num">Balance</th>
                  <th className="num">Rows</th>
                  <th>Last import</th>
                  <th>Statement balance</th>
                  <th>Reconciled</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {accounts.map((a) => (
                  <Row key={a.id} account={a} orgId={orgId} onDone={done} />
                ))}
              </tbody>
            </table>
          </TableFrame>
        )}
      </Show>
      {can('createAccount') && (
        <>
          <h3>New account</h3>
          <NewAccount orgId={orgId} onDone={done} />
        </>
      )}
    </section>
  );
}

// Transactions: the register. One account (or all) with the API's filters, 50
// rows a page from the server, the running balance of one account; categorize
// by type-ahead (one row or a selection), by keyboard alone: j/k or arrows to
// move, x or space to select, c to categorize, Enter to open a row. A row's
// cells and its opened detail: RegisterLine.tsx.
import { useRef, useState, type KeyboardEvent } from 'react';
import type { DeskInput, DeskResult } from '../../../../main/desk/operations';
import type { RegisterRow } from '../../../../main/ledger/transactions/register';
import { CategoryPicker } from '../../CategoryPicker';
import { DateRange, Empty, Notice, Pager, SelectField, Show, TableFrame, messageOf } from '../../components';
import { SOURCE_LABELS, STATUS_LABELS } from '../../../../shared/words';
import { desk } from '../../desk';
import { withCorrection } from '../../correction';
import { useFilters, useLoad } from '../../hooks';
import { doneText, useCan } from '../../can';
import { PendingRows } from '../connectors/PendingRows';
import { RegisterLine } from './RegisterLine';
import { TransactionForm } from './TransactionForm';

const LIMIT = 50;
const STATUSES = Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label }));
const SOURCES = Object.entries(SOURCE_LABELS).map(([value, label]) => ({ value, label }));
type Filters = Omit<DeskInput<'register'>, 'orgId'>;
const EMPTY = { account: '', status: '', source: '', dateFrom: '', dateTo: '', category: '', description: '' };

const HINT = (
  <p className="hint">
    Keys: j/k or arrows to move, x or space to select, c to categorize, t to accept a possible transfer, p to record a possible payment of an invoice or bill, Enter to open. A
    bank's rows keep the bank's date, amount and description: their category, notes and receipts change. Rows you entered can be edited and deleted until they are reconciled.
  </p>
);

/** A row's possible payment accepted (the p key): it pays that invoice or bill. */
function recordPayment(orgId: string, t: RegisterRow) {
  const { kind, numbers } = t.possiblePayment!;
  return (kind === 'bill' ? desk.payBill : desk.payInvoice)({ orgId, numbers: [numbers[0]], transactionId: t.id });
}

/** `initial`: filters from the route (#/transactions?account=...&category=...&dateFrom=...), e.g. a report's drill-down. */
export function Transactions({ orgId, initial = {} }: { orgId: string; initial?: Partial<Record<keyof typeof EMPTY, string>> }) {
  const can = useCan();
  const { filters, set, reset, offset, setOffset, query, key } = useFilters({ ...EMPTY, ...Object.fromEntries(Object.entries(initial).filter(([k]) => k in EMPTY)) });
  const accounts = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const chart = useLoad(() => desk.listChart({ orgId }), [orgId]);
  const loaded = useLoad(() => desk.register({ orgId, ...(query as Filters), limit: LIMIT, offset }), [orgId, offset, key]);
  const [open, setOpen] = useState<string>();
  const [picking, setPicking] = useState<string | 'selection'>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string; undo?: () => void }>();
  const table = useRef<HTMLTableSectionElement>(null);
  const rows = loaded.data?.data ?? [];
  const focusRow = (i: number) => table.current?.querySelectorAll<HTMLElement>('tr.row')[Math.max(0, Math.min(rows.length - 1, i))]?.focus();
  const toggle = (id: string) => setSelected((s) => new Set(s.has(id) ? [...s].filter((x) => x !== id) : [...s, id]));

  async function act(what: () => Promise<unknown>, done: string, refocus?: number, undo?: () => void) {
    try {
      const text = doneText(await what(), done);
      // Undo only what was done, not a proposal made instead of it.
      setNotice({ kind: 'ok', text, undo: text === done ? undo : undefined });
      setSelected(new Set());
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    setPicking(undefined);
    loaded.reload();
    accounts.reload();
    if (refocus !== undefined) setTimeout(() => focusRow(refocus), 0);
  }

  const categorize = (ids: string[], code: string | null, refocus?: number) =>
    act(
      () => withCorrection((c) => desk.categorizeTransactions({ orgId, ids, categoryCode: code, ...c })),
      `Categorized ${ids.length} row(s) as ${code ?? '(uncategorized)'}.`,
      refocus,
    );

  // The t key: the row's possible transfer accepted, with an Undo that makes both rows uncategorized again.
  const acceptTransfer = (t: RegisterRow, i: number) =>
    act(
      () => desk.matchTransfer({ orgId, id: t.id, other: t.possibleTransfer!.id }),
      `Matched as one transfer with ${t.possibleTransfer!.accountName}.`,
      i,
      () => act(() => desk.undoTransfer({ orgId, id: t.id }), 'No longer a transfer: both rows are uncategorized again.', i),
    );

  const onKey = (t: RegisterRow, i: number) => (e: KeyboardEvent<HTMLTableRowElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'ArrowDown' || e.key === 'j') focusRow(i + 1);
    else if (e.key === 'ArrowUp' || e.key === 'k') focusRow(i - 1);
    else if (e.key === 'x' || e.key === ' ') toggle(t.id);
    else if (e.key === 'c' && can('categorizeTransactions')) setPicking(t.id);
    else if (e.key === 't' && t.possibleTransfer && can('matchTransfer')) acceptTransfer(t, i);
    else if (e.key === 'p' && t.possiblePayment && can('payInvoice'))
      act(() => recordPayment(orgId, t), `Recorded as the payment of ${t.possiblePayment.kind} ${t.possiblePayment.numbers[0]}.`, i);
    else if (e.key === 'Enter') setOpen(open === t.id ? undefined : t.id);
    else return;
    e.preventDefault();
  };

  const balances = loaded.data?.balances === true;
  const columns = 7 + (balances ? 1 : 0) + (filters.account ? 0 : 1);
  return (
    <section aria-labelledby="transactions-title">
      <div className="screen-head">
        <h2 id="transactions-title">Transactions</h2>
        {can('addTransaction') && <button onClick={() => setAdding(!adding)}>Add a transaction</button>}
      </div>
      {HINT}
      {adding && (
        <TransactionForm
          orgId={orgId}
          accounts={accounts.data ?? []}
          categories={chart.data ?? []}
          defaultAccount={filters.account || undefined}
          onDone={(m) => (setAdding(false), m && setNotice({ kind: 'ok', text: m }), loaded.reload())}
        />
      )}
      <RegisterFilters filters={filters} set={set} reset={reset} accounts={accounts.data ?? []} chart={chart.data ?? []} />
      {notice && (
        <Notice kind={notice.kind}>
          {notice.text} {notice.undo && <button onClick={notice.undo}>Undo</button>}
        </Notice>
      )}
      {selected.size > 0 && (
        <SelectionBar
          count={selected.size}
          picking={picking === 'selection'}
          categories={chart.data ?? []}
          onPick={() => setPicking('selection')}
          onChoose={(code) => void categorize([...selected], code)}
          onCancelPick={() => setPicking(undefined)}
          mayMark={can('markReceiptMissing')}
          onReceipt={(state) =>
            act(() => desk.markReceiptMissing({ orgId, ids: [...selected], state }), state === 'missing' ? 'Marked as needing a receipt.' : 'No longer need a receipt.')
          }
          onClear={() => setSelected(new Set())}
        />
      )}
      {filters.account && can('listPendingRows') && <PendingRows key={key} orgId={orgId} account={filters.account} />}
      <Show
        loaded={loaded}
        what="transactions"
        empty={(d) => (d.data.length === 0 ? <Empty title="No transactions match these filters.">Import a statement, or add a transaction by hand.</Empty> : undefined)}
      >
        {(page) => (
          <>
            <TableFrame>
              <table className="grid register">
                <RegisterHead balances={balances} allAccounts={!filters.account} />
                <tbody ref={table}>
                  {page.data.map((t, i) => (
                    <RegisterLine
                      key={t.id}
                      orgId={orgId}
                      row={t}
                      columns={columns}
                      balances={balances}
                      allAccounts={!filters.account}
                      selected={selected.has(t.id)}
                      onToggle={() => toggle(t.id)}
                      open={open === t.id}
                      onOpen={() => setOpen(open === t.id ? undefined : t.id)}
                      onKey={onKey(t, i)}
                      picking={picking === t.id}
                      onPick={() => setPicking(t.id)}
                      onChoose={(code) => void categorize([t.id], code, i)}
                      onCancelPick={() => (setPicking(undefined), focusRow(i))}
                      accounts={accounts.data ?? []}
                      categories={chart.data ?? []}
                      onChanged={(m) => (setNotice({ kind: 'ok', text: m }), loaded.reload(), accounts.reload())}
                    />
                  ))}
                </tbody>
              </table>
            </TableFrame>
            <Pager offset={offset} limit={LIMIT} total={page.meta.totalCount} onChange={setOffset} />
          </>
        )}
      </Show>
    </section>
  );
}

/** What can be done to the selected rows at once. */
function SelectionBar(props: {
  count: number;
  picking: boolean;
  categories: DeskResult<'listChart'>;
  onPick: () => void;
  onChoose: (code: string | null) => void;
  onCancelPick: () => void;
  mayMark: boolean;
  onReceipt: (state: 'missing' | 'found') => void;
  onClear: () => void;
}) {
  return (
    <div className="toolbar" aria-label="Selection">
      <span>{props.count} selected</span>
      <button onClick={props.onPick}>Categorize selected</button>
      {props.mayMark && (
        <>
          <button onClick={() => props.onReceipt('missing')}>Needs a receipt</button>
          <button onClick={() => props.onReceipt('found')}>Receipt found</button>
        </>
      )}
      <button onClick={props.onClear}>Clear selection</button>
      {props.picking && <CategoryPicker categories={props.categories} label="Category for the selected rows" allowClear onChoose={props.onChoose} onCancel={props.onCancelPick} />}
    </div>
  );
}

type Account = DeskResult<'listAccounts'>[number];
type ChartEntry = DeskResult<'listChart'>[number];
interface FilterProps {
  filters: typeof EMPTY;
  set: (key: keyof typeof EMPTY) => (value: string) => void;
  reset: () => void;
  accounts: Account[];
  chart: ChartEntry[];
}

function RegisterFilters({ filters, set, reset, accounts, chart }: FilterProps) {
  return (
    <form className="filters" onSubmit={(e) => e.preventDefault()}>
      <SelectField label="Account" anyLabel="All accounts" value={filters.account} onChange={set('account')} options={accounts.map((a) => ({ value: a.id, label: a.name }))} />
      <SelectField label="Status" anyLabel="Any" value={filters.status} onChange={set('status')} options={STATUSES} />
      <SelectField label="Source" anyLabel="Any" value={filters.source} onChange={set('source')} options={SOURCES} />
      <DateRange from={filters.dateFrom} to={filters.dateTo} onFrom={set('dateFrom')} onTo={set('dateTo')} />
      <SelectField
        label="Category"
        anyLabel="Any"
        value={filters.category}
        onChange={set('category')}
        options={[{ value: '__uncategorized__', label: 'Uncategorized' }, ...chart.map((c) => ({ value: c.name, label: `${c.code} ${c.name}` }))]}
      />
      <label>
        Description
        <input type="search" maxLength={200} value={filters.description} placeholder="contains…" onChange={(e) => set('description')(e.target.value)} />
      </label>
      <button type="button" onClick={reset}>
        Clear
      </button>
    </form>
  );
}

function RegisterHead({ balances, allAccounts }: { balances: boolean; allAccounts: boolean }) {
  return (
    <thead>
      <tr>
        <th>
          <span className="sr-only">Select</span>
        </th>
        <th>Date</th>
        <th>Description</th>
        <th className="num">Amount</th>
        {balances && <th className="num">Balance</th>}
        <th>Category</th>
        <th>Status</th>
        {allAccounts && <th>Account</th>}
        <th>From</th>
      </tr>
    </thead>
  );
}

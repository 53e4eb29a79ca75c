// A row's entry in the register's detail: its lines (a split's categories and
// memos, a transfer's other account, in transit or matched), each as its part
// of the row as the split editor types it (positive; a line against the row
// marked), and what can be done with them: split or unsplit, make a transfer
// to another account, accept a possible transfer, undo one.
import { useState } from 'react';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import type { Category } from '../../../../main/ledger/chart/categories';
import type { EntryLine } from '../../../../main/ledger/transactions/detail';
import type { RegisterRow } from '../../../../main/ledger/transactions/register';
import { CategoryOptions, Money } from '../../components';
import { desk, DeskError } from '../../desk';
import { withCorrection } from '../../correction';
import { againstWords, rowKind } from '../../../../shared/split-parts';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { addDays } from '../../../../shared/dates';
import { formatMoney } from '../../format';
import { SplitEditor } from '../transactions/SplitEditor';

type Act = (what: () => Promise<unknown>, done: string) => Promise<void>;

function lineText(l: EntryLine, row: RegisterRow, accounts: Account[], categories: Category[]): string {
  if (l.kind === 'transfer') {
    const other = `Transfer ${row.amount < 0 ? 'to' : 'from'} ${accounts.find((a) => a.id === l.accountId)?.name ?? 'another account'}`;
    return l.counterpartId ? `${other} (matched with its other side)` : `${other} (in transit: waiting for its other side)`;
  }
  if (l.kind === 'suspense') return 'Uncategorized';
  if (l.kind === 'tax') return 'Tax';
  const c = categories.find((x) => x.code === l.categoryCode);
  return c ? `${c.code} ${c.name}` : (l.categoryCode ?? '');
}

function PossibleTransfers({ orgId, row, act }: { orgId: string; row: RegisterRow; act: Act }) {
  const found = useLoad(() => desk.suggestTransfers({ orgId, dateFrom: addDays(row.date, -5), dateTo: addDays(row.date, 5), limit: 50 }), [orgId, row.id]);
  const mine = (found.data?.data ?? []).filter((p) => p.from.id === row.id || p.to.id === row.id);
  if (!mine.length) return null;
  return (
    <ul aria-label="Possible transfers">
      {mine.map((p) => {
        const other = p.from.id === row.id ? p.to : p.from;
        return (
          <li key={other.id}>
            <span className="badge">Possible transfer</span> {other.account.name}, {other.date} ({p.daysApart} day(s) apart): {other.description}{' '}
            <button onClick={() => void act(() => desk.matchTransfer({ orgId, id: row.id, other: other.id }), 'Matched as one transfer.')}>Accept transfer</button>
          </li>
        );
      })}
    </ul>
  );
}

/** One category's row: the tax code its amount is taxed at (gross: net and tax lines), chosen again. */
function TaxChoice({ orgId, row, categories, act }: { orgId: string; row: RegisterRow; categories: Category[]; act: Act }) {
  const codes = useLoad(() => desk.listTaxCodes({ orgId }), [orgId]).data?.filter((c) => !c.archived) ?? [];
  const [code, setCode] = useState('');
  const category = categories.find((c) => c.name === row.category);
  if (!codes.length || !category) return null;
  return (
    <form
      className="inline-form"
      aria-label="Tax code"
      onSubmit={(e) => (
        e.preventDefault(),
        void act(
          () => withCorrection((c) => desk.categorizeTransactions({ orgId, ids: [row.id], categoryCode: category.code, taxCode: code, ...c })),
          code ? `Taxed at ${code}.` : 'No tax on it now.',
        )
      )}
    >
      <label>
        Tax code
        <select value={code} onChange={(e) => setCode(e.target.value)}>
          <option value="">No tax</option>
          {codes.map((c) => (
            <option key={c.code} value={c.code}>
              {c.code} {c.name} ({c.rate}%)
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Apply tax code</button>
    </form>
  );
}

/**
 * Unsplit: back to what the row was before its split. For a split from before that was kept, the ledger asks
 * (validation_failed on categoryCode): the person picks a category, or uncategorized.
 */
function Unsplit({ orgId, row, categories, act }: { orgId: string; row: RegisterRow; categories: Category[]; act: Act }) {
  const [asked, setAsked] = useState<string>();
  const [to, setTo] = useState('');
  const unsplit = (input: { categoryCode?: string; uncategorized?: boolean }) => withCorrection((c) => desk.unsplitTransaction({ orgId, id: row.id, ...input, ...c }));
  const first = async () => {
    try {
      await unsplit({});
      await act(() => Promise.resolve(), 'Unsplit: back to what it was before its split.');
    } catch (err) {
      const field = err instanceof DeskError && err.code === 'validation_failed' ? (err.details as { field: string; message: string }[])[0] : undefined;
      if (field?.field === 'categoryCode') setAsked(field.message);
      else await act(() => Promise.reject(err as Error), '');
    }
  };
  if (!asked) return <button onClick={() => void first()}>Unsplit</button>;
  return (
    <form
      className="inline-form"
      aria-label="Unsplit into"
      onSubmit={(e) => (e.preventDefault(), void act(() => unsplit(to ? { categoryCode: to } : { uncategorized: true }), to ? `Unsplit into ${to}.` : 'Unsplit: uncategorized.'))}
    >
      <span className="small">{asked[0].toUpperCase() + asked.slice(1)}.</span>
      <label>
        Becomes
        <select value={to} onChange={(e) => setTo(e.target.value)}>
          <option value="">Uncategorized</option>
          <CategoryOptions categories={categories} />
        </select>
      </label>
      <button type="submit">Unsplit</button>
    </form>
  );
}

export function EntryLines({
  orgId,
  row,
  lines,
  accounts,
  categories,
  act,
}: {
  orgId: string;
  row: RegisterRow;
  lines: EntryLine[];
  accounts: Account[];
  categories: Category[];
  act: Act;
}) {
  const can = useCan();
  const [mode, setMode] = useState<'view' | 'split' | 'transfer'>('view');
  const [to, setTo] = useState('');
  const transfer = lines.find((l) => l.kind === 'transfer');
  const parts = lines.filter((l) => l.kind === 'category').length;
  const done = (message?: string) => (setMode('view'), message ? act(() => Promise.resolve(), message) : undefined);
  if (mode === 'split') return <SplitEditor orgId={orgId} row={row} lines={lines} categories={categories} onDone={(m) => void done(m)} />;
  return (
    <>
      <h4>Lines</h4>
      <p className="muted small">
        Parts of the {rowKind(row.amount)} of <Money amount={Math.abs(row.amount)} currency={row.currency} plain />
      </p>
      <ul aria-label="Lines of the entry">
        {lines.map((l, i) => {
          // A line's amount is its share in the row's sign: as a part, positive with the row.
          const part = row.amount < 0 ? -l.amount : l.amount;
          return (
            <li key={i}>
              {lineText(l, row, accounts, categories)} <Money amount={part} currency={l.currency ?? row.currency} plain />
              {l.memo && <span className="muted small"> — {l.memo}</span>}
              {part < 0 && <span className="badge against">against the row: {againstWords(row.amount, formatMoney(-part, row.currency))}</span>}
            </li>
          );
        })}
      </ul>
      <p>
        {!transfer && can('splitTransaction') && <button onClick={() => setMode('split')}>{parts > 1 ? 'Edit split' : 'Split'}</button>}{' '}
        {parts > 1 && can('unsplitTransaction') && <Unsplit orgId={orgId} row={row} categories={categories} act={act} />}{' '}
        {parts <= 1 && !transfer && can('makeTransfer') && <button onClick={() => setMode(mode === 'transfer' ? 'view' : 'transfer')}>Transfer to another account</button>}
        {transfer && can('undoTransfer') && (
          <button onClick={() => void act(() => desk.undoTransfer({ orgId, id: row.id }), 'No longer a transfer: uncategorized again.')}>Undo transfer</button>
        )}
      </p>
      {parts === 1 && can('categorizeTransactions') && <TaxChoice orgId={orgId} row={row} categories={categories} act={act} />}
      {mode === 'transfer' && (
        <form
          className="inline-form"
          aria-label="Make a transfer"
          onSubmit={(e) => (e.preventDefault(), void act(() => desk.makeTransfer({ orgId, id: row.id, account: to }), 'Made a transfer.').then(() => setMode('view')))}
        >
          <label>
            To account
            <select required value={to} onChange={(e) => setTo(e.target.value)}>
              <option value="">Choose…</option>
              {accounts
                .filter((a) => a.id !== row.accountId && a.currency === row.currency && !a.closedAt)
                .map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
            </select>
          </label>
          <button type="submit">Make transfer</button>
        </form>
      )}
      {!transfer && parts === 0 && can('matchTransfer') && <PossibleTransfers orgId={orgId} row={row} act={act} />}
    </>
  );
}

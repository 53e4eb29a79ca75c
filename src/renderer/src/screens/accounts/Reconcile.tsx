// Reconcile: an account against its bank statement. The statement's end date
// and ending balance (from the last imported statement when there is one),
// the rows not yet reconciled up to that date; tick the ones on the statement
// (space ticks); cleared balance, statement balance and the difference always
// in view; finish only at zero. The last reconciliation can be undone.
import { useEffect, useState, type KeyboardEvent } from 'react';
import { amountText, minorDigits, writeAmount } from '../../../../shared/amounts';
import { AccountOptions, AmountField, Empty, Money, Notice, Show, Words, messageOf, useTypedAmount } from '../../components';
import type { DeskResult } from '../../../../main/desk/operations';
import { desk } from '../../desk';
import { formatMoney } from '../../format';
import { useLoad } from '../../hooks';
import { useOrg } from '../../org';
import { useCan } from '../../can';
import { ReconciliationReportView } from './ReconciliationReport';

export function Reconcile({ orgId, accountId, report }: { orgId: string; accountId?: string; report?: string }) {
  if (report && accountId) return <ReconciliationReportView orgId={orgId} accountId={accountId} reconciliationId={report} />;
  return <ReconcileAccount orgId={orgId} accountId={accountId} />;
}

function ReconcileAccount({ orgId, accountId }: { orgId: string; accountId?: string }) {
  const can = useCan();
  const accounts = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const [account, setAccount] = useState(accountId ?? '');
  const chosen = account || accounts.data?.find((a) => !a.closedAt)?.id || '';
  const [date, setDate] = useState('');
  const [balance, setBalance] = useState('');
  const view = useLoad(
    () => (chosen ? desk.reconcileView({ orgId, account: chosen, through: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined }) : Promise.resolve(null)),
    [orgId, chosen, date],
  );
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const { decimalMark } = useOrg();
  // A card's statement prints what is owed as a positive figure; the books hold it as negative.
  const sign = view.data?.account.liability ? -1 : 1;
  useEffect(() => {
    // A new account or statement: start from what the last imported statement says, unless the person has
    // already typed the statement's date or balance (what arrives late does not replace what was typed).
    setTicked(new Set());
    if (!date && !balance && view.data?.suggested) {
      setDate(view.data.suggested.date);
      setBalance(amountText(sign * view.data.suggested.balance, view.data.account.currency, decimalMark));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new account or statement resets the form, not each poll
  }, [view.data?.account.id, view.data?.suggested?.date]);

  const v = view.data;
  const rows = v?.rows ?? [];
  const scale = 10 ** 6; // sums in integer micro-units: exact for any currency's decimals
  const tickedSum = rows.filter((r) => ticked.has(r.id)).reduce((sum, r) => sum + Math.round(r.amount * scale), 0);
  const cleared = v ? (Math.round(v.reconciledBalance * scale) + tickedSum) / scale : 0;
  const read = useTypedAmount(balance, v?.account.currency ?? 'USD');
  const statement = read?.ok && v ? (sign * read.minor) / 10 ** minorDigits(v.account.currency) : null;
  const difference = statement === null ? null : Math.round((statement - cleared) * scale) / scale;
  const toggle = (id: string) => setTicked((s) => new Set(s.has(id) ? [...s].filter((x) => x !== id) : [...s, id]));

  async function act(what: () => Promise<unknown>, done: string) {
    try {
      await what();
      setNotice({ kind: 'ok', text: done });
      setTicked(new Set());
      setDate('');
      setBalance('');
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    view.reload();
    accounts.reload();
  }

  return (
    <section aria-labelledby="reconcile-title">
      <div className="screen-head">
        <h2 id="reconcile-title">Reconcile</h2>
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Account
          <select value={chosen} onChange={(e) => (setAccount(e.target.value), setDate(''), setBalance(''))}>
            <AccountOptions accounts={(accounts.data ?? []).filter((a) => !a.closedAt)} />
          </select>
        </label>
        <label>
          Statement end date (YYYY-MM-DD)
          <input value={date} pattern="\d{4}-\d{2}-\d{2}" onChange={(e) => setDate(e.target.value)} placeholder="2024-01-31" />
        </label>
        <AmountField
          label={v?.account.liability ? 'Statement balance owed, as printed' : 'Statement ending balance'}
          value={balance}
          onChange={setBalance}
          currency={v?.account.currency ?? 'USD'}
          placeholder="0"
          note={v?.account.liability ? '(owed: the books hold it as negative)' : undefined}
        />
      </form>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {!chosen && <Empty title="No account to reconcile.">Add an account and import its statement first.</Empty>}
      <Show loaded={view} what="the rows to reconcile">
        {(data) =>
          data && (
            <>
              <Tiles currency={data.account.currency} cleared={cleared} statement={statement} typed={Boolean(read)} difference={difference} />
              <p className="hint">
                {data.last ? (
                  <>
                    Reconciled through {data.last.statementDate} at {formatMoney(data.last.statementBalance, data.account.currency)} (
                    <a href={`#/reconcile?account=${data.account.id}&report=${data.last.id}`}>report</a>).{' '}
                  </>
                ) : (
                  'Never reconciled. '
                )}
                {data.account.liability &&
                  `A card statement prints what is owed as a positive figure: type it as printed (${writeAmount(25214, data.account.currency, decimalMark)} owed is ${formatMoney(-252.14, data.account.currency)} in the books). `}
                Tick the rows the statement shows (space ticks the focused row). {data.totalCount > rows.length && `Showing the first ${rows.length} of ${data.totalCount}.`}
              </p>
              <p hidden={!can('reconcileAccount')}>
                <button
                  className="approve"
                  disabled={difference !== 0 || !date}
                  onClick={() =>
                    void act(() => desk.reconcileAccount({ orgId, account: chosen, date, balance, clear: [...ticked] }), `Reconciled ${data.account.name} through ${date}.`)
                  }
                >
                  Finish reconciliation
                </button>{' '}
                <button onClick={() => setTicked(new Set(rows.map((r) => r.id)))}>Tick all</button>{' '}
                {data.last && (
                  <button
                    onClick={() =>
                      window.confirm(`Undo the reconciliation through ${data.last!.statementDate}?`) &&
                      void act(() => desk.undoReconciliation({ orgId, account: chosen }), 'Undid the last reconciliation.')
                    }
                  >
                    Undo last reconciliation
                  </button>
                )}
              </p>
              {rows.length === 0 ? <Empty title="Nothing left to reconcile up to this date." /> : <ClearRows rows={rows} ticked={ticked} toggle={toggle} />}
            </>
          )
        }
      </Show>
    </section>
  );
}

/** Cleared balance, statement balance and the difference, always in view. */
function Tiles(p: { currency: string; cleared: number; statement: number | null; typed: boolean; difference: number | null }) {
  return (
    <div className="tiles reconcile-tiles" aria-live="polite">
      <div className="tile">
        <span>Cleared balance</span>
        <Money amount={p.cleared} currency={p.currency} plain />
      </div>
      <div className="tile">
        <span>Statement balance</span>
        {p.statement === null ? <strong>{p.typed ? 'Not an amount' : '—'}</strong> : <Money amount={p.statement} currency={p.currency} plain />}
      </div>
      <div className={`tile ${p.difference === 0 ? 'zero' : 'off'}`}>
        <span>Difference</span>
        {p.difference === null ? <strong>—</strong> : <Money amount={p.difference} currency={p.currency} plain />}
      </div>
    </div>
  );
}

type Row = NonNullable<DeskResult<'reconcileView'>>['rows'][number];

/** The rows not yet reconciled up to the statement's date; space ticks the focused one. */
function ClearRows({ rows, ticked, toggle }: { rows: Row[]; ticked: Set<string>; toggle: (id: string) => void }) {
  const onKey = (id: string) => (e: KeyboardEvent<HTMLTableRowElement>) => {
    if (e.key !== ' ' || e.target !== e.currentTarget) return;
    e.preventDefault();
    toggle(id);
  };
  return (
    <table className="grid reconcile">
      <thead>
        <tr>
          <th>Cleared</th>
          <th>Date</th>
          <th>Description</th>
          <th className="num">Amount</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} tabIndex={0} className={ticked.has(r.id) ? 'ticked' : undefined} onKeyDown={onKey(r.id)}>
            <td>
              <input type="checkbox" aria-label={`Cleared: ${r.date} ${r.description}`} checked={ticked.has(r.id)} onChange={() => toggle(r.id)} />
            </td>
            <td className="nowrap">{r.date}</td>
            <td className="wrap">
              <Words text={r.description} />
            </td>
            <td className="num">
              <Money amount={r.amount} currency={r.currency} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

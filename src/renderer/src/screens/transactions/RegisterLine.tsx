// One row of the register (Transactions.tsx): its cells, its category button
// (a category, a split, a transfer to or from another account, a payment of an
// invoice), the keys that act on it, and its detail when opened.
import { Fragment, type KeyboardEvent } from 'react';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import type { Category } from '../../../../main/ledger/chart/categories';
import type { RegisterRow } from '../../../../main/ledger/transactions/register';
import { CategoryPicker } from '../../CategoryPicker';
import { Money, Words } from '../../components';
import { ORIGIN_LABELS, STATUS_LABELS, label } from '../../../../shared/words';
import { TransactionDetail } from './TransactionDetail';

/** What a row's category cell says: its category, a split's largest line and how many, or the transfer's other account (money out: to it; in: from it). */
function CategoryButton({ row: t, onPick }: { row: RegisterRow; onPick: () => void }) {
  const { lines, transferTo, inTransit, pays, journal } = t.entry;
  // A manual journal's line (issue 43): it changes only by reversing the journal, which the Journals screen shows.
  if (journal)
    return (
      <a className="link category" href={`#/journals?number=${journal}`} title="A line of a manual journal: reverse the journal to take it back">
        Journal {journal}
      </a>
    );
  return (
    <button className="link category" onClick={onPick} disabled={transferTo !== null} title={transferTo !== null ? 'A transfer: open the row to undo it' : undefined}>
      {transferTo !== null ? (
        `Transfer ${t.amount < 0 ? 'to' : 'from'} ${transferTo}${inTransit ? ' (in transit)' : ''}`
      ) : pays ? (
        `Pays ${pays}`
      ) : lines > 1 ? (
        <>
          {t.category} <span className="badge">split {lines}</span>
        </>
      ) : (
        (t.category ?? <span className="muted">Categorize</span>)
      )}
      {t.possiblePayment && (
        <span className="badge" title={`Press p to record it as the payment of ${t.possiblePayment.numbers[0]}`}>
          pays {t.possiblePayment.numbers.join(' or ')}?
        </span>
      )}
      {t.possibleTransfer && (
        <span className="badge" title={`Press t to match it with the row of ${t.possibleTransfer.date} in ${t.possibleTransfer.accountName}`}>
          possible transfer: {t.possibleTransfer.accountName} {t.possibleTransfer.date}
          {t.possibleTransfer.candidates > 1 ? ` (1 of ${t.possibleTransfer.candidates})` : ''} · t
        </span>
      )}
    </button>
  );
}

/** A row's amount in its account's currency; in another currency than the base, its base amount as booked under it (issue 30). */
function AmountCell({ row: t }: { row: RegisterRow }) {
  return (
    <td className="num">
      <Money amount={t.amount} currency={t.currency} />
      {t.base && <span className="muted base-amount">{t.base.amount === null ? 'awaiting a rate' : <Money amount={t.base.amount} currency={t.base.currency} plain />}</span>}
    </td>
  );
}

export interface RegisterLineProps {
  orgId: string;
  row: RegisterRow;
  /** The register's columns: the detail spans them all. */
  columns: number;
  balances: boolean;
  allAccounts: boolean;
  selected: boolean;
  onToggle: () => void;
  open: boolean;
  onOpen: () => void;
  onKey: (e: KeyboardEvent<HTMLTableRowElement>) => void;
  /** Its category picker is open; choosing categorizes the row. */
  picking: boolean;
  onPick: () => void;
  onChoose: (code: string | null) => void;
  onCancelPick: () => void;
  accounts: Account[];
  categories: Category[];
  onChanged: (message: string) => void;
}

export function RegisterLine(p: RegisterLineProps) {
  const t = p.row;
  return (
    <Fragment>
      <tr className="row clickable" tabIndex={0} aria-label={`${t.date} ${t.description} ${t.amount}`} onKeyDown={p.onKey} onClick={p.onOpen}>
        <td onClick={(e) => e.stopPropagation()}>
          <input type="checkbox" aria-label={`Select ${t.description}`} checked={p.selected} onChange={p.onToggle} />
        </td>
        <td className="nowrap">{t.date}</td>
        <td className="wrap">
          <Words text={t.description} />
        </td>
        <AmountCell row={t} />
        {p.balances && (
          <td className="num">
            <Money amount={t.balance ?? 0} currency={t.currency} plain />
          </td>
        )}
        <td onClick={(e) => e.stopPropagation()}>
          {p.picking ? (
            <CategoryPicker categories={p.categories} label={`Category for ${t.description}`} allowClear onChoose={p.onChoose} onCancel={p.onCancelPick} />
          ) : (
            <CategoryButton row={t} onPick={p.onPick} />
          )}
        </td>
        <td>
          <span className={`status ${t.status}`}>{label(STATUS_LABELS, t.status)}</span>
        </td>
        {p.allAccounts && (
          <td title={t.accountName}>
            <span className="clip">{t.accountName}</span>
          </td>
        )}
        <td className="nowrap">{label(ORIGIN_LABELS, t.origin)}</td>
      </tr>
      {p.open && (
        <tr>
          <td colSpan={p.columns}>
            <TransactionDetail orgId={p.orgId} row={t} accounts={p.accounts} categories={p.categories} onChanged={p.onChanged} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

// One row opened in the register: its lines (split, transfer: EntryLines.tsx),
// who suggested its category, its notes and receipts, and, for a row entered by hand, edit and delete (a locked row says why).
import { useState } from 'react';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import type { Category } from '../../../../main/ledger/chart/categories';
import type { RegisterRow } from '../../../../main/ledger/transactions/register';
import { Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { withCorrection } from '../../correction';
import { formatBytes, formatDateTime } from '../../format';
import { useLoad } from '../../hooks';
import { doneText, useCan } from '../../can';
import { TransactionForm } from './TransactionForm';
import { EntryLines } from '../documents/EntryLines';

export function TransactionDetail({
  orgId,
  row,
  accounts,
  categories,
  onChanged,
}: {
  orgId: string;
  row: RegisterRow;
  accounts: Account[];
  categories: Category[];
  onChanged: (message: string) => void;
}) {
  const can = useCan();
  const loaded = useLoad(() => desk.getTransaction({ orgId, id: row.id }), [orgId, row.id]);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const [note, setNote] = useState('');
  const act = async (what: () => Promise<unknown>, done: string) => {
    setError(undefined);
    try {
      onChanged(doneText(await what(), done));
      loaded.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  async function remove() {
    if (!window.confirm(`Delete "${row.description}" (${row.date})?`)) return;
    try {
      await withCorrection((c) => desk.deleteTransaction({ orgId, id: row.id, ...c }));
      onChanged(`Deleted ${row.description}.`);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <div className="detail">
      {editing ? (
        <TransactionForm orgId={orgId} accounts={accounts} categories={categories} editing={row} onDone={(m) => (setEditing(false), m && onChanged(m))} />
      ) : (
        <p>
          {row.locked && <span className="muted">Locked: {row.locked}. </span>}
          {!row.locked && can('editTransaction') && <button onClick={() => setEditing(true)}>Edit</button>}{' '}
          {!row.deleteLocked && can('deleteTransaction') && (
            <button className="reject" onClick={() => void remove()}>
              Delete
            </button>
          )}{' '}
          {can('markReceiptMissing') && (
            <button
              onClick={() =>
                void act(
                  () => desk.markReceiptMissing({ orgId, ids: [row.id], state: row.status === 'receipt_missing' ? 'found' : 'missing' }),
                  row.status === 'receipt_missing' ? 'No longer needs a receipt.' : 'Marked as needing a receipt.',
                )
              }
            >
              {row.status === 'receipt_missing' ? 'Receipt found' : 'Needs a receipt'}
            </button>
          )}
        </p>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      <Show loaded={loaded} what="the transaction">
        {({ transaction: t, notes, receipts, lines }) => (
          <>
            <EntryLines orgId={orgId} row={row} lines={lines} accounts={accounts} categories={categories} act={act} />
            {t.suggestedBy?.startsWith('rule:') ? (
              <p>
                Categorized by one of your rules (see <a href="#/rules">Rules</a>).
              </p>
            ) : (
              t.suggestedBy && (
                <p>
                  Categorized on the suggestion of <code>{t.suggestedBy}</code>
                  {t.confidence !== null && <> ({Math.round(t.confidence * 100)}%)</>}
                  {t.reason && <>: “{t.reason}”</>}
                </p>
              )
            )}
            <h4>Notes</h4>
            {notes.length ? (
              <ul>
                {notes.map((n) => (
                  <li key={n.id} className="wrap">
                    {n.content} <span className="muted small">{formatDateTime(n.createdAt)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No notes.</p>
            )}
            {can('addNote') && (
              <form
                className="inline-form"
                aria-label="Add a note"
                onSubmit={(e) => (e.preventDefault(), void act(() => desk.addNote({ orgId, transactionId: row.id, content: note }), 'Note added.').then(() => setNote('')))}
              >
                <label>
                  Note
                  <input required maxLength={10000} value={note} onChange={(e) => setNote(e.target.value)} placeholder="What a reviewer should know" />
                </label>
                <button type="submit">Add note</button>
              </form>
            )}
            <h4>Receipts</h4>
            {receipts.length ? (
              <ul>
                {receipts.map((r) => (
                  <li key={r.id} className="wrap">
                    {r.fileName}{' '}
                    <span className="muted small">
                      {r.mimeType}, {formatBytes(r.sizeBytes)}
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No receipt linked.</p>
            )}
          </>
        )}
      </Show>
    </div>
  );
}

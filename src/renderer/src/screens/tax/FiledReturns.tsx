// The filed returns on the Tax screen, newest first, and undoing a filing
// recorded by mistake (issue 50): offered on the latest one while it is
// unpaid, not submitted and not the tax owed at a conversion (the ledger says
// why otherwise), to whom may file; the reason is asked for and goes to the Log.
import { useState, type FormEvent } from 'react';
import type { FiledReturn } from '../../../../main/ledger/tax/filing';
import type { UnfiledReturn } from '../../../../main/ledger/tax/unfiling';
import { messageOf } from '../../components';
import { desk } from '../../desk';
import { formatMoney } from '../../format';
import { useCan } from '../../can';

/** What the screen says once a filing is undone. */
export const unfiledWords = (r: UnfiledReturn): string =>
  `Undid the filing of the return for ${r.from} to ${r.to}: it is open again, to file once its period has ended.${r.correctionsReopened ? ` ${r.correctionsReopened} correction(s) of earlier returns it included are open again.` : ''}`;

function UndoFiling({ orgId, filed, onUndone, fail }: { orgId: string; filed: FiledReturn; onUndone: (r: UnfiledReturn) => void; fail: (text: string) => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  async function undo(e: FormEvent) {
    e.preventDefault();
    try {
      onUndone(await desk.unfileTaxReturn({ orgId, returnId: filed.id, reason }));
    } catch (err) {
      fail(messageOf(err));
    }
  }
  if (!open)
    return (
      <button type="button" className="no-print" onClick={() => setOpen(true)}>
        Undo filing…
      </button>
    );
  return (
    <form className="inline-form no-print" aria-label="Undo filing" onSubmit={(e) => void undo(e)}>
      <span className="hint">Only a filing recorded by mistake, sent nowhere: its lines change again and it is filed again later.</span>
      <label>
        Reason
        <input required maxLength={500} size={40} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit" disabled={!reason.trim()}>
        Undo filing
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}

export function FiledReturns({ orgId, returns, onUndone, fail }: { orgId: string; returns: FiledReturn[]; onUndone: (r: UnfiledReturn) => void; fail: (text: string) => void }) {
  const can = useCan();
  if (!returns.length) return <p className="muted">No return filed yet.</p>;
  // The latest return filed here: the one a filing may be undone of (a later one rests on the earlier).
  const latest = returns.find((r) => !r.openingBalances);
  const undoable = latest && latest === returns[0] && !latest.paymentId && !latest.submitted && can('unfileTaxReturn') ? latest : null;
  return (
    <ul aria-label="Filed returns">
      {returns.map((r) => (
        <li key={r.id}>
          {r.from} to {r.to}: payable {formatMoney(r.payable, r.report.currency)}, {r.lineCount} line(s)
          {r.report.corrections.length > 0 && `, ${new Set(r.report.corrections.map((c) => c.correctionId)).size} correction(s) of earlier returns`}, filed {r.filedAt.slice(0, 10)}{' '}
          by {r.filedBy}, {r.paymentId ? 'paid' : 'unpaid'}
          {r === undoable && <UndoFiling orgId={orgId} filed={r} onUndone={onUndone} fail={fail} />}
        </li>
      ))}
    </ul>
  );
}

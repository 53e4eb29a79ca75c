// The current organization's year and closing date, in Organizations: the
// fiscal year's first day (where retained earnings end), and the date the
// books are closed through (nothing dated on or before it changes; locking
// and unlocking are audited with their reason).
import { useState } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { DateField } from '../../components';
import { desk } from '../../desk';
import { useCan } from '../../can';

type Org = DeskResult<'listOrganizations'>[number];
type Act = (what: () => Promise<unknown>, done: string) => void;

export function ClosingPanel({ org, act }: { org: Org; act: Act }) {
  const can = useCan();
  const [start, setStart] = useState(org.fiscalYearStart);
  const [through, setThrough] = useState(org.lockedThrough ?? '');
  const [reason, setReason] = useState('');
  return (
    <>
      <h3>Year and closing date of {org.name}</h3>
      <p className="hint">
        {org.lockedThrough
          ? `The books are closed through ${org.lockedThrough}: nothing dated on or before it is created, edited, categorized, split, imported, approved or reversed.`
          : 'The books are open: no closing date.'}
      </p>
      <form
        hidden={!can('updateOrganization', org.role)}
        className="inline-form"
        aria-label="Fiscal year"
        onSubmit={(e) => (e.preventDefault(), act(() => desk.updateOrganization({ organization: org.id, fiscalYearStart: start }), `The fiscal year starts on ${start}.`))}
      >
        <label>
          Fiscal year starts (MM-DD)
          <input required pattern="\d{2}-\d{2}" size={5} value={start} onChange={(e) => setStart(e.target.value)} />
        </label>
        <button type="submit">Set the fiscal year</button>
      </form>
      <form
        hidden={!can('lockPeriod', org.role)}
        className="inline-form"
        aria-label="Closing date"
        onSubmit={(e) => (e.preventDefault(), act(() => desk.lockPeriod({ orgId: org.id, through, reason: reason || undefined }), `Books closed through ${through}.`))}
      >
        <DateField label="Close the books through" value={through} onChange={setThrough} />
        <label>
          Reason (for the Log)
          <input maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="2025 return filed" />
        </label>
        <button type="submit">Close the period</button>
        {org.lockedThrough && (
          <button type="button" onClick={() => act(() => desk.unlockPeriod({ orgId: org.id, reason: reason || undefined }), 'Books open again.')}>
            Open the books again
          </button>
        )}
      </form>
    </>
  );
}

// Payment reminders (issue 53): the schedule (days from the due date, each
// step with its own wording), what goes out today before it goes, sending it
// now (the pass the app runs daily), and the reminders sent.
import { useState } from 'react';
import type { DueReminder } from '../../../../main/ledger/mail/reminders';
import { Notice, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';

const stepLabel = (days: number): string => (days < 0 ? `${-days} days before due` : days === 0 ? 'on the due day' : `${days} days late`);

function DueTable({ due }: { due: DueReminder[] }) {
  return (
    <TableFrame>
      <table className="grid" aria-label="Reminders due">
        <thead>
          <tr>
            <th>Invoice</th>
            <th>Customer</th>
            <th>Due</th>
            <th>Step</th>
            <th>To</th>
          </tr>
        </thead>
        <tbody>
          {due.map((r) => (
            <tr key={`${r.documentSeq}:${r.days}`}>
              <td>{r.number}</td>
              <td>{r.customer}</td>
              <td className="nowrap">{r.dueDate}</td>
              <td>{stepLabel(r.days)}</td>
              <td>{r.to ?? 'no address'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

export function Reminders({ orgId }: { orgId: string }) {
  const can = useCan();
  const view = useLoad(() => desk.reminders({ orgId }), [orgId]);
  const [days, setDays] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  const shown = days ?? view.data?.steps.map((s) => s.days).join(', ') ?? '';
  async function saveSchedule() {
    try {
      const steps = shown
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean)
        .map(Number);
      const saved = await desk.setReminders({ orgId, days: steps });
      setDays(null);
      view.reload();
      setNotice({ kind: 'ok', text: saved.length ? `Reminders: ${saved.map((s) => stepLabel(s.days)).join(', ')}.` : 'No reminders.' });
    } catch (err) {
      fail(err);
    }
  }
  async function sendNow() {
    try {
      const run = await desk.runReminders({ orgId });
      view.reload();
      setNotice({ kind: run.notSent.length ? 'error' : 'ok', text: [`${run.sent.length} reminder(s) sent.`, ...run.notSent.map((r) => `${r.number}: ${r.reason}`)].join(' ') });
    } catch (err) {
      fail(err);
    }
  }
  return (
    <section aria-labelledby="reminders-title">
      <div className="screen-head">
        <h2 id="reminders-title">Reminders</h2>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      <form className="inline-form" aria-label="Reminder schedule" onSubmit={(e) => (e.preventDefault(), void saveSchedule())}>
        <label>
          Days from the due date (negative: before it)
          <input value={shown} onChange={(e) => setDays(e.target.value)} placeholder="-3, 0, 7, 14, 30" disabled={!can('setReminders')} />
        </label>
        {can('setReminders') && <button type="submit">Save schedule</button>}
      </form>
      <Show loaded={view} what="the reminders">
        {(v) => (
          <>
            <h3>Going out today ({v.asOf})</h3>
            {v.due.length ? <DueTable due={v.due} /> : <p className="hint">Nothing is due today.</p>}
            {v.due.length > 0 && can('runReminders') && <button onClick={() => void sendNow()}>Send today's reminders now</button>}
            <h3>Sent</h3>
            {v.sent.length ? (
              <ul className="plain" aria-label="Reminders sent">
                {v.sent.map((m) => (
                  <li key={m.id}>
                    {m.sentAt.slice(0, 10)} {m.number}: {m.subject} to {m.to.join(', ')}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="hint">No reminder sent yet.</p>
            )}
          </>
        )}
      </Show>
    </section>
  );
}

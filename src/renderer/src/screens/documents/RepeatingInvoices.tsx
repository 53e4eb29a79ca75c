// Repeating invoices (issue 53): the schedule editor (every N weeks or months,
// a day of the month or its last day, a start, an end after N times or on a
// date, what to do when due) with the next three dates worked out as it is
// typed, by the same function the ledger and the command use
// (shared/schedule.ts), before anything is saved; the lines (LinesTable); and
// the list of repeating invoices, each with the invoices it made (RepeatList).
import { useState, type FormEvent } from 'react';
import type { RepeatingInvoice } from '../../../../main/ledger/documents/repeats/template';
import { isCalendarDate } from '../../../../shared/dates';
import { nextDates, scheduleText, type Schedule } from '../../../../shared/schedule';
import { DateField, Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { BLANK, LinesTable, linesInput, type LineDraft } from './LinesTable';
import { RepeatList } from './RepeatList';

interface Draft {
  unit: 'week' | 'month';
  every: string;
  /** A day of the month, or "last". */
  day: string;
  start: string;
  end: 'never' | 'count' | 'until';
  count: string;
  until: string;
  action: 'draft' | 'issue' | 'issue_and_send';
}

/** The schedule as typed, or null while it is not one yet (the dates shown then say so). */
function scheduleOf(d: Draft): Schedule | null {
  if (!isCalendarDate(d.start) || !(Number(d.every) >= 1)) return null;
  return {
    unit: d.unit,
    every: Number(d.every),
    monthDay: d.unit === 'month' && d.day && d.day !== 'last' ? Number(d.day) : null,
    monthEnd: d.unit === 'month' && d.day === 'last',
    start: d.start,
    endCount: d.end === 'count' && Number(d.count) >= 1 ? Number(d.count) : null,
    endDate: d.end === 'until' && isCalendarDate(d.until) ? d.until : null,
  };
}

function ScheduleFields({ d, set }: { d: Draft; set: (patch: Partial<Draft>) => void }) {
  const schedule = scheduleOf(d);
  const today = new Date().toISOString().slice(0, 10);
  const dates = schedule ? nextDates(schedule, schedule.start > today ? schedule.start : today) : [];
  return (
    <fieldset className="inline-form">
      <legend>Schedule</legend>
      <label>
        Every
        <input inputMode="numeric" size={3} value={d.every} onChange={(e) => set({ every: e.target.value })} />
      </label>
      <label>
        Unit
        <select value={d.unit} onChange={(e) => set({ unit: e.target.value as Draft['unit'] })}>
          <option value="month">months</option>
          <option value="week">weeks</option>
        </select>
      </label>
      {d.unit === 'month' && (
        <label>
          On day
          <select value={d.day} onChange={(e) => set({ day: e.target.value })}>
            <option value="">the start's</option>
            {Array.from({ length: 31 }, (_, i) => (
              <option key={i + 1} value={String(i + 1)}>
                {i + 1}
              </option>
            ))}
            <option value="last">the month's last day</option>
          </select>
        </label>
      )}
      <DateField label="Start" value={d.start} onChange={(start) => set({ start })} />
      <label>
        Ends
        <select value={d.end} onChange={(e) => set({ end: e.target.value as Draft['end'] })}>
          <option value="never">never</option>
          <option value="count">after a number of invoices</option>
          <option value="until">on a date</option>
        </select>
      </label>
      {d.end === 'count' && (
        <label>
          Invoices
          <input inputMode="numeric" size={4} value={d.count} onChange={(e) => set({ count: e.target.value })} />
        </label>
      )}
      {d.end === 'until' && <DateField label="Last date" value={d.until} onChange={(until) => set({ until })} />}
      <label>
        When due
        <select value={d.action} onChange={(e) => set({ action: e.target.value as Draft['action'] })}>
          <option value="draft">make a draft</option>
          <option value="issue">issue it</option>
          <option value="issue_and_send">issue and send it</option>
        </select>
      </label>
      <p aria-live="polite" aria-label="Next dates">
        {schedule ? `${scheduleText(schedule)}. Next: ${dates.join(', ') || 'none'}` : 'Next: give a start date'}
      </p>
    </fieldset>
  );
}

const START: Draft = { unit: 'month', every: '1', day: '', start: '', end: 'never', count: '', until: '', action: 'draft' };

function RepeatForm({ orgId, currency, onSaved, fail }: { orgId: string; currency: string; onSaved: (r: RepeatingInvoice) => void; fail: (e: unknown) => void }) {
  const contacts = useLoad(() => desk.listContacts({ orgId, role: 'customer' }), [orgId]);
  const [customer, setCustomer] = useState('');
  const [name, setName] = useState('');
  const [d, setD] = useState<Draft>(START);
  const [lines, setLines] = useState<LineDraft[]>([{ ...BLANK }]);
  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      const s = scheduleOf(d);
      if (!s) throw new Error('The start is a date, YYYY-MM-DD.');
      const schedule = {
        unit: s.unit,
        every: s.every,
        start: s.start,
        ...(s.monthDay ? { day: s.monthDay } : {}),
        ...(s.monthEnd ? { lastDay: true } : {}),
        ...(s.endCount ? { count: s.endCount } : {}),
        ...(s.endDate ? { until: s.endDate } : {}),
      };
      const saved = await desk.createRepeatingInvoice({ orgId, customer, ...(name ? { name } : {}), action: d.action, lines: linesInput(lines), ...schedule });
      if (saved.saved) onSaved(saved);
    } catch (err) {
      fail(err);
    }
  }
  return (
    <form className="document-form" aria-label="New repeating invoice" onSubmit={(e) => void save(e)}>
      <div className="inline-form">
        <label>
          Customer
          <select required value={customer} onChange={(e) => setCustomer(e.target.value)}>
            <option value="">Choose…</option>
            {(contacts.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Name
          <input maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
      </div>
      <ScheduleFields d={d} set={(patch) => setD({ ...d, ...patch })} />
      <LinesTable orgId={orgId} contact={customer} currency={currency} inclusive={false} types={['revenue']} lines={lines} setLines={setLines} />
      <div className="actions">
        <button type="submit" className="primary">
          Save repeating invoice
        </button>
      </div>
    </form>
  );
}

export function RepeatingInvoices({ orgId, currency }: { orgId: string; currency: string }) {
  const can = useCan();
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const list = useLoad(() => desk.listRepeatingInvoices({ orgId }), [orgId]);
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  return (
    <section aria-labelledby="repeating-title">
      <div className="screen-head">
        <h2 id="repeating-title">Repeating invoices</h2>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {can('createRepeatingInvoice') && (
        <RepeatForm
          orgId={orgId}
          currency={currency}
          onSaved={(r) => (setNotice({ kind: 'ok', text: `"${r.name}" saved: next ${r.nextDates.join(', ')}.` }), list.reload())}
          fail={fail}
        />
      )}
      <Show loaded={list} what="repeating invoices">
        {(repeats) => <RepeatList orgId={orgId} repeats={repeats} say={(text) => setNotice({ kind: 'ok', text })} fail={fail} reload={list.reload} />}
      </Show>
    </section>
  );
}

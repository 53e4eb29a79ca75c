// Journals (issue 43): the manual journals, newest first (number, date,
// narration, total, whether reversed or a reversal, the repeat it belongs to),
// a new one (JournalForm), and one opened: its lines as the books hold them,
// "Reverse" on a date, "Stop repeating". #/journals?number=JNL-0003 opens one.
import { useState } from 'react';
import type { Journal } from '../../../../main/ledger/journals/journals';
import { DateField, Empty, Money, Notice, Pager, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { isProposed, PROPOSED_JOURNAL, useCan } from '../../can';
import { JournalForm } from './JournalForm';

function JournalDetail({ orgId, number, onChanged, say, fail }: { orgId: string; number: string; onChanged: () => void; say: (t: string) => void; fail: (e: unknown) => void }) {
  const can = useCan();
  const journal = useLoad(() => desk.showJournal({ orgId, number }), [orgId, number]);
  const [on, setOn] = useState('');
  const act = (f: () => Promise<Journal>, text: (j: Journal) => string) => () => void f().then((j) => (say(text(j)), journal.reload(), onChanged()), fail);
  return (
    <Show loaded={journal} what={`journal ${number}`}>
      {(j) => (
        <section aria-label={`Journal ${j.number}`} className="panel">
          <h3>
            {j.number} · {j.date} · {j.narration}
          </h3>
          <table className="grid" aria-label={`Lines of ${j.number}`}>
            <thead>
              <tr>
                <th>Account</th>
                <th className="num">Debit</th>
                <th className="num">Credit</th>
                <th>Tax</th>
                <th>Memo</th>
              </tr>
            </thead>
            <tbody>
              {j.lines.map((l, i) => (
                <tr key={i}>
                  <td>
                    <a href={`#/ledger?account=${encodeURIComponent(l.ref)}`}>{`${l.code ?? ''} ${l.name}`.trim()}</a>
                  </td>
                  <td className="num">{l.debit ? <Money amount={l.debit} currency={j.currency} plain /> : ''}</td>
                  <td className="num">{l.credit ? <Money amount={l.credit} currency={j.currency} plain /> : ''}</td>
                  <td>{l.worked ? <span className="muted">tax at {l.taxCode}</span> : (l.taxCode ?? '')}</td>
                  <td>{l.memo}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            {j.reverses && (
              <>
                Reverses {j.reverses.number} ({j.reverses.date}).{' '}
              </>
            )}
            {j.reversedBy && (
              <>
                Reversed by {j.reversedBy.number} on {j.reversedBy.date}.{' '}
              </>
            )}
            {j.repeat && (
              <>
                Repeats monthly from {j.repeat.firstDate} ({j.repeat.journals.join(', ')}):{' '}
                {j.repeat.nextDate ? `next on ${j.repeat.nextDate}` : j.repeat.stoppedAt ? 'stopped' : 'ended'}.
              </>
            )}
          </p>
          <div className="inline-form">
            {!j.reversedBy && !j.reverses && can('reverseJournal') && (
              <>
                <DateField label="Reverse on" value={on} onChange={setOn} />
                <button
                  onClick={act(
                    () => desk.reverseJournal({ orgId, number: j.number, ...(on ? { date: on } : {}) }),
                    (r) => `${j.number} reversed by ${r.number}.`,
                  )}
                >
                  Reverse
                </button>
              </>
            )}
            {j.repeat?.nextDate && can('stopJournalRepeat') && (
              <button
                onClick={act(
                  () => desk.stopJournalRepeat({ orgId, number: j.number }),
                  () => 'No more occurrences will be made.',
                )}
              >
                Stop repeating
              </button>
            )}
          </div>
        </section>
      )}
    </Show>
  );
}

export function Journals({ orgId, initial }: { orgId: string; initial: Record<string, string> }) {
  const can = useCan();
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(initial.number ?? null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const list = useLoad(() => desk.listJournals({ orgId, limit: 50, offset }), [orgId, offset]);
  const say = (text: string) => setNotice({ kind: 'ok', text });
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  return (
    <section aria-labelledby="journals-title">
      <div className="screen-head">
        <h2 id="journals-title">Journals</h2>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {can('addJournal') && (
        <JournalForm orgId={orgId} onSaved={(j) => (isProposed(j) ? say(PROPOSED_JOURNAL) : (say(`Entered ${j.number}.`), setOpen(j.number), list.reload()))} fail={fail} />
      )}
      {open && <JournalDetail key={open} orgId={orgId} number={open} onChanged={list.reload} say={say} fail={fail} />}
      <Show loaded={list} what="journals" empty={(r) => (r.data.length ? null : <Empty title="No journals yet">Accruals, depreciation and corrections are entered above.</Empty>)}>
        {(r) => (
          <TableFrame>
            <table className="grid" aria-label="Journals">
              <thead>
                <tr>
                  <th>Number</th>
                  <th>Date</th>
                  <th>Narration</th>
                  <th className="num">Total</th>
                  <th>Reversal</th>
                </tr>
              </thead>
              <tbody>
                {r.data.map((j) => (
                  <tr key={j.id} aria-selected={j.number === open}>
                    <td className="nowrap">
                      <button className="link" onClick={() => setOpen(j.number)}>
                        {j.number}
                      </button>
                    </td>
                    <td className="nowrap">{j.date}</td>
                    <td>
                      {j.narration}
                      {j.repeatOf && <span className="badge">repeat of {j.repeatOf}</span>}
                    </td>
                    <td className="num">
                      <Money amount={j.total} currency={r.currency} plain />
                    </td>
                    <td>{j.reversedBy ? `Reversed by ${j.reversedBy.number} on ${j.reversedBy.date}` : j.reverses ? `Reverses ${j.reverses}` : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={offset} limit={50} total={r.meta.totalCount} onChange={setOffset} />
          </TableFrame>
        )}
      </Show>
    </section>
  );
}

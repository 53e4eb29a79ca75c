// The list of repeating invoices (issue 53): each with its schedule, its next
// dates and the invoices it made (made late, held, sent, or not sent and why),
// and the person's buttons: pause and resume (as `invoice repeat pause|resume`),
// and release for an invoice held because it was made late or whose sending
// the mail server refused (the next pass sends it).
import type { RepeatingInvoice } from '../../../../main/ledger/documents/repeats/template';
import { desk } from '../../desk';
import { useCan } from '../../can';

type Occurrence = RepeatingInvoice['occurrences'][number];

const SENDING: Record<NonNullable<Occurrence['sending']>, string> = {
  to_send: ' · to send',
  held: ' · held until you release it',
  sending: ' · being sent',
  sent: ' · sent by mail',
  failed: ' · not sent',
};

type Props = { orgId: string; repeats: RepeatingInvoice[]; say: (text: string) => void; fail: (err: unknown) => void; reload: () => void };

export function RepeatList({ orgId, repeats, say, fail, reload }: Props) {
  const can = useCan();
  const act = (work: Promise<unknown>, done: string) =>
    work.then(
      () => (say(done), reload()),
      (err: unknown) => fail(err),
    );
  const pause = (r: RepeatingInvoice) =>
    act(
      r.paused ? desk.resumeRepeatingInvoice({ orgId, ref: r.id }) : desk.pauseRepeatingInvoice({ orgId, ref: r.id }),
      r.paused ? `"${r.name}" resumed: invoices are made again from today.` : `"${r.name}" paused: nothing is made until resumed.`,
    );
  const release = (number: string) => act(desk.releaseRepeatInvoice({ orgId, number }), `${number} released: the next pass sends it.`);
  return (
    <ul className="cards" aria-label="Repeating invoices">
      {repeats.map((r) => (
        <li key={r.id}>
          <strong>{r.name}</strong> for {r.customer.name}: {r.scheduleText}
          {r.paused ? ' (paused)' : ''}. Next: {r.nextDates.join(', ') || 'none'}.{' '}
          {can(r.paused ? 'resumeRepeatingInvoice' : 'pauseRepeatingInvoice') && (
            <button onClick={() => void pause(r)} aria-label={`${r.paused ? 'Resume' : 'Pause'} ${r.name}`}>
              {r.paused ? 'Resume' : 'Pause'}
            </button>
          )}
          <ul aria-label={`Invoices ${r.name} made`}>
            {r.occurrences.map((o) => (
              <li key={o.date}>
                {o.date}: {o.invoice ? `${o.invoice} (${o.status})` : `not made: ${o.failure}`}
                {o.late ? ' · made late' : ''}
                {o.sending ? SENDING[o.sending] : ''}
                {o.invoice && o.sending === 'failed' && o.failure ? `: ${o.failure}` : ''}{' '}
                {o.invoice && (o.sending === 'held' || o.sending === 'failed') && can('releaseRepeatInvoice') && (
                  <button onClick={() => void release(o.invoice!)} aria-label={`Release ${o.invoice} to be sent`}>
                    Release
                  </button>
                )}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

// The repeating invoices' pass (issue 53): every occurrence due by the day
// asked about is made EXACTLY ONCE. Each is keyed by (repeat, date) and its
// record is inserted in the same write as its invoice, after the
// organization's lock (PostgreSQL: every process's writes of one organization
// run one at a time), and the record's key refuses a second one anyway: two
// processes at once, or a rerun for the same day, make nothing twice. After
// the app was closed for weeks every missed occurrence is made, oldest first,
// each dated its own date, and listed in the answer; one more than a period
// late (the next one was due too) is not sent without the person's word: its
// sending is "held" instead of "to send". An occurrence that cannot be made
// (an archived customer, a closed period, a category gone) is recorded with the
// reason and audited, not retried: the person makes that invoice by hand.
// The clock is a parameter: `asOf`, never read here.
import type { Human } from '../../access/audit';
import type { Ledger } from '../../core/sqlite/open';
import { LedgerError } from '../../core/errors';
import { occurrences, moreThanOnePeriodLate } from '../../../../shared/schedule';
import type { RepeatSending } from '../../../../../db/values';
import { createRow } from '../entry';
import { lookups } from '../lookups';
import { repeatAudit, scheduleOf, type RepeatRow } from './template';

/** What the pass made (or could not), oldest first, for the person to read. */
export interface MadeOccurrence {
  repeat: { id: string; name: string };
  date: string;
  invoice: string | null;
  /** More than one period late when made. */
  late: boolean;
  sending: RepeatSending | null;
  failure: string | null;
}

const dayOf = (asOf: Date | string): string => (typeof asOf === 'string' ? asOf : asOf.toISOString().slice(0, 10));

const INSERT_OCCURRENCE = `INSERT INTO invoice_repeat_occurrences (org_seq, repeat_seq, date, document_seq, made_on, late, sending, failure)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;

const recorded = async (ledger: Ledger, r: RepeatRow, date: string) =>
  !!(await ledger.stmt('SELECT 1 FROM invoice_repeat_occurrences WHERE repeat_seq = ? AND date = ?').get(r.seq, date));

/** One occurrence: its invoice and its record in one write; null when another pass made it first. */
async function makeOne(ledger: Ledger, r: RepeatRow, actor: Human, k: number, date: string, asOf: string): Promise<MadeOccurrence | null> {
  return ledger.write(async () => {
    if (await recorded(ledger, r, date)) return null;
    const late = moreThanOnePeriodLate(scheduleOf(r), k, asOf);
    const customer = (await ledger.stmt('SELECT id FROM counterparties WHERE seq = ?').pluck().get(r.contact_seq)) as string;
    const doc = await createRow(
      await lookups(ledger, r.org_seq),
      actor,
      { contact: customer, date, currency: r.currency, taxInclusive: r.tax_inclusive === 1, termsDays: r.terms_days ?? undefined, lines: JSON.parse(r.lines), notes: r.notes },
      { kind: 'invoice', issue: r.action !== 'draft' },
    );
    const sending: RepeatSending | null = r.action === 'issue_and_send' ? (late ? 'held' : 'to_send') : null;
    const { changes } = await ledger.stmt(INSERT_OCCURRENCE).run(r.org_seq, r.seq, date, doc.seq, asOf, late ? 1 : 0, sending, null);
    // Only a pass outside the organization's lock could get here second; its invoice rolls back with this write.
    if (changes === 0) throw new LedgerError('conflict', `The occurrence of ${date} of "${r.name}" was made meanwhile.`);
    await repeatAudit(
      ledger,
      r,
      actor,
      'made',
      `Repeating invoice "${r.name}" made invoice ${doc.number} for ${date}${late ? ` (late: made on ${asOf})` : ''}${sending === 'held' ? ', held: not sent without your word' : ''}`,
    );
    return { repeat: { id: r.id, name: r.name }, date, invoice: doc.number, late, sending, failure: null };
  });
}

/** An occurrence that could not be made: recorded with the reason (not retried) and audited. */
async function recordFailure(ledger: Ledger, r: RepeatRow, actor: Human, date: string, asOf: string, error: LedgerError): Promise<MadeOccurrence | null> {
  return ledger.write(async () => {
    const { changes } = await ledger.stmt(INSERT_OCCURRENCE).run(r.org_seq, r.seq, date, null, asOf, 0, null, error.message);
    if (changes === 0) return null;
    await repeatAudit(ledger, r, actor, 'failed', `Repeating invoice "${r.name}" could not make its invoice for ${date}: ${error.message}`);
    return { repeat: { id: r.id, name: r.name }, date, invoice: null, late: false, sending: null, failure: error.message };
  });
}

/** One repeating invoice's occurrences due by `asOf` and not recorded yet. */
async function dueOf(ledger: Ledger, r: RepeatRow, asOf: string): Promise<{ r: RepeatRow; k: number; date: string }[]> {
  const done = new Set((await ledger.stmt('SELECT date FROM invoice_repeat_occurrences WHERE repeat_seq = ?').pluck().all(r.seq)) as string[]);
  return occurrences(scheduleOf(r), { from: r.resumed_on ?? undefined, through: asOf })
    .filter((o) => !done.has(o.date))
    .map((o) => ({ r, ...o }));
}

/**
 * Occurrences made in one write, so one commit (one flush to disk) for many invoices: each still in its own write
 * inside it (a savepoint), so one that cannot be made undoes only itself and is recorded so. PER_WRITE bounds how
 * long other writers of the organization wait for the pass.
 */
const PER_WRITE = 20;

async function makeSome(ledger: Ledger, due: { r: RepeatRow; k: number; date: string }[], actor: Human, day: string): Promise<MadeOccurrence[]> {
  const made: MadeOccurrence[] = [];
  for (const { r, k, date } of due) {
    let one: MadeOccurrence | null;
    try {
      one = await makeOne(ledger, r, actor, k, date, day);
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      one = await recordFailure(ledger, r, actor, date, day, error);
    }
    if (one) made.push(one);
  }
  return made;
}

/**
 * The pass for one organization on a day (`asOf`: a Date or YYYY-MM-DD): each repeating invoice not paused makes
 * what fell due by then, all of them in date order (so invoice numbers follow their dates), each with its audit
 * entries in its own write (PER_WRITE of them committed together).
 * Answers what this pass made, oldest first (nothing when another pass made it).
 */
export async function runRepeatingInvoices(ledger: Ledger, orgSeq: number, asOf: Date | string, actor: Human): Promise<MadeOccurrence[]> {
  const day = dayOf(asOf);
  return ledger.forOrg(orgSeq, async () => {
    const repeats = await ledger.rows<RepeatRow>('SELECT * FROM invoice_repeats WHERE org_seq = ? AND paused_at IS NULL ORDER BY seq', orgSeq);
    const due: { r: RepeatRow; k: number; date: string }[] = [];
    for (const r of repeats) due.push(...(await dueOf(ledger, r, day)));
    due.sort((a, b) => a.date.localeCompare(b.date) || a.r.seq - b.r.seq);
    const made: MadeOccurrence[] = [];
    for (let i = 0; i < due.length; i += PER_WRITE) made.push(...(await ledger.write(() => makeSome(ledger, due.slice(i, i + PER_WRITE), actor, day))));
    return made;
  });
}

/** What the pass's answer says in words, a line each. */
export const madeText = (m: MadeOccurrence): string =>
  `${m.date}  ${m.repeat.name}: ${m.invoice ? `invoice ${m.invoice}` : `not made: ${m.failure}`}${m.late ? ' (late)' : ''}${m.sending === 'held' ? ', held: not sent without your word (invoice repeat release)' : m.sending === 'to_send' ? ', to send' : ''}`;

// Repeating invoices (issue 53) over a calendar the test moves (the pass takes
// its day as a parameter): monthly on the 31st (the month's last day in shorter
// months, then the 31st again), the month's last day, every 2 weeks, an end
// after 3 times and on a date, a month missed while the app was closed (made,
// listed, not sent without the person's word when more than a period late), a
// rerun for the same day (nothing), and two ledgers on one database running the
// pass at once (each invoice once). The next three dates come from the same
// pure function the screen and the command use.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { nextDates, occurrences, type Schedule } from '../src/shared/schedule';
import { booksFlags, onPostgres, openBooksOf } from './support/books';
import { deskAs } from './support/desk';
import { ownerCommand, tempLedger } from './support/env';

let ctx: DeskContext;
let org: L.Organization;
let dir: string;
const actor = L.deskActor();
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const run = (asOf: string, ledger = ctx.ledger) => L.runRepeatingInvoices(ledger, org.seq, asOf, actor);
const repeat = (name: string, schedule: Record<string, unknown>, action = 'issue') =>
  desk<L.RepeatingInvoice & { saved: true }>('createRepeatingInvoice', { name, customer: 'Hartley Café', action, lines: ['Retainer;1;500;4000;S'], ...schedule });
/** The invoices a repeating invoice made: date, number, status. */
const madeBy = async (name: string) => (await desk<L.RepeatingInvoice>('showRepeatingInvoice', { ref: name })).occurrences.map((o) => [o.date, o.invoice, o.status, o.sending]);

/** An owner command as a process of its own, not waited for by the others: its stdout (it must succeed). */
function runCommand(args: string[]): Promise<string> {
  const bin = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, ...booksFlags(dir)]);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}

beforeAll(async () => {
  const made = await tempLedger();
  dir = made.dir;
  org = await L.createOrganization(made.ledger, { slug: 'studio', name: 'Studio', currency: 'GBP' });
  ctx = { ledger: made.ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: actor };
  await L.setupTaxSet(made.ledger, org.seq, actor, 'uk-vat');
  await desk('addContact', { name: 'Hartley Café', customer: true, termsDays: 14 });
});

describe('the schedule (one pure function for the domain, the command and the screen)', () => {
  const monthly31: Schedule = { unit: 'month', every: 1, start: '2026-01-31' };
  it("monthly on the 31st falls on a shorter month's last day, then on the 31st again", () => {
    expect(occurrences(monthly31, { limit: 5 }).map((o) => o.date)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
    expect(nextDates({ ...monthly31, start: '2028-01-31' }, '2028-02-01')).toEqual(['2028-02-29', '2028-03-31', '2028-04-30']);
  });
  it("the month's last day, every 2 weeks, and the first date on or after the start", () => {
    expect(nextDates({ unit: 'month', every: 1, monthEnd: true, start: '2026-01-15' }, '2026-01-15')).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
    expect(nextDates({ unit: 'week', every: 2, start: '2026-01-05' }, '2026-01-06')).toEqual(['2026-01-19', '2026-02-02', '2026-02-16']);
    expect(nextDates({ unit: 'month', every: 3, monthDay: 10, start: '2026-01-15' }, '2026-01-01')).toEqual(['2026-04-10', '2026-07-10', '2026-10-10']);
  });
  it('ends after a count or on a date', () => {
    expect(nextDates({ unit: 'month', every: 1, start: '2026-01-01', endCount: 2 }, '2025-01-01')).toEqual(['2026-01-01', '2026-02-01']);
    expect(nextDates({ unit: 'week', every: 1, start: '2026-01-05', endDate: '2026-01-19' }, '2026-01-01')).toEqual(['2026-01-05', '2026-01-12', '2026-01-19']);
  });
});

describe('the pass over a calendar the test moves', () => {
  it('monthly on the 31st: one invoice a month, dated its date, issued; a rerun of the same day makes nothing', async () => {
    const r = await repeat('Retainer 31st', { unit: 'month', start: '2026-01-31' });
    expect(r.scheduleText).toBe('monthly on the 31st (the last day of shorter months) from 2026-01-31');
    expect((await run('2026-01-30')).length).toBe(0);
    expect((await run('2026-01-31')).map((m) => [m.date, m.invoice])).toEqual([['2026-01-31', 'INV-0001']]);
    expect(await run('2026-01-31')).toEqual([]);
    await run('2026-02-28');
    await run('2026-03-31');
    expect(await run('2026-03-31')).toEqual([]);
    expect(await madeBy('Retainer 31st')).toEqual([
      ['2026-01-31', 'INV-0001', 'sent', null],
      ['2026-02-28', 'INV-0002', 'sent', null],
      ['2026-03-31', 'INV-0003', 'sent', null],
    ]);
    const inv = await desk<L.Document>('showInvoice', { number: 'INV-0002' });
    expect(inv).toMatchObject({ issueDate: '2026-02-28', dueDate: '2026-03-14', net: 500, tax: 100, total: 600 });
    await desk('deleteRepeatingInvoice', { ref: 'Retainer 31st' });
  });

  it("the month's last day, every 2 weeks as drafts, an end after 3 times and an end date", async () => {
    await repeat('Month end', { unit: 'month', lastDay: true, start: '2026-01-15', count: 3 }, 'draft');
    await repeat('Fortnightly', { unit: 'week', every: 2, start: '2026-01-05', until: '2026-02-16' }, 'draft');
    await run('2026-12-31');
    expect((await madeBy('Month end')).map((o) => [o[0], o[2]])).toEqual([
      ['2026-01-31', 'draft'],
      ['2026-02-28', 'draft'],
      ['2026-03-31', 'draft'],
    ]);
    expect((await madeBy('Fortnightly')).map((o) => o[0])).toEqual(['2026-01-05', '2026-01-19', '2026-02-02', '2026-02-16']);
    // Made in date order across templates: the numbers follow the dates.
    const numbers = [...(await madeBy('Fortnightly')), ...(await madeBy('Month end'))].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map((o) => o[1]);
    expect(numbers).toEqual([...numbers].sort());
    expect(await run('2027-06-30')).toEqual([]);
    expect((await desk<L.RepeatingInvoice>('showRepeatingInvoice', { ref: 'Month end' })).nextDates).toEqual([]);
    await desk('deleteRepeatingInvoice', { ref: 'Month end' });
    await desk('deleteRepeatingInvoice', { ref: 'Fortnightly' });
  });

  it('a month missed while the app was closed: made, listed, and the older ones held until the person says', async () => {
    await repeat('Support', { unit: 'month', day: 1, start: '2027-01-01' }, 'issue_and_send');
    expect((await run('2027-01-01')).map((m) => [m.date, m.late, m.sending])).toEqual([['2027-01-01', false, 'to_send']]);
    // Closed until mid-April: February, March and April are made now, dated their own dates.
    const made = await run('2027-04-15');
    expect(made.map((m) => [m.date, m.late, m.sending])).toEqual([
      ['2027-02-01', true, 'held'],
      ['2027-03-01', true, 'held'],
      ['2027-04-01', false, 'to_send'],
    ]);
    expect(made.map(L.madeText)[0]).toMatch(/^2027-02-01 {2}Support: invoice INV-\d+ \(late\), held: not sent without your word/);
    const issued = await desk<L.Document>('showInvoice', { number: made[0].invoice });
    expect(issued).toMatchObject({ issueDate: '2027-02-01', status: 'sent' });
    expect((await L.repeatInvoicesToSend(ctx.ledger, org.seq)).map((s) => s.date)).toEqual(['2027-01-01', '2027-04-01']);
    await desk('releaseRepeatInvoice', { number: made[0].invoice });
    await L.markRepeatInvoiceSent(ctx.ledger, (await L.requireDocument(ctx.ledger, org.seq, ['invoice'], made[2].invoice!)).seq);
    expect((await L.repeatInvoicesToSend(ctx.ledger, org.seq)).map((s) => s.date)).toEqual(['2027-01-01', '2027-02-01']);
    await expect(desk('releaseRepeatInvoice', { number: made[2].invoice })).rejects.toMatchObject({ code: 'conflict' });
    await desk('pauseRepeatingInvoice', { ref: 'Support' });
    expect(await run('2027-06-15')).toEqual([]);
    await desk('deleteRepeatingInvoice', { ref: 'Support' });
  });

  it('two ledgers on one database run the pass at once (PostgreSQL: two pools; either engine: two processes): each invoice once', async () => {
    await repeat('Weekly', { unit: 'week', start: '2028-01-03', count: 8 });
    const dates = occurrences({ unit: 'week', every: 1, start: '2028-01-03', endCount: 8 }).map((o) => o.date);
    if (onPostgres) {
      // One SQLite file's connections in one process would wait on each other synchronously: there, processes (below).
      const other = await openBooksOf(dir);
      try {
        const [a, b] = await Promise.all([run('2028-02-01'), run('2028-02-01', other)]);
        expect([...a, ...b].map((m) => m.date).sort()).toEqual(dates.filter((d) => d <= '2028-02-01'));
      } finally {
        await other.end();
      }
    }
    const pass = () => runCommand(['invoice', 'repeat', 'run', '--org', 'studio', '--as-of', '2028-03-31', '--json']);
    const answers = await Promise.all([pass(), pass()]);
    const made = answers.flatMap((a) => (JSON.parse(a) as { made: L.MadeOccurrence[] }).made.map((m) => m.date));
    expect(made.sort()).toEqual(dates.filter((d) => d > (onPostgres ? '2028-02-01' : '0')));
    const listed = await madeBy('Weekly');
    expect(listed.map((o) => o[0])).toEqual(dates);
    expect(new Set(listed.map((o) => o[1])).size).toBe(8);
    const counted = await ctx.ledger
      .stmt("SELECT count(*) FROM documents WHERE org_seq = ? AND kind = 'invoice' AND issue_date BETWEEN '2028-01-01' AND '2028-12-31'")
      .pluck()
      .get(org.seq);
    expect(Number(counted)).toBe(8);
  });

  it('one that cannot be made among others of the same day (made in one write): the others made, it recorded with its reason and audited, not retried', async () => {
    await desk('addContact', { name: 'Gone Ltd', customer: true });
    const names = ['Before', 'Gone', 'After'];
    for (const name of names)
      await desk('createRepeatingInvoice', {
        name,
        customer: name === 'Gone' ? 'Gone Ltd' : 'Hartley Café',
        action: 'issue',
        lines: ['Retainer;1;500;4000;S'],
        unit: 'month',
        start: '2028-04-10',
        count: 1,
      });
    await desk('archiveContact', { contact: 'Gone Ltd' });
    const made = await run('2028-04-10');
    expect(made.map((m) => [m.repeat.name, m.invoice === null ? null : 'invoice', m.failure])).toEqual([
      ['Before', 'invoice', null],
      ['Gone', null, expect.stringMatching(/Gone Ltd is archived/)],
      ['After', 'invoice', null],
    ]);
    expect(await madeBy('Gone')).toEqual([['2028-04-10', null, null, null]]);
    for (const name of ['Before', 'After']) expect((await madeBy(name)).map((o) => [o[0], o[2]])).toEqual([['2028-04-10', 'sent']]);
    const failed = await L.listAudit(ctx.ledger, org.seq, { action: 'invoice_repeat.failed', limit: 10, offset: 0 });
    expect(failed.entries.map((e) => e.summary)).toEqual([expect.stringMatching(/^Repeating invoice "Gone" could not make its invoice for 2028-04-10: .*archived/)]);
    expect(await run('2028-04-10')).toEqual([]);
    for (const name of names) await desk('deleteRepeatingInvoice', { ref: name });
  });

  it('refuses a bad schedule naming its fields, and saves nothing', async () => {
    await expect(repeat('Bad', { unit: 'week', day: 3, start: '2026-02-30' })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(repeat('Bad', { unit: 'month', day: 31, lastDay: true, start: '2026-01-01', count: 2, until: '2026-06-01' })).rejects.toMatchObject({
      details: [{ field: 'schedule.monthEnd' }, { field: 'schedule.endDate' }],
    });
    expect((await desk<L.RepeatingInvoice[]>('listRepeatingInvoices')).map((r) => r.name)).toEqual(['Weekly']);
  });

  it('as commands: the next three dates before saving, then create, list, run for a day and show', async () => {
    const cli = ownerCommand(dir);
    const flags = ['--org', 'studio', '--customer', 'Hartley Café', '--unit', 'month', '--day', '31', '--start', '2029-01-31', '--line', 'Hosting;1;20;4000'];
    expect(cli('invoice', 'repeat', 'create', ...flags, '--dry-run')).toMatch(/next 2029-01-31, 2029-02-28, 2029-03-31 \(nothing saved\)/);
    expect(await desk('listRepeatingInvoices')).toHaveLength(1);
    expect(cli('invoice', 'repeat', 'create', ...flags, '--name', 'Hosting', '--action', 'issue')).toMatch(/Next: 2029-01-31, 2029-02-28, 2029-03-31/);
    expect(cli('invoice', 'repeat', 'run', '--org', 'studio', '--as-of', '2029-02-28')).toMatch(
      /2029-01-31 {2}Hosting: invoice INV-\d+ \(late\)\n2029-02-28 {2}Hosting: invoice INV-\d+\n/,
    );
    expect(cli('invoice', 'repeat', 'run', '--org', 'studio', '--as-of', '2029-02-28')).toBe('Nothing due.\n');
    expect(cli('invoice', 'repeat', 'show', 'Hosting', '--org', 'studio')).toMatch(
      /Next: 2029-03-31, 2029-04-30, 2029-05-31\nMade:\n {2}2029-01-31 {2}INV-\d+ \(sent\), made late on 2029-02-28\n {2}2029-02-28 {2}INV-\d+ \(sent\)\n$/,
    );
  }, 180_000);
});

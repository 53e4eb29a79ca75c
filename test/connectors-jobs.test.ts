// The one runner of what happens by itself (issue 52): a job runs once per turn
// whatever the number of processes (its lease in the database), a lease held
// by a process that died expires, and the schedule's job syncs the connectors
// that are due (every 6 hours by default) and no others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import type { DeskContext } from '../src/main/desk/operation';
import { runDue } from '../src/main/jobs/runner';
import { JOBS } from '../src/main/jobs/list';
import type { Job } from '../src/main/jobs/job';
import { takeLease } from '../src/main/ledger/core/leases';
import { openBooksOf, onPostgres } from './support/books';
import { tempLedger } from './support/env';
import { deskAs } from './support/desk';
import { epoch, SimplefinDouble } from './doubles/simplefin';

let ledger: L.Ledger;
let second: L.Ledger;
let org: L.Organization;
let ctx: DeskContext;
let bank: SimplefinDouble;

beforeAll(async () => {
  let dir: string;
  ({ ledger, dir } = await tempLedger());
  second = await openBooksOf(dir, { asServer: onPostgres });
  org = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug: 'acme', name: 'Acme', currency: 'USD' }));
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'desktop', reviewer: L.deskActor() };
  bank = await SimplefinDouble.start();
});
afterAll(async () => {
  await bank.close();
  if (onPostgres) await second.end();
  else second.close();
});

describe('the jobs runner (issue 52)', () => {
  it('runs a job once per turn over two processes; the turn comes again after `every`, and a dead holder’s lease expires', async () => {
    const runs: string[] = [];
    const job: Job = { name: 'test.count', every: 60_000, run: async (_l, now) => void runs.push(now.toISOString()) };
    const t0 = new Date('2026-06-01T10:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await Promise.all([runDue(ledger, [job], 'process-a', t0), runDue(second, [job], 'process-b', t0)])).toEqual(expect.arrayContaining([['test.count'], []]));
    expect(await runDue(second, [job], 'process-b', at(30_000))).toEqual([]);
    expect(await runDue(ledger, [job], 'process-a', at(30_000))).toEqual([]);
    expect(await runDue(second, [job], 'process-b', at(60_000))).toEqual(['test.count']);
    expect(runs).toHaveLength(2);
    // A process that took a connector's lease and died: nobody else syncs it until the lease expires.
    expect(await takeLease(ledger, 'connector:x', 'dead-process', t0.getTime(), at(600_000).getTime())).toBe(true);
    expect(await takeLease(second, 'connector:x', 'process-b', at(599_000).getTime(), at(1_200_000).getTime())).toBe(false);
    expect(await takeLease(second, 'connector:x', 'process-b', at(600_000).getTime(), at(1_200_000).getTime())).toBe(true);
  });

  it("the schedule's job syncs due connectors once, then not before their interval (6 hours)", async () => {
    bank.account('acc-1', 'Checking').transactions.push({ id: 'j1', posted: epoch(new Date().toISOString().slice(0, 10)), amount: '-7.00', description: 'LUNCH' });
    await deskAs(ctx, org.id, 'addSimplefinConnector', { name: 'Bank', setupToken: bank.setupToken(), account: 'Checking' });
    const now = new Date();
    const calls = bank.accountsCalls;
    await Promise.all([runDue(ledger, JOBS, 'process-a', now), runDue(second, JOBS, 'process-b', now)]);
    // One first sync: 90 days in two windows of 60, two calls (not four).
    expect(bank.accountsCalls - calls).toBe(2);
    const [c] = await deskAs(ctx, org.id, 'listConnections');
    expect(c).toMatchObject({ syncStatus: 'ok', accounts: [{ account: { name: 'Checking' } }] });
    expect(Date.parse(c.nextSyncAt) - now.getTime()).toBe(6 * 3_600_000);
    const count = await ledger.forOrg(org.seq, () => ledger.stmt("SELECT count(*) FROM transactions WHERE source = 'bankfeed'").pluck().get());
    expect(Number(count)).toBe(1);
    // The job's next turn (5 minutes on): the connector is not due, no call is made.
    await runDue(second, JOBS, 'process-b', new Date(now.getTime() + 5 * 60_000));
    expect(bank.accountsCalls - calls).toBe(2);
    // Six hours on, it is: one window from its cursor.
    await runDue(second, JOBS, 'process-b', new Date(now.getTime() + 6 * 3_600_000 + 1));
    expect(bank.accountsCalls - calls).toBe(3);
  });
});

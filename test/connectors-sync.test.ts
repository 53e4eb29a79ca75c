// Connectors that sync (issue 52), against a SimpleFIN double over real HTTP
// (test/doubles/simplefin.ts): connect and map, first syncs (direct, and at the
// preview for an account holding rows from files), later syncs, pending rows
// booked under another id, a renumbered day and a changed booked row held for
// the person, and a sync killed midway resumed without a gap or a duplicate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import type { DeskContext } from '../src/main/desk/operation';
import { feedStatement } from '../src/main/ledger/feeds/page';
import { tempLedger } from './support/env';
import { deskAs } from './support/desk';
import { epoch, SimplefinDouble } from './doubles/simplefin';

let ledger: L.Ledger;
let org: L.Organization;
let ctx: DeskContext;
let bank: SimplefinDouble;

/** A day `n` days before today (UTC), as the double's rows are dated relative to the real clock the desk uses. */
const day = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);

async function rowsOf(account: string) {
  return ledger.forOrg(org.seq, () =>
    ledger.rows<{ external_id: string; amount_minor: number; date: string; source: string; description: string }>(
      'SELECT t.external_id, t.amount_minor, t.date, t.source, t.description FROM transactions t JOIN accounts a ON a.seq = t.account_seq WHERE a.name = ? ORDER BY t.date, t.external_id',
      account,
    ),
  );
}

beforeAll(async () => {
  ({ ledger } = await tempLedger());
  org = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug: 'acme', name: 'Acme', currency: 'USD' }));
  ctx = { ledger, dataDir: '', agentUrl: '', mode: 'desktop', reviewer: L.deskActor() };
  bank = await SimplefinDouble.start();
});
afterAll(() => bank.close());

describe('connect, map and sync (issue 52)', () => {
  it('claims a setup token once, maps the one account, and a first sync into an empty account writes its booked rows as bank-feed rows, pending rows apart', async () => {
    const a = bank.account('acc-1', 'Everyday Checking');
    a.transactions.push(
      { id: 't1', posted: epoch(day(20)), amount: '-12.50', description: 'COFFEE ROASTERS' },
      { id: 't2', posted: epoch(day(10)), amount: '1500.00', description: 'CLIENT PAYMENT' },
      { id: 'p1', posted: 0, transacted_at: epoch(day(1)), amount: '-20.00', description: 'PENDING FUEL', pending: true },
    );
    const token = bank.setupToken();
    const added = await desk('addSimplefinConnector', { name: 'Bank', setupToken: token, account: 'Checking' });
    expect(added).toMatchObject({ name: 'Bank', provider: 'simplefin', status: 'active', accounts: [{ feedId: 'acc-1', account: { name: 'Checking' }, awaitingPreview: false }] });
    // A setup token is claimed once: a second claim is refused in words, nothing made.
    await expect(desk('addSimplefinConnector', { name: 'Again', setupToken: token })).rejects.toMatchObject({
      code: 'provider_error',
      message: expect.stringContaining('already claimed'),
    });

    const [report] = await desk('syncAllConnectors');
    expect(report).toMatchObject({ connector: 'Bank', outcome: 'ok', accounts: [{ state: 'synced', imported: 2, pending: 1 }] });
    expect(await rowsOf('Checking')).toEqual([
      { external_id: 't1', amount_minor: -1250, date: day(20), source: 'bankfeed', description: 'COFFEE ROASTERS' },
      { external_id: 't2', amount_minor: 150000, date: day(10), source: 'bankfeed', description: 'CLIENT PAYMENT' },
    ]);
    // Pending: shown for the register, counted nowhere (no transaction, no balance).
    expect(await desk('listPendingRows', { account: 'Checking' })).toEqual([{ externalId: 'p1', date: day(1), amount: -20, currency: 'USD', description: 'PENDING FUEL' }]);
    const checking = (await desk<L.Account[]>('listAccounts')).find((x) => x.name === 'Checking')!;
    expect(checking.balance).toBe(1487.5);
    // One batch, one audit entry, undoable like a file's.
    const audit = await ledger.forOrg(org.seq, () => ledger.rows<{ action: string; summary: string }>("SELECT action, summary FROM audit_log WHERE action = 'statement.imported'"));
    expect(audit).toHaveLength(1);
    expect(audit[0].summary).toContain('SimpleFIN "Bank": Example Bank Everyday Checking');
    const [listed] = await desk<{ syncStatus: string; lastSyncAt: string; nextSyncAt: string }[]>('listConnections');
    expect(listed.syncStatus).toBe('ok');
    expect(Date.parse(listed.nextSyncAt) - Date.parse(listed.lastSyncAt)).toBe(6 * 3_600_000);
  });

  it('a later sync writes only what is new; a pending row booked under another id, amount and date becomes that one row', async () => {
    const a = bank.accounts.get('acc-1')!;
    a.transactions.splice(
      a.transactions.findIndex((t) => t.id === 'p1'),
      1,
    );
    a.transactions.push({ id: 'b1', posted: epoch(day(0)), amount: '-21.75', description: 'FUEL STATION' });
    const [report] = await desk('syncAllConnectors');
    expect(report.accounts[0]).toMatchObject({ imported: 1, pending: 0 });
    expect((await rowsOf('Checking')).map((r) => r.external_id)).toEqual(['t1', 't2', 'b1']);
    expect(await desk('listPendingRows', { account: 'Checking' })).toEqual([]);
    // Again: nothing new, nothing written twice.
    const [again] = await desk('syncAllConnectors');
    expect(again.accounts[0]).toMatchObject({ imported: 0, held: 0 });
    expect(await rowsOf('Checking')).toHaveLength(3);
  });

  it('holds a renumbered day and a changed booked row for the person, both versions kept, nothing booked changed', async () => {
    const a = bank.accounts.get('acc-1')!;
    const before = await rowsOf('Checking');
    // The bank renumbers b1 (same date, amount, description) and changes t2's amount (both in the days a sync fetches again).
    a.transactions.find((t) => t.id === 'b1')!.id = 'b1-renumbered';
    a.transactions.find((t) => t.id === 't2')!.amount = '1505.00';
    const [report] = await desk('syncAllConnectors');
    expect(report.accounts[0]).toMatchObject({ imported: 0, held: 2 });
    expect(await rowsOf('Checking')).toEqual(before);
    const held = await desk<{ id: string; reason: string; feed: { externalId: string; amount: number }; books: { externalId: string; amount: number } }[]>('listHeldRows');
    expect(held.map((h) => [h.feed.externalId, h.feed.amount, h.books.externalId, h.books.amount])).toEqual([
      ['t2', 1505, 't2', 1500],
      ['b1-renumbered', -21.75, 'b1', -21.75],
    ]);
    expect(held[1].reason).toContain('renumbered');
    // Held once: the next sync holds nothing more.
    const [again] = await desk('syncAllConnectors');
    expect(again.accounts[0].held).toBe(0);
    // The person decides: the renumbered row is the same one (kept), the changed one is imported beside the booked one.
    await desk('decideHeldRow', { id: held[1].id, decision: 'keep' });
    await desk('decideHeldRow', { id: held[0].id, decision: 'import' });
    expect((await rowsOf('Checking')).map((r) => [r.external_id, r.amount_minor])).toEqual([
      ['t1', -1250],
      ['t2', 150000],
      ['t2', 150500],
      ['b1', -2175],
    ]);
    const [later] = await desk('syncAllConnectors');
    expect(later.accounts[0]).toMatchObject({ imported: 0, held: 0 });
  });

  it("the first sync of an account holding rows from files stops at the preview and waits for the person's confirmation", async () => {
    await desk('createAccount', { name: 'Savings', currency: 'USD', type: 'savings' });
    // Rows from a file: one the feed also has (no bank id in the file: a duplicate), one only the file has.
    await ledger.forOrg(org.seq, () =>
      L.importStatement(ledger, org.seq, L.deskActor(), {
        statement: feedStatement(
          [
            { externalId: '', date: day(30), amount: '250.00', description: 'INTEREST', pending: false },
            { externalId: '', date: day(40), amount: '-5.00', description: 'FEE', pending: false },
          ].map((r) => ({ ...r, externalId: null as unknown as string })),
          'USD',
        ),
        fileName: 'savings.csv',
        fileSha256: 'x',
        readOptions: {},
        account: 'Savings',
      }),
    );
    const other = await SimplefinDouble.start();
    const s = other.account('acc-2', 'High Yield Savings');
    s.transactions.push(
      { id: 's1', posted: epoch(day(30)), amount: '250.00', description: 'INTEREST' },
      { id: 's2', posted: epoch(day(3)), amount: '1000.00', description: 'TRANSFER IN' },
    );
    await desk('addSimplefinConnector', { name: 'Savings feed', setupToken: other.setupToken() });
    const mapped = await desk('mapConnectorAccount', { connector: 'Savings feed', feedAccount: 'acc-2', account: 'Savings' });
    expect(mapped.accounts[0]).toMatchObject({ awaitingPreview: true });
    const [waiting] = await desk('syncAllConnectors', { connector: 'Savings feed' });
    expect(waiting.accounts[0].state).toBe('waiting_preview');
    expect(await rowsOf('Savings')).toHaveLength(2);
    const preview = await desk<L.ImportResult>('previewFirstSync', { connector: 'Savings feed' });
    expect(preview).toMatchObject({ dryRun: true, imported: 1, duplicates: 1, batchId: null });
    expect(await rowsOf('Savings')).toHaveLength(2);
    const confirmed = await desk('confirmFirstSync', { connector: 'Savings feed' });
    expect(confirmed.accounts[0]).toMatchObject({ state: 'synced', imported: 1, duplicates: 1 });
    expect((await rowsOf('Savings')).map((r) => r.description)).toEqual(['FEE', 'INTEREST', 'TRANSFER IN']);
    await other.close();
  });

  it('a sync killed on its second page keeps the first page with its cursor, and the next sync resumes without a gap or a duplicate', async () => {
    const card = await SimplefinDouble.start();
    const k = card.account('acc-3', 'Card');
    // 80 days back and 5 days back: two windows of 60 days, two calls.
    k.transactions.push(
      { id: 'k1', posted: epoch(day(80)), amount: '-40.00', description: 'OLD PURCHASE' },
      { id: 'k2', posted: epoch(day(5)), amount: '-60.00', description: 'NEW PURCHASE' },
    );
    await desk('addSimplefinConnector', { name: 'Card feed', setupToken: card.setupToken(), account: 'Card' });
    // The second page's call, and each retry of it, loses its connection.
    for (const n of [2, 3, 4]) card.failOnCall(n, 'drop');
    const [killed] = await desk('syncAllConnectors', { connector: 'Card feed' });
    expect(killed.outcome).toBe('error');
    expect(killed.error).toContain('SimpleFIN could not be reached');
    expect((await rowsOf('Card')).map((r) => r.external_id)).toEqual(['k1']);
    const [resumed] = await desk('syncAllConnectors', { connector: 'Card feed' });
    expect(resumed).toMatchObject({ outcome: 'ok', accounts: [{ imported: 1 }] });
    expect((await rowsOf('Card')).map((r) => r.external_id)).toEqual(['k1', 'k2']);
    await card.close();
  });
});

// A provider's failures (issue 52), against the SimpleFIN double: 429 with
// Retry-After sets the next attempt, a 500 and a timeout back off, a malformed
// answer and a revoked token are errors in words, a lapsed consent waits for the
// person; the books stay as they were each time. The daily allowance is kept,
// two processes sync one connector once, and no secret is in any answer, log,
// audit entry or export.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import type { DeskContext } from '../src/main/desk/operation';
import { syncConnector } from '../src/main/connectors/sync';
import { openBooksOf, onPostgres } from './support/books';
import { tempLedger } from './support/env';
import { deskAs } from './support/desk';
import { epoch, SimplefinDouble } from './doubles/simplefin';

let ledger: L.Ledger;
let dir: string;
let file: string;
let org: L.Organization;
let ctx: DeskContext;
let bank: SimplefinDouble;
const logged: string[] = [];

const day = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const count = async () => Number(await ledger.forOrg(org.seq, () => ledger.stmt('SELECT count(*) FROM transactions').pluck().get()));
const connector = async () => (await desk<{ name: string; syncStatus: string | null; error: string | null; nextSyncAt: string | null }[]>('listConnections'))[0];
const sync = async () => (await desk('syncAllConnectors'))[0];

beforeAll(async () => {
  ({ ledger, dir, file } = await tempLedger());
  org = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug: 'acme', name: 'Acme', currency: 'USD' }));
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'desktop', reviewer: L.deskActor() };
  bank = await SimplefinDouble.start();
  bank.account('acc-1', 'Checking').transactions.push({ id: 't1', posted: epoch(day(3)), amount: '-9.99', description: 'SUBSCRIPTION' });
  await desk('addSimplefinConnector', { name: 'Bank', setupToken: bank.setupToken(), account: 'Checking' });
  await sync();
  // What the process would print: every console line of the run is kept to be searched for secrets.
  for (const level of ['log', 'error', 'warn', 'info'] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
      original(...args);
    };
  }
});
afterAll(() => bank.close());

describe("a provider's failures leave the books as they were (issue 52)", () => {
  it('429 with Retry-After: the next attempt is when the provider said, nothing written', async () => {
    const before = await count();
    bank.accounts.get('acc-1')!.transactions.push({ id: 't2', posted: epoch(day(1)), amount: '-1.00', description: 'NEW' });
    bank.fail('429');
    const started = Date.now();
    const report = await sync();
    expect(report.outcome).toBe('error');
    expect(report.error).toContain('asks to wait 120 s');
    const next = Date.parse((await connector()).nextSyncAt!);
    expect(next - started).toBeGreaterThanOrEqual(119_000);
    expect(next - started).toBeLessThan(180_000);
    expect(await count()).toBe(before);
  });

  it('500s and a slow answer are retried, then refused in words with a back-off; the books are unchanged', async () => {
    const before = await count();
    bank.fail('500', 3);
    const failed = await sync();
    expect(failed.error).toMatch(/^SimpleFIN answered 500\. The books are as they were; the next try is at /);
    const c = await connector();
    expect(c.syncStatus).toBe('error');
    expect(Date.parse(c.nextSyncAt!) - Date.now()).toBeGreaterThan(14 * 60_000);
    process.env.LEDGERDESK_SIMPLEFIN_TIMEOUT_MS = '300';
    bank.slowMs = 1500;
    bank.fail('slow', 3);
    try {
      expect((await sync()).error).toContain('SimpleFIN did not answer in time.');
    } finally {
      delete process.env.LEDGERDESK_SIMPLEFIN_TIMEOUT_MS;
    }
    // A second failure in a row waits twice as long.
    expect(Date.parse((await connector()).nextSyncAt!) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(await count()).toBe(before);
  });

  it('a malformed answer is an error in words; a later good sync clears it', async () => {
    const before = await count();
    bank.fail('malformed');
    expect((await sync()).error).toContain('SimpleFIN answered 200 with something that is not JSON.');
    expect(await count()).toBe(before);
    expect(await sync()).toMatchObject({ outcome: 'ok', accounts: [{ imported: 1 }] });
    expect(await connector()).toMatchObject({ syncStatus: 'ok', error: null });
  });

  it('a revoked token: syncStatus error with the reason in words, the books unchanged, and reconnecting keeps the history', async () => {
    const before = await count();
    bank.revoked = true;
    bank.accounts.get('acc-1')!.transactions.push({ id: 't3', posted: epoch(day(0)), amount: '-3.00', description: 'AFTER REVOKE' });
    const report = await sync();
    expect(report.error).toContain("SimpleFIN refused the connection's credentials");
    expect(report.error).toContain('Reconnect "Bank"');
    expect(await connector()).toMatchObject({ syncStatus: 'error', nextSyncAt: null });
    expect(await count()).toBe(before);
    // A new setup token under the same name reconnects: mapping and cursor kept, no row written twice.
    bank.revoked = false;
    await desk('addSimplefinConnector', { name: 'Bank', setupToken: bank.setupToken() });
    const after = await sync();
    expect(after).toMatchObject({ outcome: 'ok', accounts: [{ state: 'synced', imported: 1, duplicates: 2 }] });
    expect(await count()).toBe(before + 1);
  });

  it('a lapsed consent is an error in words before any call; a warning shows two weeks before', async () => {
    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString();
    await ledger.forOrg(org.seq, () => ledger.stmt('UPDATE connectors SET consent_expires_at = ?').run(soon));
    expect((await desk('listConnections'))[0].consentWarning).toContain('expires on');
    const calls = bank.accountsCalls;
    await ledger.forOrg(org.seq, () => ledger.stmt('UPDATE connectors SET consent_expires_at = ?').run('2020-01-01T00:00:00.000Z'));
    expect((await sync()).error).toContain('The consent for "Bank" expired on 2020-01-01');
    expect(bank.accountsCalls).toBe(calls);
    await ledger.forOrg(org.seq, () => ledger.stmt('UPDATE connectors SET consent_expires_at = NULL').run());
  });

  it("SimpleFIN's daily allowance: the 25th call of a day is not made, the next sync waits for the next UTC day", async () => {
    await ledger.forOrg(org.seq, () => ledger.stmt('UPDATE connectors SET calls_day = ?, calls = 24').run(new Date().toISOString().slice(0, 10)));
    const calls = bank.accountsCalls;
    const report = await sync();
    expect(report.error).toContain('SimpleFIN allows 24 calls a day');
    expect(bank.accountsCalls).toBe(calls);
    expect((await connector()).nextSyncAt!.slice(11)).toBe('00:00:00.000Z');
    await ledger.forOrg(org.seq, () => ledger.stmt('UPDATE connectors SET calls = 0').run());
  });

  it('two processes syncing one connector at once: one syncs, the other finds it busy; rows written once', async () => {
    const second = await openBooksOf(dir, { asServer: onPostgres });
    try {
      bank.accounts.get('acc-1')!.transactions.push({ id: 't4', posted: epoch(day(0)), amount: '-4.00', description: 'RACE' });
      bank.slowMs = 800;
      bank.fail('slow');
      const before = await count();
      const now = new Date();
      const [a, b] = await Promise.all([
        ledger.forOrg(org.seq, () => syncConnector(ledger, org.seq, 'Bank', { now, actor: L.deskActor(), holder: 'process-a' })),
        new Promise((r) => setTimeout(r, 200)).then(() => second.forOrg(org.seq, () => syncConnector(second, org.seq, 'Bank', { now, actor: L.deskActor(), holder: 'process-b' }))),
      ]);
      expect([a.outcome, b.outcome]).toEqual(['ok', 'busy']);
      expect(await count()).toBe(before + 1);
    } finally {
      if (onPostgres) await second.end();
      else second.close();
    }
  });

  it('no secret in any answer, audit entry, log line, export or the books in clear', async () => {
    const secrets = [bank.password, bank.accessUrl];
    const answers = JSON.stringify([await desk('listConnections'), await desk('listHeldRows'), await desk('listAudit', { limit: 200 })]);
    const audit = JSON.stringify(await ledger.forOrg(org.seq, () => ledger.rows('SELECT * FROM audit_log')));
    const stored = JSON.stringify(await ledger.forOrg(org.seq, () => ledger.rows('SELECT * FROM connectors')));
    const exported = JSON.stringify(await ledger.forOrg(org.seq, () => L.listConnectors(ledger, org.seq)));
    const files = onPostgres ? '' : readFileSync(file, 'latin1') + readFileSync(`${file}-wal`, 'latin1');
    for (const s of secrets)
      for (const [where, text] of Object.entries({ answers, audit, stored, exported, files, log: logged.join('\n') }))
        expect(text.includes(s), `${where} holds a secret`).toBe(false);
    expect(stored).toContain('ldk-sealed:v1:');
  });
});

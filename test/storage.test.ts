// The SQLite driver behind the async storage interface: one connection shared by
// every caller, so a caller's open transaction must not leak into another's reads
// or writes, and a statement walked outside a write must not make writes fail.
import { describe, expect, it } from 'vitest';
import { setTimeout as pause } from 'node:timers/promises';
import { tempSqliteLedger } from './support/env';

const ledgerWithTable = () => {
  const { ledger } = tempSqliteLedger();
  ledger.sqlite.exec('CREATE TABLE t (x INTEGER)');
  return ledger;
};

describe('the SQLite driver', () => {
  it('keeps another caller from reading a write not yet committed, and from joining it', async () => {
    const ledger = ledgerWithTable();
    const count = async () => (await ledger.stmt('SELECT count(*) FROM t').pluck().get()) as number;
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const failing = ledger.write(async () => {
      await ledger.stmt('INSERT INTO t VALUES (1)').run();
      inserted();
      await pause(20); // a real wait: other callers' events run meanwhile
      throw new Error('changed its mind');
    });
    await insertedYet;
    const [seen, alone] = await Promise.all([count(), ledger.stmt('INSERT INTO t VALUES (2)').run()]);
    await expect(failing).rejects.toThrow('changed its mind');
    expect(seen).toBe(0); // waited for the rollback, not read the row that never was
    expect(alone.changes).toBe(1);
    expect(await ledger.stmt('SELECT x FROM t').pluck().all()).toEqual([2]); // its own, not rolled back with the other
  });

  it('runs writes one after another, and a failed nested write undoes only itself', async () => {
    const ledger = ledgerWithTable();
    const order: string[] = [];
    const write = (x: number) =>
      ledger.write(async () => {
        order.push(`begin ${x}`);
        await ledger.stmt('INSERT INTO t VALUES (?)').run(x);
        await pause(5);
        await ledger.write(() => ledger.stmt('INSERT INTO t VALUES (?)').run(x * 10)).catch(() => undefined);
        await ledger
          .write(async () => {
            await ledger.stmt('INSERT INTO t VALUES (?)').run(x * 100);
            throw new Error('nested');
          })
          .catch(() => undefined);
        order.push(`end ${x}`);
      });
    await Promise.all([write(1), write(2)]);
    expect(order).toEqual(['begin 1', 'end 1', 'begin 2', 'end 2']);
    expect(await ledger.stmt('SELECT x FROM t ORDER BY x').pluck().all()).toEqual([1, 2, 10, 20]);
  });

  it('lets a write wait for a statement another caller is walking, instead of failing as busy', async () => {
    const ledger = ledgerWithTable();
    for (let x = 1; x <= 3; x++) await ledger.stmt('INSERT INTO t VALUES (?)').run(x);
    const walked: unknown[] = [];
    let writing: Promise<unknown> | undefined;
    for await (const chunk of ledger.stmt('SELECT x FROM t ORDER BY x').iterateRaw()) {
      for (const [x] of chunk) {
        walked.push(x);
        writing ??= ledger.write(() => ledger.stmt('INSERT INTO t VALUES (4)').run());
        await pause(5);
      }
    }
    await writing;
    expect(walked).toEqual([1, 2, 3]);
    expect(await ledger.stmt('SELECT count(*) FROM t').pluck().get()).toBe(4);
  });
});

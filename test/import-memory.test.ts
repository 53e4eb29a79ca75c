// What a large import holds while it runs (issue 42, "Memory"): a statement's
// rows weigh a few bytes each on V8's heap (descriptions packed as UTF-8
// outside it, equal cells sharing one string, no column of a million nulls),
// measured after full collections; and the rewritten steps give what they
// gave before (fingerprints numbered per section, rows in date order, every
// possible transfer counted though only those shown are kept).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { inDateOrder } from '../src/main/ledger/imports/apply';
import { fingerprintKey, hash53, toLedgerRows } from '../src/main/ledger/imports/statement-rows';
import { fileSource, readStatement } from '../src/main/statements';
import { StatementRows } from '../src/main/statements/rows';
import { TextColumn } from '../src/main/statements/text-column';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The heap in use once what is no longer reachable is collected (a stream's last hold on what it read goes at the next turn). */
const heapAfterCollection = async () => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** A CSV as banks and merged exports write it: a reference per row, dates in no order. */
function writeMerged(rows: number): string {
  const file = join(tempDir(), 'merged.csv');
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2025, 0, 1) + ((i * 7919) % 730) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},CARD PURCHASE CONTOSO ${1000 + (i % 9000)} REF ${1_000_000 + i},-${(i % 3000) + 1}.${String(i % 100).padStart(2, '0')}`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('a statement’s rows in memory', () => {
  it('hold each description packed, any text (multi-byte, empty, long) read back as it went in', () => {
    const column = new TextColumn();
    const texts = ['CARD PURCHASE', '', 'Café Zürich – 東京 🍣', 'x'.repeat(5000), 'last'];
    for (let k = 0; k < 300; k++) texts.forEach((t) => column.push(t));
    expect(column.length).toBe(1500);
    expect(Array.from({ length: 5 }, (_, k) => column.at(1495 + k))).toEqual(texts);
    column.replaceLast('Bank entry: rent');
    expect([column.at(1498).length, column.at(1499)]).toEqual([5000, 'Bank entry: rent']);
    column.keep(Uint8Array.from({ length: 1500 }, (_, i) => (i % 5 === 2 || i === 1499 ? 1 : 0)));
    expect(column.length).toBe(301);
    expect([column.at(0), column.at(299), column.at(300)]).toEqual(['Café Zürich – 東京 🍣', 'Café Zürich – 東京 🍣', 'Bank entry: rent']);
  });

  it('keep no bank id for rows without one, and keep the ids of the rows kept', () => {
    const rows = new StatementRows();
    rows.add(0, 2, '2026-01-05', '-1', 'A', null);
    rows.add(0, 3, '2026-01-06', '-2', 'B', null);
    expect(rows.externalId).toEqual([]);
    rows.add(0, 4, '2026-01-07', '-3', 'C', 'ID-4');
    rows.add(0, 5, '2026-01-08', '-4', 'D', null);
    expect([rows.idAt(0), rows.idAt(2), rows.idAt(3)]).toEqual([null, 'ID-4', null]);
    rows.keep(Uint8Array.from([0, 1, 1, 0]));
    expect(rows.toArray()).toEqual([
      { section: 0, line: 3, date: '2026-01-06', amount: '-2', description: 'B', externalId: null },
      { section: 0, line: 4, date: '2026-01-07', amount: '-3', description: 'C', externalId: 'ID-4' },
    ]);
  });

  it('weigh a few bytes a row on the heap once a CSV of 200,000 rows is read', async () => {
    const ROWS = 200_000;
    const file = writeMerged(ROWS);
    await readStatement(fileSource(file)); // the reader's code compiled before measuring
    const before = await heapAfterCollection();
    const statement = await readStatement(fileSource(file));
    const perRow = ((await heapAfterCollection()) - before) / ROWS;
    expect(statement.rows.length).toBe(ROWS);
    expect(statement.rows.at(ROWS - 1)).toMatchObject({ description: `CARD PURCHASE CONTOSO ${1000 + ((ROWS - 1) % 9000)} REF ${1_000_000 + ROWS - 1}`, amount: '-2000.99' });
    // A string and a slot per description, amount and id were ~120 bytes a row; the dates' and amounts' slots are ~20.
    expect(perRow).toBeLessThan(40);
  });
});

describe('fingerprints', () => {
  it('are the key’s hash, and for the nth row of one key in a section the hash of the key and n, as stored in books already', () => {
    const rows = new StatementRows();
    const cells: [number, string, string, string][] = [];
    for (let i = 0; i < 2000; i++) cells.push([i % 3 === 0 ? 1 : 0, `2026-01-0${1 + (i % 3)}`, `-${i % 7}.50`, i % 11 === 0 ? 'COFFEE' : `SHOP ${i % 13}`]);
    cells.forEach(([section, date, amount, description], i) => rows.add(section, i + 2, date, amount, description, null));
    const { rows: ledgerRows } = toLedgerRows(rows, () => 'USD');
    // The rule, as it was first written: a count per section and key, by the key's hash.
    const seen = new Map<number, number>();
    const expected = cells.map(([section, date, amount, description]) => {
      const key = fingerprintKey(date, Math.round(Number(amount) * 100), description);
      const slot = section === 0 ? hash53(key) : hash53(`${section}|${key}`);
      const occurrence = (seen.get(slot) ?? 0) + 1;
      seen.set(slot, occurrence);
      return occurrence === 1 ? hash53(key) : hash53(`${key}#${occurrence}`);
    });
    expect(Array.from(ledgerRows.fingerprint)).toEqual(expected);
    expect(new Set(expected).size).toBe(2000);
  });
});

describe('rows to write in date order', () => {
  it('are sorted by day, each day’s rows in file order, as a comparison sort has them', () => {
    const dates = Array.from({ length: 50_000 }, (_, i) => `2025-${String(1 + ((i * 7) % 12)).padStart(2, '0')}-${String(1 + ((i * 13) % 28)).padStart(2, '0')}`);
    const at = Int32Array.from({ length: 40_000 }, (_, k) => (k * 3) % 50_000);
    const order = new Map(Array.from(at, (i, k) => [i, k]));
    const expected = [...at].sort((a, b) => (dates[a] < dates[b] ? -1 : dates[a] > dates[b] ? 1 : order.get(a)! - order.get(b)!));
    expect(Array.from(inDateOrder(at, dates))).toEqual(expected);
  });
});

describe('possible transfers of a large file', () => {
  it('are all counted, those shown kept with their other side, and a decision on one not shown still matches it', async () => {
    const { ledger, dir } = await tempLedger();
    const org = await L.createOrganization(ledger, { slug: 'many' });
    const ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command' as const, reviewer: L.deskActor() };
    const run = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
    await run('createAccount', { name: 'Checking', type: 'checking' });
    await run('createAccount', { name: 'Savings', type: 'savings' });
    const csv = (name: string, sign: string) => {
      const file = join(dir, name);
      writeFileSync(
        file,
        `Date,Description,Amount\n${Array.from({ length: 700 }, (_, k) => `2026-03-${String(1 + (k % 28)).padStart(2, '0')},MOVE ${k},${sign}${k + 1}.00`).join('\n')}\n`,
      );
      return file;
    };
    await run('importStatement', { file: csv('out.csv', '-'), account: 'Checking' });
    const preview = await run<L.ImportResult>('importStatement', { file: csv('in.csv', ''), account: 'Savings', dryRun: true });
    expect([preview.transfers, preview.preview.length, preview.preview.every((r) => r.transfer?.kind === 'possible')]).toEqual([{ matched: 0, possible: 700 }, 500, true]);
    const done = await run<L.ImportResult>('importStatement', { file: csv('in.csv', ''), account: 'Savings', decisions: { '699': 'transfer' } });
    expect(done.transfers).toEqual({ matched: 1, possible: 699 });
    const other = ledger.sqlite
      .prepare("SELECT l.kind, l.counterpart_seq FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE t.description = 'MOVE 699' AND t.amount_minor = -70000")
      .get();
    expect(other).toMatchObject({ kind: 'transfer', counterpart_seq: expect.any(Number) });
  });
});

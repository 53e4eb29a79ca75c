// The journal writers on a book made by hand, for what real books rarely
// hold: a matched transfer whose sides' base amounts do not cancel (a side
// from before rates, awaiting one). The entry still balances in hledger and
// Beancount, and transit keeps what the books keep there.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBeancount } from '../src/main/exports/beancount';
import type { ExportBook, ExportCounterpart, ExportRow } from '../src/main/exports/book';
import { writeHledger } from '../src/main/exports/hledger';
import { accountantTool, tempDir } from './support/env';

type Side = Omit<ExportCounterpart, 'description'>;
const dollars: Side = { seq: 1, id: 'out', accountId: 'usd', date: '2026-01-08', amountMinor: -100000, currency: 'USD', baseMinor: null, reconciled: false };
const euros: Side = { seq: 2, id: 'in', accountId: 'eur', date: '2026-01-12', amountMinor: 92000, currency: 'EUR', baseMinor: 78431, reconciled: false };

function rowOf(side: Side, other: Side): ExportRow & { seq: number } {
  const counterpart = { ...other, description: other.id };
  const line = {
    kind: 'transfer' as const,
    category: null,
    accountId: other.accountId,
    counterpart,
    amountMinor: -side.amountMinor,
    baseMinor: side.baseMinor && -side.baseMinor,
    memo: null,
  };
  const facts = { category: null, status: 'categorized', source: 'manual', externalId: null, suggestedBy: null, confidence: null, reason: null };
  return { ...side, description: side.id, lines: [line], ...facts };
}

const book: ExportBook = {
  organization: { name: 'Hand made', slug: 'hand', currency: 'GBP' },
  from: null,
  to: null,
  accounts: [
    { id: 'usd', name: 'Dollar', type: 'checking', currency: 'USD', closedAt: null },
    { id: 'eur', name: 'Euro', type: 'checking', currency: 'EUR', closedAt: null },
  ],
  openings: [],
  prices: [],
  categories: [],
  rows: [rowOf(dollars, euros), rowOf(euros, dollars)],
  documents: [],
  journals: [],
  digits: () => 2,
};

const written = (writer: (b: ExportBook, w: (chunk: string) => void) => number): string => {
  let out = '';
  writer(book, (chunk) => (out += chunk));
  return out;
};

function accepted(tool: string, file: string, ...args: string[]): void {
  const run = spawnSync(accountantTool(tool), [...args, file], { encoding: 'utf8' });
  expect(run.stderr + run.stdout).toBe('');
  expect(run.status).toBe(0);
}

describe('a matched transfer whose base amounts do not cancel', () => {
  it('hledger: one entry, what is left over in transit on the later date', () => {
    const journal = written(writeHledger);
    expect(journal).toContain(
      [
        '2026-01-08 out  ; id:out',
        '    assets:Dollar    -1000.00 USD',
        '    assets:Euro    920.00 EUR @@ 784.31 GBP  ; id:in, date:2026-01-12',
        '    assets:transfers in transit    1000.00 USD  ; date:2026-01-12',
        '    assets:transfers in transit    -784.31 GBP  ; date:2026-01-12',
      ].join('\n'),
    );
    const file = join(tempDir(), 'hand.journal');
    writeFileSync(file, journal);
    accepted('hledger', file, 'check', '-f');
  });

  it('Beancount: two entries, the earlier sending its dollars into transit, the later leaving its pounds beside them', () => {
    const text = written(writeBeancount);
    expect(text).toContain('  Assets:Dollar  -1000.00 USD\n  Assets:Transfers-In-Transit  1000.00 USD\n');
    expect(text).toContain('  Assets:Euro  920.00 EUR @@ 784.31 GBP\n  Assets:Transfers-In-Transit  -784.31 GBP\n\n');
    const file = join(tempDir(), 'hand.beancount');
    writeFileSync(file, text);
    accepted('bean-check', file);
  });
});

// After every test, on both engines: every maintained total of every set of books
// the test file opened with tempLedger() equals its recount from the rows, and
// every entry balances (support/aggregates.ts). A vitest setup file.
import { afterEach } from 'vitest';
import type { Ledger } from '../../src/main/ledger';
import { expectTotalsMatchRows } from './aggregates';

const books = new Set<Ledger>();

/** Books to recount after each test until they are closed (tempLedger registers its own). */
export function recountAfterEach(ledger: Ledger): () => void {
  books.add(ledger);
  return () => books.delete(ledger);
}

afterEach(async () => {
  for (const ledger of books) await expectTotalsMatchRows(ledger);
});

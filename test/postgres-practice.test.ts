// The Practice screen's data on a firm's server (issue 55): each column read
// once for every organization the person sees, in a scope row-level security
// shows those organizations alone, so the statements are as many for six
// organizations as for two (not a scope and a statement a column an organization).
import { expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operation';
import { deskOperations } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import type { PostgresLedger } from '../src/main/ledger/core/postgres/driver';
import { fillDemo } from '../src/main/demo';
import { tempLedger } from './support/env';

it('reads the organizations in as many statements, six or two', async () => {
  const { ledger } = await tempLedger();
  const ctx: DeskContext = { ledger, dataDir: '', agentUrl: '', mode: 'browser', reviewer: L.deskActor() };
  const add = async (i: number) => {
    const org = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug: `client-${i}` }));
    await ledger.forOrg(org.seq, () => fillDemo(ledger, org.seq, org.slug, 40, org.currency));
  };
  // Each statement outside a transaction takes a pooled connection of its own: counted as the pool hands them out.
  const pool = (ledger as PostgresLedger).pool;
  const read = async () => {
    let statements = 0;
    const counted = () => statements++;
    pool.on('acquire', counted);
    try {
      const shown = await ledger.forOrg('all', () => deskOperations.practice.run(ctx, {}));
      return { rows: shown.rows.length, statements };
    } finally {
      pool.off('acquire', counted);
    }
  };
  for (const i of [1, 2]) await add(i);
  const two = await read();
  for (const i of [3, 4, 5, 6]) await add(i);
  const six = await read();
  expect([two.rows, six.rows]).toEqual([2, 6]);
  expect(six.statements).toBe(two.statements);
  expect(six.statements).toBeLessThanOrEqual(16);
});

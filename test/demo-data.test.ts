// The demo generator (ledgerdesk demo, the benchmarks' books) into several
// organizations of one set of books: its random streams start at offsets of one
// cycle, so two organizations' streams can run over the same draws. These two
// slugs were found to start 2,633 draws apart: without each organization's own
// id mask, the second drew the first's ids and its rows were refused as duplicates.
import { expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { fillDemo } from '../src/main/demo';
import { tempLedger } from './support/env';

it('gives two organizations whose streams overlap ids of their own', async () => {
  const { ledger } = await tempLedger();
  for (const slug of ['alpha', 'beta-91259']) {
    const org = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug, name: slug }));
    await ledger.forOrg(org.seq, () => fillDemo(ledger, org.seq, org.slug, 1000, org.currency));
  }
  const counts = await ledger.forOrg('all', () => ledger.rows<{ n: number }>('SELECT count(*) AS n FROM transactions GROUP BY org_seq ORDER BY org_seq'));
  expect(counts.map((c) => Number(c.n))).toEqual([1000, 1000]);
});

// A job's pass over every organization (row-level security shows one at a
// time): a page of organization numbers at once, so a firm of thousands is
// never read into memory whole. One organization's failure is logged and the
// others still run.
import { organizationsAfter } from '../ledger/staging/staged';
import type { Ledger } from '../ledger/core/storage';

export async function eachOrganization(ledger: Ledger, each: (orgSeq: number) => Promise<void>, log: (message: string) => void = () => undefined): Promise<void> {
  for (let after = 0; ;) {
    const orgs = await ledger.forOrg('all', () => organizationsAfter(ledger, after, 200));
    for (const org of orgs) {
      try {
        await each(org);
      } catch (error) {
        log(`organization ${org}: ${(error as Error).message}`);
      }
    }
    if (orgs.length < 200) return;
    after = orgs[orgs.length - 1];
  }
}

// The chart's words and sections (issue 42): an agent's free-text category
// resolves to a category's exact name before another's synonym; a synonym
// two categories share is refused as ambiguous, naming both, unless the
// money's sign tells them apart; adding, renaming and synonyms say what the
// change does to agents' words (in the command's output too); cost of sales
// is a property of a category wherever it sits, and a category under one
// cannot leave it alone. Over real HTTP and the owner command.
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { call, ownerCommand, tempDir, world, type World } from './support/env';

let w: World;
let org: L.Organization;
let token: string;
const rows: Record<'out' | 'in', L.HandRow> = {} as never;
const me = L.deskActor();
const propose = (body: Record<string, unknown>) => call(w.base, 'POST', '/proposals/categorization', { token, body });
const resolved = async (row: 'out' | 'in', category: string) => {
  const res = await propose({ transactionId: rows[row].id, category });
  expect(res.status, res.text).toBeLessThan(300);
  return res.json.data.payload.categoryCode as string;
};

beforeAll(async () => {
  w = await world(10);
  org = await L.createOrganization(w.ledger, { slug: 'words' });
  token = (await L.createToken(w.ledger, org.seq, { name: 'bot', scopes: ['read', 'propose-write'] })).token;
  await L.createAccount(w.ledger, org.seq, me, { name: 'Bank', type: 'checking' });
  rows.out = await L.addTransaction(w.ledger, org.seq, me, { account: 'Bank', date: '2026-02-10', description: 'TRAIN TICKET', amount: -42 });
  rows.in = await L.addTransaction(w.ledger, org.seq, me, { account: 'Bank', date: '2026-02-11', description: 'REFUND', amount: 12 });
});

describe("an agent's free-text category", () => {
  it('takes a category named exactly over the synonym of another, and says so when the category is added', async () => {
    expect(await resolved('out', 'travel')).toBe('5000'); // a synonym of 5000 Operating expenses
    const added = await L.addCategory(w.ledger, org.seq, me, { code: '5020', name: 'Travel', type: 'expense', parentCode: '5000' });
    expect(added.warnings).toEqual([`"Travel" is also a synonym of 5000 Operating expenses: agents' "travel" will now mean 5020 Travel (an exact name wins over a synonym).`]);
    expect(await resolved('out', ' TRAVEL ')).toBe('5020');
    // Money in: no revenue category fits, so the exact name still decides (a refund goes back to the expense).
    expect(await resolved('in', 'travel')).toBe('5020');
    // Archived, the name no longer answers; the synonym of the category in use does.
    await L.setCategoryArchived(w.ledger, org.seq, me, '5020', true);
    expect(await resolved('out', 'travel')).toBe('5000');
    await L.setCategoryArchived(w.ledger, org.seq, me, '5020', false);
  });

  it("offers the exact name first in the desk's type-ahead too, then exact synonyms, then what contains the text", async () => {
    const { matchCategories } = await import('../src/renderer/src/CategoryPicker');
    const offered = matchCategories(await L.listCategories(w.ledger, org.seq), 'Travel').map((c) => c.code);
    expect(offered.slice(0, 2)).toEqual(['5020', '5000']);
  });

  it('refuses a synonym two categories share as ambiguous, naming both, unless the sign tells them apart', async () => {
    await L.setSynonyms(w.ledger, org.seq, me, '5300', ['Cloud', 'Hosting']);
    const shared = await L.setSynonyms(w.ledger, org.seq, me, '5100', ['Software', 'SaaS', 'Subscriptions', 'Hosting']);
    expect(shared.warnings).toEqual([`"Hosting" is also a synonym of 5300 Cloud infrastructure: agents' "hosting" will be refused as naming both (they must send a code).`]);
    const res = await propose({ transactionId: rows.out.id, category: 'hosting' });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'category', message: '"hosting" is a synonym of 5100 Software & tools and of 5300 Cloud infrastructure; send categoryCode' }],
    });
    // The same word on a revenue and an expense category: money in and out each go to their own.
    const bySign = await L.setSynonyms(w.ledger, org.seq, me, '4010', ['Licences']);
    await L.setSynonyms(w.ledger, org.seq, me, '5200', ['Rent', 'Coworking', 'Licences']);
    expect(bySign.warnings).toEqual([]);
    expect(await resolved('in', 'licences')).toBe('4010');
    expect(await resolved('out', 'licences')).toBe('5200');
  });

  it("warns on a rename into another category's synonym, and refuses a synonym that is another category's name", async () => {
    const renamed = await L.renameCategory(w.ledger, org.seq, me, '5200', 'Coworking spaces');
    expect(renamed.warnings).toEqual([]);
    expect((await L.renameCategory(w.ledger, org.seq, me, '5300', 'Software')).warnings).toEqual([
      `"Software" is also a synonym of 5100 Software & tools: agents' "software" will now mean 5300 Software (an exact name wins over a synonym).`,
    ]);
    await L.renameCategory(w.ledger, org.seq, me, '5300', 'Cloud infrastructure');
    await expect(L.addCategory(w.ledger, org.seq, me, { code: '5030', name: 'Trains', type: 'expense', synonyms: ['Travel'] })).rejects.toThrow(
      expect.objectContaining({ code: 'validation_failed', details: [{ field: 'synonyms', message: expect.stringContaining('"Travel" is the name of 5020') }] }),
    );
  });
});

describe('cost of sales wherever a category sits', () => {
  it('keeps a category under a cost of sales parent with it, saying why, and says where one under an ordinary parent is reported', async () => {
    const materials = await L.addCategory(w.ledger, org.seq, me, { code: '5040', name: 'Materials', type: 'expense', parentCode: '5000', costOfSales: true });
    expect(materials).toMatchObject({ costOfSales: true, costOfSalesFrom: null });
    expect(materials.warnings).toEqual([
      '5040 Materials is cost of sales: the P&L reports it above gross profit, apart from 5000 Operating expenses, whose subtotal among the expenses leaves it out.',
    ]);
    const timber = await L.addCategory(w.ledger, org.seq, me, { code: '5041', name: 'Timber', type: 'expense', parentCode: '5040' });
    expect(timber).toMatchObject({ costOfSales: true, costOfSalesFrom: '5040', warnings: [] });
    await expect(L.setCostOfSales(w.ledger, org.seq, me, '5041', false)).rejects.toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        details: [
          { field: 'section', message: '5041 Timber is under 5040 Materials, which is cost of sales, and is reported with it; put 5040 among the expenses to move them both' },
        ],
      }),
    );
  });

  it('prints what a category add does, from the owner command', () => {
    const run = ownerCommand(tempDir());
    const out = run('category', 'add', '5020', 'Travel', '--type', 'expense', '--parent', '5000');
    expect(out).toContain('Added 5020');
    expect(out).toContain(`Note: "Travel" is also a synonym of 5000 Operating expenses: agents' "travel" will now mean 5020 Travel`);
    expect(run('category', 'add', '5040', 'Materials', '--type', 'expense', '--parent', '5000', '--cost-of-sales')).toMatch(
      /5040\s+Materials {2}\(cost of sales under 5000\)\nNote: 5040 Materials is cost of sales: the P&L reports it above gross profit/,
    );
  });
});

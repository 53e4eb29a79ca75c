// Issue 50's control gaps (and issue 51's "approving your own token's proposal"), on both engines, through the
// desk's dispatch (what IPC and the browser route run) and the agent API over HTTP: a proposal is approved only by a
// role that may make its change; a token's proposals are its maker's; a preparer withdraws her own; a closed
// period keeps its reconciliations; a client reads no rows; tax codes are an accountant's; a client's token never
// proposes, and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalCard } from '../src/main/desk/proposals/review';
import type { DeskContext, DeskPerson } from '../src/main/desk/operation';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import type { Role } from '../src/main/ledger/access/roles';
import { headlessBooks, testBooks } from './support/books';
import { call, tempDir } from './support/env';

const PASSWORD = 'correct horse battery staple';
let app: Headless;
let books: L.Ledger;
let org: L.Organization;
const people: Record<string, DeskPerson> = {};

async function addPerson(email: string, name: string, role: Role): Promise<DeskPerson> {
  await books.forOrg(org.seq, () => addMember(books, org.seq, L.deskActor(), { email, name, role, password: PASSWORD }));
  const row = (await personByEmail(books, email))!;
  return { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: false };
}

const ctxOf = (person: DeskPerson | null): DeskContext => ({ ledger: app.ledger, dataDir: '', agentUrl: app.server.url, mode: 'browser', reviewer: L.deskActor(), person });
async function as<T = any>(person: DeskPerson | null, name: string, input: Record<string, unknown>): Promise<T> {
  const answer = await runDesk(ctxOf(person), name, { orgId: org.id, ...input }, () => {});
  if ('error' in answer) throw new L.LedgerError(answer.error.code as L.ErrorCode, answer.error.message, answer.error.details);
  return answer.data as T;
}
const refusal = (person: DeskPerson | null, name: string, input: Record<string, unknown>) =>
  runDesk(ctxOf(person), name, { orgId: org.id, ...input }, () => {}).then((a) => ('error' in a ? a.error : null));
type Reviewed = { id: string; error: { code: string; message: string; details: any } | null }[];

const api = (token: string, method: string, path: string, body?: unknown) => call(`${app.server.url}/api/v1`, method, path, { token, body });
let rows = 0;
const row = async (amount = '-10.00', date = '2026-03-02') =>
  (await as<{ id: string }>(null, 'addTransaction', { account: 'Current', date, amount, description: `ROW ${++rows}` })).id;
const cards = (person: DeskPerson, status = 'pending') => as<ApprovalCard[]>(person, 'listProposals', { status });
const auditActions = async (id: string) => (await books.stmt('SELECT action FROM audit_log WHERE target_id = ? ORDER BY seq').pluck().all(id)) as string[];
const journalLines = ['5000=25.00', 'Current=-25.00'];

beforeAll(async () => {
  const data = tempDir('ldk-controls-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {} });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  people.owner = await addPerson('olive@firm.example', 'Olive Owens', 'owner');
  people.accountant = await addPerson('ada@firm.example', 'Ada Adams', 'accountant');
  people.bea = await addPerson('bea@firm.example', 'Bea Baker', 'bookkeeper');
  people.dana = await addPerson('dana@firm.example', 'Dana Reyes', 'bookkeeper');
  people.preparer = await addPerson('pat@firm.example', 'Pat Junior', 'preparer');
  people.client = await addPerson('cleo@client.example', 'Cleo Client', 'client');
  await as(null, 'createAccount', { name: 'Current', currency: org.currency });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('a proposal is approved by a role that may make its change (issue 50)', () => {
  it("refuses a bookkeeper a preparer's journal (she may not enter one), says so on its card, and lets an accountant approve it", async () => {
    const { proposed } = await as<{ proposed: L.Proposal[] }>(people.preparer, 'addJournal', { date: '2026-03-31', narration: 'Accrued audit fee', lines: journalLines });
    const [journal] = proposed;
    const card = (await cards(people.bea)).find((c) => c.id === journal.id)!;
    expect([card.approvers, card.own]).toEqual([['owner', 'accountant'], false]);

    const [refused] = await as<Reviewed>(people.bea, 'reviewProposals', { ids: [journal.id], decision: 'approve' });
    expect(refused.error).toMatchObject({
      code: 'forbidden',
      details: { id: journal.id, type: 'journal_entry', reason: 'role_cannot_apply', role: 'bookkeeper', allowed: ['owner', 'accountant'] },
    });
    expect(refused.error!.message).toBe(
      'As bookkeeper you may not approve a journal entry proposal: that makes the change itself, which is for owner, accountant (who may make it).',
    );
    expect(await refusal(people.bea, 'approveAndRemember', { id: journal.id, rule: { matchKind: 'contains', matchText: 'audit', categoryCode: '5000' } })).toMatchObject({
      code: 'forbidden',
      details: { reason: 'role_cannot_apply' },
    });
    expect((await L.getProposal(books, org.seq, journal.id)).status).toBe('pending');
    expect((await L.listJournals(books, org.seq, { limit: 10, offset: 0 })).data).toEqual([]);

    const [approved] = await as<Reviewed>(people.accountant, 'reviewProposals', { ids: [journal.id], decision: 'approve' });
    expect(approved.error).toBeNull();
    expect((await L.listJournals(books, org.seq, { limit: 10, offset: 0 })).data.map((j) => j.narration)).toEqual(['Accrued audit fee']);
    // Putting the approval back takes the same role as making it.
    expect(await refusal(people.bea, 'reverseProposal', { id: journal.id })).toMatchObject({ code: 'forbidden', details: { reason: 'role_cannot_apply' } });
    await as(people.accountant, 'reverseProposal', { id: journal.id, comment: 'Booked twice' });
  });

  it("lets a bookkeeper approve what she may make herself: a preparer's categorization and note", async () => {
    const id = await row();
    const categorized = (await as<{ proposed: L.Proposal[] }>(people.preparer, 'categorizeTransactions', { ids: [id], categoryCode: '5000' })).proposed[0];
    const noted = (await as<{ proposed: L.Proposal[] }>(people.preparer, 'addNote', { transactionId: id, content: 'Stationery for the office' })).proposed[0];
    const shown = (await cards(people.bea)).filter((c) => [categorized.id, noted.id].includes(c.id));
    expect(shown.map((c) => c.approvers)).toEqual([
      ['owner', 'accountant', 'bookkeeper'],
      ['owner', 'accountant', 'bookkeeper'],
    ]);
    const reviewed = await as<Reviewed>(people.bea, 'reviewProposals', { ids: [categorized.id, noted.id], decision: 'approve' });
    expect(reviewed.map((r) => r.error)).toEqual([null, null]);
  });
});

describe("a token's proposals are its maker's (issue 50; issue 51's own token)", () => {
  it("refuses Bea the approval of her own agent's proposal, names her on the card, and takes her rejection as a withdrawal", async () => {
    const { token, info } = await as<{ token: string; info: L.TokenInfo }>(people.bea, 'createToken', { name: 'Claude agent', scopes: ['read', 'propose-write'] });
    const propose = async () => {
      const made = await api(token, 'POST', '/proposals/categorization', { transactionId: await row(), categoryCode: '5000', confidence: 0.8 });
      expect(made.status, made.text).toBe(201);
      return made.json.data as L.Proposal;
    };
    const first = await propose();
    expect(first.proposedBy).toBe(`mcp:${info.id}`);
    // The API's Proposal keeps the v1 shape: the maker is the desk's business.
    expect(Object.keys(first).sort()).toEqual(['confidence', 'createdAt', 'id', 'payload', 'proposedBy', 'reason', 'status', 'type']);

    const card = (await cards(people.bea)).find((c) => c.id === first.id)!;
    expect([card.proposerName, card.tokenMaker, card.own]).toEqual(['Claude agent', { id: people.bea.id, name: 'Bea Baker' }, true]);
    expect((await cards(people.dana)).find((c) => c.id === first.id)!.own).toBe(false);

    const [own] = await as<Reviewed>(people.bea, 'reviewProposals', { ids: [first.id], decision: 'approve' });
    expect(own.error).toMatchObject({ code: 'forbidden', details: { id: first.id, reason: 'own_proposal' } });
    expect(own.error!.message).toContain('was made by your own token');
    const [theirs] = await as<Reviewed>(people.dana, 'reviewProposals', { ids: [first.id], decision: 'approve' });
    expect(theirs.error).toBeNull();

    const second = await propose();
    const [withdrawn] = await as<Reviewed>(people.bea, 'reviewProposals', { ids: [second.id], decision: 'reject', comment: 'My agent guessed' });
    expect(withdrawn.error).toBeNull();
    expect(await auditActions(second.id)).toEqual(['proposal.created', 'proposal.withdrawn']);
    expect((await api(token, 'GET', `/proposals/${second.id}`)).json.data.status).toBe('rejected');
    const history = (await cards(people.bea, 'rejected')).find((c) => c.id === second.id)!;
    expect([history.withdrawn, history.reviewedBy, history.reviewComment]).toEqual([true, 'Bea Baker (bookkeeper)', 'My agent guessed']);
  });

  it("still lets the machine's owner approve what a token of theirs proposes (the desktop's one person)", async () => {
    const { info } = await books.forOrg(org.seq, () => L.createToken(books, org.seq, { name: 'Desktop agent', scopes: ['read', 'propose-write'] }));
    const tokenSeq = Number(await books.stmt('SELECT seq FROM tokens WHERE id = ?').pluck().get(info.id));
    const agent: L.AgentActor = { type: 'token', tokenSeq, tokenId: info.id, tokenName: info.name, channel: 'mcp' };
    const proposal = await books.forOrg(org.seq, async () => L.proposeCategorization(books, org.seq, agent, { transactionId: await row(), categoryCode: '5000' }));
    const [done] = await as<Reviewed>(null, 'reviewProposals', { ids: [proposal.id], decision: 'approve' });
    expect(done.error).toBeNull();
  });
});

describe('a preparer withdraws her own proposal (issue 50)', () => {
  it('withdraws hers, as the spec\'s "rejected", and not anyone else\'s', async () => {
    const id = await row('-30.00');
    const mine = (await as<{ proposed: L.Proposal[] }>(people.preparer, 'categorizeTransactions', { ids: [id], categoryCode: '5000' })).proposed[0];
    const theirs = (await as<{ proposed: L.Proposal[] }>(people.preparer, 'addNote', { transactionId: id, content: 'Her note' })).proposed[0];
    const card = (await cards(people.preparer)).find((c) => c.id === mine.id)!;
    expect(card.own).toBe(true);

    const answered = await as<Reviewed>(people.preparer, 'withdrawProposals', { ids: [mine.id], comment: 'Wrong category' });
    expect(answered[0].error).toBeNull();
    expect(await L.getProposal(books, org.seq, mine.id)).toMatchObject({ status: 'rejected', proposedByPerson: { id: people.preparer.id } });
    expect(await auditActions(mine.id)).toEqual(['proposal.created', 'proposal.withdrawn']);
    expect((await L.getTransaction(books, org.seq, id)).transaction.category).toBeNull();

    // Another's proposal is not hers to withdraw, nor is an approved one (already reviewed).
    const [notHers] = await as<Reviewed>(people.bea, 'withdrawProposals', { ids: [theirs.id] });
    expect(notHers.error).toMatchObject({ code: 'forbidden', details: { id: theirs.id, reason: 'not_own_proposal' } });
    const [again] = await as<Reviewed>(people.preparer, 'withdrawProposals', { ids: [mine.id] });
    expect(again.error).toMatchObject({ code: 'already_reviewed' });
    // A withdrawn change is a "no" like a rejected one: proposed again, it is refused with the proposal named.
    expect(await refusal(people.preparer, 'categorizeTransactions', { ids: [id], categoryCode: '5000' })).toMatchObject({
      code: 'proposal_rejected',
      details: { rejectedProposalId: mine.id, comment: 'Wrong category' },
    });
  });
});

describe('a closed period keeps its reconciliations (issue 50)', () => {
  it("refuses a bookkeeper's undo and redo of a reconciliation dated on or before the closing date; a later statement still clears its rows", async () => {
    await as(null, 'createAccount', { name: 'Petty cash', type: 'cash', currency: org.currency, openingBalance: '0', openingDate: '2025-12-31' });
    const add = async (date: string, amount: string) => (await as<{ id: string }>(null, 'addTransaction', { account: 'Petty cash', date, amount, description: `CASH ${date}` })).id;
    const cleared = await add('2026-01-05', '-20.00');
    await add('2026-01-20', '-5.00'); // outstanding at the January statement
    await as(people.bea, 'reconcileAccount', { account: 'Petty cash', date: '2026-01-31', balance: '-20.00', clear: [cleared] });
    await as(people.accountant, 'lockPeriod', { through: '2026-01-31', reason: 'January closed' });
    try {
      expect(await refusal(people.bea, 'undoReconciliation', { account: 'Petty cash' })).toMatchObject({
        code: 'period_locked',
        message: expect.stringContaining('2026-01-31 is on or before the closing date 2026-01-31: the books are closed through it, so nothing there can be un-reconciled.'),
        details: { date: '2026-01-31', lockedThrough: '2026-01-31' },
      });
      await as(people.accountant, 'unlockPeriod', { reason: 'to redo January' });
      await as(people.bea, 'undoReconciliation', { account: 'Petty cash' });
      await as(people.accountant, 'lockPeriod', { through: '2026-01-31' });
      expect(await refusal(people.bea, 'reconcileAccount', { account: 'Petty cash', date: '2026-01-31', balance: '-25.00', clearThrough: '2026-01-31' })).toMatchObject({
        code: 'period_locked',
        message: expect.stringContaining('so nothing there can be reconciled.'),
      });
      // February's statement clears January's rows: their dates and amounts stay as the closed period has them.
      const february = await as<L.Reconciliation>(people.bea, 'reconcileAccount', { account: 'Petty cash', date: '2026-02-28', balance: '-25.00', clearThrough: '2026-02-28' });
      expect(february.rows).toBe(2);
    } finally {
      await as(null, 'unlockPeriod', {});
    }
  });
});

describe('a client reads no rows (issue 50)', () => {
  it("leaves the recent transactions out of a client's dashboard and their token's summary", async () => {
    await row('-99.00', '2026-04-01');
    const staff = await as<L.DashboardSummary>(people.bea, 'dashboard', {});
    expect(staff.recentTransactions.length).toBeGreaterThan(0);
    const mine = await as<L.DashboardSummary>(people.client, 'dashboard', {});
    expect(mine.recentTransactions).toEqual([]);
    expect(mine).toMatchObject({ revenue: staff.revenue, expenses: staff.expenses, cashPosition: staff.cashPosition });

    const { token } = await as<{ token: string }>(people.client, 'createToken', { name: 'Cleo reads', scopes: ['read'] });
    const summary = await api(token, 'GET', '/dashboard/summary');
    expect(summary.status).toBe(200);
    expect(summary.json.data.recentTransactions).toEqual([]);
    expect(summary.json.data.cashPosition).toBe(staff.cashPosition);
  });
});

describe("tax codes and a client's token (issue 50)", () => {
  it("makes adding, re-rating and archiving a tax code an accountant's", async () => {
    for (const [name, input] of [
      ['addTaxCode', { code: 'BK', rate: 5, kind: 'reduced' }],
      ['setTaxRate', { code: 'BK', from: '2027-01-01', rate: 6 }],
      ['archiveTaxCode', { code: 'BK' }],
    ] as const) {
      expect(await refusal(people.bea, name, input), name).toMatchObject({ code: 'forbidden', details: { operation: name, role: 'bookkeeper', allowed: ['owner', 'accountant'] } });
      await as(people.accountant, name, input);
    }
  });

  it('refuses a client a propose-write token with the reason, and refuses the writes of one whose maker became a client', async () => {
    expect(await refusal(people.client, 'createToken', { name: 'Cleo writes', scopes: ['read', 'propose-write'] })).toMatchObject({
      code: 'forbidden',
      details: { field: 'scopes', reason: 'client_read_only', role: 'client', scopes: ['read', 'propose-write'] },
    });
    // The rule is the ledger's: whatever makes the token.
    await expect(books.forOrg(org.seq, () => L.createToken(books, org.seq, { name: 'Cleo writes', scopes: ['propose-write'], userSeq: people.client.seq }))).rejects.toMatchObject({
      code: 'forbidden',
      details: { reason: 'client_read_only' },
    });

    const rita = await addPerson('rita@firm.example', 'Rita Moved', 'bookkeeper');
    const { token } = await as<{ token: string }>(rita, 'createToken', { name: 'Rita agent', scopes: ['read', 'propose-write'] });
    const id = await row('-12.00');
    expect((await api(token, 'POST', '/proposals/categorization', { transactionId: id, categoryCode: '5000' })).status).toBe(201);
    await as(people.owner, 'setPersonRole', { email: rita.email, role: 'client' });
    const refused = await api(token, 'POST', '/notes', { transactionId: id, content: 'Still here' });
    expect([refused.status, refused.json.error.code]).toEqual([403, 'forbidden']);
    expect(refused.json.error.details).toEqual({ operation: 'attach_note', reason: 'client_read_only', role: 'client', scopes: ['read', 'propose-write'] });
    expect(refused.json.error.message).toContain('it cannot be propose-write');
    expect((await api(token, 'GET', '/dashboard/summary')).status).toBe(200);
  });
});

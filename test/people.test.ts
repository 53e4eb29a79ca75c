// People and roles (issue 45), on both engines: a preparer's changes wait in
// Approvals under their name and apply when a bookkeeper approves them; nobody
// approves their own; the last owner stays; a person removed loses their
// sessions and tokens at once; a token never exceeds its maker's role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDesk } from '../src/main/desk/transport/dispatch';
import type { DeskContext, DeskPerson } from '../src/main/desk/operation';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import type { Role } from '../src/main/ledger/access/roles';
import { headlessBooks, testBooks } from './support/books';
import { tempDir } from './support/env';
import { randomUUID } from 'node:crypto';

const PASSWORD = 'correct horse battery staple';
let app: Headless;
let books: L.Ledger;
let org: L.Organization;
let other: L.Organization;
const people: Record<string, DeskPerson> = {};

async function addPerson(email: string, name: string, role: Role, where = org): Promise<DeskPerson> {
  await books.forOrg(where.seq, () => addMember(books, where.seq, L.deskActor(), { email, name, role, password: PASSWORD }));
  const row = (await personByEmail(books, email))!;
  return { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: false };
}

const ctxOf = (person: DeskPerson | null): DeskContext => ({ ledger: app.ledger, dataDir: '', agentUrl: app.server.url, mode: 'browser', reviewer: L.deskActor(), person });
async function as<T = unknown>(person: DeskPerson | null, name: string, input: unknown): Promise<T> {
  const answer = await runDesk(ctxOf(person), name, input, () => {});
  if ('error' in answer) throw new L.LedgerError(answer.error.code as L.ErrorCode, answer.error.message, answer.error.details);
  return answer.data as T;
}
const refusal = (person: DeskPerson | null, name: string, input: unknown) => runDesk(ctxOf(person), name, input, () => {}).then((a) => ('error' in a ? a.error : null));

const expenseCodes = async () => (await as<{ code: string; type: string }[]>(null, 'listChart', { orgId: org.id })).filter((c) => c.type === 'expense').map((c) => c.code);
const auditCount = async (o = org) => Number(await books.stmt('SELECT count(*) FROM audit_log WHERE org_seq = ?').pluck().get(o.seq));
const journals = async () => (await L.listJournals(books, org.seq, { limit: 10, offset: 0 })).data.map((j) => j.narration);

beforeAll(async () => {
  const data = tempDir('ldk-people-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {} });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  other = await books.forOrg('all', () => L.createOrganization(books, { slug: 'other', name: 'Other Ltd' }, L.deskActor()));
  people.owner = await addPerson('olive@firm.example', 'Olive Owens', 'owner');
  people.bookkeeper = await addPerson('dana@firm.example', 'Dana Reyes', 'bookkeeper');
  people.preparer = await addPerson('pat@firm.example', 'Pat Junior', 'preparer');
  people.client = await addPerson('cleo@client.example', 'Cleo Client', 'client');
  people.elsewhere = await addPerson('eli@firm.example', 'Eli Elsewhere', 'bookkeeper', other);
  await as(null, 'createAccount', { orgId: org.id, name: 'Current', currency: org.currency });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe("a preparer's work waits for a reviewer", () => {
  it('categorization, split and journal become proposals under their name; the books are unchanged until a bookkeeper approves', async () => {
    const row = await as<{ id: string }>(null, 'addTransaction', { orgId: org.id, account: 'Current', date: '2026-03-02', amount: '-120.00', description: 'PAINT SHOP' });
    const other = await as<{ id: string }>(null, 'addTransaction', { orgId: org.id, account: 'Current', date: '2026-03-03', amount: '-80.00', description: 'HARDWARE' });
    const expense = await expenseCodes();
    const categorized = await as<{ proposed: L.Proposal[] }>(people.preparer, 'categorizeTransactions', { orgId: org.id, ids: [row.id], categoryCode: expense[0] });
    const split = await as<{ proposed: L.Proposal[] }>(people.preparer, 'splitTransaction', {
      orgId: org.id,
      id: other.id,
      lines: [`${expense[0]}=50.00:paint`, `${expense[1]}=30.00`],
    });
    const journal = await as<{ proposed: L.Proposal[] }>(people.preparer, 'addJournal', {
      orgId: org.id,
      date: '2026-03-31',
      narration: 'Accrued rent',
      lines: [`${expense[0]}=500.00`, `Current=-500.00`],
    });
    const proposals = [...categorized.proposed, ...split.proposed, ...journal.proposed];
    expect(proposals.map((p) => [p.type, p.status, p.proposedBy, p.proposedByPerson])).toEqual(
      ['categorization', 'categorization', 'journal_entry'].map((type) => [
        type,
        'pending',
        `person:${people.preparer.id}`,
        { id: people.preparer.id, name: 'Pat Junior (preparer)' },
      ]),
    );
    expect((await L.getTransaction(books, org.seq, row.id)).transaction.category).toBeNull();
    expect(await journals()).toEqual([]);

    // The Approvals card and the log name the person.
    const queue = await as<{ id: string; proposerName: string }[]>(people.bookkeeper, 'listProposals', { orgId: org.id });
    expect(queue.filter((q) => proposals.some((p) => p.id === q.id)).map((q) => q.proposerName)).toEqual(Array(3).fill('Pat Junior (preparer)'));
    const created = await books.rows("SELECT actor_id, actor_name FROM audit_log WHERE org_seq = ? AND action = 'proposal.created'", org.seq);
    expect(created).toEqual(Array(3).fill({ actor_id: people.preparer.id, actor_name: 'Pat Junior (preparer)' }));

    // A bookkeeper approves the categorizations; the journal, which she may not enter, an owner approves (issue 50).
    const reviewed = await as<{ error: unknown }[]>(people.bookkeeper, 'reviewProposals', { orgId: org.id, ids: proposals.map((p) => p.id), decision: 'approve' });
    expect(reviewed.map((r) => r.error)).toEqual([null, null, expect.objectContaining({ code: 'forbidden', details: expect.objectContaining({ reason: 'role_cannot_apply' }) })]);
    expect(await journals()).toEqual([]);
    const entered = await as<{ error: unknown }[]>(people.owner, 'reviewProposals', { orgId: org.id, ids: [journal.proposed[0].id], decision: 'approve' });
    expect(entered.map((r) => r.error)).toEqual([null]);
    expect((await L.getTransaction(books, org.seq, row.id)).transaction.category).not.toBeNull();
    expect((await L.entryLines(books, (await L.requireTransactionRow(books, org.seq, other.id)).seq)).length).toBe(2);
    expect(await journals()).toEqual(['Accrued rent']);
    const approved = await books.rows<{ actor_id: string; actor_name: string; summary: string }>(
      "SELECT actor_id, actor_name, summary FROM audit_log WHERE org_seq = ? AND action = 'proposal.approved' ORDER BY seq",
      org.seq,
    );
    expect(approved.map((a) => [a.actor_id, a.actor_name])).toEqual([
      [people.bookkeeper.id, 'Dana Reyes (bookkeeper)'],
      [people.bookkeeper.id, 'Dana Reyes (bookkeeper)'],
      [people.owner.id, 'Olive Owens (owner)'],
    ]);
    expect(approved.every((a) => a.summary.includes('Pat Junior (preparer)'))).toBe(true);
  });

  it('refuses a preparer what has no proposal (an import, a transfer, reviews), with 403 and nothing written', async () => {
    const before = await auditCount();
    for (const [name, input] of [
      ['addTransaction', { orgId: org.id, account: 'Current', date: '2026-03-05', amount: '1.00', description: 'X' }],
      ['reviewProposals', { orgId: org.id, ids: [randomUUID()], decision: 'approve' }],
      ['lockPeriod', { orgId: org.id, through: '2026-01-31' }],
    ] as const) {
      expect(await refusal(people.preparer, name, input), name).toMatchObject({ code: 'forbidden', details: { operation: name, role: 'preparer' } });
    }
    expect(await auditCount()).toBe(before);
  });

  it('nobody approves their own: a preparer made bookkeeper cannot approve what they proposed; another can', async () => {
    const row = await as<{ id: string }>(null, 'addTransaction', { orgId: org.id, account: 'Current', date: '2026-03-06', amount: '-9.00', description: 'STAMPS' });
    const [code] = await expenseCodes();
    const { proposed } = await as<{ proposed: L.Proposal[] }>(people.preparer, 'categorizeTransactions', { orgId: org.id, ids: [row.id], categoryCode: code });
    await as(null, 'setPersonRole', { orgId: org.id, email: people.preparer.email, role: 'bookkeeper' });
    const [own] = await as<{ error: { code: string; details: unknown } | null }[]>(people.preparer, 'reviewProposals', {
      orgId: org.id,
      ids: [proposed[0].id],
      decision: 'approve',
    });
    expect(own.error).toMatchObject({ code: 'forbidden', details: { reason: 'own_proposal' } });
    const [theirs] = await as<{ error: unknown }[]>(people.bookkeeper, 'reviewProposals', { orgId: org.id, ids: [proposed[0].id], decision: 'approve' });
    expect(theirs.error).toBeNull();
    await as(null, 'setPersonRole', { orgId: org.id, email: people.preparer.email, role: 'preparer' });
  });
});

describe('people and their organizations', () => {
  it('shows a person only the organizations they hold a role in; another is not found', async () => {
    expect((await as<{ name: string; role: Role }[]>(people.elsewhere, 'listOrganizations', {})).map((o) => [o.name, o.role])).toEqual([['Other Ltd', 'bookkeeper']]);
    expect(await refusal(people.elsewhere, 'listTransactions', { orgId: org.id })).toMatchObject({ code: 'not_found' });
    expect(await refusal(people.bookkeeper, 'dashboard', { orgId: other.id })).toMatchObject({ code: 'not_found' });
  });

  it('keeps the last owner: neither removed nor demoted', async () => {
    const solo = await addPerson('solo@firm.example', 'Solo Owner', 'owner', other);
    expect(await refusal(null, 'setPersonRole', { orgId: other.id, email: solo.email, role: 'bookkeeper' })).toMatchObject({ code: 'conflict', details: { reason: 'last_owner' } });
    expect(await refusal(null, 'removePerson', { organization: other.slug, email: solo.email })).toMatchObject({ code: 'conflict', details: { reason: 'last_owner' } });
    expect(await refusal(solo, 'removePerson', { organization: other.slug, email: solo.email })).toMatchObject({ code: 'conflict' });
  });

  it("stops a removed person's tokens at once, and a client's token reads what a client reads", async () => {
    const made = await as<{ token: string }>(people.bookkeeper, 'createToken', { orgId: org.id, name: 'Dana agent', scopes: ['read', 'propose-write'] });
    const api = (token: string, path: string) => fetch(`${app.server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await api(made.token, '/transactions')).status).toBe(200);

    expect(await refusal(people.client, 'createToken', { orgId: org.id, name: 'Mine', scopes: ['propose-write'] })).toMatchObject({ code: 'forbidden' });
    const client = await as<{ token: string }>(people.client, 'createToken', { orgId: org.id, name: 'Cleo reads', scopes: ['read'] });
    expect((await api(client.token, '/dashboard/summary')).status).toBe(200);
    const refused = await api(client.token, '/transactions');
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([403, 'forbidden']);
    // Their own tokens only; an owner sees everyone's under its maker.
    expect((await as<{ name: string }[]>(people.client, 'listTokens', { orgId: org.id })).map((t) => t.name)).toEqual(['Cleo reads']);
    const listed = await as<{ people: { email: string; tokens: { name: string }[] }[] }>(people.owner, 'listPeople', { orgId: org.id });
    expect(listed.people.find((p) => p.email === people.client.email)!.tokens.map((t) => t.name)).toEqual(['Cleo reads']);

    const extra = await addPerson('temp@firm.example', 'Tem Porary', 'bookkeeper');
    const temp = await as<{ token: string }>(extra, 'createToken', { orgId: org.id, name: 'Temp agent', scopes: ['read'] });
    expect((await api(temp.token, '/transactions')).status).toBe(200);
    await as(people.owner, 'removePerson', { organization: org.id, email: extra.email });
    const gone = await api(temp.token, '/transactions');
    expect([gone.status, ((await gone.json()) as { error: { details: { reason: string } } }).error.details.reason]).toEqual([401, 'revoked']);
    expect(await refusal(extra, 'dashboard', { orgId: org.id })).toMatchObject({ code: 'not_found' });
  });

  it("a token whose maker lost the organization stops even unrevoked (another process's removal)", async () => {
    const extra = await addPerson('gone@firm.example', 'Gone Soon', 'bookkeeper');
    const made = await as<{ token: string }>(extra, 'createToken', { orgId: org.id, name: 'Soon gone', scopes: ['read'] });
    await books.stmt('DELETE FROM memberships WHERE user_seq = ? AND org_seq = ?').run(extra.seq, org.seq);
    const res = await fetch(`${app.server.url}/api/v1/transactions`, { headers: { authorization: `Bearer ${made.token}` } });
    expect([res.status, ((await res.json()) as { error: { details: { reason: string } } }).error.details.reason]).toEqual([401, 'maker_removed']);
  });

  it('limits a client to their own uploads', async () => {
    const png = Uint8Array.from(
      Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a7a4a8b40000000049454e44ae426082', 'hex'),
    );
    const mine = await as<{ receipt: { id: string } }>(people.client, 'uploadReceipt', { orgId: org.id, fileName: 'mine.png', bytes: png });
    const theirs = await as<{ receipt: { id: string } }>(null, 'uploadReceipt', {
      orgId: org.id,
      fileName: 'theirs.png',
      bytes: Uint8Array.from([...png.subarray(0, png.length - 1), 0x83]),
    });
    const listed = await as<{ receipts: { id: string }[] }>(people.client, 'listReceipts', { orgId: org.id });
    expect(listed.receipts.map((r) => r.id)).toEqual([mine.receipt.id]);
    expect(await refusal(people.client, 'receiptBytes', { orgId: org.id, id: theirs.receipt.id })).toMatchObject({ code: 'not_found' });
    expect((await as<{ receipts: unknown[] }>(people.bookkeeper, 'listReceipts', { orgId: org.id })).receipts.length).toBeGreaterThanOrEqual(2);
  });
});

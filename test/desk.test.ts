// Desk operations through runDesk (what IPC and the browser route both call).
import { beforeAll, describe, expect, it } from 'vitest';
import { runDesk } from '../src/main/desk/transport/dispatch';
import type { DeskContext, DeskResult } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { tempDir, tempLedger } from './support/env';
import { fillDemo } from '../src/main/demo';
import { mapInOrder } from '../src/main/ledger/core/in-order';

let ctx: DeskContext;
let org: L.Organization;
let agent: Extract<L.Actor, { type: 'token' }>;
const desk = async <T>(name: string, input: unknown): Promise<T> => {
  const answer = await runDesk(ctx, name, input, () => {});
  if ('error' in answer) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.data as T;
};

beforeAll(async () => {
  const { ledger } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  await fillDemo(ledger, org.seq, org.slug, 120, org.currency);
  const { info } = await L.createToken(ledger, org.seq, { name: 'Sorting bot', scopes: ['read', 'propose-write'] });
  const seq = ((await ledger.stmt('SELECT seq FROM tokens WHERE id = ?').get(info.id)) as { seq: number }).seq;
  agent = { type: 'token', tokenSeq: seq, tokenId: info.id, tokenName: info.name, channel: 'rest' };
  ctx = { ledger, dataDir: tempDir(), agentUrl: 'http://127.0.0.1:7311', mode: 'browser', reviewer: L.deskActor() };
});

describe('desk operations', () => {
  it('lists pending proposals with what they would change and who sent them', async () => {
    const tx = (await L.listTransactions(ctx.ledger, org.seq, { status: 'uncategorized', limit: 1, offset: 0 })).data[0];
    const p = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: tx.id, categoryCode: '5300', confidence: 0.5, reason: 'r' });
    const [item] = await desk<DeskResult<'listProposals'>>('listProposals', { orgId: org.id });
    expect(item).toMatchObject({
      id: p.id,
      proposerName: 'Sorting bot',
      change: {
        subject: { id: tx.id, date: tx.date, amount: tx.amount, description: tx.description },
        result: { text: 'Cloud infrastructure', code: '5300' },
        rememberable: true,
        account: null,
      },
    });
    // Every kind describes its change in the same parts.
    const entry = await L.proposeJournalEntry(ctx.ledger, org.seq, agent, { date: '2026-01-05', description: 'Stamps', amount: -12, categoryCode: '5000' });
    const note = await L.proposeNote(ctx.ledger, org.seq, agent, { transactionId: tx.id, content: 'Ask for the invoice' });
    const changes = new Map((await desk<DeskResult<'listProposals'>>('listProposals', { orgId: org.id })).map((i) => [i.id, i.change]));
    expect(changes.get(entry.id)).toMatchObject({
      lead: 'New entry',
      subject: { description: 'Stamps', amount: -12 },
      result: { code: '5000' },
      account: { currency: 'USD' },
      rememberable: false,
    });
    expect(changes.get(note.id)).toMatchObject({ lead: 'Note on', subject: { id: tx.id }, quote: 'Ask for the invoice', result: null });
  });

  it('reviews a selection one proposal at a time: one already reviewed does not stop the others', async () => {
    const txs = (await L.listTransactions(ctx.ledger, org.seq, { status: 'uncategorized', limit: 3, offset: 0 })).data;
    const ids = await mapInOrder(txs, async (t) => (await L.proposeNote(ctx.ledger, org.seq, agent, { transactionId: t.id, content: `n ${t.id}` })).id);
    await L.reviewProposal(ctx.ledger, org.seq, ids[1], 'reject', ctx.reviewer);
    const results = await desk<DeskResult<'reviewProposals'>>('reviewProposals', { orgId: org.id, ids, decision: 'approve', comment: 'ok' });
    expect(results.map((r) => [r.id, r.proposal?.status ?? null, r.error?.code ?? null])).toEqual([
      [ids[0], 'approved', null],
      [ids[1], null, 'already_reviewed'],
      [ids[2], 'approved', null],
    ]);
    expect((await L.getProposal(ctx.ledger, org.seq, ids[1])).status).toBe('rejected');
  });

  it('creates a token with ready-to-paste client configurations naming this server', async () => {
    const created = await desk<DeskResult<'createToken'>>('createToken', { orgId: org.id, name: 'Cursor', scopes: ['read'] });
    expect(created.token).toMatch(/^ldk_live_/);
    for (const config of Object.values(created.clientConfigs)) {
      expect(config).toContain('http://127.0.0.1:7311/api/mcp');
      expect(config).toContain(created.token);
    }
    expect(JSON.parse(created.clientConfigs.cursor).mcpServers.ledgerdesk.headers.Authorization).toBe(`Bearer ${created.token}`);
  });

  it('filters the log and offers its actors and actions', async () => {
    const log = await desk<DeskResult<'listAudit'>>('listAudit', { orgId: org.id, action: 'proposal.approved', limit: 10 });
    expect(log.totalCount).toBe(2);
    expect(log.entries.every((e) => e.action === 'proposal.approved' && e.actor.type === 'human')).toBe(true);
    expect(log.facets.actions).toEqual(expect.arrayContaining(['proposal.created', 'proposal.approved', 'proposal.rejected', 'token.created']));
    expect(log.facets.actors.map((a) => a.name)).toEqual(expect.arrayContaining(['Sorting bot', ctx.reviewer.name]));
    const byAgent = await desk<DeskResult<'listAudit'>>('listAudit', { orgId: org.id, actor: agent.tokenId });
    expect(byAgent.entries.every((e) => e.actor.id === agent.tokenId)).toBe(true);
  });

  it('refuses unknown operations, unknown organizations and bad input with the API error codes', async () => {
    expect(await runDesk(ctx, 'approveEverything', {}, () => {})).toEqual({ error: expect.objectContaining({ code: 'not_found' }) });
    expect(await runDesk(ctx, 'dashboard', { orgId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a' }, () => {})).toEqual({ error: expect.objectContaining({ code: 'not_found' }) });
    const bad = await runDesk(ctx, 'createToken', { orgId: org.id, name: '', scopes: ['admin'] }, () => {});
    expect(bad).toEqual({ error: expect.objectContaining({ code: 'validation_failed' }) });
    expect((bad as { error: { details: { field: string }[] } }).error.details.map((d) => d.field).sort()).toEqual(['name', 'scopes[0]']);
  });
});

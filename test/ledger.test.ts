// The domain on real SQLite files: aggregates, proposals, review, audit (opening: ledger-open.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { tempLedger } from './support/env';
import { onPostgres, openBooksOf } from './support/books';
import { rawAll } from './support/sql';
import { fillDemo } from '../src/main/demo';
import { BULK_ROWS, bulkInsert } from '../src/main/ledger/totals/bulk';
import { insertTransaction, type NewTransaction } from '../src/main/ledger/transactions/insert';
import { openEntryWriter } from '../src/main/ledger/transactions/entries';
import { categoryLine } from '../src/main/ledger/transactions/lines';
import { expectTotalsMatchRows } from './support/aggregates';
import { mapInOrder } from '../src/main/ledger/core/in-order';

const agentOf = async (ledger: L.Ledger, orgSeq: number) => {
  const { info } = await L.createToken(ledger, orgSeq, { name: 'bot', scopes: ['read', 'propose-write'] });
  const token = (await L.listTokens(ledger, orgSeq)).find((t) => t.id === info.id)!;
  const seq = ((await ledger.stmt('SELECT seq FROM tokens WHERE id = ?').get(token.id)) as { seq: number }).seq;
  return { type: 'token', tokenSeq: seq, tokenId: info.id, tokenName: 'bot', channel: 'rest' } as const;
};

async function setup(transactions = 200) {
  const { ledger, dir, file } = await tempLedger();
  const org = await L.createOrganization(ledger, { slug: 'acme' });
  await fillDemo(ledger, org.seq, org.slug, transactions, org.currency);
  const agent = await agentOf(ledger, org.seq);
  const uncategorized = (await L.listTransactions(ledger, org.seq, { status: 'uncategorized', limit: 5, offset: 0 })).data;
  return { ledger, dir, file, org, agent, uncategorized, human: L.deskActor() as Extract<L.Actor, { type: 'human' }> };
}

describe('organizations and the chart', () => {
  it('seeds a new organization from the ontology', async () => {
    const { ledger, org } = await setup(1);
    const codes = (await L.listCategories(ledger, org.seq)).map((c) => c.code);
    expect(codes).toEqual(['4000', '4010', '5000', '5100', '5200', '5300']);
    const software = (await L.listCategories(ledger, org.seq)).find((c) => c.code === '5100')!;
    expect(software).toMatchObject({ name: 'Software & tools', type: 'expense', parentCode: '5000', synonyms: ['Software', 'SaaS', 'Subscriptions'] });
  });

  it('resolves codes, names and synonyms; refuses what it does not understand', async () => {
    const { ledger, org } = await setup(1);
    expect(await L.resolveCategory(ledger, org.seq, { categoryCode: '5300' })).toEqual({ seq: expect.any(Number), code: '5300', name: 'Cloud infrastructure' });
    expect(await L.resolveCategory(ledger, org.seq, { category: '  saas ' })).toMatchObject({ code: '5100', name: 'Software & tools' });
    expect(await L.resolveCategory(ledger, org.seq, { category: 'office & RENT' })).toMatchObject({ code: '5200', name: 'Office & rent' });
    await expect(L.resolveCategory(ledger, org.seq, { categoryCode: '9999' })).rejects.toThrow(
      expect.objectContaining({ code: 'validation_failed', details: [expect.objectContaining({ field: 'categoryCode' })] }),
    );
    await expect(L.resolveCategory(ledger, org.seq, { category: 'Snacks' })).rejects.toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'category', message: expect.stringContaining('Snacks') })] }),
    );
    await expect(L.resolveCategory(ledger, org.seq, { categoryCode: '5300', category: 'Rent' })).rejects.toThrow(/send one of them/);
  });
});

describe('money', () => {
  it('keeps integer minor units and refuses excess decimals', () => {
    expect(L.toMinor(-1204.5, 'USD')).toBe(-120450);
    expect(L.toMinor(0.1, 'USD')).toBe(10);
    expect(L.toMinor(1500, 'JPY')).toBe(1500);
    expect(L.toMinor(1.234, 'BHD')).toBe(1234);
    expect(() => L.toMinor(1.001, 'USD')).toThrow(/at most 2 decimals/);
    expect(() => L.toMinor(1.5, 'JPY')).toThrow(/at most 0 decimals/);
    expect(L.fromMinor(-120450, 'USD')).toBe(-1204.5);
  });
});

describe('transactions list', () => {
  it('filters, orders by date descending with a stable tiebreak, and counts exactly', async () => {
    const { ledger, org } = await setup(400);
    const all = (await ledger.stmt(`SELECT ${L.TRANSACTION_COLUMNS} FROM transactions WHERE org_seq = ? ORDER BY date DESC, seq DESC`).all(org.seq)) as L.TransactionRow[];
    const page = await L.listTransactions(ledger, org.seq, { limit: 500, offset: 0 });
    expect(page.data.map((t) => t.id)).toEqual(all.map((t) => t.id));
    expect(page.meta.totalCount).toBe(400);
    const cases: [L.TransactionQuery, (t: L.TransactionRow) => boolean][] = [
      [{ status: 'matched', limit: 500, offset: 0 }, (t) => t.status === 'matched'],
      [{ source: 'paymentproc', limit: 500, offset: 0 }, (t) => t.source === 'paymentproc'],
      [{ dateFrom: '2024-01-01', dateTo: '2024-03-31', limit: 500, offset: 0 }, (t) => t.date >= '2024-01-01' && t.date <= '2024-03-31'],
      [{ date: all[10].date, limit: 500, offset: 0 }, (t) => t.date === all[10].date],
      [{ category: L.UNCATEGORIZED, limit: 500, offset: 0 }, (t) => t.category === null],
      [{ category: 'Cloud infrastructure', limit: 500, offset: 0 }, (t) => t.category === 'Cloud infrastructure'],
      [{ description: 'aws emea', limit: 500, offset: 0 }, (t) => t.description.toLowerCase().includes('aws emea')],
      [{ description: 'Rv', limit: 500, offset: 0 }, (t) => t.description.toLowerCase().includes('rv')],
      [{ description: '50%', limit: 500, offset: 0 }, (t) => t.description.includes('50%')],
      [
        { status: 'uncategorized', source: 'bankfeed', dateFrom: '2025-01-01', limit: 500, offset: 0 },
        (t) => t.status === 'uncategorized' && t.source === 'bankfeed' && t.date >= '2025-01-01',
      ],
    ];
    for (const [query, keep] of cases) {
      const expected = all.filter(keep).map((t) => t.id);
      const got = await L.listTransactions(ledger, org.seq, query);
      expect(
        got.data.map((t) => t.id),
        JSON.stringify(query),
      ).toEqual(expected);
      expect(got.meta.totalCount, JSON.stringify(query)).toBe(expected.length);
    }
    for (const [q] of cases) expect((await L.listTransactions(ledger, org.seq, q)).meta.totalCount).toBeLessThan(400);
    const second = await L.listTransactions(ledger, org.seq, { limit: 7, offset: 7 });
    expect(second.data.map((t) => t.id)).toEqual(all.slice(7, 14).map((t) => t.id));
  });

  it('pages description matches in date order from the index, after backdated inserts, edits and in other organizations', async () => {
    const { ledger, org, agent, human } = await setup(300);
    const other = await L.createOrganization(ledger, { slug: 'other' });
    await fillDemo(ledger, other.seq, other.slug, 100, other.currency);
    // Backdated rows get higher seqs than newer-dated ones: order must still be by date,
    // also between dates the index key clamps to the same day (before 1900).
    for (const date of ['2023-07-02', '2026-06-30', '1899-12-31', '2090-01-01', '1850-06-01']) {
      const p = await L.proposeJournalEntry(ledger, org.seq, agent, { date, description: `Figma backfill ${date}`, amount: -10, categoryCode: '5000' });
      await L.reviewProposal(ledger, org.seq, p.id, 'approve', human);
    }
    for (const description of ['Invoice #12 Figma', 'Café ٣ #9 Ｆ１ 2024-05']) {
      const p = await L.proposeJournalEntry(ledger, org.seq, agent, { date: '2025-05-05', description, amount: -12, categoryCode: '5000' });
      await L.reviewProposal(ledger, org.seq, p.id, 'approve', human);
      // The insert trigger's SQL shape is the one bulk loads compute in JS.
      expect(await ledger.stmt('SELECT n FROM description_shapes WHERE org_seq = ? AND shape = ?').get(org.seq, L.descriptionShape(description))).toEqual({ n: 1 });
    }
    const renamed = (await L.listTransactions(ledger, org.seq, { description: 'aws', limit: 1, offset: 0 })).data[0];
    await ledger.stmt("UPDATE transactions SET description = 'Renamed to FIGMA seat' WHERE id = ?").run(renamed.id);
    // Description shapes (migration 0004) count every row once, after bulk loads, inserts and edits.
    const shapes = async (o: number) => ((await ledger.stmt('SELECT sum(n) AS n FROM description_shapes WHERE org_seq = ?').get(o)) as { n: number }).n;
    for (const o of [org.seq, other.seq]) expect(await shapes(o)).toBe((await L.listTransactions(ledger, o, { limit: 1, offset: 0 })).meta.totalCount);
    // Both ways of counting are checked below: org has few shapes per row (counted over
    // shapes), other too many (counted over rows, migration 0005).
    const shapesPerRow = async (o: number) =>
      ((await ledger.stmt('SELECT shapes FROM description_shape_totals WHERE org_seq = ?').get(o)) as { shapes: number }).shapes / (await shapes(o));
    expect(await shapesPerRow(org.seq)).toBeLessThanOrEqual(0.25);
    expect(await shapesPerRow(other.seq)).toBeGreaterThan(0.25);
    const all = (await ledger.stmt(`SELECT ${L.TRANSACTION_COLUMNS} FROM transactions WHERE org_seq = ? ORDER BY date DESC, seq DESC`).all(org.seq)) as L.TransactionRow[];
    const has = (t: L.TransactionRow, needle: string) => t.description.toLowerCase().includes(needle);
    const cases: [Partial<L.TransactionQuery>, (t: L.TransactionRow) => boolean][] = [
      [{ description: 'figma' }, (t) => has(t, 'figma')],
      // Alone and without digits, counted over the shapes; with a digit or '#', over the rows.
      [{ description: 'FIGMA seat' }, (t) => has(t, 'figma seat')],
      [{ description: 'fi' }, (t) => has(t, 'fi')],
      [{ description: 'backfill 2026' }, (t) => has(t, 'backfill 2026')],
      [{ description: 'e #1' }, (t) => has(t, 'e #1')],
      [{ description: '#' }, (t) => has(t, '#')],
      [{ description: 'FIGMA', status: 'matched' }, (t) => has(t, 'figma') && t.status === 'matched'],
      [{ description: 'figma', dateFrom: '2024-01-01', dateTo: '2024-12-31' }, (t) => has(t, 'figma') && t.date >= '2024-01-01' && t.date <= '2024-12-31'],
      [{ description: 'figma', date: '2026-06-30' }, (t) => has(t, 'figma') && t.date === '2026-06-30'],
      [{ description: 'stripe', source: 'paymentproc', category: L.UNCATEGORIZED }, (t) => has(t, 'stripe') && t.source === 'paymentproc' && t.category === null],
    ];
    for (const [query, keep] of cases) {
      const expected = all.filter(keep).map((t) => t.id);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      const whole = await L.listTransactions(ledger, org.seq, { limit: 500, offset: 0, ...query });
      expect(
        whole.data.map((t) => t.id),
        JSON.stringify(query),
      ).toEqual(expected);
      expect(whole.meta.totalCount).toBe(expected.length);
      const paged = await L.listTransactions(ledger, org.seq, { limit: 3, offset: 1, ...query });
      expect(paged.data.map((t) => t.id)).toEqual(expected.slice(1, 4));
    }
    expect((await L.listTransactions(ledger, org.seq, { description: 'aws', limit: 500, offset: 0 })).data.map((t) => t.id)).not.toContain(renamed.id);
    const otherFigma = await L.listTransactions(ledger, other.seq, { description: 'figma', limit: 500, offset: 0 });
    expect(otherFigma.data.every((t) => !all.some((a) => a.id === t.id))).toBe(true);
    expect(otherFigma.meta.totalCount).toBe(otherFigma.data.length);
  });
});

describe('proposals and review', () => {
  it('creates pending proposals without touching the books, with an audit entry each', async () => {
    const { ledger, org, agent, uncategorized } = await setup();
    const tx = uncategorized[0];
    const before = await L.getTransaction(ledger, org.seq, tx.id);
    const p = await L.proposeCategorization(ledger, org.seq, agent, {
      transactionId: tx.id,
      categoryCode: '5300',
      confidence: 0.9,
      reason: 'AWS',
      evidence: [{ type: 'counterparty_match', value: 'AWS' }],
    });
    expect(p).toMatchObject({ type: 'categorization', status: 'pending', proposedBy: `mcp:${agent.tokenId}`, confidence: 0.9, reason: 'AWS' });
    expect(p.payload).toEqual({ transactionId: tx.id, categoryCode: '5300', category: 'Cloud infrastructure', evidence: [{ type: 'counterparty_match', value: 'AWS' }] });
    expect(await L.getTransaction(ledger, org.seq, tx.id)).toEqual(before);
    const log = await L.listAudit(ledger, org.seq, { action: 'proposal.created', limit: 10, offset: 0 });
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({ actor: { type: 'token', id: agent.tokenId, name: 'bot' }, channel: 'rest', targetId: p.id });
  });

  it('approval applies each effect with its audit entry; rejection changes nothing', async () => {
    const { ledger, org, agent, uncategorized, human } = await setup();
    const [t1, t2, t3] = uncategorized;
    const receipt = (await L.searchReceipts(ledger, org.seq, 'invoice')).find((r) => r.transactionId === null)!;
    const cat = await L.proposeCategorization(ledger, org.seq, agent, { transactionId: t1.id, category: 'cloud', confidence: 0.8, reason: 'vendor' });
    const je = await L.proposeJournalEntry(ledger, org.seq, agent, { date: '2026-01-15', description: 'Bank fee', amount: -12.5, categoryCode: '5000' });
    const link = await L.proposeReceiptLink(ledger, org.seq, agent, { transactionId: t2.id, receiptId: receipt.id });
    const note = await L.proposeNote(ledger, org.seq, agent, { transactionId: t3.id, content: 'Check with client' });
    const snapshot = () => ledger.stmt('SELECT count(*) AS n, sum(amount_minor) AS s FROM transactions').get();
    const before = await snapshot();
    expect((await L.dashboardSummary(ledger, org.seq)).agentSuggested).toBe(4);

    await L.reviewProposal(ledger, org.seq, note.id, 'reject', human, 'not useful');
    expect(await snapshot()).toEqual(before);
    expect((await L.getTransaction(ledger, org.seq, t3.id)).notes.map((n) => n.content)).not.toContain('Check with client');

    await L.reviewProposal(ledger, org.seq, cat.id, 'approve', human);
    expect((await L.getTransaction(ledger, org.seq, t1.id)).transaction).toMatchObject({
      category: 'Cloud infrastructure',
      status: 'matched',
      suggestedBy: `mcp:${agent.tokenId}`,
      confidence: 0.8,
      reason: 'vendor',
    });
    await L.reviewProposal(ledger, org.seq, je.id, 'approve', human);
    const created = (await L.listTransactions(ledger, org.seq, { description: 'Bank fee', limit: 5, offset: 0 })).data;
    expect(created).toEqual([
      expect.objectContaining({ date: '2026-01-15', amount: -12.5, currency: 'USD', category: 'Operating expenses', status: 'matched', source: 'manual_csv' }),
    ]);
    await L.reviewProposal(ledger, org.seq, link.id, 'approve', human);
    expect((await L.getReceipt(ledger, org.seq, receipt.id)).transactionId).toBe(t2.id);

    // The trigger-maintained counts follow single-row changes too.
    for (const status of L.TRANSACTION_STATUSES) {
      const real = ((await ledger.stmt('SELECT count(*) AS n FROM transactions WHERE org_seq = ? AND status = ?').get(org.seq, status)) as { n: number }).n;
      expect((await L.listTransactions(ledger, org.seq, { status, limit: 1, offset: 0 })).meta.totalCount, status).toBe(real);
      expect((await L.listTransactions(ledger, org.seq, { status, dateFrom: '2000-01-01', limit: 1, offset: 0 })).meta.totalCount, status).toBe(real);
    }
    expect((await L.dashboardSummary(ledger, org.seq)).uncategorized).toBe(
      (await L.listTransactions(ledger, org.seq, { category: L.UNCATEGORIZED, status: 'uncategorized', limit: 1, offset: 0 })).meta.totalCount,
    );
    const actions = (await L.listAudit(ledger, org.seq, { limit: 50, offset: 0 })).entries.map((e) => e.action);
    expect(actions.filter((a) => a === 'proposal.approved')).toHaveLength(3);
    expect(actions.filter((a) => a === 'proposal.rejected')).toHaveLength(1);
    expect(await L.listPendingProposals(ledger, org.seq, { limit: 50, offset: 0 })).toEqual({ proposals: [], count: 0 });
    expect((await L.dashboardSummary(ledger, org.seq)).agentSuggested).toBe(0);
    const counted = (sql: string) => ledger.stmt(sql).all(org.seq);
    expect(await counted('SELECT status, n FROM proposal_status_counts WHERE org_seq = ? AND n > 0 ORDER BY status')).toEqual(
      await counted('SELECT status, count(*) AS n FROM proposals WHERE org_seq = ? GROUP BY status ORDER BY status'),
    );
  });

  it('reviews a proposal once, also when two connections race', async () => {
    const { ledger, dir, org, agent, uncategorized, human } = await setup();
    const p = await L.proposeNote(ledger, org.seq, agent, { transactionId: uncategorized[0].id, content: 'once' });
    const other = await openBooksOf(dir);
    await L.reviewProposal(other, org.seq, p.id, 'approve', human);
    await expect(L.reviewProposal(ledger, org.seq, p.id, 'reject', human)).rejects.toThrow(expect.objectContaining({ code: 'already_reviewed' }));
    await other.end();
    expect((await L.getTransaction(ledger, org.seq, uncategorized[0].id)).notes.filter((n) => n.content === 'once')).toHaveLength(1);
    expect((await L.listAudit(ledger, org.seq, { action: 'proposal.rejected', limit: 5, offset: 0 })).totalCount).toBe(0);
  });

  it('rolls back the review when its effect fails, leaving the proposal pending', async () => {
    const { ledger, org, agent, uncategorized, human } = await setup();
    const p = await L.proposeCategorization(ledger, org.seq, agent, { transactionId: uncategorized[0].id, categoryCode: '5100' });
    // A failing audit insert: a trigger on this test's own books (SQLite: on its connection; PostgreSQL: on its database).
    if (onPostgres) {
      await ledger.stmt("CREATE FUNCTION fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$").run();
      await ledger.stmt('CREATE TRIGGER fail_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION fail_audit()').run();
    } else await ledger.stmt("CREATE TEMP TRIGGER fail_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk full'); END;").run();
    await expect(L.reviewProposal(ledger, org.seq, p.id, 'approve', human)).rejects.toThrow(/disk full/);
    if (onPostgres) {
      await ledger.stmt('DROP TRIGGER fail_audit ON audit_log').run();
      await ledger.stmt('DROP FUNCTION fail_audit()').run();
    } else await ledger.stmt('DROP TRIGGER fail_audit').run();
    expect((await L.getProposal(ledger, org.seq, p.id)).status).toBe('pending');
    expect((await L.getTransaction(ledger, org.seq, uncategorized[0].id)).transaction.status).toBe('uncategorized');
  });
});

describe('audit log', () => {
  it('refuses UPDATE and DELETE', async () => {
    const { ledger } = await setup(5);
    await expect(ledger.stmt("UPDATE audit_log SET summary = 'x'").run()).rejects.toThrow(/append-only/);
    await expect(ledger.stmt('DELETE FROM audit_log').run()).rejects.toThrow(/append-only/);
  });

  it('keeps one chain when a write with an entry rolls back and another connection appends in between', async () => {
    const { ledger, dir, org, agent, uncategorized, human } = await setup(20);
    const note = (on: L.Ledger, i: number) => L.proposeNote(on, org.seq, agent, { transactionId: uncategorized[i].id, content: `n${i}` });
    await note(ledger, 0); // this connection's process now knows the head
    const entry = { action: 'test.rolled_back', targetType: 'organization', targetId: org.id, summary: 'never kept' };
    await expect(ledger.forOrg(org.seq, () => ledger.write(async () => (await L.appendAudit(ledger, org.seq, human, entry), Promise.reject(new Error('undone')))))).rejects.toThrow(
      'undone',
    );
    await note(ledger, 1); // the head it knew was rolled back: read again
    const other = await openBooksOf(dir);
    await note(other, 2);
    await note(ledger, 3); // the head moved on the other connection
    await other.end();
    // Text JSON escapes (PostgreSQL makes the hashed text in its insert): quotes, a backslash, controls, non-ASCII.
    const odd = { ...entry, action: 'test.kept', summary: 'say "hi" \\ tab\t line\n bell\u0007 café 💶 \u2028' };
    await ledger.forOrg(org.seq, () => ledger.write(() => L.appendAudit(ledger, org.seq, human, odd)));
    const entries = (await ledger.stmt('SELECT count(*) FROM audit_log WHERE org_seq = ?').pluck().get(org.seq)) as number;
    expect(await L.verifyAuditChain(ledger, org.seq)).toEqual({ ok: true, entries, firstBad: null });
    expect(await ledger.stmt("SELECT action FROM audit_log WHERE action LIKE 'test.%'").pluck().all()).toEqual(['test.kept']);
  });
});

describe('tokens', () => {
  it('stores only a hash: the raw token appears nowhere in the data folder', async () => {
    const { ledger, dir, org } = await setup(5);
    const { token } = await L.createToken(ledger, org.seq, { name: 'secret holder', scopes: ['read'] });
    await L.authenticate(ledger, token);
    const secret = token.slice('ldk_live_'.length);
    if (onPostgres) {
      // The books are a database, not files: no row of any of its tables holds the secret.
      const tables = (await ledger.stmt("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").pluck().all()) as string[];
      expect(tables).toContain('tokens');
      for (const t of tables) expect(await ledger.stmt(`SELECT count(*) FROM "${t}" r WHERE strpos(r::text, ?) > 0`).pluck().get(secret), t).toBe(0);
    } else await ledger.stmt('PRAGMA wal_checkpoint(TRUNCATE)').get();
    for (const f of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, f));
      expect(bytes.includes(Buffer.from(secret)), f).toBe(false);
      expect(bytes.includes(Buffer.from(secret, 'utf16le')), f).toBe(false);
    }
  });

  it('refuses malformed tokens before any database read', async () => {
    const { ledger, org } = await setup(1);
    const { token } = await L.createToken(ledger, org.seq, { name: 't', scopes: ['read'] });
    const flipped = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    expect(L.isWellFormedToken(token)).toBe(true);
    expect(L.isWellFormedToken(flipped)).toBe(false);
    const closed = {
      ...ledger,
      stmt: () => {
        throw new Error('database read');
      },
    } as unknown as L.Ledger;
    await expect(L.authenticate(closed, flipped)).rejects.toThrow(expect.objectContaining({ code: 'unauthorized', details: { reason: 'malformed' } }));
  });

  it('revokes and records last use', async () => {
    const { ledger, org } = await setup(1);
    const { token, info } = await L.createToken(ledger, org.seq, { name: 't', scopes: ['read', 'propose-write'] });
    expect(info.lastUsedAt).toBeNull();
    await L.authenticate(ledger, token);
    expect((await L.listTokens(ledger, org.seq)).find((t) => t.id === info.id)!.lastUsedAt).not.toBeNull();
    await L.revokeToken(ledger, org.seq, info.id);
    await expect(L.authenticate(ledger, token)).rejects.toThrow(expect.objectContaining({ details: { reason: 'revoked' } }));
  });
});

describe('dashboard', () => {
  it('answers from maintained aggregates that match the rows', async () => {
    const { ledger, org } = await setup(500);
    const d = await L.dashboardSummary(ledger, org.seq);
    const q = async (sql: string) => ((await ledger.stmt(sql).get(org.seq)) as { v: number }).v;
    expect(d.uncategorized).toBe(await q("SELECT count(*) v FROM transactions WHERE org_seq = ? AND status = 'uncategorized'"));
    expect(d.missingReceipts).toBe(await q("SELECT count(*) v FROM transactions WHERE org_seq = ? AND status = 'receipt_missing'"));
    // What the accounts hold: their opening balances and every movement.
    expect(d.cashPosition).toBe(
      ((await q('SELECT sum(amount_minor) v FROM transactions WHERE org_seq = ?')) + (await q('SELECT sum(opening_balance_minor) v FROM accounts WHERE org_seq = ?'))) / 100,
    );
    expect(d.cashPosition).toBe((await L.listAccounts(ledger, org.seq)).reduce((sum, a) => sum + a.balance, 0));
    expect(d.monthlyTrend.map((m) => m.month)).toEqual(L.trailingMonths('2026-06'));
    // Revenue and expenses are the profit and loss's: lines to revenue and expense categories, never uncategorized rows.
    const lines = async (type: string) =>
      (await q(`SELECT -sum(l.amount_minor) v FROM lines l JOIN categories c ON c.seq = l.category_seq WHERE l.org_seq = ? AND c.type = '${type}' AND l.date >= '2025-07-01'`)) /
      100;
    expect(d.revenue).toBe(await lines('revenue'));
    expect(d.expenses).toBe(-(await lines('expense')));
    expect(d.revenue).toBe((await L.profitAndLoss(ledger, org.seq, { from: '2025-07-01', to: '2026-06-30' })).revenue);
    expect(d.revenue).toBeLessThan((await q("SELECT sum(amount_minor) v FROM transactions WHERE org_seq = ? AND amount_minor > 0 AND date >= '2025-07-01'")) / 100);
    expect(d.recentTransactions).toHaveLength(10);
    expect(d.notifications.map((n) => n.type)).toEqual(['receipts_missing']);
  });
});

describe('demo data', () => {
  it('is deterministic and covers every source and status', async () => {
    const a = await setup(300);
    const b = await setup(300);
    const rows = (l: L.Ledger) => l.stmt('SELECT id, date, amount_minor, description, status, source FROM transactions ORDER BY seq').all();
    expect(await rows(a.ledger)).toEqual(await rows(b.ledger));
    const statuses = await a.ledger.stmt('SELECT DISTINCT status FROM transactions').pluck().all();
    const sources = await a.ledger.stmt('SELECT DISTINCT source FROM transactions').pluck().all();
    expect(new Set(statuses)).toEqual(new Set(L.TRANSACTION_STATUSES));
    expect(new Set(sources)).toEqual(new Set(L.TRANSACTION_SOURCES));
    // Three accounts, each holding rows; every row in one of them; the accounts are the connectors (never imported).
    const accounts = await L.listAccounts(a.ledger, a.org.seq);
    expect(accounts.map((x) => [x.name, x.type])).toEqual([
      ['Company card', 'credit_card'],
      ['Operating account', 'checking'],
      ['Stripe balance', 'payment_processor'],
    ]);
    expect(accounts.every((x) => x.transactionCount > 0)).toBe(true);
    expect(accounts.reduce((n, x) => n + x.transactionCount, 0)).toBe(300);
    const sum = (await a.ledger.stmt('SELECT sum(amount_minor) FROM transactions').pluck().get()) as number;
    expect(Math.round(accounts.reduce((n, x) => n + x.balance, 0) * 100)).toBe(sum + 2_500_000);
    expect(await L.listConnectors(a.ledger, a.org.seq)).toEqual(
      accounts.map((x) => ({ id: x.id, name: x.name, provider: 'file_import', status: 'active', lastSyncAt: null, syncStatus: null })),
    );
  });
});

describe('bulk loads', () => {
  const row = (accountSeq: number, currency: string, n: number): NewTransaction => ({
    id: `bulk-${n}`,
    accountSeq,
    origin: 'import',
    date: '2025-01-02',
    amountMinor: -100,
    baseMinor: -100,
    currency,
    description: `Bulk row ${n}`,
    categorySeq: null,
    source: 'manual_csv',
    createdAt: '2025-01-02T00:00:00Z',
  });
  const count = async (ledger: L.Ledger) => (await ledger.stmt('SELECT count(*) FROM transactions').pluck().get()) as number;

  it('refuses, as the row trigger does, a row without an account of its currency, writing nothing', async () => {
    const { ledger, org } = await setup(10);
    const account = (await L.listAccounts(ledger, org.seq))[0];
    const seq = (await ledger.stmt('SELECT seq FROM accounts WHERE id = ?').pluck().get(account.id)) as number;
    const before = await count(ledger);
    await expect(ledger.write(() => insertTransaction(ledger, org.seq, row(seq, 'EUR', 0)))).rejects.toThrow('every transaction belongs to an account of its currency');
    const cases: [NewTransaction, string][] = [
      [row(seq, 'EUR', 2), 'every transaction belongs to an account of its currency'],
      [row(9999, org.currency, 2), onPostgres ? 'violates foreign key constraint' : 'FOREIGN KEY constraint failed'],
    ];
    for (const [bad, message] of cases)
      await expect(
        bulkInsert(ledger, async (track) => {
          await insertTransaction(ledger, org.seq, row(seq, org.currency, 1), track);
          await insertTransaction(ledger, org.seq, bad, track);
        }),
      ).rejects.toThrow(message);
    expect(await count(ledger)).toBe(before);
    // The trigger is back for the rows that come one by one.
    await expect(ledger.write(() => insertTransaction(ledger, org.seq, row(seq, 'EUR', 3)))).rejects.toThrow('every transaction belongs to an account of its currency');
    await bulkInsert(ledger, (track) => insertTransaction(ledger, org.seq, row(seq, org.currency, 4), track));
    expect(await count(ledger)).toBe(before + 1);
  });

  it('writes many entries as one at a time would: rows, default and own lines, totals', async () => {
    const { ledger, org } = await setup(1);
    const accountSeq = (await ledger.stmt('SELECT seq FROM accounts WHERE org_seq = ? ORDER BY seq LIMIT 1').pluck().get(org.seq)) as number;
    const [office, software] = await mapInOrder(['5200', '5100'], async (code) => (await L.resolveCategory(ledger, org.seq, { categoryCode: code })).seq);
    // 107 rows: two full statements and seven more; uncategorized, categorized, split, unvalued, zero.
    const entries = (copy: string): NewTransaction[] =>
      Array.from({ length: 107 }, (_, n) => {
        const amountMinor = n % 11 === 0 ? 0 : (n % 2 ? -1 : 1) * (100 + n * 37);
        return {
          ...row(accountSeq, org.currency, n),
          id: `${copy}-${n}`,
          date: `2025-0${1 + (n % 9)}-1${n % 10}`,
          amountMinor,
          baseMinor: n % 13 === 5 ? null : amountMinor * 2,
          categorySeq: n % 3 === 1 ? office : null,
          lines: n % 7 === 3 ? [categoryLine(office, amountMinor - 40), categoryLine(software, 40, 'shared')] : undefined,
        };
      });
    await ledger.write(async () => {
      for (const t of entries('one')) await insertTransaction(ledger, org.seq, t);
    });
    await ledger.write(async () => {
      const writer = await openEntryWriter(ledger, org.seq);
      for (const t of entries('writer')) await writer.add(t);
      await writer.finish();
    });
    await bulkInsert(ledger, async (track) => {
      const writer = await openEntryWriter(ledger, org.seq, track);
      const seqs = await mapInOrder(entries('bulk'), (t) => writer.add(t));
      await writer.finish();
      expect(seqs).toEqual(await ledger.stmt("SELECT seq FROM transactions WHERE id LIKE 'bulk-%' ORDER BY seq").pluck().all());
    });
    const written = async (copy: string) => ({
      rows: await rawAll(ledger, 'SELECT date, amount_minor, base_minor, category_seq, status, description FROM transactions WHERE id LIKE ? ORDER BY seq', `${copy}-%`),
      lines: await rawAll(
        ledger,
        'SELECT l.position, l.kind, l.category_seq, l.account_seq, l.date, l.currency, l.amount_minor, l.base_minor, l.memo FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE t.id LIKE ? ORDER BY t.seq, l.position',
        `${copy}-%`,
      ),
    });
    const one = await written('one');
    expect(one.rows).toHaveLength(107);
    expect(one.lines).toHaveLength(107 + 15);
    expect(await written('writer')).toEqual(one);
    expect(await written('bulk')).toEqual(one);
    await expectTotalsMatchRows(ledger);
  });

  it('fills the full-text index without merging, then puts its settings back', async () => {
    const { ledger, org } = await setup(BULK_ROWS + 10);
    const config = async () =>
      Object.fromEntries((await rawAll(ledger, "SELECT k, v FROM transactions_fts_config WHERE k IN ('hashsize', 'automerge', 'crisismerge')")) as [string, number][]);
    // PostgreSQL has no FTS5 (its full text is pg_trgm): its settings are SQLite's only.
    if (!onPostgres) expect(await config()).toEqual({ hashsize: 1_048_576, automerge: 4, crisismerge: 16 });
    expect((await L.listTransactions(ledger, org.seq, { description: 'Bulk row', limit: 5, offset: 0 })).meta.totalCount).toBe(0);
    const seq = (await ledger.stmt('SELECT seq FROM accounts WHERE org_seq = ? ORDER BY seq LIMIT 1').pluck().get(org.seq)) as number;
    const currency = (await ledger.stmt('SELECT currency FROM accounts WHERE seq = ?').pluck().get(seq)) as string;
    await bulkInsert(ledger, (track) => insertTransaction(ledger, org.seq, row(seq, currency, 5), track));
    expect((await L.listTransactions(ledger, org.seq, { description: 'Bulk row 5', limit: 5, offset: 0 })).data.map((t) => t.id)).toEqual(['bulk-5']);
  });
});

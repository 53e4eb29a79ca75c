// The bookkeeper's own hand on real SQLite files, through the desk operations
// (what the screens and the owner commands run): rows by hand, categorizing,
// the chart, reversing approvals, reconciling, the register.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { tempLedger } from './support/env';
import { fillDemo } from '../src/main/demo';
import { steadyRate } from './support/rates';

let ctx: DeskContext;
let org: L.Organization;
let agent: Extract<L.Actor, { type: 'token' }>;

const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const audit = async (action: string) => (await L.listAudit(ctx.ledger, org.seq, { action, limit: 50, offset: 0 })).entries;
const tx = async (id: string) => (await L.getTransaction(ctx.ledger, org.seq, id)).transaction;

beforeEach(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const { info } = await L.createToken(ledger, org.seq, { name: 'bot', scopes: ['read', 'propose-write'] });
  agent = { type: 'token', tokenSeq: 1, tokenId: info.id, tokenName: 'bot', channel: 'rest' };
  await desk('createAccount', { name: 'Cash', type: 'cash' });
  await desk('createAccount', { name: 'Bank', bankAccountId: 'DE89370400440532013000', currency: 'EUR', openingBalance: 1000, openingDate: '2024-01-01' });
  await steadyRate(ledger, org.seq, 'EUR', '1.1');
});

// Whatever a test did, every maintained total still equals a recount of the rows.
afterEach(() => expectTotalsMatchRows(ctx.ledger));

describe('rows by hand', () => {
  it('adds, edits and deletes a row entered by hand, each audited with before and after', async () => {
    const added = await desk<L.HandRow>('addTransaction', { account: 'Cash', date: '2024-03-02', amount: -12.5, description: 'Taxi to client', categoryCode: '5000' });
    expect(await tx(added.id)).toMatchObject({ date: '2024-03-02', amount: -12.5, category: 'Operating expenses', status: 'matched', source: 'manual_csv' });
    expect((await audit('transaction.created'))[0].summary).toBe('Entered by hand in "Cash": "Taxi to client" 2024-03-02 -12.50 USD -> 5000 Operating expenses');
    await desk('editTransaction', { id: added.id, amount: -15, description: 'Taxi to and from client' });
    expect((await audit('transaction.edited'))[0]).toMatchObject({
      actor: { type: 'human' },
      channel: 'desk',
      summary: 'Edited by hand in "Cash": description "Taxi to client" -> "Taxi to and from client"; amount -12.50 USD -> -15.00 USD',
    });
    await expect(desk('editTransaction', { id: added.id, date: '2024-02-30' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'date' }] });
    await expect(desk('editTransaction', { id: added.id, amount: 1e12 })).rejects.toMatchObject({
      details: [{ field: 'amount', message: expect.stringContaining('1,000,000,000,000') }],
    });
    await desk('deleteTransaction', { id: added.id });
    expect((await audit('transaction.deleted'))[0].summary).toContain('"Taxi to and from client" 2024-03-02 -15.00 USD (Operating expenses)');
    // Editing a row another window just deleted: a clear 404, nothing written.
    await expect(desk('editTransaction', { id: added.id, amount: -1 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(desk('addTransaction', { account: 'Nope', date: '2024-03-02', amount: 1, description: 'x' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it("keeps a bank's rows as the bank wrote them; their category, status and notes still change", async () => {
    const imported = await desk<L.ImportResult>('importStatement', { file: join(__dirname, 'fixtures', 'statements', 'camt053-v02.xml') });
    const [row] = (await L.listTransactions(ctx.ledger, org.seq, { limit: 1, offset: 0, date: '2024-01-08' })).data;
    await expect(desk('editTransaction', { id: row.id, amount: 1 })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining("keeps the bank's date, amount and description"),
    });
    const [categorized] = await desk<L.HandRow[]>('categorizeTransactions', { ids: [row.id], categoryCode: '4000' });
    expect(categorized).toMatchObject({ category: 'Revenue', status: 'matched' });
    expect(imported.batchId).not.toBeNull();
  });

  it("deletes a bank's row that should not be there, until it is reconciled; the same statement does not bring it back", async () => {
    const file = join(__dirname, 'fixtures', 'statements', 'camt053-v02.xml');
    await desk('importStatement', { file });
    const rows = (await L.listTransactions(ctx.ledger, org.seq, { limit: 10, offset: 0 })).data;
    const [gone] = rows;
    await desk('deleteTransaction', { id: gone.id });
    expect((await audit('transaction.deleted'))[0].summary).toContain("a bank's row (its statements will not bring it back)");
    const again = await desk<L.ImportResult>('importStatement', { file, dryRun: true });
    expect(again).toMatchObject({ imported: 0, duplicates: rows.length, nothingNew: true });
    expect(again.preview.find((p) => p.description === gone.description)).toMatchObject({ kind: 'duplicate', note: expect.stringMatching(/^deleted by hand on \d{4}-\d\d-\d\d$/) });
    // Once reconciled, a row stays.
    const [kept] = (await L.listTransactions(ctx.ledger, org.seq, { limit: 1, offset: 0 })).data;
    await desk('reconcileAccount', { account: 'Bank', date: '2024-01-31', balance: 1000 + rows.slice(1).reduce((s, r) => s + r.amount, 0), clearThrough: '2024-01-31' });
    await expect(desk('deleteTransaction', { id: kept.id })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('it is reconciled') });
  });

  it('categorizes many rows at once, clearing the agent metadata, and marks receipts needed and back', async () => {
    const a = await desk<L.HandRow>('addTransaction', { account: 'Cash', date: '2024-03-02', amount: -3, description: 'Coffee' });
    const b = await desk<L.HandRow>('addTransaction', { account: 'Cash', date: '2024-03-03', amount: -4, description: 'Coffee' });
    const p = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: a.id, categoryCode: '5100', confidence: 0.4, reason: 'guess' });
    await L.reviewProposal(ctx.ledger, org.seq, p.id, 'approve', ctx.reviewer);
    expect(await tx(a.id)).toMatchObject({ suggestedBy: `mcp:${agent.tokenId}`, confidence: 0.4 });
    await desk('categorizeTransactions', { ids: [a.id, b.id], categoryCode: '5000' });
    for (const id of [a.id, b.id]) expect(await tx(id)).toMatchObject({ category: 'Operating expenses', status: 'matched', suggestedBy: null, confidence: null, reason: null });
    expect(await audit('transaction.categorized')).toHaveLength(2);
    expect((await audit('transaction.categorized')).at(-1)!.summary).toBe(
      'Categorized by hand: "Coffee" 2024-03-02 -3.00 USD: Software & tools [matched] -> 5000 Operating expenses [matched]',
    );
    await desk('markReceiptMissing', { ids: [a.id] });
    expect((await tx(a.id)).status).toBe('receipt_missing');
    await desk('markReceiptMissing', { ids: [a.id], state: 'found' });
    expect((await tx(a.id)).status).toBe('matched');
    await desk('categorizeTransactions', { ids: [b.id], categoryCode: null });
    expect(await tx(b.id)).toMatchObject({ category: null, status: 'uncategorized' });
    await expect(desk('categorizeTransactions', { ids: [b.id], categoryCode: '9999' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'categoryCode' }] });
  });
});

describe('the chart', () => {
  it('adds, renames (on its transactions too), edits synonyms, archives; default codes stay', async () => {
    const c = await desk<L.Category>('addCategory', { code: '5400', name: 'Marketing', type: 'expense', parent: '5000', synonyms: ['Ads', 'ads', ' Google Ads '] });
    expect(c).toMatchObject({ code: '5400', name: 'Marketing', parentCode: '5000', synonyms: ['Ads', 'Google Ads'], inUse: true });
    await expect(desk('addCategory', { code: '5400', name: 'Other', type: 'expense' })).rejects.toMatchObject({ code: 'conflict', details: [{ field: 'code' }] });
    await expect(desk('addCategory', { code: '5500', name: 'marketing', type: 'expense' })).rejects.toMatchObject({ code: 'conflict', details: [{ field: 'name' }] });
    await expect(desk('addCategory', { code: '5500', name: 'Sales', type: 'revenue', parent: '5000' })).rejects.toMatchObject({ details: [{ field: 'parentCode' }] });
    const row = await desk<L.HandRow>('addTransaction', { account: 'Cash', date: '2024-03-02', amount: -30, description: 'Flyers', categoryCode: '5400' });
    const pending = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: row.id, categoryCode: '5400' });
    await desk('renameCategory', { code: '5400', name: 'Marketing & ads' });
    expect((await tx(row.id)).category).toBe('Marketing & ads');
    expect((await audit('category.renamed'))[0].summary).toBe('Category 5400 renamed "Marketing" -> "Marketing & ads" (1 line(s) carry it)');
    await L.reviewProposal(ctx.ledger, org.seq, pending.id, 'approve', ctx.reviewer);
    expect((await tx(row.id)).category).toBe('Marketing & ads'); // approved after the rename: the chart's name now
    expect((await desk<L.Category>('setCategorySynonyms', { code: '5400', synonyms: ['Advertising'] })).synonyms).toEqual(['Advertising']);
    await desk('archiveCategory', { code: '5400' });
    expect((await L.listCategories(ctx.ledger, org.seq)).find((x) => x.code === '5400')!.inUse).toBe(false);
    expect((await tx(row.id)).category).toBe('Marketing & ads'); // kept for history
    await expect(L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: row.id, category: 'Advertising' })).rejects.toThrow(/archived/);
    await expect(desk('categorizeTransactions', { ids: [row.id], categoryCode: '5400' })).rejects.toMatchObject({ message: expect.stringContaining('archived') });
    await expect(desk('archiveCategory', { code: '5300' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('default codes') });
    await desk('restoreCategory', { code: '5400' });
    expect(await audit('category.archived')).toHaveLength(1);
  });
});

describe('reversing an approval', () => {
  it('puts back what each kind of approval changed, once, as its own event', async () => {
    const row = await desk<L.HandRow>('addTransaction', { account: 'Cash', date: '2024-03-02', amount: -30, description: 'Flyers' });
    const receipt = (await L.addReceipt(ctx.ledger, org.seq, ctx.reviewer, { fileName: 'r.pdf', mimeType: 'application/pdf', sizeBytes: 1, sha256: 'x', ocrText: null })).receipt;
    const approve = (p: L.Proposal) => L.reviewProposal(ctx.ledger, org.seq, p.id, 'approve', ctx.reviewer, undefined, 'Cash');
    const cat = await approve(await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: row.id, categoryCode: '5100', reason: 'r' }));
    const entry = await approve(await L.proposeJournalEntry(ctx.ledger, org.seq, agent, { date: '2024-03-05', description: 'Accrual', amount: -10, categoryCode: '5300' }));
    const link = await approve(await L.proposeReceiptLink(ctx.ledger, org.seq, agent, { transactionId: row.id, receiptId: receipt.id }));
    const note = await approve(await L.proposeNote(ctx.ledger, org.seq, agent, { transactionId: row.id, content: 'Print shop' }));
    const created = (await L.listTransactions(ctx.ledger, org.seq, { description: 'Accrual', limit: 1, offset: 0 })).data[0];

    await desk('reverseProposal', { id: cat.id, comment: 'Wrong category' });
    expect(await tx(row.id)).toMatchObject({ category: null, status: 'uncategorized', suggestedBy: null, reason: null });
    await desk('reverseProposal', { id: entry.id });
    await expect(tx(created.id)).rejects.toMatchObject({ code: 'not_found' });
    await desk('reverseProposal', { id: link.id });
    expect((await L.getReceipt(ctx.ledger, org.seq, receipt.id)).transactionId).toBeNull();
    await desk('reverseProposal', { id: note.id });
    expect(await L.listNotes(ctx.ledger, org.seq, row.id)).toEqual([]);

    expect((await L.getProposal(ctx.ledger, org.seq, cat.id)).status).toBe('approved');
    expect(await audit('proposal.reversed')).toHaveLength(4);
    expect((await audit('proposal.reversed')).at(-1)!.summary).toContain('back to (uncategorized), status uncategorized (comment: "Wrong category")');
    await expect(desk('reverseProposal', { id: cat.id })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already reversed') });
    const rejected = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: row.id, categoryCode: '5100' });
    await L.reviewProposal(ctx.ledger, org.seq, rejected.id, 'reject', ctx.reviewer);
    await expect(desk('reverseProposal', { id: rejected.id })).rejects.toMatchObject({ message: expect.stringContaining('only an approved proposal') });
  });

  it('refuses when the row changed since: categorized again, or a created row edited', async () => {
    const row = await desk<L.HandRow>('addTransaction', { account: 'Cash', date: '2024-03-02', amount: -30, description: 'Flyers' });
    const cat = await L.reviewProposal(
      ctx.ledger,
      org.seq,
      (await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: row.id, categoryCode: '5100' })).id,
      'approve',
      ctx.reviewer,
    );
    await desk('categorizeTransactions', { ids: [row.id], categoryCode: '5000' });
    await expect(desk('reverseProposal', { id: cat.id })).rejects.toMatchObject({ message: expect.stringContaining('categorized again since') });
    expect((await tx(row.id)).category).toBe('Operating expenses');
  });
});

describe('reconciling', () => {
  it('finishes only at a zero difference, locks the reconciled rows, and can be undone', async () => {
    await desk('importStatement', { file: join(__dirname, 'fixtures', 'statements', 'camt053-v02.xml'), account: 'Bank' });
    const view = await desk<L.ReconcileView>('reconcileView', { account: 'Bank' });
    expect(view).toMatchObject({ suggested: { date: '2024-01-31', balance: 1835.5 }, reconciledBalance: 1000, totalCount: 4, last: null });
    const ids = view.rows.map((r) => r.id);
    await expect(desk('reconcileAccount', { account: 'Bank', date: '2024-01-31', balance: 1835.5, clear: ids.slice(0, 3) })).rejects.toMatchObject({
      code: 'conflict',
      message: 'Not reconciled: the cleared balance is 1850.00 EUR, the statement says 1835.50: a difference of -14.50.',
      details: { difference: -14.5 },
    });
    expect((await L.listTransactions(ctx.ledger, org.seq, { status: 'reconciled', limit: 1, offset: 0 })).meta.totalCount).toBe(0);
    const done = await desk<L.Reconciliation>('reconcileAccount', { account: 'Bank', date: '2024-01-31', balance: 1835.5, clear: ids });
    expect(done).toMatchObject({ statementDate: '2024-01-31', statementBalance: 1835.5, rows: 4 });
    expect((await desk<L.Account[]>('listAccounts')).find((a) => a.name === 'Bank')).toMatchObject({ lastReconciliation: { date: '2024-01-31', balance: 1835.5 } });
    expect((await audit('account.reconciled'))[0].summary).toBe('Reconciled "Bank" through 2024-01-31 at 1835.50 EUR: 4 row(s) cleared');
    // Reconciled is a fact apart from the category: the four rows were never categorized, so they still read uncategorized (work to do).
    const count = async (status: L.TransactionStatus) => (await L.listTransactions(ctx.ledger, org.seq, { status, limit: 1, offset: 0 })).meta.totalCount;
    expect([await count('uncategorized'), await count('reconciled')]).toEqual([4, 0]);
    expect(await L.handRow(ctx.ledger, org.seq, ids[0])).toMatchObject({ status: 'uncategorized', reconciled: 1 });

    // Locked everywhere: edits, deletes, undoing the import; its category and paperwork still change.
    const [batch] = (await desk<{ batches: L.ImportBatch[] }>('listImports')).batches;
    await expect(desk('undoImport', { batchId: batch.id })).rejects.toMatchObject({ message: expect.stringContaining('4 reconciled') });
    expect((await desk<L.HandRow[]>('categorizeTransactions', { ids: [ids[0]], categoryCode: '4000' }))[0]).toMatchObject({ status: 'reconciled', category: 'Revenue' });
    expect((await desk<L.HandRow[]>('markReceiptMissing', { ids: [ids[0]] }))[0]).toMatchObject({ status: 'receipt_missing', reconciled: 1 });
    await desk('markReceiptMissing', { ids: [ids[0]], state: 'found' });
    expect(await count('reconciled')).toBe(1);
    await expect(desk('reconcileAccount', { account: 'Bank', date: '2023-12-31', balance: 1000, clear: [] })).rejects.toMatchObject({ details: [{ field: 'statementDate' }] });

    await desk('undoReconciliation', { account: 'Bank' });
    expect((await tx(ids[0])).status).toBe('matched');
    expect((await tx(ids[1])).status).toBe('uncategorized');
    await expect(desk('undoReconciliation', { account: 'Bank' })).rejects.toMatchObject({ message: expect.stringContaining('no reconciliation to undo') });
    // Clearing through a date does the same as ticking every row up to it.
    expect(await desk('reconcileAccount', { account: 'Bank', date: '2024-01-31', balance: 1835.5, clearThrough: '2024-01-31' })).toMatchObject({ rows: 4 });
  });
});

describe('the register', () => {
  it('shows each row with its account and lock, and the running balance of one account on any page', async () => {
    for (let i = 0; i < 120; i++)
      await desk('addTransaction', { account: 'Cash', date: `2024-0${1 + (i % 9)}-${String(1 + (i % 27)).padStart(2, '0')}`, amount: -(i + 1), description: `Row ${i}` });
    const cash = (await L.listAccounts(ctx.ledger, org.seq)).find((a) => a.name === 'Cash')!;
    const all = await desk<L.RegisterPage>('register', { account: cash.id, limit: 500 });
    expect(all.balances).toBe(true);
    expect(all.data[0].balance).toBe(-7260); // -(1 + ... + 120)
    all.data.forEach((r, i) => i > 0 && expect(r.balance).toBe(all.data[i - 1].balance! - all.data[i - 1].amount));
    expect(all.data.at(-1)!.balance).toBe(all.data.at(-1)!.amount);
    for (const offset of [0, 37, 50, 119]) {
      const page = await desk<L.RegisterPage>('register', { account: cash.id, limit: 5, offset });
      expect(page.data.map((r) => [r.id, r.balance])).toEqual(all.data.slice(offset, offset + 5).map((r) => [r.id, r.balance]));
    }
    expect(all.data[0]).toMatchObject({ accountName: 'Cash', origin: 'manual', locked: null });
    const filtered = await desk<L.RegisterPage>('register', { account: cash.id, description: 'Row 1' });
    expect(filtered.balances).toBe(false);
    expect(filtered.data[0].balance).toBeNull();
  });

  it('answers deep pages from the day counts exactly as skipping rows would', async () => {
    await fillDemo(ctx.ledger, org.seq, org.slug, 3000, 'USD');
    for (const q of [{}, { status: 'uncategorized' as const }, { dateFrom: '2024-01-01', dateTo: '2025-12-31' }]) {
      const naive = await ctx.ledger
        .stmt(
          `SELECT id FROM transactions WHERE org_seq = ? ${'status' in q ? "AND status = 'uncategorized'" : ''} ${'dateFrom' in q ? "AND date BETWEEN '2024-01-01' AND '2025-12-31'" : ''} ORDER BY date DESC, seq DESC`,
        )
        .pluck()
        .all(org.seq);
      for (const offset of [1000, 1001, 1500, naive.length - 3, naive.length + 2]) {
        expect((await L.listTransactions(ctx.ledger, org.seq, { ...q, limit: 7, offset })).data.map((t) => t.id)).toEqual(naive.slice(offset, offset + 7));
      }
    }
  });

  it('answers deep general-ledger pages (a money account, a category with documents’ postings, suspense) from the day counts exactly as skipping rows would', async () => {
    await fillDemo(ctx.ledger, org.seq, org.slug, 9000, 'USD');
    const bank = (await L.listAccounts(ctx.ledger, org.seq)).find((a) => a.name === 'Operating account')!;
    const [top] = await ctx.ledger.rows<{ code: string; type: string }>(
      "SELECT c.code, c.type FROM lines l JOIN categories c ON c.seq = l.category_seq WHERE l.kind = 'category' GROUP BY c.seq, c.code, c.type ORDER BY count(*) DESC LIMIT 1",
    );
    // Several rows of one amount on one day (a day's rows are in amount order), and documents posting to the category among its lines.
    for (let i = 0; i < 4; i++) await desk('addTransaction', { account: bank.name, date: '2024-06-03', amount: -12.5, description: `Same ${i}` });
    const income = top.type === 'income';
    await desk('addContact', { name: 'Counterparty', customer: income, vendor: !income });
    for (const [i, date] of ['2024-06-03', '2025-01-15', '2025-01-15'].entries()) {
      const party = income ? { customer: 'Counterparty' } : { vendor: 'Counterparty', number: `B-${i}` };
      const doc = await desk<L.Document>(income ? 'createInvoice' : 'createBill', { ...party, date, lines: [`Work;1;10;${top.code}`] });
      if (income) await desk('issueInvoice', { number: doc.number });
    }
    const key = (p: L.LedgerPosting) => [p.transactionId, p.document?.number, p.amount, p.balance];
    for (const account of [bank.id, top.code, 'suspense'])
      for (const period of [{}, { from: '2023-10-01', to: '2026-03-31' }]) {
        const whole = await L.generalLedger(ctx.ledger, org.seq, { account, ...period, limit: 100_000, offset: 0 });
        expect(whole.data.length).toBeGreaterThan(1100);
        for (const offset of [999, 1000, 1001, whole.data.length - 3, whole.data.length + 5]) {
          const page = await L.generalLedger(ctx.ledger, org.seq, { account, ...period, limit: 7, offset });
          expect(page.data.map(key)).toEqual(whole.data.slice(offset, offset + 7).map(key));
          expect(page.meta.totalCount).toBe(whole.data.length);
        }
      }
  });
});

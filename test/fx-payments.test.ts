// A EUR invoice paid into the GBP current account (issue 43), a EUR bill paid
// from it, in full and in part: the document settles in its own currency at
// its booked rate, the pounds are the payment, the difference is a realized
// gain or loss. Its balance, status, the aging, the statement, the balance
// sheet in both currencies, the revaluation, the cash basis, payment undo,
// categorizing by hand and an approved agent proposal all agree; refusals name
// their field and write nothing; every total recounts equal.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { startServer } from '../src/main/api/server';
import { addDays } from '../src/shared/dates';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { ownerCommand, tempDir, tempLedger } from './support/env';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const row = async (date: string, amount: string, description: string, account = 'Current') =>
  (await desk<{ id: string }>('addTransaction', { account, date, amount, description })).id;
const invoice = async (line: string, date = '2026-01-15') =>
  (await desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', currency: 'EUR', date, issue: true, lines: [line] })).number;
const show = (number: string) => desk<L.Document>('showInvoice', { number });
const linesOf = (id: string) =>
  ctx.ledger.rows<{ kind: string; currency: string; amount_minor: number; base_minor: number; category: string | null }>(
    'SELECT l.kind, l.currency, l.amount_minor, l.base_minor, c.name AS category FROM lines l JOIN transactions t ON t.seq = l.transaction_seq LEFT JOIN categories c ON c.seq = l.category_seq WHERE t.id = ? ORDER BY l.position',
    id,
  );
const sheetLine = async (date: string, name: string, currency?: string) => {
  const s = await L.balanceSheet(ctx.ledger, org.seq, { date, currency });
  expect(s.assets.total).toBeCloseTo(s.liabilitiesAndEquity, 2);
  return [...s.assets.lines, ...s.liabilities.lines].find((l) => l.name === name)?.amount ?? 0;
};
const realized = async (from: string, to: string) => (await L.profitAndLoss(ctx.ledger, org.seq, { from, to, basis: 'accrual' })).lines.find((l) => l.code === '7900')?.amount ?? 0;

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'fxpay', name: 'Hartley Studio', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(ledger, org.seq, L.deskActor(), 'uk-vat');
  // 1 EUR = 0.859 GBP every week; on 2026-02-10, the day the pounds arrive, 0.8562.
  for (let d = '2026-01-01'; d <= '2026-06-30'; d = addDays(d, 7)) await desk('setRate', { currency: 'EUR', date: d, rate: '0.859' });
  await desk('setRate', { currency: 'EUR', date: '2026-02-10', rate: '0.8562' });
  await desk('createAccount', { name: 'Current' });
  await desk('createAccount', { name: 'Euro', currency: 'EUR' });
  await desk('addContact', { name: 'Berlin GmbH', customer: true });
  await desk('addContact', { name: 'Lyon SARL', vendor: true });
});

describe('a EUR invoice paid into the GBP account', () => {
  let number: string;
  let id: string;

  it('is paid: the EUR receivable settled at its booked 2,577.00, the 8.40 realized loss in the P&L, nothing left owed in EUR or GBP', async () => {
    number = await invoice('Design;1;3000;4000;Z');
    expect(await sheetLine('2026-02-28', 'Accounts receivable')).toBe(2577);
    id = await row('2026-02-10', '2568.60', `BERLIN GMBH ${number}`);
    // Suggested: the row names the number and is the balance at the day's rate (never paid by an import alone).
    expect((await desk<L.PaymentSuggestion[]>('suggestPayments')).find((s) => s.transactionId === id)).toMatchObject({
      kind: 'invoice',
      exact: false,
      documents: [{ number, balance: 3000, currency: 'EUR' }],
    });
    expect((await L.registerPage(ctx.ledger, org.seq, { status: 'uncategorized', limit: 50, offset: 0 })).data.find((r) => r.id === id)?.possiblePayment?.numbers).toEqual([
      number,
    ]);

    const paid = await desk<L.PaymentResult>('payInvoice', { numbers: [number], transactionId: id });
    expect(paid.documents[0]).toMatchObject({ status: 'paid', balance: 0, paid: 3000 });
    expect(paid.exchanges).toEqual([
      { document: number, currency: 'EUR', settles: 3000, baseCurrency: 'GBP', paid: 2568.6, booked: 2577, difference: -8.4, rate: '0.8562', dayRate: '0.8562' },
    ]);
    expect(await linesOf(id)).toEqual([
      { kind: 'receivable', currency: 'EUR', amount_minor: -300000, base_minor: -257700, category: null },
      { kind: 'category', currency: 'GBP', amount_minor: 840, base_minor: 840, category: 'Realized exchange gains and losses' },
    ]);
    expect(await realized('2026-02-01', '2026-02-28')).toBeCloseTo(-8.4, 2);
    expect(await sheetLine('2026-02-28', 'Accounts receivable')).toBe(0);
    expect(await sheetLine('2026-02-28', 'Accounts receivable', 'EUR')).toBe(0);
    expect(await sheetLine('2026-02-28', 'Current')).toBe(2568.6);
    expect(await L.aging(ctx.ledger, org.seq, 'receivables', '2026-02-28')).toMatchObject({ contacts: [], total: 0 });
    expect(await L.aging(ctx.ledger, org.seq, 'receivables', '2026-02-28', 'EUR')).toMatchObject({ contacts: [], total: 0 });
    // An agent reading the row sees the receivable line in its own currency.
    expect((await L.getTransaction(ctx.ledger, org.seq, id)).lines).toMatchObject([
      { kind: 'receivable', amount: 3000, currency: 'EUR' },
      { kind: 'category', categoryCode: '7900', amount: -8.4 },
    ]);
    expect((await L.listAudit(ctx.ledger, org.seq, { action: 'transaction.payment', limit: 1, offset: 0 })).entries[0].summary).toContain(
      `invoice ${number} (3000.00 EUR for 2568.60 GBP, booked at 2577.00 GBP: realized loss 8.40 GBP)`,
    );
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('shows on the invoice and on the customer’s statement (in the invoice’s currency) with the pounds received; a revaluation finds nothing owed in EUR', async () => {
    expect((await show(number)).settlements).toEqual([{ date: '2026-02-10', amount: 3000, transactionId: id, received: { amount: 2568.6, currency: 'GBP' } }]);
    const st = await desk<L.ContactStatement>('contactStatement', { contact: 'Berlin GmbH', from: '2026-01-01', to: '2026-02-28' });
    expect(st).toMatchObject({ currency: 'EUR', opening: 0, closing: 0, open: [] });
    expect(st.lines).toEqual([
      { date: '2026-01-15', what: `Invoice ${number}`, number, amount: 3000, balance: 3000 },
      { date: '2026-02-10', what: `Payment: BERLIN GMBH ${number} (Invoice ${number}, 2568.60 GBP received)`, number, amount: -3000, balance: 0 },
    ]);
    const r = await desk<L.Revaluation>('revalue', { date: '2026-02-28' });
    expect(r.items.find((i) => i.name === 'Accounts receivable')).toMatchObject({ currency: 'EUR', balance: 0, booked: 0, difference: 0 });
    expect(r).toMatchObject({ gain: 0, id: null });
  });

  it('payment undo restores all: owed again at its booked value, nothing realized, the row uncategorized; the totals recount equal', async () => {
    expect(await desk('undoPayment', { transactionId: id })).toEqual({ transactionId: id, reopened: [number] });
    expect(await show(number)).toMatchObject({ status: 'sent', balance: 3000, settlements: [] });
    expect(await linesOf(id)).toEqual([{ kind: 'suspense', currency: 'GBP', amount_minor: -256860, base_minor: -256860, category: null }]);
    expect(await realized('2026-02-01', '2026-02-28')).toBe(0);
    expect(await sheetLine('2026-02-28', 'Accounts receivable')).toBe(2577);
    expect(await sheetLine('2026-02-28', 'Accounts receivable', 'EUR')).toBe(3000);
    expect((await L.aging(ctx.ledger, org.seq, 'receivables', '2026-02-28')).total).toBe(2577);
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('categorizing the row by hand takes the payment away too', async () => {
    await desk('payInvoice', { numbers: [number], transactionId: id });
    await desk('categorizeTransactions', { ids: [id], categoryCode: '4000' });
    expect(await show(number)).toMatchObject({ status: 'sent', balance: 3000 });
    expect(await realized('2026-02-01', '2026-02-28')).toBe(0);
    await desk('payInvoice', { numbers: [number], transactionId: id });
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('a EUR bill paid from the GBP account, and payments in part', () => {
  it('settles the bill at its booked rate; what was paid beyond it is a realized loss', async () => {
    await desk('createBill', { vendor: 'Lyon SARL', number: 'L-1', currency: 'EUR', date: '2026-01-15', lines: ['Paper;1;1000;5200;Z'] });
    const id = await row('2026-02-10', '-870', 'LYON SARL L-1');
    const paid = await desk<L.PaymentResult>('payBill', { numbers: ['L-1'], transactionId: id });
    expect(paid.documents[0]).toMatchObject({ status: 'paid', balance: 0 });
    expect(paid.exchanges[0]).toMatchObject({ settles: 1000, paid: 870, booked: 859, difference: -11 });
    expect(await linesOf(id)).toEqual([
      { kind: 'payable', currency: 'EUR', amount_minor: 100000, base_minor: 85900, category: null },
      { kind: 'category', currency: 'GBP', amount_minor: 1100, base_minor: 1100, category: 'Realized exchange gains and losses' },
    ]);
    expect(await sheetLine('2026-02-28', 'Accounts payable')).toBe(0);
    expect(await sheetLine('2026-02-28', 'Accounts payable', 'EUR')).toBe(0);
    expect((await L.aging(ctx.ledger, org.seq, 'payables', '2026-02-28')).total).toBe(0);
    const st = await desk<L.ContactStatement>('contactStatement', { contact: 'Lyon SARL', from: '2026-01-01', to: '2026-02-28' });
    expect(st.lines.map((l) => [l.what, l.amount, l.balance])).toEqual([
      ['Bill L-1', 1000, 1000],
      ['Payment: LYON SARL L-1 (Bill L-1, 870.00 GBP paid)', -1000, 0],
    ]);
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('settles part of an invoice; what is left owes at the booked rate; the next payment settles the rest at its own rate', async () => {
    const number = await invoice('Retainer;1;2000;4000;Z');
    const first = await row('2026-02-10', '850', 'BERLIN PART 1');
    const one = await desk<L.PaymentResult>('payInvoice', { numbers: [number], transactionId: first, settles: '1,000.00' });
    expect(one.documents[0]).toMatchObject({ status: 'partially_paid', balance: 1000 });
    expect(one.exchanges[0]).toMatchObject({ settles: 1000, paid: 850, booked: 859, difference: -9 });
    const open = async (currency?: string) =>
      (await L.aging(ctx.ledger, org.seq, 'receivables', '2026-02-28', currency)).contacts[0].documents.find((d) => d.number === number)?.balance;
    expect([await open(), await open('EUR')]).toEqual([859, 1000]);
    // What of the row pays it, the rest left as a credit on the customer in pounds.
    const second = await row('2026-03-03', '1000', 'BERLIN PART 2');
    const two = await desk<L.PaymentResult>('payInvoice', { numbers: [number], transactionId: second, amount: '870' });
    expect(two).toMatchObject({ credit: 130, documents: [{ status: 'paid', balance: 0 }], exchanges: [{ settles: 1000, paid: 870, booked: 859, difference: 11 }] });
    expect((await show(number)).settlements.map((s) => s.received)).toEqual([
      { amount: 850, currency: 'GBP' },
      { amount: 870, currency: 'GBP' },
    ]);
    expect((await L.aging(ctx.ledger, org.seq, 'receivables', '2026-03-31')).contacts[0]).toMatchObject({ name: 'Berlin GmbH', credit: -130 });
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('payments in thirds', () => {
  it('the one settling the balance takes what is left of the booked value: nothing stays owed in pounds, not a penny', async () => {
    const number = await invoice('Tiny;1;1;4000;Z'); // 1.00 EUR, booked 0.86 GBP: thirds of 0.86 round to 0.28 + 0.28 + 0.29
    for (const [date, amount, settles] of [
      ['2026-03-03', '0.28', '0.33'],
      ['2026-03-04', '0.28', '0.33'],
      ['2026-03-05', '0.29', undefined],
    ] as const)
      await desk('payInvoice', { numbers: [number], transactionId: await row(date, amount, `BERLIN ${number}`), ...(settles ? { settles } : {}) });
    expect(await show(number)).toMatchObject({ status: 'paid', balance: 0 });
    const held = (
      await ctx.ledger.rows<{ base: number }>(
        'SELECT (SELECT sum(base_minor) FROM postings WHERE settles_seq = d.seq) + (SELECT sum(base_minor) FROM lines WHERE settles_seq = d.seq) AS base FROM documents d WHERE d.number = ?',
        number,
      )
    )[0].base;
    expect(held).toBe(0);
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('what is refused, naming the field, nothing written', () => {
  it('more than the balance, a rate far from the day’s, a row in another currency than the base, a row already paying others, a changed amount', async () => {
    const number = await invoice('Audit;1;500;4000;Z');
    const id = await row('2026-02-10', '428.10', `BERLIN ${number}`);
    const refused = (input: Record<string, unknown>) => desk('payInvoice', { numbers: [number], transactionId: id, ...input });
    await expect(refused({ settles: '600' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'documents[0].settles', message: `is more than invoice ${number} still asks (500.00 EUR)` }],
    });
    await expect(refused({ settles: '50' })).rejects.toMatchObject({
      details: [{ field: 'documents[0].settles', message: '428.10 GBP for 50.00 EUR is 8.562 GBP per EUR, more than 25% from the rate of 2026-02-10 (0.8562): check the amounts' }],
    });
    const euroRow = await row('2026-02-10', '500', 'BERLIN IN EUROS', 'Euro');
    const gbp = (await desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', date: '2026-01-15', issue: true, lines: ['Local;1;100;4000;Z'] })).number;
    await expect(desk('payInvoice', { numbers: [gbp], transactionId: euroRow })).rejects.toMatchObject({
      details: [
        { field: 'documents[0]', message: `${gbp} is in GBP, the row in EUR: a document is paid in its own currency, or from an account in GBP (the organization's currency)` },
      ],
    });
    await expect(desk('payInvoice', { numbers: [number, gbp], transactionId: id })).rejects.toMatchObject({
      details: [{ field: 'documents', message: expect.stringContaining('are in') }],
    });
    // A row paying a pound invoice in part cannot pay a euro one beside it: a row paying in another currency pays its documents together.
    const both = await row('2026-02-10', '200', 'BERLIN BOTH');
    await desk('payInvoice', { numbers: [gbp], transactionId: both, amount: '50' });
    await expect(desk('payInvoice', { numbers: [number], transactionId: both })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'payment', documents: [gbp] } });
    expect(await show(number)).toMatchObject({ status: 'sent', balance: 500 });
    expect(await linesOf(id)).toEqual([{ kind: 'suspense', currency: 'GBP', amount_minor: -42810, base_minor: -42810, category: null }]);
    // Paid, the row's amount no longer changes by hand: the payment is undone first.
    await desk('payInvoice', { numbers: [number], transactionId: id });
    await expect(desk('editTransaction', { id, amount: '430' })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'payment' } });
    expect(await show(number)).toMatchObject({ status: 'paid' });
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('the cash basis', () => {
  it('takes a taxed EUR invoice’s VAT and revenue at the payment’s date, in the payment’s share, at the booked rate', async () => {
    await L.updateTaxSettings(ctx.ledger, org.seq, L.deskActor(), { basis: 'cash' });
    const number = await invoice('Work;1;1000;4000;S', '2026-03-02'); // 1,200.00 EUR: 1,000.00 and 200.00 VAT, booked at 0.859
    const q1 = { from: '2026-01-01', to: '2026-03-31' };
    const q2 = { from: '2026-04-01', to: '2026-06-30' };
    const box1 = async (q: { from: string; to: string }, basis: 'cash' | 'accrual') => (await L.taxReturn(ctx.ledger, org.seq, { ...q, basis })).boxes['1'];
    expect([await box1(q1, 'accrual'), await box1(q1, 'cash'), await box1(q2, 'cash')]).toEqual([171.8, 0, 0]);
    await desk('payInvoice', { numbers: [number], transactionId: await row('2026-04-14', '510', `BERLIN ${number}`), settles: '600' });
    expect(await box1(q2, 'cash')).toBe(85.9);
    const revenue = async (q: { from: string; to: string }) => (await L.profitAndLoss(ctx.ledger, org.seq, { ...q, basis: 'cash' })).lines.find((l) => l.code === '4000')?.amount;
    expect(await revenue({ from: '2026-04-01', to: '2026-04-30' })).toBe(429.5);
    await L.updateTaxSettings(ctx.ledger, org.seq, L.deskActor(), { basis: 'accrual' });
  });
});

describe('an agent’s proposal', () => {
  it('naming the EUR invoice pays it from the GBP row when approved; reversing the approval makes it owed again', async () => {
    const number = await invoice('Support;1;100;4000;Z', '2026-05-04');
    const id = await row('2026-05-12', '86.20', 'BERLIN GMBH REMITTANCE');
    const token = (await L.createToken(ctx.ledger, org.seq, { name: 'Agent', scopes: ['read', 'propose-write'] })).token;
    const server = await startServer({ ledger: ctx.ledger, port: 0, log: () => {} });
    try {
      const res = await fetch(`${server.url}/api/v1/proposals/categorization`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ transactionId: id, categoryCode: '4000', evidence: [{ type: 'keyword', value: number }] }),
      });
      const proposal = ((await res.json()) as { data: { id: string } }).data;
      await L.reviewProposal(ctx.ledger, org.seq, proposal.id, 'approve', L.deskActor());
      expect(await show(number)).toMatchObject({ status: 'paid', settlements: [{ received: { amount: 86.2, currency: 'GBP' } }] });
      expect((await linesOf(id)).map((l) => [l.kind, l.currency, l.amount_minor, l.base_minor])).toEqual([
        ['receivable', 'EUR', -10000, -8590],
        ['category', 'GBP', -30, -30],
      ]);
      await L.reverseProposal(ctx.ledger, org.seq, L.deskActor(), proposal.id, 'wrong row');
      expect(await show(number)).toMatchObject({ status: 'sent', balance: 100 });
      await expectTotalsMatchRows(ctx.ledger);
    } finally {
      await server.close();
    }
  });
});

describe('from the command line', () => {
  it('invoice pay --settles pays part of a EUR invoice from the dollar account; payment suggest names such a row', () => {
    const run = ownerCommand(tempDir());
    run('account', 'create', 'Bank');
    run('rate', 'set', 'EUR', '2026-01-15', '1.08');
    run('rate', 'set', 'EUR', '2026-02-10', '1.0856');
    run('contact', 'add', 'Globex', '--kind', 'customer');
    run('invoice', 'create', '--customer', 'Globex', '--currency', 'EUR', '--date', '2026-01-15', '--line', 'Design;1;1000;4000', '--issue');
    const tx = (amount: string, description: string) =>
      JSON.parse(run('tx', 'add', '--account', 'Bank', '--date', '2026-02-10', '--amount', amount, '--description', description, '--json')).id as string;
    const whole = tx('1085.60', 'GLOBEX INV 0001');
    const part = tx('543.00', 'GLOBEX PART');
    expect(run('payment', 'suggest')).toMatch(new RegExp(`${whole}.*-> invoice INV-0001 \\(Globex, 1000.00 EUR\\)`));
    expect(run('invoice', 'pay', 'INV-0001', '--transaction', part, '--settles', '500')).toContain(
      "INV-0001: 500.00 EUR for 543.00 USD (1.086 per EUR, the day's rate 1.0856); booked at 540.00 USD: realized gain 3.00 USD",
    );
    expect(JSON.parse(run('invoice', 'show', 'INV-0001', '--json'))).toMatchObject({ status: 'partially_paid', balance: 500 });
  }, 120_000); // nine commands, each a process starting from the sources
});

// A working input for every desk operation (issue 45's role x operation matrix,
// test/roles-matrix.test.ts), on one organization's books. What an operation
// uses up (deletes, voids, undoes, closes, reverses...) its sample makes afresh
// on each call, as the machine's owner, so that every role's run has its own
// target; the rest name what the fixture made once. A new operation without a
// sample does not compile (`satisfies Record<DeskOperationName, Sample>`).
import { join } from 'node:path';
import type { DeskContext, DeskPerson } from '../../src/main/desk/operation';
import { stageUpload } from '../../src/main/desk/files';
import { runDesk } from '../../src/main/desk/transport/dispatch';
import * as L from '../../src/main/ledger';
import { addMember, issueOrgInvitation } from '../../src/main/ledger/access/people';
import type { Role } from '../../src/main/ledger/access/roles';
import { newTotpSecret, totpCode } from '../../src/main/ledger/access/totp';
import type { DeskOperationName } from '../../src/shared/desk';
import { textPdf } from './pdf';
import { solidPng } from './png';
import { atFileEnd, envUntilFileEnd } from './file-end';
import { epoch, SimplefinDouble } from '../doubles/simplefin';
import { startStripeDouble, type StripeDouble } from '../doubles/stripe';

type Input = Record<string, unknown>;

/** Who runs the sample's operation: a person with a role in the organization, or one in another organization only. */
export interface Who {
  role: Role | 'outsider';
  person: DeskPerson;
}

export interface Fixture {
  /** The books as tests read them (on PostgreSQL the login role: row-level security does not bind it). */
  books: L.Ledger;
  /** The books as the server runs the desk on them. */
  served: L.Ledger;
  dir: string;
  org: L.Organization;
  /** The people holding each role in `org` (and in the organizations samples make for them). */
  people: Record<Role, DeskPerson>;
  /** The desk as the machine's owner (no person: every organization's owner). */
  ownerCtx: DeskContext;
  agent: L.AgentActor;
  /** What the fixture made once, for the samples that only read or change in place. */
  fixed: {
    txId: string;
    invoice: string;
    openInvoice: string;
    paymentTxId: string;
    bill: string;
    journal: string;
    batchId: string;
    reconciled: string;
    category: string;
    taxCode: string;
    ruleId: string;
    proposalId: string;
  };
  /** A new number on every call: names, codes, dates nobody used yet. */
  n(): number;
}

/** An input for `who`, made afresh when the operation uses up its target. */
export type Sample = (fx: Fixture, who: Who) => Input | Promise<Input>;

/** Runs a desk operation as the machine's owner (with the organization's orgId unless `bare`), throwing its refusal. */
export async function asOwner<T = any>(fx: Fixture, name: DeskOperationName, input: Input, bare = false): Promise<T> {
  const answer = await runDesk(fx.ownerCtx, name, bare ? input : { orgId: fx.org.id, ...input }, () => {});
  if ('error' in answer) throw new Error(`sample setup ${name}: ${answer.error.code}: ${answer.error.message} ${JSON.stringify(answer.error.details)}`);
  return answer.data as T;
}

const day = (start: string, plus: number) => new Date(Date.parse(`${start}T00:00:00Z`) + plus * 86_400_000).toISOString().slice(0, 10);
/**
 * A month of its own for each tax return filed (2011 on: no other row of the fixture is dated there), two apart,
 * counted apart from fx.n() so that they stay in the past: a period that has not ended is not filed (issue 50).
 */
let filings = 0;
const month = () => {
  const m = 2 * filings++;
  const from = `${2011 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-01`;
  const next = new Date(Date.parse(`${from}T00:00:00Z`));
  next.setUTCMonth(next.getUTCMonth() + 1);
  return { from, to: day(next.toISOString().slice(0, 10), -1), after: day(next.toISOString().slice(0, 10), 4) };
};

/** A row entered by hand in Current, uncategorized unless a category is named. */
export const handRow = async (fx: Fixture, amount: string, extra: Input = {}): Promise<string> =>
  (await asOwner<{ id: string }>(fx, 'addTransaction', { account: 'Current', date: '2026-05-04', amount, description: `HAND ROW ${fx.n()}`, ...extra })).id;

/** A staged upload (what the app's windows send before an import), by its id: `who`'s (issue 51: only they may use it), else the machine's owner's. */
export async function upload(fx: Fixture, name: string, bytes: Uint8Array | string, who?: Who): Promise<string> {
  const ctx = who ? { ...fx.ownerCtx, person: who.person } : fx.ownerCtx;
  const staged = await ctx.ledger.forOrg(fx.org.seq, () => stageUpload(ctx, fx.org.seq, name, typeof bytes === 'string' ? Buffer.from(bytes) : bytes));
  return staged.uploadId;
}

/** A receipt file nobody uploaded yet (receipts are kept once per file). */
const receiptPdf = (fx: Fixture) => textPdf([`RECEIPT ${fx.n()}`, 'Total GBP 12.00']);

/** A receipt linked to nothing, uploaded by `by` (a person with a role, so a client sees their own) or the machine's owner. */
async function receipt(fx: Fixture, by: Who | null = null): Promise<string> {
  const ctx = by && by.role !== 'outsider' ? { ...fx.ownerCtx, person: by.person } : fx.ownerCtx;
  const answer = await runDesk(ctx, 'uploadReceipt', { orgId: fx.org.id, fileName: `receipt-${fx.n()}.pdf`, bytes: receiptPdf(fx) }, () => {});
  if ('error' in answer) throw new Error(`sample setup uploadReceipt: ${answer.error.message}`);
  return (answer.data as { receipt: { id: string } }).receipt.id;
}

/** A draft or issued invoice to Globex (100.00 net, standard rated: 120.00), by its number and total. */
async function invoice(fx: Fixture, issue: boolean, customer = 'Globex', price = '100'): Promise<L.Document> {
  return asOwner<L.Document>(fx, 'createInvoice', { customer, date: '2026-06-01', dueDate: '2026-06-30', issue, lines: [`Work;1;${price};4000`] });
}

/** A quote to Globex, not yet sent (issue 53). */
const quote = (fx: Fixture) => asOwner<L.Quote>(fx, 'createQuote', { customer: 'Globex', date: '2026-06-01', lines: ['Work;1;100;4000'] });

/** A repeating invoice starting far ahead (the pass of other samples makes nothing of it), by its id. */
const repeating = async (fx: Fixture, extra: Input = {}) =>
  (
    await asOwner<{ id: string }>(fx, 'createRepeatingInvoice', {
      name: `Retainer ${fx.n()}`,
      customer: 'Globex',
      unit: 'month',
      start: '2031-01-31',
      lines: ['Retainer;1;100;4000'],
      ...extra,
    })
  ).id;

/** An invoice a repeating invoice made more than a period late, held until the person's word (issue 53). */
async function heldInvoice(fx: Fixture): Promise<string> {
  const id = await repeating(fx, { unit: 'week', start: '2026-01-05', count: 2, action: 'issue_and_send' });
  const { made } = await asOwner<{ made: L.MadeOccurrence[] }>(fx, 'runRepeatingInvoices', { asOf: '2026-01-31' });
  return made.find((m) => m.repeat.id === id && m.sending === 'held')!.invoice!;
}

async function bill(fx: Fixture, draft: boolean, vendor = 'Initech', price = '50'): Promise<L.Document> {
  return asOwner<L.Document>(fx, 'createBill', { vendor, number: `B-${fx.n()}`, date: '2026-06-01', dueDate: '2026-06-30', draft, lines: [`Paper;1;${price};5000`] });
}

/** A customer's (vendor's) credit of 50.00 left by an overpayment, and an open invoice (bill) it can pay. */
async function creditAndDocument(fx: Fixture, kind: 'invoice' | 'bill'): Promise<string> {
  const first = kind === 'invoice' ? await invoice(fx, true, 'Creditco') : await bill(fx, false, 'Creditco');
  const sign = kind === 'invoice' ? 1 : -1;
  const paid = await handRow(fx, (sign * (first.total + 50)).toFixed(2), { date: '2026-06-02' });
  await asOwner(fx, kind === 'invoice' ? 'payInvoice' : 'payBill', { numbers: [first.number], transactionId: paid });
  return (kind === 'invoice' ? await invoice(fx, true, 'Creditco', '10') : await bill(fx, false, 'Creditco', '10')).number;
}

/** An agent's pending categorization of a new uncategorized row. */
async function agentCategorization(fx: Fixture): Promise<L.Proposal> {
  const transactionId = await handRow(fx, '-15.00');
  return fx.books.forOrg(fx.org.seq, () => L.proposeCategorization(fx.books, fx.org.seq, fx.agent, { transactionId, categoryCode: '5100', confidence: 0.9 }));
}

/** A person added to the organization (as a client), to change, remove or reset. */
async function member(fx: Fixture): Promise<string> {
  const email = `member-${fx.n()}@firm.example`;
  await fx.books.forOrg(fx.org.seq, () => addMember(fx.books, fx.org.seq, L.deskActor(), { email, name: 'Mem Ber', role: 'client', password: 'correct horse battery staple' }));
  return email;
}

const account = async (fx: Fixture, extra: Input = {}): Promise<string> => (await asOwner<{ name: string }>(fx, 'createAccount', { name: `Acct ${fx.n()}`, ...extra })).name;
const category = async (fx: Fixture): Promise<string> =>
  (await asOwner<{ code: string }>(fx, 'addCategory', { code: `7${String(fx.n()).padStart(3, '0')}`, name: `Cat ${fx.n()}`, type: 'expense' })).code;
const rule = (fx: Fixture, text = 'zz-rule') => ({ matchKind: 'contains', matchText: `${text}-${fx.n()}`, categoryCode: '5000' });
/** The next day of February 2026 not revalued yet (the fixture sets rates a week apart: one is always within the week before). */
let revaluations = 0;
const revaluationDay = () => day('2026-02-02', revaluations++);
const journalLines = ['5000=10.00', 'Current=-10.00'];

export const SAMPLES = {
  appInfo: () => ({}),

  // Organizations
  listOrganizations: () => ({}),
  createOrganization: (fx) => ({ slug: `made-${fx.n()}` }),
  renameOrganization: (fx) => ({ organization: fx.org.slug, name: fx.org.name }),
  updateOrganization: (fx) => ({ organization: fx.org.slug, paymentTerms: `Payment within ${fx.n()} days` }),
  setOrganizationLogo: async (fx, who) => ({ organization: fx.org.slug, file: await upload(fx, 'logo.png', solidPng(30, 10, [20, 40, 200]), who) }),
  organizationLogo: (fx) => ({ organization: fx.org.slug }),
  practice: () => ({ attention: false }),
  keepPracticeChoice: () => ({ sort: 'review', descending: true }),
  assignPractice: (fx) => ({ organization: fx.org.slug, email: fx.people.bookkeeper.email }),
  removeOrganization: async (fx) => {
    // An empty organization whose people hold the same roles as in the fixture's.
    const made = await fx.books.forOrg('all', () => L.createOrganization(fx.books, { slug: `empty-${fx.n()}`, name: 'Made by mistake' }, L.deskActor()));
    for (const [role, p] of Object.entries(fx.people)) await fx.books.forOrg(made.seq, () => addMember(fx.books, made.seq, L.deskActor(), { email: p.email, name: p.name, role }));
    return { organization: made.slug };
  },

  // People
  listPeople: () => ({}),
  addPerson: (fx) => ({ email: `new-${fx.n()}@firm.example`, name: 'New Person', role: 'client' }),
  setPersonRole: async (fx) => ({ email: await member(fx), role: 'preparer' }),
  removePerson: async (fx) => ({ email: await member(fx), organization: fx.org.slug }),
  resetPerson: async (fx) => ({ email: await member(fx) }),
  requireSecondFactor: () => ({ required: false }),
  whoAmI: () => ({}),
  newSecondFactor: () => ({}),
  confirmSecondFactor: () => {
    const secret = newTotpSecret();
    return { secret, code: totpCode(secret) };
  },
  acceptInvitation: (fx, who) => invitedBy(fx, who),
  declineInvitation: (fx, who) => invitedBy(fx, who),

  // Approvals, log, tokens
  listProposals: () => ({}),
  reviewProposals: async (fx) => {
    const note = await fx.books.forOrg(fx.org.seq, () => L.proposeNote(fx.books, fx.org.seq, fx.agent, { transactionId: fx.fixed.txId, content: `Agent note ${fx.n()}` }));
    return { ids: [note.id], decision: 'approve' };
  },
  // One's own: a note the person's own token proposed (issue 50); a client's or an outsider's run is refused before its input is read.
  withdrawProposals: async (fx, who) => {
    if (who.role === 'client' || who.role === 'outsider') return { ids: [fx.fixed.proposalId] };
    const { info } = await fx.books.forOrg(fx.org.seq, () =>
      L.createToken(fx.books, fx.org.seq, { name: `Own agent ${fx.n()}`, scopes: ['read', 'propose-write'], userSeq: who.person.seq }),
    );
    const tokenSeq = Number(await fx.books.stmt('SELECT seq FROM tokens WHERE id = ?').pluck().get(info.id));
    const own: L.AgentActor = { type: 'token', tokenSeq, tokenId: info.id, tokenName: info.name, channel: 'mcp' };
    const note = await fx.books.forOrg(fx.org.seq, () => L.proposeNote(fx.books, fx.org.seq, own, { transactionId: fx.fixed.txId, content: `Own note ${fx.n()}` }));
    return { ids: [note.id] };
  },
  listAudit: () => ({}),
  listTokens: () => ({}),
  createToken: (fx) => ({ name: `Token ${fx.n()}`, scopes: ['read'] }),
  revokeToken: async (fx, who) => {
    // One's own token (only an owner revokes anyone's).
    const userSeq = who.role === 'outsider' ? null : who.person.seq;
    const made = await fx.books.forOrg(fx.org.seq, () => L.createToken(fx.books, fx.org.seq, { name: `Own ${fx.n()}`, scopes: ['read'], userSeq }));
    return { id: made.info.id };
  },

  // Receipts
  listReceipts: () => ({}),
  uploadReceipt: (fx) => ({ fileName: `scan-${fx.n()}.pdf`, bytes: receiptPdf(fx) }),
  linkReceipt: async (fx) => ({ receiptId: await receipt(fx), transactionId: await handRow(fx, '-12.00') }),
  deleteReceipt: async (fx) => ({ id: await receipt(fx) }),
  // A client sees the receipts they uploaded: each runs it on one of their own.
  receiptBytes: async (fx, who) => ({ id: await receipt(fx, who) }),
  openReceipt: async (fx, who) => ({ id: await receipt(fx, who) }),
  markReceiptMissing: async (fx) => ({ ids: [await handRow(fx, '-8.00')] }),

  // Transactions
  listTransactions: () => ({}),
  getTransaction: (fx) => ({ id: fx.fixed.txId }),
  dashboard: () => ({}),
  register: () => ({ limit: 5 }),
  addTransaction: (fx) => ({ account: 'Current', date: '2026-05-05', amount: '-9.99', description: `ADDED ${fx.n()}` }),
  editTransaction: async (fx) => ({ id: await handRow(fx, '-7.00'), description: `EDITED ${fx.n()}` }),
  deleteTransaction: async (fx) => ({ id: await handRow(fx, '-6.00') }),
  categorizeTransactions: async (fx) => ({ ids: [await handRow(fx, '-20.00')], categoryCode: '5000' }),
  splitTransaction: async (fx) => ({ id: await handRow(fx, '-100.00'), lines: ['5000=60.00', '5100=40.00'] }),
  unsplitTransaction: async (fx) => {
    const id = await handRow(fx, '-100.00');
    await asOwner(fx, 'splitTransaction', { id, lines: ['5000=60.00', '5100=40.00'] });
    return { id };
  },
  addNote: (fx) => ({ transactionId: fx.fixed.txId, content: `A note ${fx.n()}` }),
  reverseProposal: async (fx) => {
    const proposal = await agentCategorization(fx);
    await asOwner(fx, 'reviewProposals', { ids: [proposal.id], decision: 'approve' });
    return { id: proposal.id };
  },

  // Accounts and imports
  listAccounts: () => ({}),
  createAccount: (fx) => ({ name: `New account ${fx.n()}`, type: 'savings' }),
  updateAccount: (fx) => ({ account: 'Current', maskedNumber: `****${String(fx.n()).padStart(4, '0')}` }),
  closeAccount: async (fx) => ({ account: await account(fx) }),
  reopenAccount: async (fx) => {
    const name = await account(fx);
    await asOwner(fx, 'closeAccount', { account: name });
    return { account: name };
  },
  importStatement: async (fx, who) => ({
    file: await upload(fx, 'statement.csv', `Date,Description,Amount\n2026-05-03,IMPORTED ROW ${fx.n()},-12.34\n`, who),
    account: await account(fx),
  }),
  importProgress: () => ({ file: 'nothing-in-progress' }),
  listImports: () => ({}),
  importSkippedRows: (fx) => ({ batchId: fx.fixed.batchId }),
  undoImport: async (fx) => {
    const file = await upload(fx, 'statement.csv', `Date,Description,Amount\n2026-05-03,IMPORTED ROW ${fx.n()},-12.34\n`);
    return { batchId: (await asOwner<L.ImportResult>(fx, 'importStatement', { file, account: await account(fx) })).batchId };
  },
  importChart: async (fx, who) => ({
    file: await upload(
      fx,
      'ChartOfAccounts.csv',
      `*Code,*Name,*Type,*Tax Code,Description,Dashboard,Expense Claims,Enable Payments,Balance\nX${fx.n()},Moved ${fx.n()},Expense,No VAT,,No,Yes,No,\n`,
      who,
    ),
  }),
  importContacts: async (fx, who) => ({ file: await upload(fx, 'Contacts.csv', `*ContactName,EmailAddress\nMoved contact ${fx.n()},moved@example.com\n`, who) }),
  stageStatement: (fx) => ({ fileName: 'statement.csv', bytes: Buffer.from(`Date,Description,Amount\n2026-05-03,STAGED ${fx.n()},-1.00\n`) }),

  // Transfers and the closing date
  makeTransfer: async (fx) => ({ id: await handRow(fx, '-50.00'), account: 'Savings' }),
  matchTransfer: async (fx) => {
    const id = await handRow(fx, '-50.00');
    const other = (await asOwner<{ id: string }>(fx, 'addTransaction', { account: 'Savings', date: '2026-05-04', amount: '50.00', description: `FROM CURRENT ${fx.n()}` })).id;
    return { id, other };
  },
  suggestTransfers: () => ({}),
  undoTransfer: async (fx) => {
    const id = await handRow(fx, '-50.00');
    await asOwner(fx, 'makeTransfer', { id, account: 'Savings' });
    return { id };
  },
  lockPeriod: async (fx) => {
    await asOwner(fx, 'unlockPeriod', {});
    return { through: '2000-01-31', reason: 'closed' };
  },
  unlockPeriod: async (fx) => {
    await asOwner(fx, 'lockPeriod', { through: '2000-01-31' });
    return { reason: 'reopened' };
  },

  // Contacts, invoices and bills
  listContacts: () => ({}),
  addContact: (fx) => ({ name: `Contact ${fx.n()}`, kind: 'customer' }),
  updateContact: (fx) => ({ contact: 'Globex', email: `ap-${fx.n()}@globex.example` }),
  archiveContact: async (fx) => ({ contact: (await asOwner<{ id: string }>(fx, 'addContact', { name: `Gone ${fx.n()}`, kind: 'customer' })).id }),
  restoreContact: async (fx) => {
    const { id } = await asOwner<{ id: string }>(fx, 'addContact', { name: `Back ${fx.n()}`, kind: 'vendor' });
    await asOwner(fx, 'archiveContact', { contact: id });
    return { contact: id };
  },
  createInvoice: () => ({ customer: 'Globex', date: '2026-06-01', lines: ['Work;1;100;4000'] }),
  issueInvoice: async (fx) => ({ number: (await invoice(fx, false)).number }),
  editInvoice: async (fx) => ({ number: (await invoice(fx, false)).number, notes: 'Thank you' }),
  showInvoice: (fx) => ({ number: fx.fixed.invoice }),
  listInvoices: () => ({}),
  payInvoice: async (fx) => {
    const doc = await invoice(fx, true);
    return { numbers: [doc.number], transactionId: await handRow(fx, doc.total.toFixed(2), { date: '2026-06-10' }) };
  },
  voidInvoice: async (fx) => ({ number: (await invoice(fx, true)).number, reason: 'wrong customer', date: '2026-06-05' }),
  creditInvoice: async (fx) => ({ number: (await invoice(fx, true)).number, date: '2026-06-05', lines: ['Discount;1;10;4000'] }),
  importInvoices: async (fx, who) => ({
    file: await upload(fx, 'invoices.csv', `Customer,Reference,Date,Description,Quantity,Unit price,Category\nGlobex,R${fx.n()},2026-06-01,Thing,1,10,4000\n`, who),
  }),
  importBills: async (fx, who) => ({
    file: await upload(fx, 'bills.csv', `Vendor,Number,Date,Description,Unit price,Category\nInitech,IB-${fx.n()},2026-06-01,Paper,10,5000\n`, who),
  }),
  invoicePdf: (fx) => ({ number: fx.fixed.invoice, out: join(fx.dir, `invoice-${fx.n()}.pdf`) }),
  invoicePdfBytes: (fx) => ({ number: fx.fixed.invoice }),
  createQuote: () => ({ customer: 'Globex', date: '2026-06-01', lines: ['Work;1;100;4000'] }),
  editQuote: async (fx) => ({ number: (await quote(fx)).number, notes: 'As discussed' }),
  listQuotes: () => ({}),
  showQuote: async (fx) => ({ number: (await quote(fx)).number }),
  sendQuote: async (fx) => ({ number: (await quote(fx)).number }),
  acceptQuote: async (fx) => ({ number: (await quote(fx)).number, date: '2026-06-03' }),
  declineQuote: async (fx) => ({ number: (await quote(fx)).number, date: '2026-06-03' }),
  quotePdf: async (fx) => ({ number: (await quote(fx)).number, out: join(fx.dir, `quote-${fx.n()}.pdf`) }),
  quotePdfBytes: async (fx) => ({ number: (await quote(fx)).number }),
  createRepeatingInvoice: (fx) => ({ name: `Monthly ${fx.n()}`, customer: 'Globex', unit: 'month', lastDay: true, start: '2031-01-01', lines: ['Retainer;1;100;4000'] }),
  listRepeatingInvoices: () => ({}),
  showRepeatingInvoice: async (fx) => ({ ref: await repeating(fx) }),
  pauseRepeatingInvoice: async (fx) => ({ ref: await repeating(fx) }),
  resumeRepeatingInvoice: async (fx) => {
    const ref = await repeating(fx);
    await asOwner(fx, 'pauseRepeatingInvoice', { ref });
    return { ref };
  },
  deleteRepeatingInvoice: async (fx) => ({ ref: await repeating(fx) }),
  runRepeatingInvoices: () => ({ asOf: '2026-06-01' }),
  releaseRepeatInvoice: async (fx) => ({ number: await heldInvoice(fx) }),
  createBill: (fx) => ({ vendor: 'Initech', number: `NB-${fx.n()}`, date: '2026-06-01', lines: ['Paper;1;50;5000'] }),
  enterBill: async (fx) => ({ number: (await bill(fx, true)).number }),
  editBill: async (fx) => ({ number: (await bill(fx, true)).number, notes: 'Checked' }),
  showBill: (fx) => ({ number: fx.fixed.bill }),
  listBills: () => ({}),
  payBill: async (fx) => {
    const doc = await bill(fx, false);
    return { numbers: [doc.number], transactionId: await handRow(fx, (-doc.total).toFixed(2), { date: '2026-06-10' }) };
  },
  previewPayment: (fx) => ({ kind: 'invoice', numbers: [fx.fixed.openInvoice], transactionId: fx.fixed.paymentTxId }),
  lineTaxDefaults: () => ({ contact: 'Globex', categoryCodes: ['4000'] }),
  voidDate: (fx) => ({ kind: 'invoice', number: fx.fixed.openInvoice }),
  invoicePaymentLink: (fx) => ({ number: fx.fixed.openInvoice }),
  makePaymentLink: (fx) => ({ number: fx.fixed.openInvoice }),
  voidBill: async (fx) => ({ number: (await bill(fx, false)).number, reason: 'duplicate', date: '2026-06-05' }),
  undoPayment: async (fx) => {
    const doc = await invoice(fx, true);
    const transactionId = await handRow(fx, doc.total.toFixed(2), { date: '2026-06-10' });
    await asOwner(fx, 'payInvoice', { numbers: [doc.number], transactionId });
    return { transactionId };
  },
  applyInvoiceCredit: async (fx) => ({ number: await creditAndDocument(fx, 'invoice') }),
  unapplyInvoiceCredit: async (fx) => {
    const number = await creditAndDocument(fx, 'invoice');
    await asOwner(fx, 'applyInvoiceCredit', { number });
    return { number };
  },
  applyBillCredit: async (fx) => ({ number: await creditAndDocument(fx, 'bill') }),
  unapplyBillCredit: async (fx) => {
    const number = await creditAndDocument(fx, 'bill');
    await asOwner(fx, 'applyBillCredit', { number });
    return { number };
  },
  suggestPayments: () => ({}),
  contactStatement: () => ({ contact: 'Globex' }),
  statementOfAccount: () => ({ customer: 'Globex' }),
  statementPdfBytes: () => ({ customer: 'Globex' }),
  composeStatement: () => ({ customer: 'Globex' }),
  aging: () => ({}),

  // Rates
  listRates: () => ({}),
  setRate: (fx) => ({ currency: 'USD', date: day('2026-01-01', fx.n() % 300), rate: '0.79' }),
  importRates: async (fx, who) => ({ file: await upload(fx, 'rates.csv', `date,currency,rate\n${day('2025-01-01', fx.n() % 300)},USD,0.8\n`, who), format: 'plain' }),
  // Each on a day of its own: the Euro account's balance is worth more at February's rates than it was booked at.
  revalue: () => ({ date: revaluationDay() }),
  undoRevaluation: async (fx) => {
    const date = revaluationDay();
    await asOwner(fx, 'revalue', { date });
    return { date };
  },

  // Tax
  setupTax: () => ({ set: 'uk-vat' }),
  listTaxCodes: () => ({}),
  addTaxCode: (fx) => ({ code: `X${fx.n()}`, rate: 10, kind: 'reduced' }),
  setTaxRate: (fx) => ({ code: fx.fixed.taxCode, from: day('2031-01-01', fx.n()), rate: 12 }),
  archiveTaxCode: async (fx) => ({ code: (await asOwner<{ code: string }>(fx, 'addTaxCode', { code: `A${fx.n()}`, rate: 5, kind: 'reduced' })).code }),
  setCategoryTax: (fx) => ({ categoryCode: fx.fixed.category, taxCode: 'S' }),
  taxReport: () => ({}),
  taxSettings: () => ({ period: 'quarterly' }),
  fileTaxReturn: () => ({ ...(({ from, to }) => ({ from, to }))(month()) }),
  listTaxReturns: () => ({}),
  hmrcStatus: () => ({}),
  hmrcConnect: () => ({ vrn: '123456782' }),
  hmrcConnectFinish: () => ({ code: 'code', state: 'state' }),
  hmrcObligations: () => ({}),
  hmrcLiabilities: () => ({ from: '2026-01-01', to: '2026-03-31' }),
  hmrcPayments: () => ({ from: '2026-01-01', to: '2026-03-31' }),
  openSignInLink: () => ({ url: 'https://test-www.tax.service.gov.uk/oauth/authorize?client_id=x' }),
  submitTaxReturn: () => ({ periodKey: '26A1', confirmDeclaration: true }),
  taxPaymentCandidates: () => ({}),
  payTaxReturn: async (fx) => {
    // A standard-rated sale (120.00 gross: 20.00 of tax) in a month of its own, that month's return filed, the tax paid after it.
    const { from, to, after } = month();
    await handRow(fx, '120.00', { date: day(from, 14), categoryCode: '4000', taxCode: 'S' });
    const filed = await asOwner<L.FiledReturn>(fx, 'fileTaxReturn', { from, to });
    return { returnId: filed.id, transactionId: await handRow(fx, (-filed.payable).toFixed(2), { date: after }) };
  },
  unfileTaxReturn: async (fx) => {
    // A month of its own filed just now (the latest filed return: months only move on), undone.
    const filed = await asOwner<L.FiledReturn>(fx, 'fileTaxReturn', { ...(({ from, to }) => ({ from, to }))(month()) });
    return { returnId: filed.id, reason: 'Filed by mistake' };
  },
  taxAudit: () => ({ from: '2026-01-01', to: '2026-03-31' }),

  // Chart and reconciliation
  listChart: () => ({}),
  addCategory: (fx) => ({ code: `8${String(fx.n()).padStart(3, '0')}`, name: `Added ${fx.n()}`, type: 'expense' }),
  renameCategory: (fx) => ({ code: fx.fixed.category, name: `Renamed ${fx.n()}` }),
  setCategorySynonyms: (fx) => ({ code: fx.fixed.category, synonyms: [`alias ${fx.n()}`] }),
  setRetainedEarnings: async (fx) => ({
    code: (await asOwner<{ code: string }>(fx, 'addCategory', { code: `3${String(fx.n()).padStart(3, '0')}`, name: `Earnings ${fx.n()}`, type: 'equity' })).code,
  }),
  setCategorySection: (fx) => ({ code: fx.fixed.category, section: fx.n() % 2 ? 'cost_of_sales' : 'expenses' }),
  archiveCategory: async (fx) => ({ code: await category(fx) }),
  restoreCategory: async (fx) => {
    const code = await category(fx);
    await asOwner(fx, 'archiveCategory', { code });
    return { code };
  },
  reconcileView: () => ({ account: 'Current' }),
  reconciliationReport: (fx) => ({ account: fx.fixed.reconciled }),
  reconcileAccount: async (fx) => {
    const name = await account(fx);
    await asOwner(fx, 'addTransaction', { account: name, date: '2026-05-01', amount: '100.00', description: 'DEPOSIT' });
    return { account: name, date: '2026-05-31', balance: '100.00', clearThrough: '2026-05-31' };
  },
  undoReconciliation: async (fx) => {
    const name = await account(fx);
    await asOwner(fx, 'addTransaction', { account: name, date: '2026-05-01', amount: '100.00', description: 'DEPOSIT' });
    await asOwner(fx, 'reconcileAccount', { account: name, date: '2026-05-31', balance: '100.00', clearThrough: '2026-05-31' });
    return { account: name };
  },

  // Reports and exports
  profitAndLoss: () => ({}),
  balancesReport: () => ({}),
  balanceSheet: () => ({}),
  trialBalance: () => ({}),
  generalLedger: () => ({ account: 'Current' }),
  exportBooks: () => ({ format: 'csv' }),
  // An export is downloaded by the person who made it (issue 51): theirs where they may export, else the owner's (refused first).
  downloadExport: async (fx, who) => {
    const made = await runDesk({ ...fx.ownerCtx, person: who.person }, 'exportBooks', { orgId: fx.org.id, format: 'csv' }, () => {});
    return { exportId: 'data' in made ? (made.data as { exportId: string }).exportId : (await asOwner<{ exportId: string }>(fx, 'exportBooks', { format: 'csv' })).exportId };
  },
  verifyAudit: () => ({}),
  listBackups: () => ({}),
  backupNow: () => ({}),

  // Rules
  listRules: () => ({}),
  createRule: (fx) => ({ rule: rule(fx) }),
  updateRule: (fx) => ({ id: fx.fixed.ruleId, rule: rule(fx, 'zz-updated') }),
  moveRule: (fx) => ({ id: fx.fixed.ruleId, position: 1 }),
  deleteRule: async (fx) => ({ id: (await asOwner<{ rule: { id: string } }>(fx, 'createRule', { rule: rule(fx) })).rule.id }),
  runRules: () => ({}),
  ruleDraft: (fx) => ({ proposalId: fx.fixed.proposalId }),
  approveAndRemember: async (fx) => ({ id: (await agentCategorization(fx)).id, rule: rule(fx, 'zz-remembered') }),

  // Journals and opening balances
  listJournals: () => ({}),
  showJournal: (fx) => ({ number: fx.fixed.journal }),
  addJournal: (fx) => ({ date: '2026-06-15', narration: `Accrual ${fx.n()}`, lines: journalLines }),
  previewJournal: () => ({ date: '2026-06-15', lines: journalLines }),
  reverseJournal: async (fx) => ({
    number: (await asOwner<{ number: string }>(fx, 'addJournal', { date: '2026-06-15', narration: `To reverse ${fx.n()}`, lines: journalLines })).number,
    date: '2026-06-20',
  }),
  stopJournalRepeat: async (fx) => ({
    number: (await asOwner<{ number: string }>(fx, 'addJournal', { date: '2027-01-31', narration: `Depreciation ${fx.n()}`, lines: journalLines, repeat: 'monthly', count: 3 }))
      .number,
  }),
  openingBalances: () => ({}),
  setOpeningBalances: () => ({ date: '2005-12-31', lines: ['Current=100.00'], balanceToEquity: true }),

  // Mail and reminders (issue 53)
  mailSettings: () => ({}),
  // Port 1 on loopback: nothing listens, so a send fails at once (roles-matrix's BY_DESIGN).
  setMailSettings: () => ({ host: '127.0.0.1', port: 1, tls: 'none', user: 'books', from: 'Acme <books@acme.example>' }),
  testMail: () => ({ to: 'someone@example.com' }),
  mailTemplates: () => ({}),
  setMailTemplate: (fx) => ({ kind: 'invoice', subject: `Invoice {number} ${fx.n()}`, body: 'Dear {customer}' }),
  composeMessage: (fx) => ({ number: fx.fixed.invoice }),
  sendDocument: (fx) => ({ number: fx.fixed.invoice, to: ['someone@example.com'] }),
  // Valid until far ahead: the send reads expiry against today's clock.
  mailQuote: async (fx) => ({
    number: (await asOwner<L.Quote>(fx, 'createQuote', { customer: 'Globex', expiryDate: '2099-12-31', lines: ['Work;1;100;4000'] })).number,
    to: ['someone@example.com'],
  }),
  documentMessages: (fx) => ({ number: fx.fixed.invoice }),
  reminders: () => ({ asOf: '2026-07-01' }),
  setReminders: () => ({ days: [-3, 0, 7] }),
  runReminders: () => ({ asOf: '2020-01-01' }),
  setNoReminders: (fx) => ({ number: fx.fixed.invoice, resume: fx.n() % 2 === 0 }),
  // Connectors (issue 52), against a SimpleFIN double
  listConnections: () => ({}),
  addSimplefinConnector: async (fx) => ({ name: `Feed ${fx.n()}`, setupToken: (await simplefinDouble()).setupToken() }),
  addStripeConnector: async (fx) => ({ name: `Stripe ${fx.n()}`, key: (await stripeDouble()).key }),
  // Connecting a bank waits for the person at the bank: the command's alone (roles-matrix's BY_DESIGN; test/enable-banking-connect.test.ts connects one).
  listEnableBankingBanks: () => ({ country: 'GB', applicationId: 'app', privateKeyFile: '/nonexistent.pem' }),
  addEnableBankingConnector: () => ({ country: 'GB', bank: 'Mock ASPSP', applicationId: 'app', privateKeyFile: '/nonexistent.pem' }),
  finishEnableBankingConnector: () => ({ state: 'a-state-no-sign-in-sent', code: 'code' }),
  mapConnectorAccount: async (fx) => ({ connector: await feedConnector(fx), account: await account(fx) }),
  // Unmapped: the sync runs (and is recorded) without fetching rows, which keeps the matrix quick.
  syncConnector: async (fx) => ({ connector: await feedConnector(fx) }),
  syncAllConnectors: async (fx) => ({ connector: await feedConnector(fx) }),
  previewFirstSync: async (fx) => ({ connector: await waitingConnector(fx) }),
  confirmFirstSync: async (fx) => ({ connector: await waitingConnector(fx) }),
  listPendingRows: async (fx) => ({ account: await account(fx) }),
  listHeldRows: () => ({}),
  decideHeldRow: async (fx) => ({ id: await heldRow(fx), decision: 'keep' }),
  removeConnector: async (fx) => ({ connector: await feedConnector(fx) }),
} satisfies Record<DeskOperationName, Sample>;

/** One double a file: started on its first use (once, however many samples ask at once), closed at the file's end. */
function perFile<T extends { close(): Promise<void> }>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () =>
    (started ??= start().then((double) => {
      atFileEnd(() => ((started = undefined), double.close()));
      return double;
    }));
}

/** One SimpleFIN double for the samples: one GBP account (the fixture's currency), a row booked two days ago. */
const simplefinDouble = perFile(async () => {
  const sfin = await SimplefinDouble.start();
  sfin
    .account('acc', 'Feed account', 'GBP')
    .transactions.push({ id: 'f1', posted: epoch(day(new Date().toISOString().slice(0, 10), -2)), amount: '-5.00', description: 'FEED ROW' });
  return sfin;
});

/** One Stripe double for the samples, a GBP balance, where LEDGERDESK_STRIPE_URL points. */
const stripeDouble = perFile(async (): Promise<StripeDouble> => {
  const stripe = await startStripeDouble('rk_test_matrix');
  stripe.balance = { ...stripe.balance, available: [{ amount: 0, currency: 'gbp' }] };
  envUntilFileEnd('LEDGERDESK_STRIPE_URL', stripe.url);
  return stripe;
});

/** A new connector (its one account mapped to `account` when named), by its name. */
async function feedConnector(fx: Fixture, account?: string, double?: SimplefinDouble): Promise<string> {
  const name = `Feed ${fx.n()}`;
  await asOwner(fx, 'addSimplefinConnector', { name, setupToken: (double ?? (await simplefinDouble())).setupToken(), account });
  return name;
}

/** A connector mapped onto an account holding a row already: its first sync waits for the preview. */
async function waitingConnector(fx: Fixture): Promise<string> {
  const name = await account(fx);
  await asOwner(fx, 'addTransaction', { account: name, date: '2026-05-04', amount: '-1.00', description: `HAND ROW ${fx.n()}` });
  return feedConnector(fx, name);
}

/** A row held for the person: the bank changed a booked row's amount (a double of its own, so the change is this sample's alone). */
async function heldRow(fx: Fixture): Promise<string> {
  const bank = await SimplefinDouble.start();
  atFileEnd(() => bank.close());
  const row = { id: `h${fx.n()}`, posted: epoch(day(new Date().toISOString().slice(0, 10), -1)), amount: '-8.00', description: 'CHANGED ROW' };
  bank.account('acc', 'Held account', 'GBP').transactions.push(row);
  const connector = await feedConnector(fx, await account(fx), bank);
  await asOwner(fx, 'syncConnector', { connector });
  row.amount = '-9.00';
  await asOwner(fx, 'syncConnector', { connector });
  const held = await asOwner<{ id: string; feed: { externalId: string }; decision: string | null }[]>(fx, 'listHeldRows', {});
  return held.find((h) => h.feed.externalId === row.id && !h.decision)!.id;
}

/** An invitation of the person who runs the sample, to join an organization of its own (issue 51). */
async function invitedBy(fx: Fixture, who: Who): Promise<Input> {
  const org = await fx.books.forOrg('all', () => L.createOrganization(fx.books, { slug: `inviting-${fx.n()}`, name: 'Inviting Ltd' }, L.deskActor()));
  await issueOrgInvitation(fx.books, who.person.seq, org.seq, 'client', who.person.name);
  return { invitation: org.id };
}

/** The operations whose input names no organization (they run for the person wherever they hold a role). */
export const NO_ORGANIZATION: readonly DeskOperationName[] = [
  'appInfo',
  'listOrganizations',
  'practice',
  'keepPracticeChoice',
  'createOrganization',
  'whoAmI',
  'newSecondFactor',
  'confirmSecondFactor',
  'acceptInvitation',
  'declineInvitation',
  'importProgress',
  'listBackups',
  'backupNow',
  'openSignInLink',
];
/** Those that name it as `organization` (its slug or id) rather than orgId. */
export const BY_ORGANIZATION: readonly DeskOperationName[] = [
  'renameOrganization',
  'updateOrganization',
  'setOrganizationLogo',
  'organizationLogo',
  'removeOrganization',
  'removePerson',
  'assignPractice',
];

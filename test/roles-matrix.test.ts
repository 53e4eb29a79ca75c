// Issue 45's role x operation matrix, on both engines: every desk operation run
// by a person of every role, through runDesk (what IPC and the browser route
// both call), with a working input (test/support/desk-samples.ts). A role the
// operation declares succeeds (a preparer's change answers the proposals it
// filed); any other is refused with 403 forbidden and nothing written (the
// audit log, written in the same transaction as every change, and the rows
// counted unchanged); a person with no role in the organization gets not_found.
// The declarations themselves are checked against the issue's table of roles.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext, DeskPerson } from '../src/main/desk/operation';
import { deskOperations } from '../src/main/desk/operations';
import { runDesk } from '../src/main/desk/transport/dispatch';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import { ROLES, type Role } from '../src/main/ledger/access/roles';
import { DESK_OPERATIONS, type DeskAnswer, type DeskOperationName } from '../src/shared/desk';
import { engine, serverBooks } from './support/books';
import { asOwner, BY_ORGANIZATION, handRow, NO_ORGANIZATION, SAMPLES, upload, type Fixture, type Sample, type Who } from './support/desk-samples';
import { kindOf } from '../src/main/ledger/proposals/kinds';
import { tempLedger } from './support/env';
import { rawGet } from './support/sql';

// The issue's table: owner everything; accountant = bookkeeper + journals, closing dates, filing tax returns, exports;
// bookkeeper = import, categorize, split, transfers, reconcile, invoices and bills, rules, approve/reject;
// preparer = reads + proposals; client = dashboard, reports, invoices/bills reads, own receipts, upload receipts, own tokens.
const WHO = {
  /** The dashboard, reports, invoices and bills read, one's own receipts and tokens, one's own account. */
  anyone: ['owner', 'accountant', 'bookkeeper', 'preparer', 'client'],
  /** Reading the books: all but clients. */
  staff: ['owner', 'accountant', 'bookkeeper', 'preparer'],
  /** A change a preparer makes as a proposal (the same operation answers the proposals). */
  proposers: ['owner', 'accountant', 'bookkeeper', 'preparer'],
  /** The bookkeeper's changes. */
  keepers: ['owner', 'accountant', 'bookkeeper'],
  /** A journal: an accountant's, or a preparer's proposal of one. */
  journal: ['owner', 'accountant', 'preparer'],
  /** Journals (reversing, repeats, opening balances), closing dates, filing tax returns, exports. */
  accountants: ['owner', 'accountant'],
  /** People, organizations and their settings. */
  owners: ['owner'],
  /** The machine's owner alone (the desktop, a command): every organization's books at once, as backups take them. */
  machine: [],
} as const satisfies Record<string, readonly Role[]>;

/** Who may run each operation, as the issue's table reads (what each declares beside its definition must say the same). */
const EXPECTED: Record<DeskOperationName, keyof typeof WHO> = {
  appInfo: 'anyone',
  listOrganizations: 'anyone',
  practice: 'staff',
  keepPracticeChoice: 'staff',
  assignPractice: 'owners',
  createOrganization: 'owners',
  renameOrganization: 'owners',
  updateOrganization: 'owners',
  setOrganizationLogo: 'owners',
  organizationLogo: 'anyone',
  removeOrganization: 'owners',
  listPeople: 'owners',
  addPerson: 'owners',
  setPersonRole: 'owners',
  removePerson: 'owners',
  resetPerson: 'owners',
  requireSecondFactor: 'owners',
  whoAmI: 'anyone',
  newSecondFactor: 'anyone',
  confirmSecondFactor: 'anyone',
  acceptInvitation: 'anyone',
  declineInvitation: 'anyone',
  listProposals: 'staff',
  reviewProposals: 'keepers',
  withdrawProposals: 'proposers', // one's own only (issue 50)
  listAudit: 'staff',
  listReceipts: 'anyone',
  uploadReceipt: 'anyone',
  linkReceipt: 'proposers',
  deleteReceipt: 'keepers',
  receiptBytes: 'anyone',
  openReceipt: 'anyone',
  listTokens: 'anyone',
  createToken: 'anyone',
  revokeToken: 'anyone',
  listTransactions: 'staff',
  getTransaction: 'staff',
  dashboard: 'anyone',
  listAccounts: 'anyone',
  createAccount: 'keepers',
  updateAccount: 'keepers',
  closeAccount: 'keepers',
  reopenAccount: 'keepers',
  importStatement: 'keepers',
  importProgress: 'staff',
  listImports: 'staff',
  importSkippedRows: 'staff',
  undoImport: 'keepers',
  stageStatement: 'keepers',
  importChart: 'keepers',
  importContacts: 'keepers',
  register: 'staff',
  addTransaction: 'keepers',
  editTransaction: 'keepers',
  deleteTransaction: 'keepers',
  categorizeTransactions: 'proposers',
  splitTransaction: 'proposers',
  unsplitTransaction: 'keepers',
  makeTransfer: 'keepers',
  matchTransfer: 'keepers',
  suggestTransfers: 'staff',
  undoTransfer: 'keepers',
  lockPeriod: 'accountants',
  listContacts: 'staff',
  addContact: 'keepers',
  updateContact: 'keepers',
  archiveContact: 'keepers',
  restoreContact: 'keepers',
  createInvoice: 'keepers',
  issueInvoice: 'keepers',
  editInvoice: 'keepers',
  showInvoice: 'anyone',
  listInvoices: 'anyone',
  payInvoice: 'keepers',
  voidInvoice: 'keepers',
  creditInvoice: 'keepers',
  importInvoices: 'keepers',
  importBills: 'keepers',
  invoicePdf: 'anyone',
  invoicePdfBytes: 'anyone',
  createQuote: 'keepers',
  editQuote: 'keepers',
  listQuotes: 'anyone',
  showQuote: 'anyone',
  sendQuote: 'keepers',
  acceptQuote: 'keepers',
  declineQuote: 'keepers',
  quotePdf: 'anyone',
  quotePdfBytes: 'anyone',
  createRepeatingInvoice: 'keepers',
  listRepeatingInvoices: 'anyone',
  showRepeatingInvoice: 'anyone',
  pauseRepeatingInvoice: 'keepers',
  resumeRepeatingInvoice: 'keepers',
  deleteRepeatingInvoice: 'keepers',
  runRepeatingInvoices: 'keepers',
  releaseRepeatInvoice: 'keepers',
  createBill: 'keepers',
  enterBill: 'keepers',
  editBill: 'keepers',
  showBill: 'anyone',
  listBills: 'anyone',
  payBill: 'keepers',
  previewPayment: 'staff',
  lineTaxDefaults: 'staff',
  voidDate: 'staff',
  invoicePaymentLink: 'anyone',
  makePaymentLink: 'keepers',
  voidBill: 'keepers',
  undoPayment: 'keepers',
  applyInvoiceCredit: 'keepers',
  unapplyInvoiceCredit: 'keepers',
  applyBillCredit: 'keepers',
  unapplyBillCredit: 'keepers',
  suggestPayments: 'staff',
  contactStatement: 'anyone',
  statementOfAccount: 'anyone',
  statementPdfBytes: 'anyone',
  composeStatement: 'keepers',
  aging: 'anyone',
  listRates: 'staff',
  setRate: 'keepers',
  importRates: 'keepers',
  revalue: 'accountants', // a closing step (period lock --revalue)
  undoRevaluation: 'accountants',
  setupTax: 'accountants',
  listTaxCodes: 'staff',
  addTaxCode: 'accountants', // the codes are an accountant's, as the tax settings are (issue 50)
  setTaxRate: 'accountants',
  archiveTaxCode: 'accountants',
  setCategoryTax: 'keepers', // a category's default code: the chart's
  taxReport: 'anyone',
  taxSettings: 'accountants', // NB: also the Tax screen's read of the settings
  fileTaxReturn: 'accountants',
  unfileTaxReturn: 'accountants', // undoing a filing recorded by mistake (issue 50), as filing
  listTaxReturns: 'staff',
  // HMRC (issue 54): reading what HMRC says is everyone's who reads the books; connecting and submitting, as filing.
  hmrcStatus: 'staff',
  hmrcConnect: 'accountants',
  hmrcConnectFinish: 'accountants',
  hmrcObligations: 'staff',
  hmrcLiabilities: 'staff',
  hmrcPayments: 'staff',
  openSignInLink: 'anyone',
  submitTaxReturn: 'accountants',
  taxPaymentCandidates: 'staff',
  payTaxReturn: 'keepers', // matching the bank row that paid a filed return, as a bill's payment
  taxAudit: 'staff',
  unlockPeriod: 'accountants',
  markReceiptMissing: 'keepers',
  addNote: 'proposers',
  reverseProposal: 'keepers',
  listChart: 'anyone',
  addCategory: 'keepers',
  renameCategory: 'keepers',
  setCategorySynonyms: 'keepers',
  setRetainedEarnings: 'keepers',
  setCategorySection: 'keepers',
  archiveCategory: 'keepers',
  restoreCategory: 'keepers',
  reconcileView: 'staff',
  reconciliationReport: 'staff',
  reconcileAccount: 'keepers',
  undoReconciliation: 'keepers',
  profitAndLoss: 'anyone',
  balancesReport: 'anyone',
  balanceSheet: 'anyone',
  trialBalance: 'anyone',
  generalLedger: 'anyone',
  exportBooks: 'accountants',
  downloadExport: 'accountants',
  verifyAudit: 'staff',
  listBackups: 'machine',
  backupNow: 'machine',
  listRules: 'staff',
  createRule: 'keepers',
  updateRule: 'keepers',
  moveRule: 'keepers',
  deleteRule: 'keepers',
  runRules: 'keepers',
  ruleDraft: 'staff',
  approveAndRemember: 'keepers',
  listJournals: 'staff',
  showJournal: 'staff',
  addJournal: 'journal',
  previewJournal: 'staff',
  reverseJournal: 'accountants',
  stopJournalRepeat: 'accountants',
  openingBalances: 'staff',
  setOpeningBalances: 'accountants',
  // Mail and reminders (issue 53): the mail server is the organization's settings (an owner's); sending and the schedule a bookkeeper's.
  mailSettings: 'staff',
  setMailSettings: 'owners',
  testMail: 'keepers',
  mailTemplates: 'staff',
  setMailTemplate: 'keepers',
  composeMessage: 'proposers', // a preparer's Send… form (issue 53)
  sendDocument: 'proposers', // a preparer's send waits in Approvals
  mailQuote: 'proposers', // `quote send`: the same send, a quote's
  documentMessages: 'anyone', // a client reads the messages their invoices went in
  reminders: 'staff',
  setReminders: 'keepers',
  runReminders: 'keepers',
  setNoReminders: 'keepers',
  listConnections: 'staff',
  addSimplefinConnector: 'keepers',
  addStripeConnector: 'keepers',
  listEnableBankingBanks: 'keepers',
  addEnableBankingConnector: 'keepers',
  finishEnableBankingConnector: 'keepers',
  mapConnectorAccount: 'keepers',
  syncConnector: 'keepers',
  syncAllConnectors: 'keepers',
  previewFirstSync: 'keepers',
  confirmFirstSync: 'keepers',
  listPendingRows: 'staff',
  listHeldRows: 'staff',
  decideHeldRow: 'keepers',
  removeConnector: 'keepers',
};

/** A preparer's run of these answers the proposals it filed, the books unchanged. */
const PROPOSABLE: readonly DeskOperationName[] = ['categorizeTransactions', 'splitTransaction', 'addNote', 'linkReceipt', 'addJournal', 'sendDocument', 'mailQuote'];
/** What a preparer's or a client's allowed runs may write (their own tokens and uploads, a preparer's proposals): nothing else. */
const MAY_WRITE: Record<'preparer' | 'client', readonly string[]> = {
  preparer: ['proposal.created', 'proposal.withdrawn', 'token.created', 'token.revoked', 'receipt.uploaded', 'person.second_factor'],
  client: ['token.created', 'token.revoked', 'receipt.uploaded', 'person.second_factor'],
};
/** Succeeding is refusing, by design, on this engine: a server's books are backed up by its own tools (pg_dump). */
/** Allowed, yet refused by design on an engine (or both): a server's books are backed up with pg_dump; a window never names a path. */
const BY_DESIGN: Partial<Record<DeskOperationName, { engine?: 'sqlite' | 'postgres'; code: string }>> = {
  backupNow: { engine: 'postgres', code: 'conflict' },
  invoicePdf: { code: 'validation_failed' },
  // The matrix's books have no Stripe connector: a payment link is refused in words (test/stripe-links.test.ts makes one).
  makePaymentLink: { code: 'conflict' },
  // A window never names a path: the samples' key file is refused (test/enable-banking-connect.test.ts and test/e2e-connections.test.ts connect for real).
  addEnableBankingConnector: { code: 'validation_failed' },
  listEnableBankingBanks: { code: 'validation_failed' },
  // No sign-in was begun with that state: refused, nothing written (test/e2e-connections.test.ts connects through the double).
  finishEnableBankingConnector: { code: 'conflict' },
  // The matrix's mail settings (setMailSettings' sample, run before) name a closed port: the send fails in words (test/mail*.test.ts send for real).
  testMail: { code: 'mail_failed' },
  sendDocument: { code: 'mail_failed' },
  mailQuote: { code: 'mail_failed' },
  quotePdf: { code: 'validation_failed' },
  // No HMRC application is configured here (test/hmrc.test.ts runs them against the double): refused, naming the settings.
  hmrcConnect: { code: 'conflict' },
  hmrcConnectFinish: { code: 'conflict' },
  hmrcObligations: { code: 'conflict' },
  hmrcLiabilities: { code: 'conflict' },
  hmrcPayments: { code: 'conflict' },
  // Only the desktop app opens a link in the computer's browser (test/electron.test.ts opens one with shell stubbed).
  openSignInLink: { code: 'conflict' },
  submitTaxReturn: { code: 'conflict' },
};

/** Rows counted before and after a refused run: the audit log (every change writes its entry) and what the operations make. */
const COUNTED = [
  'audit_log',
  'transactions',
  'lines',
  'proposals',
  'tokens',
  'memberships',
  'users',
  'organizations',
  'receipts',
  'notes',
  'documents',
  'journals',
  'rules',
  'accounts',
  'categories',
  'tax_codes',
  'tax_rates',
  'tax_returns',
  'exchange_rates',
  'reconciliations',
  'import_batches',
  'revaluations',
  'invitations',
  'organization_logos',
  'staged_files',
];

let fx: Fixture;
let outsider: DeskPerson;

const ctxOf = (person: DeskPerson): DeskContext => ({ ...fx.ownerCtx, person, openPath: async () => {} });
const run = (person: DeskPerson, name: DeskOperationName, input: Record<string, unknown>): Promise<DeskAnswer<unknown>> =>
  runDesk(ctxOf(person), name, input, (m) => process.env.DESK_LOG && console.error(m));

async function counts(): Promise<Record<string, number>> {
  const sql = `SELECT ${COUNTED.map((t) => `(SELECT count(*) FROM ${t})`).join(', ')},
    (SELECT count(*) FROM audit_log WHERE org_seq = ?), (SELECT count(*) FROM tokens WHERE revoked_at IS NULL),
    (SELECT count(*) FROM organizations WHERE removed_at IS NULL), (SELECT count(*) FROM users WHERE removed_at IS NULL),
    (SELECT count(*) FROM users WHERE totp_secret IS NOT NULL), (SELECT count(*) FROM documents WHERE void_date IS NOT NULL)`;
  const row = (await rawGet(fx.books, sql, fx.org.seq))!;
  const names = [...COUNTED, 'audit_log of the organization', 'live tokens', 'live organizations', 'live people', 'second factors', 'void documents'];
  return Object.fromEntries(names.map((n, i) => [n, Number(row[i])]));
}

const changed = (before: Record<string, number>, after: Record<string, number>) =>
  Object.keys(before)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k} ${before[k]} -> ${after[k]}`);

const newActions = async (since: number): Promise<string[]> => (await fx.books.stmt('SELECT action FROM audit_log WHERE seq > ? ORDER BY seq').pluck().all(since)) as string[];
const lastAudit = async () => Number((await rawGet(fx.books, 'SELECT coalesce(max(seq), 0) FROM audit_log'))![0]);

/** The input for `who`, with the organization's orgId where the operation takes one. */
async function sampleFor(name: DeskOperationName, who: Who): Promise<Record<string, unknown>> {
  const sample: Sample = SAMPLES[name];
  const input = await sample(fx, who);
  if (NO_ORGANIZATION.includes(name) || BY_ORGANIZATION.includes(name)) return input;
  return { orgId: fx.org.id, ...input };
}

async function person(email: string, name: string, role: Role, org: L.Organization): Promise<DeskPerson> {
  await fx.books.forOrg(org.seq, () => addMember(fx.books, org.seq, L.deskActor(), { email, name, role, password: 'correct horse battery staple' }));
  const row = (await personByEmail(fx.books, email))!;
  return { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: false };
}

beforeAll(async () => {
  const { ledger: books, dir } = await tempLedger();
  const served = await serverBooks(books, dir);
  const org = await books.forOrg('all', () => L.createOrganization(books, { slug: 'acme', name: 'Acme Ltd', currency: 'GBP' }, L.deskActor()));
  const beta = await books.forOrg('all', () => L.createOrganization(books, { slug: 'beta', name: 'Beta GmbH', currency: 'EUR' }, L.deskActor()));
  let counter = 0;
  fx = {
    books,
    served,
    dir,
    org,
    people: {} as Fixture['people'],
    ownerCtx: { ledger: served, dataDir: dir, agentUrl: 'http://127.0.0.1:7311', mode: 'browser', reviewer: L.deskActor() },
    agent: null as unknown as L.AgentActor,
    fixed: {} as Fixture['fixed'],
    n: () => ++counter,
  };
  for (const role of ROLES) fx.people[role] = await person(`${role}@firm.example`, `${role[0].toUpperCase()}${role.slice(1)} Person`, role, org);
  // Owner of another organization, in none of Acme's roles.
  outsider = await person('outsider@elsewhere.example', 'Otto Outsider', 'owner', beta);

  const { info } = await books.forOrg(org.seq, () => L.createToken(books, org.seq, { name: 'Sorting bot', scopes: ['read', 'propose-write'] }));
  const tokenSeq = Number((await rawGet(books, 'SELECT seq FROM tokens WHERE id = ?', info.id))![0]);
  fx.agent = { type: 'token', tokenSeq, tokenId: info.id, tokenName: info.name, channel: 'rest' };

  await asOwner(fx, 'setupTax', { set: 'uk-vat' });
  await asOwner(fx, 'createAccount', { name: 'Current', type: 'checking' });
  await asOwner(fx, 'createAccount', { name: 'Savings', type: 'savings' });
  await asOwner(fx, 'createAccount', { name: 'Euro', type: 'checking', currency: 'EUR' });
  await asOwner(fx, 'setRate', { currency: 'EUR', date: '2026-01-01', rate: '0.85' });
  for (const [date, rate] of [
    ['2026-02-01', '0.90'],
    ['2026-02-08', '0.91'],
    ['2026-02-15', '0.92'],
  ])
    await asOwner(fx, 'setRate', { currency: 'EUR', date, rate });
  await asOwner(fx, 'addTransaction', { account: 'Euro', date: '2026-01-05', amount: '1000.00', description: 'EURO DEPOSIT' });
  for (const name of ['Globex', 'Creditco']) await asOwner(fx, 'addContact', { name, kind: 'both' });
  await asOwner(fx, 'addContact', { name: 'Initech', kind: 'vendor' });
  fx.fixed.txId = await handRow(fx, '-42.00');
  const issued = await asOwner<L.Document>(fx, 'createInvoice', { customer: 'Globex', date: '2026-06-01', issue: true, lines: ['Work;1;100;4000'] });
  fx.fixed.invoice = issued.number;
  fx.fixed.openInvoice = issued.number;
  fx.fixed.paymentTxId = await handRow(fx, issued.total.toFixed(2), { date: '2026-06-10' });
  fx.fixed.bill = (await asOwner<L.Document>(fx, 'createBill', { vendor: 'Initech', number: 'FIX-1', date: '2026-06-01', lines: ['Paper;1;50;5000'] })).number;
  fx.fixed.journal = (await asOwner<{ number: string }>(fx, 'addJournal', { date: '2026-06-15', narration: 'Fixed', lines: ['5000=10.00', 'Current=-10.00'] })).number;
  const statement = await upload(fx, 'fixed.csv', 'Date,Description,Amount\n2026-05-02,FIXED IMPORT,-3.00\n2026-05-02,BAD ROW,not money\n');
  fx.fixed.batchId = (await asOwner<L.ImportResult>(fx, 'importStatement', { file: statement, account: 'Savings', skipBadRows: true })).batchId!;
  fx.fixed.reconciled = 'Reconciled';
  await asOwner(fx, 'createAccount', { name: 'Reconciled' });
  await asOwner(fx, 'addTransaction', { account: 'Reconciled', date: '2026-05-01', amount: '10.00', description: 'DEPOSIT' });
  await asOwner(fx, 'reconcileAccount', { account: 'Reconciled', date: '2026-05-31', balance: '10.00', clearThrough: '2026-05-31' });
  fx.fixed.category = (await asOwner<{ code: string }>(fx, 'addCategory', { code: '6999', name: 'Sundries', type: 'expense' })).code;
  fx.fixed.taxCode = (await asOwner<{ code: string }>(fx, 'addTaxCode', { code: 'XT', rate: 10, kind: 'reduced' })).code;
  fx.fixed.ruleId = (await asOwner<{ rule: { id: string } }>(fx, 'createRule', { rule: { matchKind: 'contains', matchText: 'zz-fixed', categoryCode: '5000' } })).rule.id;
  const row = await handRow(fx, '-15.00');
  fx.fixed.proposalId = (await books.forOrg(org.seq, () => L.proposeCategorization(books, org.seq, fx.agent, { transactionId: row, categoryCode: '5100', confidence: 0.9 }))).id;
}, 120_000);

describe('who may run each desk operation (issue 45)', () => {
  it("every operation declares the roles of the issue's table", () => {
    const off = DESK_OPERATIONS.filter((name) => [...deskOperations[name].roles].sort().join() !== [...WHO[EXPECTED[name]]].sort().join()).map(
      (name) => `${name}: declares ${deskOperations[name].roles.join(', ')}; the table says ${EXPECTED[name]} (${WHO[EXPECTED[name]].join(', ')})`,
    );
    expect(off, off.join('\n')).toEqual([]);
  });

  it('every role may run what its operation declares, and is refused (403, nothing written) what it does not; a stranger to the organization finds nothing', async () => {
    const mismatches: string[] = [];
    const timings: [string, number][] = [];
    for (const name of DESK_OPERATIONS) {
      const started = Date.now();
      const allowed = deskOperations[name].roles;
      const byDesign = BY_DESIGN[name] && (BY_DESIGN[name].engine ?? engine) === engine ? BY_DESIGN[name] : undefined;
      const runs: Who[] = [
        ...ROLES.map((role) => ({ role, person: fx.people[role] })),
        ...(NO_ORGANIZATION.includes(name) ? [] : [{ role: 'outsider' as const, person: outsider }]),
      ];
      for (const who of runs) {
        const at = `${name} as ${who.role}`;
        let input: Record<string, unknown>;
        try {
          input = await sampleFor(name, who);
        } catch (error) {
          mismatches.push(`${at}: its sample could not be made: ${(error as Error).message}`);
          continue;
        }
        const before = await counts();
        const since = await lastAudit();
        const answer = await run(who.person, name, input);
        const error = 'error' in answer ? answer.error : null;
        if (who.role === 'outsider') {
          if (error?.code !== 'not_found') mismatches.push(`${at}: expected not_found, got ${error ? `${error.code}: ${error.message}` : 'data'}`);
          const written = changed(before, await counts());
          if (written.length) mismatches.push(`${at}: refused, yet wrote ${written.join(', ')}`);
        } else if (allowed.includes(who.role)) {
          // A preparer's run of a proposable operation files a proposal: the design's refusal is the change's (a send's mail).
          if (byDesign && !(who.role === 'preparer' && PROPOSABLE.includes(name))) {
            if (error?.code !== byDesign.code) mismatches.push(`${at}: expected ${byDesign.code} on ${engine} by design, got ${error ? error.code : 'data'}`);
          } else if (error) mismatches.push(`${at}: allowed, but answered ${error.code}: ${error.message} ${JSON.stringify(error.details)}`);
          else {
            const data = (answer as { data: unknown }).data;
            // A list of per-item results (reviewProposals) succeeds item by item.
            const failed = Array.isArray(data) ? data.filter((d) => d && typeof d === 'object' && 'error' in d && d.error) : [];
            if (failed.length) mismatches.push(`${at}: allowed, but its items failed: ${JSON.stringify(failed)}`);
            if (who.role === 'preparer' && PROPOSABLE.includes(name) && !((data as { proposed?: unknown[] })?.proposed?.length ?? 0))
              mismatches.push(`${at}: a preparer's change should answer the proposals it filed, got ${JSON.stringify(data).slice(0, 200)}`);
            if (who.role === 'preparer' || who.role === 'client') {
              const wrote = (await newActions(since)).filter((a) => !MAY_WRITE[who.role as 'preparer' | 'client'].includes(a));
              if (wrote.length) mismatches.push(`${at}: a ${who.role} wrote ${wrote.join(', ')}`);
            }
          }
        } else {
          if (error?.code !== 'forbidden') mismatches.push(`${at}: expected forbidden, got ${error ? `${error.code}: ${error.message}` : 'data'}`);
          else if ((error.details as { operation?: string })?.operation !== name)
            mismatches.push(`${at}: forbidden without naming the operation: ${JSON.stringify(error.details)}`);
          const written = changed(before, await counts());
          if (written.length) mismatches.push(`${at}: refused, yet wrote ${written.join(', ')}`);
        }
      }
      timings.push([name, Date.now() - started]);
    }
    if (process.env.MATRIX_TIMINGS)
      console.log(
        timings
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15)
          .map(([n, ms]) => `${n} ${ms} ms`)
          .join('\n'),
      );
    expect(mismatches, `${mismatches.length} mismatch(es):\n${mismatches.join('\n')}`).toEqual([]);
  }, 300_000);
});

describe('who approves each kind of proposal (issue 50): whoever may make its change', () => {
  /** The lead's decision, as the README's table says it: a journal is an accountant's (or an owner's) to enter, the rest a bookkeeper's. */
  const APPROVERS: Record<L.ProposalType, readonly Role[]> = {
    categorization: WHO.keepers,
    journal_entry: WHO.accountants,
    receipt_link: WHO.keepers,
    note: WHO.keepers,
  };
  /** An agent's pending proposal of each kind. */
  const PROPOSE: Record<L.ProposalType, () => Promise<L.Proposal>> = {
    categorization: async () => {
      const transactionId = await handRow(fx, '-16.00');
      return fx.books.forOrg(fx.org.seq, () => L.proposeCategorization(fx.books, fx.org.seq, fx.agent, { transactionId, categoryCode: '5100' }));
    },
    journal_entry: () =>
      fx.books.forOrg(fx.org.seq, () =>
        L.proposeJournalEntry(fx.books, fx.org.seq, fx.agent, { date: '2026-06-16', description: `Agent entry ${fx.n()}`, amount: -5, categoryCode: '5000' }),
      ),
    receipt_link: async () => {
      const link = await SAMPLES.linkReceipt(fx);
      return fx.books.forOrg(fx.org.seq, () => L.proposeReceiptLink(fx.books, fx.org.seq, fx.agent, link));
    },
    note: () => fx.books.forOrg(fx.org.seq, () => L.proposeNote(fx.books, fx.org.seq, fx.agent, { transactionId: fx.fixed.txId, content: `Agent note ${fx.n()}` })),
  };

  const reasonOf = (error: { details: unknown }) => (error.details as { reason?: string } | null)?.reason;

  it('approving (and approving with a rule, and reversing) is refused, 403 role_cannot_apply and nothing written, to a reviewer who may not make the change', async () => {
    const mismatches: string[] = [];
    for (const type of L.PROPOSAL_TYPES) {
      for (const role of deskOperations.reviewProposals.roles) {
        const proposal = await PROPOSE[type]();
        const before = await counts();
        const answer = await run(fx.people[role], 'reviewProposals', { orgId: fx.org.id, ids: [proposal.id], decision: 'approve' });
        const error = 'error' in answer ? answer.error : (answer.data as { error: { code: string; details: any } | null }[])[0].error;
        const may = APPROVERS[type].includes(role);
        if (may && error) mismatches.push(`${type} by ${role}: may approve, got ${error.code} ${JSON.stringify(error.details)}`);
        if (!may) {
          if (error?.code !== 'forbidden' || error.details?.reason !== 'role_cannot_apply' || error.details?.role !== role)
            mismatches.push(`${type} by ${role}: expected forbidden role_cannot_apply, got ${error ? `${error.code} ${JSON.stringify(error.details)}` : 'approved'}`);
          const written = changed(before, await counts());
          if (written.length) mismatches.push(`${type} by ${role}: refused, yet wrote ${written.join(', ')}`);
          // Nor may they put back an approval someone who may make the change gave.
          const [byOwner] = await asOwner<{ error: unknown }[]>(fx, 'reviewProposals', { ids: [proposal.id], decision: 'approve' });
          if (byOwner.error) mismatches.push(`${type}: the owner could not approve it: ${JSON.stringify(byOwner.error)}`);
          const reversed = await run(fx.people[role], 'reverseProposal', { orgId: fx.org.id, id: proposal.id });
          if (!('error' in reversed) || reasonOf(reversed.error) !== 'role_cannot_apply') mismatches.push(`${type}: ${role} reversed its approval`);
        }
      }
    }
    // Approve and remember (a categorization's) is held to the same rule: a journal through it is refused too.
    const journal = await PROPOSE.journal_entry();
    const remembered = await run(fx.people.bookkeeper, 'approveAndRemember', {
      orgId: fx.org.id,
      id: journal.id,
      rule: { matchKind: 'contains', matchText: 'x', categoryCode: '5000' },
    });
    if (!('error' in remembered) || reasonOf(remembered.error) !== 'role_cannot_apply') mismatches.push('approveAndRemember approved a journal for a bookkeeper');
    expect(mismatches, mismatches.join('\n')).toEqual([]);
  });

  it('each kind names the operation that makes its change, and the cards name who may approve', async () => {
    const pending: L.Proposal[] = [];
    for (const type of L.PROPOSAL_TYPES) pending.push(await PROPOSE[type]());
    const cards = (await run(fx.people.bookkeeper, 'listProposals', { orgId: fx.org.id })) as { data: { id: string; approvers: Role[] }[] };
    for (const [i, type] of L.PROPOSAL_TYPES.entries()) {
      const named = kindOf(type).approvedAs;
      expect(deskOperations[named].roles, `${type} names ${named}`).toEqual(expect.arrayContaining([...APPROVERS[type]]));
      expect(cards.data.find((c) => c.id === pending[i].id)?.approvers, type).toEqual([...APPROVERS[type]]);
    }
  });
});

// Found while building the matrix (issue 45): each states what should happen and fails today, so it is marked
// Holes the matrix alone does not show, found by it and closed.
describe('holes the matrix does not show', () => {
  it('resetPerson: an owner of one organization cannot reset a person who is in none of its roles (and get the link to their account)', async () => {
    const answer = await run(fx.people.owner, 'resetPerson', { orgId: fx.org.id, email: outsider.email });
    expect(answer).toMatchObject({ error: { code: 'not_found' } });
  });

  it("invoicePdf: a window (here a client's) cannot make the server write a file at a path of its choosing", async () => {
    const out = join(fx.dir, 'chosen-by-a-client.pdf');
    const answer = await run(fx.people.client, 'invoicePdf', { orgId: fx.org.id, number: fx.fixed.invoice, out });
    expect(existsSync(out)).toBe(false);
    expect(answer).toMatchObject({ error: { code: 'validation_failed' } });
  });

  it("downloadExport: an owner (or accountant) of another organization cannot download this one's export", async () => {
    const { exportId } = await asOwner<{ exportId: string }>(fx, 'exportBooks', { format: 'csv' });
    const answer = await run(outsider, 'downloadExport', { orgId: fx.org.id, exportId });
    expect('error' in answer && ['not_found', 'forbidden'].includes(answer.error.code)).toBe(true);
  });

  it('a role in a removed organization is no role: its former owner cannot start organizations or back up the books', async () => {
    const gone = await fx.books.forOrg('all', () => L.createOrganization(fx.books, { slug: 'gone', name: 'Gone Ltd' }, L.deskActor()));
    const former = await person('former@gone.example', 'Fay Former', 'owner', gone);
    await asOwner(fx, 'removeOrganization', { organization: 'gone' }, true);
    expect(await run(former, 'whoAmI', {})).toMatchObject({ data: { organizations: [] } });
    expect(await run(former, 'createOrganization', { slug: 'after-removal' })).toMatchObject({ error: { code: 'forbidden' } });
  });
});

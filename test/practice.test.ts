// Issue 55's Practice screen, on both engines: three organizations, people of
// different roles, each figure equal to the organization's own screen's, the
// assignments and their filters, the kept choice, a person who belongs to two
// of the three seeing two rows and nothing of the third, and the commands.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext, DeskPerson } from '../src/main/desk/operation';
import { runDesk } from '../src/main/desk/transport/dispatch';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import type { Role } from '../src/main/ledger/access/roles';
import { today } from '../src/main/ledger/core/clock';
import { addDays } from '../src/shared/dates';
import { routeOf } from '../src/renderer/src/nav';
import { booksFlags, serverBooks } from './support/books';
import { tempLedger } from './support/env';

let owner: DeskContext;
const people: Record<string, DeskPerson> = {};
const orgs: Record<string, L.Organization> = {};
const day = today();

async function desk<T = any>(ctx: DeskContext, name: string, input: Record<string, unknown> = {}): Promise<T> {
  const answer = await runDesk(ctx, name, input, () => {});
  if ('error' in answer) throw Object.assign(new Error(`${name}: ${answer.error.code}: ${answer.error.message}`), answer.error);
  return answer.data as T;
}
const as = (who: string): DeskContext => ({ ...owner, person: people[who] });
const inOrg = (slug: string, name: string, input: Record<string, unknown> = {}) => desk(owner, name, { orgId: orgs[slug].id, ...input });

async function person(books: L.Ledger, email: string, name: string, roles: Record<string, Role>): Promise<void> {
  for (const [slug, role] of Object.entries(roles))
    await books.forOrg(orgs[slug].seq, () => addMember(books, orgs[slug].seq, L.deskActor(), { email, name, role, password: 'correct horse battery staple' }));
  const row = (await personByEmail(books, email))!;
  people[email.split('@')[0]] = { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: false };
}

/** A row by hand in Current. */
const row = async (slug: string, amount: string, date = addDays(day, -40)) =>
  (await inOrg(slug, 'addTransaction', { account: 'Current', date, amount, description: `ROW ${amount}` })).id as string;

let data: string;

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  data = dir;
  const books = await serverBooks(ledger, dir);
  owner = { ledger: books, dataDir: dir, agentUrl: 'http://127.0.0.1:7311', mode: 'browser', reviewer: L.deskActor() };
  for (const [slug, name, currency] of [
    ['acme', 'Acme Ltd', 'GBP'],
    ['beta', 'Beta LLC', 'USD'],
    ['gamma', 'Gamma Secret GmbH', 'EUR'],
  ])
    orgs[slug] = await desk(owner, 'createOrganization', { slug, name, currency });
  for (const slug of Object.keys(orgs)) orgs[slug] = (await ledger.forOrg('all', () => L.findOrganization(ledger, slug)))!;
  await person(books, 'olive@firm.example', 'Olive Owner', { acme: 'owner', beta: 'owner', gamma: 'owner' });
  await person(books, 'dana@firm.example', 'Dana Keeper', { acme: 'bookkeeper', beta: 'bookkeeper' });
  await person(books, 'pat@firm.example', 'Pat Preparer', { acme: 'preparer', beta: 'preparer' });
  await person(books, 'cleo@firm.example', 'Cleo Client', { acme: 'client', beta: 'preparer' });

  // Acme: UK VAT, rows to review, proposals of two people, an overdue invoice, bills due, a reconciliation, a closing date.
  await inOrg('acme', 'setupTax', { set: 'uk-vat' });
  await inOrg('acme', 'createAccount', { name: 'Current', type: 'checking' });
  await inOrg('acme', 'createAccount', { name: 'Card', type: 'credit_card' });
  await row('acme', '100.00', addDays(day, -100));
  await inOrg('acme', 'reconcileAccount', { account: 'Current', date: addDays(day, -90), balance: '100.00', clearThrough: addDays(day, -90) });
  const rows = [await row('acme', '-10.00'), await row('acme', '-20.00'), await row('acme', '-30.00')];
  await desk(as('pat'), 'categorizeTransactions', { orgId: orgs.acme.id, ids: [rows[0]], categoryCode: '5000' });
  const token = await ledger.forOrg(orgs.acme.seq, () => L.createToken(ledger, orgs.acme.seq, { name: "Dana's bot", scopes: ['read', 'propose-write'], userSeq: people.dana.seq }));
  const tokenSeq = (await ledger.stmt('SELECT seq FROM tokens WHERE id = ?').pluck().get(token.info.id)) as number;
  const bot: L.AgentActor = { type: 'token', tokenSeq, tokenId: token.info.id, tokenName: token.info.name, channel: 'rest' };
  await ledger.forOrg(orgs.acme.seq, () => L.proposeCategorization(ledger, orgs.acme.seq, bot, { transactionId: rows[1], categoryCode: '5000', confidence: 0.8 }));
  await inOrg('acme', 'addContact', { name: 'Globex', kind: 'customer' });
  await inOrg('acme', 'addContact', { name: 'Initech', kind: 'vendor' });
  await inOrg('acme', 'createInvoice', { customer: 'Globex', date: addDays(day, -40), dueDate: addDays(day, -10), issue: true, lines: ['Work;1;100;4000'] });
  await inOrg('acme', 'createInvoice', { customer: 'Globex', date: addDays(day, -5), dueDate: addDays(day, 25), issue: true, lines: ['Work;1;50;4000'] });
  await inOrg('acme', 'createBill', { vendor: 'Initech', number: 'B-1', date: addDays(day, -20), dueDate: addDays(day, 3), lines: ['Paper;1;40;5000'] });
  await inOrg('acme', 'createBill', { vendor: 'Initech', number: 'B-2', date: addDays(day, -20), dueDate: addDays(day, -2), lines: ['Paper;1;10;5000'] });
  await inOrg('acme', 'createBill', { vendor: 'Initech', number: 'B-3', date: addDays(day, -20), dueDate: addDays(day, 30), lines: ['Paper;1;99;5000'] });
  await inOrg('acme', 'lockPeriod', { through: addDays(day, -95) });

  // Beta: a little work, no tax; Gamma: its own work, which Dana never sees.
  await inOrg('beta', 'createAccount', { name: 'Current', type: 'checking' });
  await row('beta', '-5.00', day);
  await inOrg('gamma', 'createAccount', { name: 'Current', type: 'checking' });
  await row('gamma', '-7.00', day);
}, 120_000);

const slugs = (p: { rows: { org: { slug: string } }[] }) => p.rows.map((r) => r.org.slug);
const rowOf = (p: { rows: any[] }, slug: string) => p.rows.find((r) => r.org.slug === slug);

describe('the Practice rows', () => {
  it('show a person the organizations they hold a staff role in, and nothing of the others, not even their names', async () => {
    const dana = await desk(as('dana'), 'practice');
    expect(slugs(dana)).toEqual(['acme', 'beta']);
    const said = JSON.stringify(dana);
    for (const secret of [orgs.gamma.name, orgs.gamma.slug, orgs.gamma.id]) expect(said).not.toContain(secret);
    // A client's books are not a firm's work: Cleo is a client of Acme and a preparer of Beta.
    expect(slugs(await desk(as('cleo'), 'practice'))).toEqual(['beta']);
    expect(slugs(await desk(as('olive'), 'practice'))).toEqual(['acme', 'beta', 'gamma']);
    expect(slugs(await desk(owner, 'practice'))).toEqual(['acme', 'beta', 'gamma']);
  });

  it("give each figure as the organization's own screens do", async () => {
    const acme = rowOf(await desk(as('dana'), 'practice'), 'acme');
    const count = async (status: string) => (await inOrg('acme', 'listTransactions', { status, limit: 1 })).meta.totalCount;
    expect(acme.figures.review).toEqual({ uncategorized: await count('uncategorized'), suggested: await count('agent_suggested') });
    expect(acme.figures.review.uncategorized).toBeGreaterThan(0);

    const cards = await desk<any[]>(as('dana'), 'listProposals', { orgId: orgs.acme.id });
    const byKind: Record<string, number> = {};
    for (const c of cards) byKind[c.type] = (byKind[c.type] ?? 0) + 1;
    expect(acme.figures.proposals).toEqual({ waiting: cards.length, byKind, mayApprove: cards.filter((c) => c.mayApprove).length });
    // Pat's proposal is Dana's to approve; her own bot's is not.
    expect(acme.figures.proposals).toMatchObject({ waiting: 2, mayApprove: 1 });
    expect(rowOf(await desk(as('pat'), 'practice'), 'acme').figures.proposals.mayApprove).toBe(0);

    const current = acme.figures.reconciled.accounts.find((a: any) => a.name === 'Current');
    const view = await inOrg('acme', 'reconcileView', { account: 'Current' });
    expect(current.lastReconciled).toBe(view.last.statementDate);
    expect(current.oldestUnreconciled).toBe(addDays(day, -40).slice(0, 7));
    expect(acme.cells.reconciled.red).toBe(addDays(day, -40).slice(0, 7) < new Date(Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 2, 1)).toISOString().slice(0, 7));

    const tax = await inOrg('acme', 'taxReport');
    expect(acme.figures.tax).toMatchObject({ from: tax.from, to: tax.to });
    expect(rowOf(await desk(as('dana'), 'practice'), 'beta').figures.tax).toBeNull();

    const receivables = await inOrg('acme', 'aging', { receivables: true });
    const overdue = receivables.contacts.flatMap((c: any) => c.documents).filter((d: any) => d.daysPastDue > 0);
    expect(acme.figures.invoicesOverdue).toEqual({ count: overdue.length, amount: overdue.reduce((s: number, d: any) => s + d.balance, 0), otherCurrencies: {} });
    expect(acme.figures.invoicesOverdue).toMatchObject({ count: 1, amount: 100 });
    expect(acme.cells.invoicesOverdue.red).toBe(true);

    const payables = await inOrg('acme', 'aging', { payables: true });
    const thisWeek = payables.contacts.flatMap((c: any) => c.documents).filter((d: any) => d.dueDate < addDays(day, 7));
    expect(acme.figures.billsDue).toMatchObject({ count: thisWeek.length, overdue: 1, amount: 50 });

    const listed = (await desk<any[]>(owner, 'listOrganizations')).find((o) => o.slug === 'acme');
    expect(acme.figures.closing).toEqual({ lockedThrough: listed.lockedThrough });
    expect(acme.attention).toBe(true);
  });

  it('link each figure to the place in that organization where its work is', async () => {
    const acme = rowOf(await desk(as('dana'), 'practice'), 'acme');
    const current = acme.figures.reconciled.accounts.find((a: any) => a.name === 'Current');
    const where = (id: string) => {
      const route = routeOf(acme.cells[id].href);
      return { screen: route.screen, ...Object.fromEntries(route.params) };
    };
    expect(where('review')).toEqual({ screen: 'transactions', org: 'acme', status: 'uncategorized' });
    expect(where('proposals')).toEqual({ screen: 'approvals', org: 'acme' });
    expect(where('reconciled')).toEqual({ screen: 'reconcile', org: 'acme', account: current.id });
    expect(where('tax')).toEqual({ screen: 'tax', org: 'acme' });
    expect(where('invoicesOverdue')).toEqual({ screen: 'aging', org: 'acme' });
    expect(where('billsDue')).toEqual({ screen: 'bills', org: 'acme' });
    expect(where('closing')).toEqual({ screen: 'organizations', org: 'acme' });
    expect(where('feeds')).toEqual({ screen: 'connections', org: 'acme' });
    expect(where('repeating')).toEqual({ screen: 'repeating', org: 'acme' });
  });

  it('show a feed in error, and a consent ending within two weeks, in red, as the Connections screen lists them', async () => {
    const books = owner.ledger;
    const feed = (id: string, name: string, status: string | null, ends: string | null) =>
      books.forOrg(orgs.beta.seq, () =>
        books.write(() =>
          books
            .stmt('INSERT INTO connectors (id, org_seq, name, provider, status, sync_status, consent_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(id, orgs.beta.seq, name, 'simplefin', 'active', status, ends),
        ),
      );
    expect(rowOf(await desk(as('dana'), 'practice'), 'beta').cells.feeds).toMatchObject({ text: '—', red: false });
    await feed('00000000-0000-4000-8000-00000000fee1', 'Chase', 'ok', `${addDays(day, 60)}T00:00:00.000Z`);
    expect(rowOf(await desk(as('dana'), 'practice'), 'beta').cells.feeds).toMatchObject({ text: `1 syncing; consent ends ${addDays(day, 60)}`, red: false });
    await feed('00000000-0000-4000-8000-00000000fee2', 'Amex', 'error', `${addDays(day, 10)}T00:00:00.000Z`);
    const views = await desk<any[]>(as('dana'), 'listConnections', { orgId: orgs.beta.id });
    const beta = rowOf(await desk(as('dana'), 'practice'), 'beta');
    expect(beta.figures.feeds).toEqual({
      connected: views.length,
      failing: views.filter((v) => v.syncStatus === 'error').map((v) => v.name),
      consentEnds: `${addDays(day, 10)}T00:00:00.000Z`,
    });
    expect(beta.cells.feeds).toMatchObject({ text: `1 in error (Amex); consent ends ${addDays(day, 10)}`, red: true });
    expect(beta.attention).toBe(true);
    // Beta needs no attention for the tests after this one.
    await books.forOrg(orgs.beta.seq, () => books.write(() => books.stmt('DELETE FROM connectors WHERE org_seq = ?').run(orgs.beta.seq)));
  });
});

describe('assignments and the choice', () => {
  it('are given by an owner to people with a role there, and filter the rows', async () => {
    await desk(as('olive'), 'assignPractice', { organization: 'acme', email: 'dana@firm.example' });
    await desk(as('olive'), 'assignPractice', { organization: 'beta', email: 'pat@firm.example', asReviewer: true });
    await expect(desk(as('dana'), 'assignPractice', { organization: 'beta', email: 'dana@firm.example' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(desk(as('olive'), 'assignPractice', { organization: 'gamma', email: 'dana@firm.example' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ field: 'email' })],
    });
    const all = await desk(as('olive'), 'practice');
    expect(rowOf(all, 'acme').assigned.bookkeeper).toMatchObject({ email: 'dana@firm.example' });
    expect(rowOf(all, 'beta').assigned).toMatchObject({ bookkeeper: null, reviewer: { email: 'pat@firm.example' } });
    expect(slugs(await desk(as('dana'), 'practice', { mine: true }))).toEqual(['acme']);
    expect(slugs(await desk(as('pat'), 'practice', { mine: true }))).toEqual(['beta']);
    expect(slugs(await desk(as('olive'), 'practice', { person: 'pat@firm.example' }))).toEqual(['beta']);
    expect(slugs(await desk(as('olive'), 'practice', { person: people.dana.id }))).toEqual(['acme']);
    expect(slugs(await desk(as('olive'), 'practice', { attention: true }))).toEqual(['acme']);
    expect(slugs(await desk(as('olive'), 'practice', { sort: 'review', descending: true }))).toEqual(['acme', 'beta', 'gamma']);
    expect(slugs(await desk(as('olive'), 'practice', { sort: 'invoicesOverdue' }))).toEqual(['beta', 'gamma', 'acme']);
    await expect(desk(owner, 'practice', { mine: true })).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('is kept per person on the server', async () => {
    await desk(as('dana'), 'keepPracticeChoice', { who: 'mine', sort: 'proposals', descending: true });
    await desk(as('olive'), 'keepPracticeChoice', { attention: true });
    const dana = await desk(as('dana'), 'practice', { kept: true });
    expect(dana.choice).toEqual({ who: 'mine', attention: false, sort: 'proposals', descending: true });
    expect(slugs(dana)).toEqual(['acme']);
    const olive = await desk(as('olive'), 'practice', { kept: true });
    expect(olive.choice).toMatchObject({ who: 'all', attention: true });
    expect(slugs(olive)).toEqual(['acme']);
    await expect(desk(as('dana'), 'keepPracticeChoice', { sort: 'nonsense' })).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
const ledgerdesk = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { cwd: join(__dirname, '..'), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the commands', () => {
  it('print the table, as JSON and CSV, for a person and theirs alone, and assign', () => {
    expect(ledgerdesk('practice', 'assign', 'acme', 'dana@firm.example').code).toBe(0);
    const assigned = ledgerdesk('practice', 'assign', 'beta', 'dana@firm.example');
    expect(assigned, assigned.stderr).toMatchObject({ code: 0 });
    expect(assigned.stdout).toContain('beta: bookkeeper: dana@firm.example, reviewer: ');
    const mine = ledgerdesk('practice', '--mine', '--as', 'dana@firm.example', '--json');
    expect(mine.code, mine.stderr).toBe(0);
    expect(slugs(JSON.parse(mine.stdout))).toEqual(['acme', 'beta']);
    expect(mine.stdout).not.toContain('Gamma');
    const theirs = ledgerdesk('practice', '--as', 'dana@firm.example', '--json');
    expect(slugs(JSON.parse(theirs.stdout))).toEqual(['acme', 'beta']);
    expect(theirs.stdout).not.toContain('Gamma');
    const text = ledgerdesk('practice', '--as', 'dana@firm.example');
    expect(text.stdout).not.toContain('gamma');
    expect(text.stdout).toMatch(/! acme {2}Acme Ltd/);
    expect(text.stdout).toContain('Invoices overdue     1: 100.00 GBP  [red]');
    const csv = ledgerdesk('practice', '--csv');
    expect(csv.stdout.split('\r\n')[0]).toBe(
      "organization,name,bookkeeper,reviewer,attention,Rows to review,Proposals waiting,Unreconciled since,Bank feeds,Next return due,HMRC's next return,Invoices overdue,Bills due this week,Repeating invoices,Reminders failing,Closed through",
    );
    expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(4);
    expect(ledgerdesk('practice', '--mine').code).toBe(1);
  });
});

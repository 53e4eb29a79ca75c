// Who sends and who sees (issue 53), on both engines, against a real SMTP
// server: a preparer's "Send…" waits in Approvals as a document_send proposal
// (nothing goes); a bookkeeper's approval sends it as it was proposed, or,
// refused by the mail server, leaves it pending with the reason on its card;
// an agent's token never sees it (the spec's proposal types are exact). A
// client reads the organization's invoices and the messages they went in,
// at the desk and through their token, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDesk } from '../src/main/desk/transport/dispatch';
import type { DeskContext, DeskPerson } from '../src/main/desk/operation';
import type { ApprovalCard } from '../src/main/desk/proposals/review';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import type { Role } from '../src/main/ledger/access/roles';
import type { SentMessage } from '../src/main/ledger/mail/messages';
import { headlessBooks, testBooks } from './support/books';
import { tempDir } from './support/env';
import { SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './support/smtp';

let app: Headless;
let books: L.Ledger;
let org: L.Organization;
let smtp: TestSmtp;
let invoice: L.Document;
const people: Record<string, DeskPerson> = {};

async function addPerson(email: string, name: string, role: Role): Promise<DeskPerson> {
  await books.forOrg(org.seq, () => addMember(books, org.seq, L.deskActor(), { email, name, role, password: 'correct horse battery staple' }));
  const row = (await personByEmail(books, email))!;
  return { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: false };
}
const ctxOf = (person: DeskPerson | null): DeskContext => ({ ledger: app.ledger, dataDir: '', agentUrl: app.server.url, mode: 'browser', reviewer: L.deskActor(), person });
async function as<T = any>(person: DeskPerson | null, name: string, input: Record<string, unknown> = {}): Promise<T> {
  const answer = await runDesk(ctxOf(person), name, { orgId: org.id, ...input }, () => {});
  if ('error' in answer) throw Object.assign(new Error(`${answer.error.code}: ${answer.error.message}`), answer.error);
  return answer.data as T;
}
const refusal = (person: DeskPerson, name: string, input: Record<string, unknown> = {}) =>
  runDesk(ctxOf(person), name, { orgId: org.id, ...input }, () => {}).then((a) => ('error' in a ? a.error : null));
const api = (token: string, path: string) => fetch(`${app.server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
const cardOf = async (id: string) => (await as<ApprovalCard[]>(people.bookkeeper, 'listProposals')).find((c) => c.id === id);

beforeAll(async () => {
  smtp = await smtpServer();
  process.env.LEDGERDESK_MAIL_CA_FILE = smtp.certFile;
  const data = tempDir('ldk-mail-people-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {} });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  people.bookkeeper = await addPerson('dana@firm.example', 'Dana Reyes', 'bookkeeper');
  people.preparer = await addPerson('pat@firm.example', 'Pat Junior', 'preparer');
  people.client = await addPerson('cleo@client.example', 'Cleo Client', 'client');
  await books.forOrg(org.seq, () => L.setupTaxSet(books, org.seq, L.deskActor(), 'uk-vat'));
  await as(null, 'setMailSettings', { host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, password: SMTP_PASSWORD, from: 'books@studio.example' });
  await as(null, 'addContact', { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example' });
  invoice = await as<L.Document>(null, 'createInvoice', { customer: 'Zoë Brontë', date: '2026-03-02', lines: ['Design;1;100.00;4000'], issue: true });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe("a preparer's send waits in Approvals", () => {
  it('files a document_send proposal, sends nothing, and is not an agent API proposal', async () => {
    const before = smtp.received.length;
    const { proposed } = await as<{ proposed: L.Proposal[] }>(people.preparer, 'sendDocument', { number: invoice.number, subject: 'Your invoice, Zoë', copyMe: true });
    expect(proposed).toEqual([expect.objectContaining({ type: 'document_send', status: 'pending' })]);
    expect(proposed[0].payload).toMatchObject({ number: invoice.number, to: ['zoe@bronte.example'], subject: 'Your invoice, Zoë', copyTo: 'pat@firm.example' });
    expect(smtp.received.length).toBe(before);
    expect(await as(null, 'documentMessages', { number: invoice.number })).toEqual([]);
    const card = (await cardOf(proposed[0].id))!;
    expect(card).toMatchObject({ proposerName: 'Pat Junior (preparer)', approvers: ['owner', 'accountant', 'bookkeeper'], approvalFailure: null });
    expect(card.change.lead).toBe('Send by mail to zoe@bronte.example (a copy to pat@firm.example)');
    expect(card.change.quote).toContain('Your invoice, Zoë');
    // The agent API answers the spec's proposal types only.
    const listed = await L.listPendingProposals(books, org.seq, { limit: 50, offset: 0 });
    expect(listed.proposals.map((p) => p.id)).not.toContain(proposed[0].id);
    expect(listed.count).toBe(listed.proposals.length);
    await expect(L.getAgentProposal(books, org.seq, proposed[0].id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it("a mail server's refusal leaves it pending with the reason on its card; approved again once right, it goes as proposed", async () => {
    const { proposed } = await as<{ proposed: L.Proposal[] }>(people.preparer, 'sendDocument', { number: invoice.number, to: ['accounts@refused.example'] });
    const [refused] = await as<{ error: { code: string; details: { reason: string } } | null }[]>(people.bookkeeper, 'reviewProposals', {
      ids: [proposed[0].id],
      decision: 'approve',
    });
    expect(refused.error).toMatchObject({ code: 'mail_failed', details: expect.objectContaining({ reason: 'recipient_refused' }) });
    const card = (await cardOf(proposed[0].id))!;
    expect(card.status).toBe('pending');
    expect(card.approvalFailure?.reason).toMatch(/accounts@refused\.example/);
    expect(await as(null, 'documentMessages', { number: invoice.number })).toEqual([]);
    await as(people.bookkeeper, 'reviewProposals', { ids: [proposed[0].id], decision: 'reject', comment: 'wrong address' });
  });

  it("a bookkeeper's approval sends the message as proposed, recorded as theirs; the approval is not reversed", async () => {
    const queue = await as<ApprovalCard[]>(people.bookkeeper, 'listProposals');
    const pending = queue.find((c) => (c.type as string) === 'document_send' && c.status === 'pending')!;
    const [approved] = await as<{ proposal: L.Proposal | null; error: unknown }[]>(people.bookkeeper, 'reviewProposals', { ids: [pending.id], decision: 'approve' });
    expect(approved.error).toBeNull();
    expect(approved.proposal).toMatchObject({ status: 'approved' });
    const got = smtp.received.at(-1)!;
    expect(got.parsed.subject).toBe('Your invoice, Zoë');
    expect(got.rcpt.sort()).toEqual(['pat@firm.example', 'zoe@bronte.example']);
    const [message] = await as<SentMessage[]>(null, 'documentMessages', { number: invoice.number });
    expect(message).toMatchObject({ to: ['zoe@bronte.example'], copyTo: 'pat@firm.example', sentBy: { name: expect.stringContaining('Dana Reyes') } });
    expect(await refusal(people.bookkeeper, 'reverseProposal', { id: pending.id })).toMatchObject({ code: 'conflict', details: { reason: 'message_sent' } });
  });
});

describe('a client reads the invoices and their messages, and changes nothing', () => {
  it('at the desk', async () => {
    expect((await as<L.Document[]>(people.client, 'listInvoices')).map((d) => d.number)).toContain(invoice.number);
    expect(await as<L.Document>(people.client, 'showInvoice', { number: invoice.number })).toMatchObject({ number: invoice.number });
    expect((await as<SentMessage[]>(people.client, 'documentMessages', { number: invoice.number })).length).toBe(1);
    for (const [name, input] of [
      ['sendDocument', { number: invoice.number }],
      ['composeMessage', { number: invoice.number }],
      ['createInvoice', { customer: 'Zoë Brontë', date: '2026-03-03', lines: ['Design;1;1.00;4000'] }],
      ['releaseRepeatInvoice', { number: invoice.number }],
      ['listProposals', {}],
    ] as const)
      expect(await refusal(people.client, name, input), name).toMatchObject({ code: 'forbidden' });
  });

  it('through their token: the invoices, read-only; no proposals', async () => {
    const { token } = await as<{ token: string }>(people.client, 'createToken', { name: 'Cleo reads', scopes: ['read'] });
    const list = await api(token, '/invoices');
    expect(list.status).toBe(200);
    expect(((await list.json()) as { data: { number: string }[] }).data.map((d) => d.number)).toContain(invoice.number);
    expect((await api(token, `/invoices/${invoice.id}`)).status).toBe(200);
    expect((await api(token, '/proposals')).status).toBe(403);
  });
});

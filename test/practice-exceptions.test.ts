// Two more of the Practice screen's columns (issues 54 and 55), on both
// engines, in test/practice.test.ts's way: "HMRC's next return", the open
// obligation due soonest as HMRC's last list said (kept by the fetch the Tax
// screen makes, read without calling HMRC; a return HMRC accepted leaves it),
// red once overdue; and "Reminders failing": a reminder the mail server refused
// (its sign-in), or one with no mail settings to send through, in red with why,
// until a later pass sends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operation';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { listenForRedirect } from '../src/main/edge/redirect';
import { beginConnect, finishConnect } from '../src/main/hmrc/access';
import { newState } from '../src/main/hmrc/oauth';
import { hmrcSettings } from '../src/main/hmrc/settings';
import * as L from '../src/main/ledger';
import { today } from '../src/main/ledger/core/clock';
import { periodOf } from '../src/main/ledger/tax/periods';
import { addDays, dayBefore } from '../src/shared/dates';
import { serverBooks } from './support/books';
import { tempLedger } from './support/env';
import { smtpServer, SMTP_PASSWORD, SMTP_USER, type TestSmtp } from './support/smtp';
import { startHmrcDouble, type HmrcDouble } from './doubles/hmrc';

const VRN = '123456782';
const HMRC_ENV = ['LEDGERDESK_HMRC_CLIENT_ID', 'LEDGERDESK_HMRC_CLIENT_SECRET', 'LEDGERDESK_HMRC_URL', 'LEDGERDESK_MAIL_CA_FILE'] as const;
const saved = HMRC_ENV.map((k) => process.env[k]);
const day = today();
const quarters = { period: 'quarterly', startMonth: 1, basis: 'accrual' } as const;
const current = periodOf(quarters, day);
const ended = periodOf(quarters, dayBefore(current.from));
let owner: DeskContext;
let double: HmrcDouble;
let smtp: TestSmtp;
const orgs: Record<string, L.Organization> = {};

async function desk<T = any>(name: string, input: Record<string, unknown> = {}): Promise<T> {
  const answer = await runDesk(owner, name, input, () => {});
  if ('error' in answer) throw Object.assign(new Error(`${name}: ${answer.error.code}: ${answer.error.message}`), answer.error);
  return answer.data as T;
}
const inOrg = <T = any>(slug: string, name: string, input: Record<string, unknown> = {}) => desk<T>(name, { orgId: orgs[slug].id, ...input });
const practiceRow = async (slug: string) => (await desk<{ rows: any[] }>('practice')).rows.find((r) => r.org.slug === slug);
const mailSettings = (password: string) => ({ host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, password, from: 'books@acme.example' });

beforeAll(async () => {
  double = await startHmrcDouble({
    vrn: VRN,
    obligations: [
      // HMRC's due date for the quarter that ended is yesterday: overdue today.
      { periodKey: 'E001', start: ended.from, end: ended.to, due: addDays(day, -1) },
      { periodKey: 'N001', start: current.from, end: current.to, due: addDays(current.to, 37) },
    ],
  });
  smtp = await smtpServer();
  Object.assign(process.env, {
    LEDGERDESK_HMRC_CLIENT_ID: double.clientId,
    LEDGERDESK_HMRC_CLIENT_SECRET: double.clientSecret,
    LEDGERDESK_HMRC_URL: double.url,
    LEDGERDESK_MAIL_CA_FILE: smtp.certFile,
  });
  const { ledger, dir } = await tempLedger();
  const books = await serverBooks(ledger, dir);
  owner = { ledger: books, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  for (const [slug, name] of [
    ['acme', 'Acme Ltd'],
    ['beta', 'Beta Ltd'],
  ])
    orgs[slug] = await desk('createOrganization', { slug, name, currency: 'GBP' });
  for (const slug of Object.keys(orgs)) orgs[slug] = (await ledger.forOrg('all', () => L.findOrganization(ledger, slug)))!;
  for (const slug of Object.keys(orgs)) {
    await inOrg(slug, 'setupTax', { set: 'uk-vat' });
    await inOrg(slug, 'taxSettings', quarters);
    await inOrg(slug, 'createAccount', { name: 'Current', type: 'checking' });
    await inOrg(slug, 'addContact', { name: 'Globex', customer: true, email: 'ap@globex.example' });
    await inOrg(slug, 'createInvoice', { customer: 'Globex', date: addDays(day, -40), dueDate: addDays(day, -7), issue: true, lines: ['Work;1;100;4000;S'] });
    await inOrg(slug, 'setReminders', { days: [7] });
  }
  await inOrg('acme', 'addTransaction', { account: 'Current', date: ended.from, amount: '120.00', description: 'Work', categoryCode: '4000', taxCode: 'S' });
  // Acme is connected to HMRC (the desktop's way: the loopback redirect); Beta is not.
  const settings = hmrcSettings();
  const state = newState();
  const listener = await listenForRedirect({ state, service: 'HMRC', path: '/hmrc/callback' });
  const seq = orgs.acme.seq;
  const { url } = await books.forOrg(seq, () => beginConnect(books, seq, settings, { vrn: VRN, redirectUri: listener.url, state }));
  await fetch((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
  const { code } = await listener.received;
  await books.forOrg(seq, () => finishConnect(books, seq, L.deskActor(), settings, { code, state }));
}, 120_000);

afterAll(async () => {
  await double?.close();
  HMRC_ENV.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
});

describe("HMRC's next return", () => {
  it('is the open obligation due soonest from the last fetch, red once overdue, read without calling HMRC', async () => {
    // Connected, never fetched: nothing to say yet.
    expect((await practiceRow('acme')).cells.hmrc).toMatchObject({ text: '—', red: false });
    const open = await inOrg<{ periodKey: string; due: string }[]>('acme', 'hmrcObligations');
    const soonest = [...open].sort((a, b) => a.due.localeCompare(b.due))[0];
    double.lastHeaders = {};
    const acme = await practiceRow('acme');
    expect(double.lastHeaders).toEqual({});
    expect(acme.figures.hmrc).toEqual({
      next: { periodKey: soonest.periodKey, start: ended.from, end: ended.to, due: soonest.due },
      open: open.length,
      fetchedAt: expect.stringMatching(new RegExp(`^${day}T`)),
    });
    expect(acme.cells.hmrc).toMatchObject({ text: `E001: ${ended.from} to ${ended.to}, due ${addDays(day, -1)}; 2 open (HMRC, ${day})`, red: true, href: '#/tax?org=acme' });
    expect(acme.attention).toBe(true);
    // Not connected: nothing.
    expect((await practiceRow('beta')).cells.hmrc).toMatchObject({ text: '—', red: false });
  });

  it('moves to the next obligation once HMRC accepted the return', async () => {
    await inOrg('acme', 'submitTaxReturn', { periodKey: 'E001', confirmDeclaration: true });
    expect((await practiceRow('acme')).cells.hmrc).toMatchObject({
      text: `N001: ${current.from} to ${current.to}, due ${addDays(current.to, 37)} (HMRC, ${day})`,
      red: false,
    });
  });
});

describe('reminders failing', () => {
  it('are red with why: the mail server refused the sign-in, or there is no mail server to send through', async () => {
    await inOrg('acme', 'setMailSettings', mailSettings('not the password'));
    for (const slug of ['acme', 'beta']) expect((await practiceRow(slug)).cells.reminders).toMatchObject({ text: '—', red: false });
    const runs = { acme: await inOrg('acme', 'runReminders', { asOf: day }), beta: await inOrg('beta', 'runReminders', { asOf: day }) };
    for (const slug of ['acme', 'beta'] as const) {
      const row = await practiceRow(slug);
      const [failed] = runs[slug].notSent as { reason: string }[];
      expect(runs[slug].notSent).toHaveLength(1);
      expect(row.figures.reminders).toEqual({ failing: 1, latest: failed.reason });
      expect(row.cells.reminders).toMatchObject({ text: `1 not sent: ${failed.reason}`, red: true, href: `#/reminders?org=${slug}` });
      expect(row.attention).toBe(true);
    }
    expect(runs.beta.notSent[0].reason).toMatch(/mail/i);
  });

  it('clear once a later pass sends the reminder', async () => {
    await inOrg('acme', 'setMailSettings', mailSettings(SMTP_PASSWORD));
    const run = await inOrg('acme', 'runReminders', { asOf: day });
    expect([run.sent.length, run.notSent.length]).toEqual([1, 0]);
    expect((await practiceRow('acme')).cells.reminders).toMatchObject({ text: '—', red: false });
    expect((await practiceRow('beta')).cells.reminders.red).toBe(true);
  });
});

// The VAT return goes to HMRC (issue 54), against a double of HMRC's VAT API
// and OAuth (test/doubles/hmrc.ts, from hmrc/vat-api's OpenAPI document) on both
// engines: the sign-in round trip through the desktop's loopback redirect with a
// wrong state refused, tokens sealed and refreshed, obligations beside
// Ledgerdesk's periods, a submission and its receipt filed, each of HMRC's
// errors leaving the return unfiled, a lost answer then a retry that files once,
// two submissions at once (one POST), and the fraud prevention headers valid
// for each connection method (test/doubles/fraud-headers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import { listenForRedirect } from '../src/main/edge/redirect';
import { beginConnect, deviceId, finishConnect, refreshHmrcTokens } from '../src/main/hmrc/access';
import { fraudHeaders, type FraudInput } from '../src/main/hmrc/fraud';
import { newState } from '../src/main/hmrc/oauth';
import { hmrcSettings } from '../src/main/hmrc/settings';
import { hmrcLiabilities, hmrcObligations, hmrcPayments, submitVatReturn, type HmrcCaller } from '../src/main/hmrc/submit';
import * as L from '../src/main/ledger';
import { isSealed } from '../src/main/ledger/core/secrets/seal';
import { openBooksOf } from './support/books';
import { deskAs } from './support/desk';
import { tempLedger } from './support/env';
import { fraudHeaderProblems } from './doubles/fraud-headers';
import { startHmrcDouble } from './doubles/hmrc';

const VRN = '123456782';
const { ledger, dir } = await tempLedger();
const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
const org = await L.createOrganization(ledger, { slug: 'vat', name: 'VAT Ltd', currency: 'GBP' });
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const double = await startHmrcDouble({
  vrn: VRN,
  obligations: [
    { periodKey: '26A1', start: '2026-01-01', end: '2026-03-31', due: '2026-05-07' },
    { periodKey: '26A2', start: '2026-04-01', end: '2026-06-30', due: '2026-08-07' },
    { periodKey: '26A3', start: '2026-07-01', end: '2026-09-30', due: '2026-11-07' },
    { periodKey: '#001', start: '2026-02-01', end: '2026-04-30', due: '2026-06-07' },
  ],
});
afterAll(() => double.close());
const settings = hmrcSettings({ LEDGERDESK_HMRC_CLIENT_ID: double.clientId, LEDGERDESK_HMRC_CLIENT_SECRET: double.clientSecret, LEDGERDESK_HMRC_URL: double.url });
const client = { screens: [{ width: 1920, height: 1080, scalingFactor: 1.25, colourDepth: 24 }], windowSize: { width: 1280, height: 800 }, timezoneOffsetMinutes: 60 };
const desktop: FraudInput = { method: 'DESKTOP_APP_DIRECT', deviceId: deviceId(dir), client, acting: { userId: 'owner' }, product: { name: 'Ledgerdesk', version: '0.1.0' } };
const web: FraudInput = {
  method: 'WEB_APP_VIA_SERVER',
  client: {
    ...client,
    deviceId: '6f1c2a9e-1b7d-4d3a-9f51-2b8c7e3d4a10',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  },
  acting: { userId: 'ann@firm.example', secondFactor: { type: 'TOTP', at: '2026-11-29T08:00:00.000Z', reference: 'a'.repeat(64) } },
  request: { publicIp: '198.51.100.7', publicPort: 53122, at: '2026-11-29T08:00:01.123Z' },
  vendorPublicIp: '203.0.113.6',
  product: { name: 'Ledgerdesk', version: '0.1.0' },
};
const caller = (extra: Partial<HmrcCaller> = {}): HmrcCaller => ({ settings, fraud: desktop, ...extra });
const submit = (periodKey: string, extra: Partial<HmrcCaller> = {}, books = ledger) =>
  submitVatReturn(books, org.seq, L.deskActor(), caller(extra), { periodKey, confirmDeclaration: true });
const filedFor = async (from: string) => (await L.listTaxReturns(ledger, org.seq)).find((r) => r.from === from);
const rowOf = async (periodKey: string) => (await L.listSubmissions(ledger, org.seq)).find((s) => s.periodKey === periodKey);

beforeAll(async () => {
  await desk('setupTax', { set: 'uk-vat' });
  await desk('taxSettings', { period: 'quarterly', startMonth: 1 });
  await desk('createAccount', { name: 'Bank', type: 'checking' });
  const add = (date: string, amount: string, description: string, categoryCode: string) =>
    desk('addTransaction', { account: 'Bank', date, amount, description, categoryCode, taxCode: 'S' });
  await add('2026-02-10', '1200.99', 'February work', '4000');
  await add('2026-03-03', '-240.55', 'Paint', '5100');
  await add('2026-05-12', '600.00', 'May work', '4000');
  await add('2026-08-03', '360.00', 'August work', '4000');
});

describe('connecting an organization to HMRC', () => {
  it('refuses a VRN whose check digits do not match', async () => {
    await expect(beginConnect(ledger, org.seq, settings, { vrn: '123456789', redirectUri: 'http://127.0.0.1:1/x' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'vrn' }],
    });
  });

  it('refuses the redirect with a wrong state, then connects through the loopback redirect; tokens sealed', async () => {
    const wrong = await listenForRedirect({ state: newState(), service: 'HMRC', path: '/hmrc/callback' });
    const refused = expect(wrong.received).rejects.toThrow(/state differs/);
    expect((await fetch(`${wrong.url}?code=abc&state=not-it`)).status).toBe(400);
    await refused;
    await expect(L.pendingHmrcConnection(ledger, org.seq, 'not-it')).rejects.toMatchObject({ code: 'conflict', details: { reason: 'state' } });

    const state = newState();
    const listener = await listenForRedirect({ state, service: 'HMRC', path: '/hmrc/callback' });
    const { url } = await beginConnect(ledger, org.seq, settings, { vrn: `GB ${VRN}`, redirectUri: listener.url, state });
    expect(new URL(url).searchParams.get('scope')).toBe('read:vat write:vat');
    // The person signs in at HMRC; HMRC sends the browser back to the listener.
    const signIn = await fetch(url, { redirect: 'manual' });
    expect((await fetch(signIn.headers.get('location')!)).status).toBe(200);
    const { code, params } = await listener.received;
    const connection = await finishConnect(ledger, org.seq, L.deskActor(), settings, { code, state: params.get('state')! });
    expect(connection).toMatchObject({ vrn: VRN, connected: true, warning: null });
    // The same state does not connect twice.
    await expect(finishConnect(ledger, org.seq, L.deskActor(), settings, { code, state })).rejects.toMatchObject({ details: { reason: 'state' } });
    const raw = (await ledger.stmt('SELECT access_token, refresh_token FROM hmrc_connections WHERE org_seq = ?').get(org.seq)) as Record<string, string>;
    expect(isSealed(raw.access_token) && isSealed(raw.refresh_token)).toBe(true);
  });

  it('refreshes the access token before it lapses, and says when the 18-month permission ends', async () => {
    const before = (await L.hmrcTokens(ledger, org.seq)).accessToken;
    expect(await refreshHmrcTokens(ledger, settings)).toBe(0);
    expect(await refreshHmrcTokens(ledger, settings, new Date(Date.now() + 4 * 3600_000 - 60_000))).toBe(1);
    expect(double.grants).toEqual(['authorization_code', 'refresh_token']);
    expect((await L.hmrcTokens(ledger, org.seq)).accessToken).not.toBe(before);
    const c = (await L.hmrcConnection(ledger, org.seq))!;
    expect(L.refreshWarning(c.refreshExpiresAt, new Date(Date.parse(c.refreshExpiresAt!) - 10 * 86_400_000))).toMatch(/lapses on .* \(in \d+ day\(s\)\)/);
  });
});

describe('obligations, liabilities and payments', () => {
  it("lists HMRC's open obligations, saying which is not a period of Ledgerdesk's", async () => {
    const list = await hmrcObligations(ledger, org.seq, caller());
    expect(list.map((o) => [o.periodKey, o.matchesPeriod])).toEqual([
      ['26A1', true],
      ['26A2', true],
      ['26A3', true],
      ['#001', false],
    ]);
    expect(list[3].mismatch).toMatch(/runs 2026-02-01 to 2026-04-30; Ledgerdesk's period for 2026-02-01 runs 2026-01-01 to 2026-03-31/);
    expect(fraudHeaderProblems((n) => double.lastHeaders[n.toLowerCase()])).toEqual([]);
  });

  it('reads liabilities and payments for a date range', async () => {
    double.liabilities = [
      { taxPeriod: { from: '2026-01-01', to: '2026-03-31' }, type: 'VAT Return Debit Charge', originalAmount: 192.08, outstandingAmount: 0, due: '2026-05-07' },
    ];
    double.payments = [{ amount: 192.08, received: '2026-05-01' }];
    expect(await hmrcLiabilities(ledger, org.seq, caller(), { from: '2026-01-01', to: '2026-06-30' })).toEqual(double.liabilities);
    expect(await hmrcPayments(ledger, org.seq, caller(), { from: '2026-01-01', to: '2026-06-30' })).toEqual(double.payments);
  });
});

describe('submitting a VAT return', () => {
  it("refuses without the declaration, and a period that is not one of Ledgerdesk's, before anything is sent", async () => {
    await expect(submitVatReturn(ledger, org.seq, L.deskActor(), caller(), { periodKey: '26A1', confirmDeclaration: false })).rejects.toMatchObject({
      details: [{ field: 'confirmDeclaration' }],
    });
    await expect(submit('#001')).rejects.toMatchObject({ code: 'conflict', details: { reason: 'period_mismatch' } });
    await expect(submit('99Z9')).rejects.toMatchObject({ details: [{ field: 'periodKey' }] });
    expect(double.posts).toEqual([]);
  });

  it('sends the nine boxes and files the return with the receipt, audited', async () => {
    const done = await submit('26A1');
    expect(done.body).toEqual({
      periodKey: '26A1',
      vatDueSales: 200.17,
      vatDueAcquisitions: 0,
      totalVatDue: 200.17,
      vatReclaimedCurrPeriod: 40.09,
      netVatDue: 160.08,
      totalValueSalesExVAT: 1000,
      totalValuePurchasesExVAT: 200,
      totalValueGoodsSuppliedExVAT: 0,
      totalAcquisitionsExVAT: 0,
      finalised: true,
    });
    expect(done.receipt).toMatchObject({ formBundleNumber: expect.any(String), chargeRefNumber: 'aCxFaNx0FZsCvyWF', paymentIndicator: 'BANK', receiptId: expect.any(String) });
    const filed = (await filedFor('2026-01-01'))!;
    expect(filed).toMatchObject({ id: done.returnId, submitted: true });
    expect(await L.submissionReceipt(ledger, org.seq, filed.id)).toMatchObject({ periodKey: '26A1', receiptTimestamp: expect.stringMatching(/Z$/) });
    const audit = (await ledger.stmt("SELECT summary FROM audit_log WHERE org_seq = ? AND action = 'tax.return_submitted'").pluck().all(org.seq)) as string[];
    expect(audit[0]).toMatch(/HMRC accepted the VAT return for period 26A1 .* charge reference aCxFaNx0FZsCvyWF/);
    await expect(submit('26A1')).rejects.toMatchObject({ code: 'conflict', details: { reason: 'submitted' } });
    expect(double.posts.filter((p) => p.periodKey === '26A1')).toHaveLength(1);
  });

  it.each([
    ['DUPLICATE_SUBMISSION', 'hmrc_refused', /already submitted/],
    ['TAX_PERIOD_NOT_ENDED', 'hmrc_refused', /tax period that has not ended/],
    ['INVALID_PERIODKEY', 'hmrc_refused', /Invalid period key/],
    ['INVALID_VRN', 'hmrc_refused', /VRN is invalid/],
    ['THROTTLED', 'hmrc_unavailable', /wait 60 s/],
    ['SERVER_ERROR', 'hmrc_unavailable', /answered 503/],
  ])("%s leaves the return unfiled with HMRC's words", async (scenario, code, words) => {
    await expect(submit('26A2', { scenario })).rejects.toMatchObject({ code, message: expect.stringMatching(words) });
    expect(await filedFor('2026-04-01')).toBeUndefined();
    expect(await rowOf('26A2')).toMatchObject({ status: 'refused', errorMessage: expect.stringMatching(words) });
  });

  it('checks a submission whose answer was lost with HMRC before sending it again: filed once', async () => {
    const sent = double.posts.length;
    await expect(submit('26A2', { scenario: 'LOST_ANSWER' })).rejects.toMatchObject({ code: 'hmrc_unavailable' });
    expect(await rowOf('26A2')).toMatchObject({ status: 'unanswered' });
    expect(await filedFor('2026-04-01')).toBeUndefined();
    const done = await submit('26A2');
    expect(done.receipt).toMatchObject({ recovered: true });
    expect(double.posts.length).toBe(sent + 1);
    expect(await filedFor('2026-04-01')).toMatchObject({ submitted: true });
  });

  it('sends one of two submissions made at once, from two processes', async () => {
    const second = await openBooksOf(dir);
    double.postDelayMs = 300;
    try {
      const results = await Promise.allSettled([submit('26A3'), submit('26A3', {}, second), submit('26A3')]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
        expect(r.reason).toMatchObject({ code: 'conflict', details: { reason: 'submitting' } });
    } finally {
      double.postDelayMs = 0;
      await second.end();
    }
    expect(double.posts.filter((p) => p.periodKey === '26A3')).toHaveLength(1);
    expect(await filedFor('2026-07-01')).toMatchObject({ submitted: true });
  });
});

describe('fraud prevention headers', () => {
  it('are valid for the desktop, a browser through a server, and a terminal', () => {
    expect(fraudHeaderProblems((n) => fraudHeaders(desktop)[n])).toEqual([]);
    expect(fraudHeaderProblems((n) => fraudHeaders(web)[n])).toEqual([]);
    expect(fraudHeaders(web)['Gov-Client-Multi-Factor']).toBe(`type=TOTP&timestamp=2026-11-29T08%3A00Z&unique-reference=${'a'.repeat(64)}`);
    // Reached over a private network: no public address to tell, sent empty as the specification allows.
    expect(fraudHeaderProblems((n) => fraudHeaders({ ...web, request: undefined, vendorPublicIp: undefined })[n])).toEqual([]);
    const terminal: FraudInput = { ...desktop, method: 'OTHER_DIRECT', client: undefined };
    expect(fraudHeaderProblems((n) => fraudHeaders(terminal)[n])).toEqual([]);
  });

  it('refuses a call whose headers cannot be gathered, naming what is missing; the validator catches bad encoding', () => {
    expect(() => fraudHeaders({ ...desktop, client: undefined })).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: expect.arrayContaining([expect.objectContaining({ field: 'client.screens' })]) }),
    );
    expect(() => fraudHeaders({ ...web, client: { ...web.client, userAgent: undefined } })).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'client.userAgent' })] }),
    );
    const bad = { ...fraudHeaders(desktop), 'Gov-Client-Local-IPs': 'fe80::1', 'Gov-Client-Timezone': '+01:00' };
    expect(fraudHeaderProblems((n) => bad[n as keyof typeof bad])).toEqual([
      expect.stringMatching(/^Gov-Client-Local-IPs is not a list of percent-encoded/),
      expect.stringMatching(/^Gov-Client-Timezone is not UTC/),
    ]);
    expect(fraudHeaderProblems((n) => ({ ...bad, 'Gov-Client-Connection-Method': 'DESKTOP_APP_DIRECT' })[n as keyof typeof bad] ?? undefined)).toHaveLength(2);
    expect(double.refusedHeaders).toEqual([]);
  });
});

// The Enable Banking provider (issue 52) against a double of its API written
// from the contract, over real HTTP on loopback: the JWT each call signs, the
// connection round trip (the bank's page, the redirect, its state checked),
// transactions paged by continuation_key and resumed from a cursor, amounts
// signed and pending rows told apart, and each failure as an OutsideError in
// words that never quotes the application's key. No books: SQLite only.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutsideError } from '../src/main/edge/http';
import { listenForRedirect } from '../src/main/edge/redirect';
import {
  banks,
  beginConnect,
  codeFromPasted,
  completeConnect,
  connectFromCommand,
  enableBankingBase,
  enableBankingProvider,
  type EnableBankingCredentials,
} from '../src/main/connectors/enable-banking';
import { callToken } from '../src/main/connectors/enable-banking/jwt';
import type { FeedAccount } from '../src/main/connectors/provider';
import { freePort, startEnableBankingDouble, transaction as tx, type DoubleAccount, type EnableBankingDouble } from './doubles/enable-banking';

const APP_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const { privateKey, publicKey } = pair();
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const WRONG_PEM = pair().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** Lines of the key's body: none may appear in any message. */
const KEY_LINES = PEM.split('\n').filter((l) => l.length > 20);

const tuning = { timeoutMs: 10_000, waitAtMostSeconds: 2 };
const provider = enableBankingProvider(tuning);
const messages: string[] = [];

let eb: EnableBankingDouble;
let account: DoubleAccount;
const now = () => new Date();
const app = (pem = PEM) => ({ credentials: { applicationId: APP_ID, privateKey: pem }, baseUrl: eb.url, now: now() });

/** The thrown OutsideError, its message kept for the key check at the end. */
async function outside(p: Promise<unknown>): Promise<OutsideError> {
  const e = await p.catch((error: unknown) => error);
  expect(e).toBeInstanceOf(OutsideError);
  messages.push((e as OutsideError).message, JSON.stringify((e as OutsideError).extra));
  return e as OutsideError;
}

/** A session made the way a person makes one: the link opened, the bank's redirect followed to a listener. */
async function connect(): Promise<{ credentials: EnableBankingCredentials; accounts: FeedAccount[]; consentExpiresAt: string }> {
  const redirectUrl = `http://127.0.0.1:${await freePort()}/enable-banking/callback`;
  const done = await connectFromCommand(app(), {
    bank: 'hartley bank',
    country: 'gb',
    redirectUrl,
    tuning,
    print: (line) => {
      const link = line.split('\n')[1];
      if (link) void fetch(link).then((r) => r.text());
    },
  });
  if (done.kind !== 'connected') throw new Error('not connected');
  return done;
}

beforeAll(async () => {
  eb = await startEnableBankingDouble({ applicationId: APP_ID, publicKey: publicKey as KeyObject });
});
afterAll(() => eb?.close());
beforeEach(() => {
  account = {
    uid: 'acc-1',
    iban: 'GB33 BUKB 2020 1555 5555 55',
    product: 'Business Current Account',
    currency: 'GBP',
    transactions: [],
    balances: [{ name: 'Closing booked', balance_amount: { currency: 'GBP', amount: '1520.40' }, balance_type: 'CLBD', reference_date: '2026-03-31' }],
  };
  eb.accounts = [account];
  eb.pageSize = 2;
});

describe('the JWT each call signs', () => {
  it('is RS256 with the application id as kid, issued by enablebanking.com for api.enablebanking.com, valid an hour', async () => {
    const at = new Date('2026-03-01T10:00:00Z');
    const token = await callToken({ applicationId: APP_ID, privateKey: PEM }, at);
    expect(decodeProtectedHeader(token)).toEqual({ typ: 'JWT', alg: 'RS256', kid: APP_ID });
    const claims = decodeJwt(token);
    expect(claims).toEqual({ iss: 'enablebanking.com', aud: 'api.enablebanking.com', iat: at.getTime() / 1000, exp: at.getTime() / 1000 + 3600 });
  });

  it('is accepted by the double, which verifies it with the public key; one signed by another key is refused in words', async () => {
    expect((await banks(app(), 'GB')).map((b) => [b.name, b.consentDays])).toEqual([['Hartley Bank', 90]]);
    const wrong = await outside(banks(app(WRONG_PEM), 'GB'));
    expect(wrong.reason).toBe('unauthorized');
    expect(wrong.message).toMatch(/Enable Banking did not accept the application's credentials/);
    const notKey = await outside(banks(app('-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----'), 'GB'));
    expect(notKey.message).toBe("Enable Banking: the application's private key is not a PEM private key (the .pem file the control panel downloaded).");
  });

  it('goes to LEDGERDESK_ENABLE_BANKING_URL when set, https or loopback only', () => {
    expect(enableBankingBase({})).toBe('https://api.enablebanking.com');
    expect(enableBankingBase({ LEDGERDESK_ENABLE_BANKING_URL: `${eb.url}/` })).toBe(eb.url);
    expect(() => enableBankingBase({ LEDGERDESK_ENABLE_BANKING_URL: 'http://eb.example' })).toThrow(/must be an https address/);
  });
});

describe('connecting a bank', () => {
  it('asks for the longest consent the bank gives, opens the bank, and makes a session of the code the redirect brings', async () => {
    const before = Date.now();
    const done = await connect();
    const asked = eb.authRequests.at(-1)!;
    expect(asked).toMatchObject({ aspsp: { name: 'Hartley Bank', country: 'GB' }, psu_type: 'personal', access: { balances: true, transactions: true } });
    const longest = before + 90 * 86400_000;
    expect(Date.parse(asked.access.valid_until)).toBeGreaterThan(longest - 3600_000);
    expect(Date.parse(asked.access.valid_until)).toBeLessThanOrEqual(longest);
    expect(done.consentExpiresAt).toBe(new Date(asked.access.valid_until).toISOString());
    expect(done.accounts).toEqual([
      { id: expect.stringMatching(/^acc-1-s\d+$/), name: 'Business Current Account', currency: 'GBP', iban: 'GB33BUKB20201555555555', last4: '5555' },
    ]);
    expect(done.credentials).toEqual({ applicationId: APP_ID, privateKey: PEM, sessionId: expect.any(String) });
    expect(await provider.consent({ ...app(), credentials: done.credentials })).toEqual({ expiresAt: done.consentExpiresAt });
    expect(await provider.accounts({ ...app(), credentials: done.credentials })).toEqual(done.accounts);
  });

  it('refuses an answer whose state is not the one this connection asked for (loopback listener and pasted address)', async () => {
    const listener = await listenForRedirect({ state: 'the-state-we-sent', service: 'Enable Banking' });
    const { url } = await beginConnect(app(), { bank: 'Hartley Bank', country: 'GB', redirectUrl: listener.url, state: 'another-state' });
    const answered = await fetch(url);
    expect(answered.status).toBe(400);
    await expect(listener.received).rejects.toThrow(/state differs/);
    expect(() => codeFromPasted(`${listener.url}?code=c0de&state=another-state`, 'the-state-we-sent')).toThrow(/state differs/);
    expect(codeFromPasted(`${listener.url}?code=c0de&state=the-state-we-sent`, 'the-state-we-sent')).toBe('c0de');
    // A code is good for one session.
    const used = await outside(completeConnect(app(), 'not-a-code'));
    expect([used.reason, used.extra.status]).toEqual(['refused', 422]);
  });

  it("against a server, hands back the link and the state for the server's own redirect, and waits for nothing", async () => {
    const lines: string[] = [];
    const begun = await connectFromCommand(app(), {
      bank: 'Hartley Bank',
      country: 'GB',
      serverRedirectUrl: 'https://books.firm.example/connectors/enable-banking/callback',
      print: (l) => lines.push(l),
    });
    expect(begun).toMatchObject({ kind: 'server', redirectUrl: 'https://books.firm.example/connectors/enable-banking/callback', state: expect.stringMatching(/^[\w-]{32}$/) });
    expect(lines.join('\n')).toContain((begun as { url: string }).url);
    expect(eb.authRequests.at(-1)!.state).toBe((begun as { state: string }).state);
  });

  it('where the registered redirect is an https address leading nowhere, reads the code from the address the person pastes', async () => {
    let link = '';
    const print = (line: string) => void (line.includes('\n') && (link = line.split('\n')[1]));
    // The person opens the link; the bank sends the browser to the dead-end address, which they copy.
    const readLine = async () => (await fetch(link, { redirect: 'manual' })).headers.get('location')!;
    const done = await connectFromCommand(app(), { bank: 'Hartley Bank', country: 'GB', redirectUrl: 'https://example.org/ledgerdesk-callback', print, readLine });
    expect(done).toMatchObject({ kind: 'connected', bank: { name: 'Hartley Bank', country: 'GB' } });
  });

  it('names close banks when the name is not one the country lists', async () => {
    const e = await outside(beginConnect(app(), { bank: 'Hartley', country: 'GB', redirectUrl: 'https://x.example/cb', state: 's' }));
    expect(e.message).toBe('Enable Banking lists no bank named "Hartley" in GB; did you mean "Hartley Bank"?');
  });
});

describe('transactions', () => {
  it('pages by continuation_key from the date asked, and a sync killed midway resumes from its cursor without a gap or a repeat', async () => {
    account.transactions = ['01', '02', '03', '04', '05'].map((d, i) => tx(`ref-${i + 1}`, `${i + 1}.00`, 'CRDT', `2026-03-${d}`));
    account.transactions.unshift(tx('old', '9.99', 'CRDT', '2026-02-20'));
    const { credentials, accounts } = await connect();
    const ctx = { ...app(), credentials };
    const first = await provider.rows(ctx, accounts[0], null, '2026-03-01');
    expect(first.rows.map((r) => r.externalId)).toEqual(['ref-1', 'ref-2']);
    expect(eb.calls.at(-1)).toBe(`GET /accounts/${accounts[0].id}/transactions?date_from=2026-03-01`);
    // The process dies here; another resumes from the cursor the sync committed with the first page.
    const second = await provider.rows({ ...app(), credentials }, accounts[0], first.next, '2026-03-01');
    const third = await provider.rows(ctx, accounts[0], second.next, '2026-03-01');
    expect([...second.rows, ...third.rows].map((r) => r.externalId)).toEqual(['ref-3', 'ref-4', 'ref-5']);
    expect(third.next).toBeNull();
    // A continuation key the bank no longer knows restarts the fetch at its date: rows repeat (told apart by id), none is lost.
    const stale = Buffer.from(JSON.stringify({ from: '2026-03-01', key: 'forgotten' })).toString('base64url');
    expect((await provider.rows(ctx, accounts[0], stale, '2026-03-01')).rows.map((r) => r.externalId)).toEqual(['ref-1', 'ref-2']);
  });

  it('signs amounts by credit_debit_indicator, tells pending from booked, leaves out cancelled rows, and gives rows without an entry_reference a stable id', async () => {
    const payee = { creditor: { name: 'Northwind Paper Co' }, remittance_information: ['INV 4471', 'Northwind Paper'] };
    account.transactions = [
      tx('in-1', '1200.00', 'CRDT', '2026-03-02', { debtor: { name: 'Acme Ltd' }, remittance_information: ['Invoice 1001'] }),
      tx('out-1', '45.5', 'DBIT', '2026-03-03', payee),
      tx('card-9', '12.00', 'DBIT', '2026-03-04', { status: 'PDNG', booking_date: undefined, transaction_date: '2026-03-04', creditor: { name: 'Corner Cafe' } }),
      tx('gone', '3.00', 'DBIT', '2026-03-04', { status: 'CNCL' }),
      tx(undefined, '8.00', 'DBIT', '2026-03-05', { creditor: { name: 'Parking' } }),
      tx(undefined, '8.00', 'DBIT', '2026-03-05', { creditor: { name: 'Parking' } }),
    ];
    eb.pageSize = 10;
    const { credentials, accounts } = await connect();
    const ctx = { ...app(), credentials };
    const { rows } = await provider.rows(ctx, accounts[0], null, '2026-03-01');
    expect(rows.map((r) => [r.date, r.amount, r.pending, r.description])).toEqual([
      ['2026-03-02', '1200.00', false, 'Acme Ltd - Invoice 1001'],
      ['2026-03-03', '-45.5', false, 'Northwind Paper Co - INV 4471'],
      ['2026-03-04', '-12.00', true, 'Corner Cafe'],
      ['2026-03-05', '-8.00', false, 'Parking'],
      ['2026-03-05', '-8.00', false, 'Parking'],
    ]);
    const ids = rows.map((r) => r.externalId);
    expect(ids.slice(0, 3)).toEqual(['in-1', 'out-1', 'card-9']);
    expect(ids[3]).toMatch(/^eb-[\w-]{22}$/);
    expect(ids[4]).toBe(`${ids[3]}:2`);
    expect((await provider.rows(ctx, accounts[0], null, '2026-03-01')).rows.map((r) => r.externalId)).toEqual(ids);
    // The bank books the card payment under another entry_reference: the feed says so, the sync makes it the same row.
    eb.book('card-9', { entry_reference: 'card-9-booked', booking_date: '2026-03-06' });
    const booked = (await provider.rows(ctx, accounts[0], null, '2026-03-01')).rows.find((r) => r.description === 'Corner Cafe')!;
    expect(booked).toMatchObject({ externalId: 'card-9-booked', date: '2026-03-06', amount: '-12.00', pending: false });
  });

  it('gives balances for reconciliation in words', async () => {
    account.balances.push({ name: 'Available', balance_amount: { currency: 'GBP', amount: '-20.00' }, balance_type: 'ITAV', last_change_date_time: '2026-04-01T08:00:00Z' });
    const { credentials, accounts } = await connect();
    expect(await provider.balances({ ...app(), credentials }, accounts[0])).toEqual([
      { date: '2026-03-31', amount: '1520.40', kind: 'closingBooked' },
      { date: '2026-04-01', amount: '-20.00', kind: 'interimAvailable' },
    ]);
  });
});

describe('failures, each an OutsideError in words', () => {
  let ctx: Parameters<typeof provider.rows>[0];
  let feed: FeedAccount;
  beforeEach(async () => {
    account.transactions = [tx('ref-1', '1.00', 'CRDT', '2026-03-01')];
    const { credentials, accounts } = await connect();
    ctx = { ...app(), credentials };
    feed = accounts[0];
  });
  const rows = () => provider.rows(ctx, feed, null, '2026-03-01');

  it('waits out a short Retry-After, and hands a long one to the scheduler', async () => {
    eb.script('/accounts/', { kind: 'rate-limit', retryAfter: '1' });
    expect((await rows()).rows).toHaveLength(1);
    eb.script('/accounts/', { kind: 'rate-limit', retryAfter: '120' });
    const e = await outside(rows());
    expect([e.reason, e.extra.retryAfterSeconds, e.message]).toEqual(['rate_limited', 120, 'Enable Banking asks to wait 120 s before the next call (its rate limit).']);
  });

  it('retries a 500 and gives up in words after the attempts; a slow answer times out', async () => {
    eb.script('/accounts/', { kind: 'server-error' }, 1);
    expect((await rows()).rows).toHaveLength(1);
    eb.script('/accounts/', { kind: 'server-error' }, 3);
    const e = await outside(rows());
    expect([e.reason, e.message]).toEqual(['unavailable', 'Enable Banking answered 500: Internal error.']);
    eb.script('/accounts/', { kind: 'slow', ms: 1500 }, 2);
    const slow = await outside(enableBankingProvider({ timeoutMs: 300, attempts: 2 }).rows(ctx, feed, null, '2026-03-01'));
    expect([slow.reason, slow.message]).toEqual(['unavailable', 'Enable Banking did not answer in time.']);
  });

  it('refuses an answer that is not JSON, or not the shape the contract promises', async () => {
    eb.script('/accounts/', { kind: 'not-json' });
    const html = await outside(rows());
    expect([html.reason, html.message]).toEqual(['malformed', 'Enable Banking answered 200 with something that is not JSON.']);
    eb.script('/accounts/', { kind: 'wrong-shape' });
    const shape = await outside(rows());
    expect(shape.reason).toBe('malformed');
    expect(shape.message).toMatch(
      /^Enable Banking answered with the account's transactions in a shape its contract does not promise \(transactions\.0\.transaction_amount\.currency: /,
    );
    account.transactions = [{ entry_reference: 'undated', transaction_amount: { currency: 'GBP', amount: '1.00' }, credit_debit_indicator: 'CRDT', status: 'BOOK' }];
    const undated = await outside(rows());
    expect([undated.reason, undated.message]).toEqual([
      'malformed',
      'Enable Banking sent a transaction with no date (booking, value or transaction date): nothing of this page was written.',
    ]);
  });

  it('tells an expired or revoked session as the consent lapsing, for the sync to ask for a reconnection', async () => {
    eb.end(ctx.credentials.sessionId, 'EXPIRED');
    const expired = await outside(rows());
    expect([expired.reason, expired.extra.status, expired.message]).toEqual([
      'unauthorized',
      401,
      "Enable Banking: the bank's consent for this connection has expired. Reconnect the bank to give a new consent; the rows already synced stay.",
    ]);
    eb.end(ctx.credentials.sessionId, 'REVOKED');
    const revoked = await outside(provider.balances(ctx, feed));
    expect(revoked.message).toMatch(/consent for this connection was revoked at the bank/);
    const consent = await outside(provider.consent(ctx));
    expect([consent.reason, consent.message]).toEqual(['unauthorized', revoked.message]);
  });
});

it("quotes the application's private key in no error message, nor in what an error carries (every failure above)", () => {
  expect(messages.length).toBeGreaterThan(20);
  for (const m of messages) for (const line of KEY_LINES) expect(m).not.toContain(line);
});

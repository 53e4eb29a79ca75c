// Connecting a bank from a window (issue 52), against the Enable Banking double
// over real HTTP: on a server the bank sends the browser back to the server's
// own address (its public URL), the sign-in kept in the books with the key
// sealed, its state checked and used once; on the desktop the app's loopback
// listener takes the answer while finishEnableBankingConnector waits. A window
// never names a key file, and a server without a public address is refused.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import type { DeskContext } from '../src/main/desk/operation';
import { beginSignIn, takeSignIn } from '../src/main/ledger/feeds/sign-ins';
import { tempLedger } from './support/env';
import { deskAs } from './support/desk';
import { freePort, startEnableBankingDouble, type EnableBankingDouble } from './doubles/enable-banking';

const APP_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const KEY_LINES = PEM.split('\n').filter((l) => l.length > 20);
const PUBLIC = 'https://books.firm.example';
const saved = process.env.LEDGERDESK_ENABLE_BANKING_URL;
let ledger: L.Ledger;
let org: L.Organization;
let eb: EnableBankingDouble;
const server: Omit<DeskContext, 'ledger'> = { dataDir: '', agentUrl: '', publicUrl: PUBLIC, mode: 'browser', reviewer: L.deskActor() };
const desk = <T = any>(ctx: Partial<DeskContext>, name: string, input: Record<string, unknown> = {}) => deskAs<T>({ ...server, ledger, ...ctx }, org.id, name, input);
const app = { applicationId: APP_ID, privateKey: PEM, country: 'gb', bank: 'Hartley Bank' };

/** The bank's page followed as a browser would, up to where it sends the browser back. */
async function bankAnswer(link: string): Promise<URL> {
  const r = await fetch(link, { redirect: 'manual' });
  return new URL(r.headers.get('location')!);
}

beforeAll(async () => {
  ({ ledger } = await tempLedger());
  org = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug: 'hartley', name: 'Hartley Studio', currency: 'GBP' }));
  eb = await startEnableBankingDouble({ applicationId: APP_ID, publicKey: publicKey as KeyObject });
  eb.accounts.push({ uid: 'acc-1', iban: 'GB33BUKB20201555555555', product: 'Business Current Account', currency: 'GBP', transactions: [], balances: [] });
  process.env.LEDGERDESK_ENABLE_BANKING_URL = eb.url;
});
afterAll(async () => {
  await eb?.close();
  if (saved === undefined) delete process.env.LEDGERDESK_ENABLE_BANKING_URL;
  else process.env.LEDGERDESK_ENABLE_BANKING_URL = saved;
});

describe('a bank connected from a window (issue 52)', () => {
  it("lists a country's banks for the person to pick, the key sent as text (a window names no file)", async () => {
    expect(await desk({}, 'listEnableBankingBanks', { applicationId: APP_ID, privateKey: PEM, country: 'GB' })).toEqual([
      { name: 'Hartley Bank', country: 'GB', consentDays: 90, psuTypes: ['personal', 'business'], beta: false },
    ]);
    await expect(desk({}, 'listEnableBankingBanks', { applicationId: APP_ID, privateKeyFile: '/etc/passwd', country: 'GB' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'privateKeyFile' }],
    });
    // And a command names the file: a key typed on its command line would stay in the shell's history.
    await expect(desk({ mode: 'command' }, 'listEnableBankingBanks', { applicationId: APP_ID, privateKey: PEM, country: 'GB' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'privateKey' }],
    });
  });

  it("on a server: the bank sends the browser back to the server's address; the state is checked, used once, and the key kept sealed until then", async () => {
    await expect(desk({ publicUrl: undefined }, 'addEnableBankingConnector', app)).rejects.toMatchObject({ code: 'conflict', details: { reason: 'no_public_url' } });
    const begun = await desk(server, 'addEnableBankingConnector', { ...app, name: 'UK bank', account: 'Current account' });
    expect(begun).toMatchObject({ redirectUrl: `${PUBLIC}/enable-banking/callback`, bank: 'Hartley Bank', link: expect.stringContaining(eb.url) });
    expect(eb.authRequests.at(-1)).toMatchObject({ redirect_url: `${PUBLIC}/enable-banking/callback`, state: begun.state });
    const kept = await ledger.forOrg(org.seq, () => ledger.rows<{ credentials: string; state_hash: string }>('SELECT credentials, state_hash FROM connector_sign_ins'));
    expect(kept).toHaveLength(1);
    for (const line of KEY_LINES) expect(kept[0].credentials).not.toContain(line);
    expect(kept[0].state_hash).not.toContain(begun.state);

    const back = await bankAnswer(begun.link);
    expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC}/enable-banking/callback`);
    const code = back.searchParams.get('code')!;
    await expect(desk(server, 'finishEnableBankingConnector', { state: `${begun.state}x`, code })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'state' } });
    const made = await desk(server, 'finishEnableBankingConnector', { state: back.searchParams.get('state'), code });
    expect(made).toMatchObject({
      name: 'UK bank',
      provider: 'enable-banking',
      status: 'active',
      accounts: [{ name: 'Business Current Account', account: { name: 'Current account' } }],
    });
    // Used once: the same answer again is refused, and nothing of the sign-in is kept.
    await expect(desk(server, 'finishEnableBankingConnector', { state: begun.state, code })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'state' } });
    expect(await ledger.forOrg(org.seq, () => ledger.rows('SELECT * FROM connector_sign_ins'))).toEqual([]);
  });

  it("on the desktop: the app's loopback listener takes the bank's answer while the finish waits", async () => {
    const redirectUrl = `http://127.0.0.1:${await freePort()}/enable-banking/callback`;
    const begun = await desk({ mode: 'desktop', publicUrl: undefined }, 'addEnableBankingConnector', { ...app, name: 'Desk bank', redirectUrl });
    expect(begun.redirectUrl).toBe(redirectUrl);
    const finished = desk({ mode: 'desktop' }, 'finishEnableBankingConnector', { state: begun.state });
    const page = await fetch(begun.link);
    expect(await page.text()).toContain('Connected');
    expect(await finished).toMatchObject({ name: 'Desk bank', provider: 'enable-banking', status: 'active' });
  });

  it('a sign-in lapses after 30 minutes', async () => {
    const now = new Date();
    const credentials = { applicationId: APP_ID, privateKey: PEM };
    await ledger.forOrg(org.seq, () =>
      beginSignIn(ledger, org.seq, 'late-state', { provider: 'enable-banking', name: 'Late', account: null, redirectUrl: PUBLIC, credentials }, now),
    );
    await expect(ledger.forOrg(org.seq, () => takeSignIn(ledger, org.seq, 'late-state', new Date(now.getTime() + 31 * 60_000)))).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('longer than 30 minutes'),
    });
  });
});

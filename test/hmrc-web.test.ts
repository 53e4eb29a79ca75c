// HMRC's fraud prevention headers for a person in a browser on a firm's server
// (WEB_APP_VIA_SERVER, issue 54) on both engines: a server behind the TLS proxy
// it trusts (serve --public-url on loopback), desk calls carrying what the proxy
// says in X-Forwarded-For or RFC 7239 Forwarded; the HMRC double receives the
// browser's public address, port and timestamp, the vendor's public IP and the
// forwarding hops, as HMRC's specification asks (test/doubles/fraud-headers.ts),
// and nothing for a private network's address. Then the hops' rules alone: a
// direct connection, an untrusted sender's claims, HMRC's own example chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'express';
import { startHeadless, type Headless } from '../src/main/headless';
import { seenRequest } from '../src/main/api/seen';
import { isPublicIp, webRequestFacts } from '../src/main/hmrc/public-ip';
import { headlessBooks } from './support/books';
import { rawRequest, tempDir } from './support/env';
import { fraudHeaderProblems } from './doubles/fraud-headers';
import { startHmrcDouble, type HmrcDouble } from './doubles/hmrc';

// The server's public address names its proxy by address (a name would be looked up: HMRC's "vendor's DNS record").
const VENDOR = '81.2.69.142';
const PUBLIC = `https://${VENDOR}`;
const BROWSER = '81.2.69.160';
const HMRC_ENV = ['LEDGERDESK_HMRC_CLIENT_ID', 'LEDGERDESK_HMRC_CLIENT_SECRET', 'LEDGERDESK_HMRC_URL'] as const;
const saved = HMRC_ENV.map((k) => process.env[k]);
const client = {
  deviceId: '6f1c2a9e-1b7d-4d3a-9f51-2b8c7e3d4a10',
  screens: [{ width: 1920, height: 1080, scalingFactor: 1, colourDepth: 24 }],
  windowSize: { width: 1280, height: 800 },
  timezoneOffsetMinutes: 0,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36',
};
let double: HmrcDouble;
let app: Headless;
let local: string;
let cookie: string;
let orgId: string;

/** A desk call through the proxy: the proxy's headers (its X-Forwarded-Proto, and what it says of the browser) added. */
async function desk(name: string, input: Record<string, unknown>, said: Record<string, string> = {}) {
  const res = await rawRequest(`${local}/desk/api/${name}`, {
    method: 'POST',
    headers: { host: VENDOR, origin: PUBLIC, 'x-forwarded-proto': 'https', 'content-type': 'application/json', cookie, ...said },
    body: JSON.stringify(input),
  });
  const answer = JSON.parse(res.body) as { data?: any; error?: { message: string } };
  if (answer.error) throw new Error(`${name}: ${answer.error.message}`);
  return answer.data;
}
const header = (name: string) => double.lastHeaders[name.toLowerCase()];
const obligationsSaying = async (said: Record<string, string>) => {
  await desk('hmrcObligations', { orgId, client }, said);
  expect(fraudHeaderProblems((n) => double.lastHeaders[n.toLowerCase()])).toEqual([]);
  expect(header('Gov-Client-Connection-Method')).toBe('WEB_APP_VIA_SERVER');
};

beforeAll(async () => {
  double = await startHmrcDouble({ vrn: '123456782', obligations: [{ periodKey: '26A1', start: '2026-01-01', end: '2026-03-31', due: '2026-05-07' }] });
  Object.assign(process.env, { LEDGERDESK_HMRC_CLIENT_ID: double.clientId, LEDGERDESK_HMRC_CLIENT_SECRET: double.clientSecret, LEDGERDESK_HMRC_URL: double.url });
  const data = tempDir('ldk-hmrc-web-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, publicUrl: `${PUBLIC}/`, log: () => {} });
  local = `http://127.0.0.1:${app.server.port}`;
  const link = new URL(await app.newSignInUrl());
  const signedIn = await rawRequest(`${local}${link.pathname}${link.search}`, { headers: { host: VENDOR, 'x-forwarded-proto': 'https' } });
  cookie = String(signedIn.headers['set-cookie']?.[0]).split(';')[0];
  orgId = ((await desk('listOrganizations', {})) as { id: string }[])[0].id;
  // Connected as a browser on the server is: HMRC sends it back to the public address, the screen finishes.
  const { url } = await desk('hmrcConnect', { orgId, vrn: '123456782' });
  expect(new URL(url).searchParams.get('redirect_uri')).toBe(`${PUBLIC}/`);
  const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
  await desk('hmrcConnectFinish', { orgId, code: back.searchParams.get('code'), state: back.searchParams.get('state') });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await double?.close();
  HMRC_ENV.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
});

describe('a browser behind the proxy the server trusts', () => {
  it("sends the browser's public address from X-Forwarded-For, the vendor's, and the hop between them", async () => {
    const before = new Date().toISOString();
    // What the browser itself put first is not believed: the trusted proxy (loopback) vouches for the last entry only.
    await obligationsSaying({ 'x-forwarded-for': `10.9.8.7, ${BROWSER}` });
    expect(header('Gov-Client-Public-IP')).toBe(BROWSER);
    expect(header('Gov-Client-Public-IP-Timestamp') >= before && header('Gov-Client-Public-IP-Timestamp') <= new Date().toISOString()).toBe(true);
    // X-Forwarded-For carries no port: none is made up.
    expect(header('Gov-Client-Public-Port')).toBe('');
    expect(header('Gov-Vendor-Public-IP')).toBe(VENDOR);
    expect(header('Gov-Vendor-Forwarded')).toBe(`by=${VENDOR}&for=${BROWSER}`);
  });

  it('takes the port from RFC 7239 Forwarded, IPv6 percent-encoded', async () => {
    await obligationsSaying({ forwarded: `for="${BROWSER}:53122";proto=https;by=${VENDOR}` });
    expect([header('Gov-Client-Public-IP'), header('Gov-Client-Public-Port')]).toEqual([BROWSER, '53122']);
    await obligationsSaying({ forwarded: 'for="[2a00:23c7:1234::5]:40001";proto=https' });
    expect([header('Gov-Client-Public-IP'), header('Gov-Client-Public-Port')]).toEqual(['2a00:23c7:1234::5', '40001']);
    expect(header('Gov-Vendor-Forwarded')).toBe(`by=${VENDOR}&for=2a00%3A23c7%3A1234%3A%3A5`);
  });

  it("sends no public address for a browser on the firm's private network (HMRC: none can be collected)", async () => {
    const onPrivateNetwork: Record<string, string>[] = [{ 'x-forwarded-for': '192.168.1.20' }, { forwarded: 'for="[fd00::20]:50000"' }, {}];
    for (const said of onPrivateNetwork) {
      await obligationsSaying(said);
      expect(['Gov-Client-Public-IP', 'Gov-Client-Public-IP-Timestamp', 'Gov-Client-Public-Port', 'Gov-Vendor-Forwarded'].map(header), JSON.stringify(said)).toEqual([
        '',
        '',
        '',
        '',
      ]);
      expect(header('Gov-Vendor-Public-IP')).toBe(VENDOR);
    }
  });
});

/** A request as node and express hand it to the desk: its socket, its headers, the application's trust. */
const arriving = (o: { remote: string; port: number; local: string; headers?: Record<string, string>; trusted?: (a: string) => boolean }) =>
  ({
    socket: { remoteAddress: o.remote, remotePort: o.port, localAddress: o.local },
    headers: o.headers ?? {},
    app: { get: (name: string) => (name === 'trust proxy fn' && o.trusted ? (a: string) => o.trusted!(a) : undefined) },
  }) as unknown as Request;

describe('the hops, as the server saw them', () => {
  it('a direct connection: the address and port that connected, received on the server own public address', async () => {
    const seen = seenRequest(arriving({ remote: `::ffff:${BROWSER}`, port: 61000, local: `::ffff:${VENDOR}`, headers: { 'x-forwarded-for': '1.2.3.4' } }));
    expect(seen.hops).toEqual([{ for: BROWSER, port: 61000, by: VENDOR }]);
    expect(await webRequestFacts(seen, undefined)).toEqual({
      request: { publicIp: BROWSER, publicPort: 61000, at: seen.at },
      vendorPublicIp: VENDOR,
      forwarded: [{ by: VENDOR, for: BROWSER }],
    });
  });

  it("HMRC's example: a firewall, then two of the vendor's servers, each hop by and for", async () => {
    const waf = '2001:4860:85a3::8a2e:370:7334';
    const seen = seenRequest(
      arriving({
        remote: '176.30.57.117',
        port: 40000,
        local: '176.30.57.118',
        headers: { forwarded: `for=${BROWSER};by="[${waf}]", for="[${waf}]";by=${VENDOR}` },
        trusted: (a) => a !== BROWSER,
      }),
    );
    expect((await webRequestFacts(seen, undefined)).forwarded).toEqual([
      { by: waf, for: BROWSER },
      { by: VENDOR, for: waf },
      { by: '176.30.57.118', for: '176.30.57.117' },
    ]);
  });

  it('public means on the internet: private, loopback, link-local, shared and documentation addresses are not', () => {
    for (const a of ['10.0.0.1', '172.16.5.4', '192.168.0.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '203.0.113.6', '::1', 'fe80::1', 'fd00::1', '2001:db8::1', '200::1'])
      expect(isPublicIp(a), a).toBe(false);
    for (const a of [BROWSER, '8.8.8.8', '2a00:1450:4009:81f::200e']) expect(isPublicIp(a), a).toBe(true);
  });
});

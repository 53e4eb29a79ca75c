// What IT expects of the server over HTTP (issue 51), on both engines, in this
// process: health checks that answer a probe by any Host (not any Origin) and say nothing else,
// readiness that follows the database's migrations, request ids echoed and named
// by every 500 (REST and the desk), desk posts refused without a JSON type (415),
// HSTS over HTTPS, and Prometheus metrics on a listener of their own.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/main/api/server';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { fillDemo } from '../src/main/demo';
import pg from 'pg';
import { databaseOf, headlessBooks, onPostgres, testBooks } from './support/books';
import { rawRequest, tempDir } from './support/env';

const PASSWORD = 'correct horse battery staple';
let app: Headless;
let books: L.Ledger;
let org: L.Organization;
let token: string;
let txId: string;
let cookie: string;
const data = tempDir('ldk-service-http-');

beforeAll(async () => {
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {}, metrics: { listen: { host: '127.0.0.1', port: 0 } } });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  await books.forOrg(org.seq, () => fillDemo(books, org.seq, org.slug, 40, org.currency));
  token = (await books.forOrg(org.seq, () => L.createToken(books, org.seq, { name: 'agent', scopes: ['read', 'propose-write'] }))).token;
  txId = (await books.stmt("SELECT id FROM transactions WHERE org_seq = ? AND status = 'uncategorized' ORDER BY seq LIMIT 1").pluck().get(org.seq)) as string;
  cookie = /ldk_desk=([^;]*)/.exec((await fetch(app.signInUrl, { redirect: 'manual' })).headers.get('set-cookie') ?? '')![1];
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

const at = (path: string, options: Parameters<typeof rawRequest>[1] = {}) => rawRequest(`${app.server.url}${path}`, options);
const json = (body: string) => JSON.parse(body) as { error: { code: string; message: string; details: any } };

/** A fault the server cannot foresee, made in the database itself (no module of ours is stood in for): the notes table out of reach, then back. */
async function notesOutOfReach<T>(fn: () => Promise<T>): Promise<T> {
  const [away, back] = onPostgres
    ? ['REVOKE SELECT ON notes FROM ledgerdesk_app', 'GRANT SELECT ON notes TO ledgerdesk_app']
    : ['ALTER TABLE notes RENAME TO notes_away', 'ALTER TABLE notes_away RENAME TO notes'];
  await books.stmt(away).run();
  try {
    return await fn();
  } finally {
    await books.stmt(back).run();
  }
}

describe('health checks', () => {
  it('answer a probe by any Host (a container name, a pod address), saying only whether it lives and is ready; a foreign Origin is still refused', async () => {
    for (const host of ['127.0.0.1', 'ledgerdesk:7311', '10.1.2.3:7311']) {
      const live = await at('/healthz', { headers: { host } });
      expect([live.status, JSON.parse(live.body)]).toEqual([200, { status: 'ok' }]);
      const ready = await at('/readyz', { headers: { host } });
      expect([ready.status, JSON.parse(ready.body)]).toEqual([200, { status: 'ready' }]);
      expect(ready.headers['cache-control']).toBe('no-store');
    }
    // Every other route keeps the Host guard; every route, these too, the Origin guard.
    expect((await at('/api/v1/ontology.jsonld', { headers: { host: 'ledgerdesk:7311' } })).status).toBe(403);
    for (const path of ['/healthz', '/readyz']) {
      const foreign = await at(path, { headers: { host: 'ledgerdesk:7311', origin: 'https://elsewhere.example' } });
      expect([foreign.status, json(foreign.body).error.code]).toEqual([403, 'forbidden_origin']);
    }
    expect((await at('/healthz', { headers: { origin: app.server.url } })).status).toBe(200);
    expect((await at('/healthz', { method: 'POST' })).status).toBe(405);
    expect((await at('/healthz', { method: 'HEAD' })).status).toBe(200);
  });

  it("answer a container's probe at 127.0.0.1 or its name on a server with a public URL, whose other routes answer only that URL's host", async () => {
    const served = await startServer({ ledger: app.ledger, port: 0, log: () => {}, publicUrl: 'https://books.firm.example' });
    try {
      for (const host of [`127.0.0.1:${served.port}`, `ledgerdesk:${served.port}`, 'ledgerdesk', '172.18.0.5:7311']) {
        const live = await rawRequest(`http://127.0.0.1:${served.port}/healthz`, { headers: { host } });
        expect([host, live.status, JSON.parse(live.body)]).toEqual([host, 200, { status: 'ok' }]);
        expect((await rawRequest(`http://127.0.0.1:${served.port}/readyz`, { headers: { host } })).status).toBe(200);
      }
      const other = await rawRequest(`http://127.0.0.1:${served.port}/api/v1/ontology.jsonld`, { headers: { host: `ledgerdesk:${served.port}` } });
      expect([other.status, json(other.body).error.code]).toEqual([403, 'forbidden_host']);
      expect((await rawRequest(`http://127.0.0.1:${served.port}/api/v1/ontology.jsonld`, { headers: { host: 'books.firm.example' } })).status).toBe(200);
      const foreign = await rawRequest(`http://127.0.0.1:${served.port}/healthz`, { headers: { host: 'ledgerdesk', origin: 'https://elsewhere.example' } });
      expect(foreign.status).toBe(403);
      expect((await rawRequest(`http://127.0.0.1:${served.port}/healthz`, { headers: { origin: 'https://books.firm.example' } })).status).toBe(200);
    } finally {
      await served.close();
    }
  });

  it('say "not ready" while the database holds a migration this build does not know (a newer build migrated it), and ready again without it', async () => {
    const [add, remove] = onPostgres
      ? ["INSERT INTO ledgerdesk_migrations (name, hash) VALUES ('9999_newer.sql', 'x')", "DELETE FROM ledgerdesk_migrations WHERE name = '9999_newer.sql'"]
      : ["INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('newer', 99999999999999)", "DELETE FROM __drizzle_migrations WHERE hash = 'newer'"];
    await books.stmt(add).run();
    try {
      const ready = await at('/readyz');
      expect([ready.status, JSON.parse(ready.body)]).toEqual([503, { status: 'unavailable' }]);
      expect((await at('/healthz')).status).toBe(200);
    } finally {
      // Not through the books: with a migration it does not know, this build writes nothing there (an outdated build).
      if (onPostgres) {
        const raw = new pg.Client({ connectionString: databaseOf(data) });
        await raw.connect();
        await raw.query(remove).finally(() => raw.end());
      } else await books.stmt(remove).run();
    }
    expect((await at('/readyz')).status).toBe(200);
  });
});

describe('request ids', () => {
  it("echo a caller's sane X-Request-Id, and make one for a missing or odd one", async () => {
    const given = await at('/api/v1/categories', { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-42.a:b' } });
    expect([given.status, given.headers['x-request-id']]).toEqual([200, 'trace-42.a:b']);
    for (const odd of [undefined, 'two words', 'x'.repeat(129), 'quote"d']) {
      const made = await at('/api/v1/categories', { headers: { authorization: `Bearer ${token}`, ...(odd === undefined ? {} : { 'x-request-id': odd }) } });
      expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('are named by every 500, in the message and as details.requestId, over REST, at the desk and over MCP', async () => {
    const rest = await notesOutOfReach(() => at(`/api/v1/transactions/${txId}`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'find-me-1' } }));
    expect(rest.status).toBe(500);
    expect(json(rest.body).error).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side; the server log has the details (request id find-me-1).',
      details: { requestId: 'find-me-1' },
    });
    expect(rest.body).not.toMatch(/notes|SELECT|at \w+ \(/); // no stack, no SQL
    const desk = await notesOutOfReach(() =>
      at('/desk/api/getTransaction', {
        method: 'POST',
        headers: { cookie: `ldk_desk=${cookie}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orgId: org.id, id: txId }),
      }),
    );
    expect(desk.status).toBe(500);
    const made = desk.headers['x-request-id'] as string;
    expect(json(desk.body).error.details).toEqual({ requestId: made });
    expect(json(desk.body).error.message).toContain(`(request id ${made})`);
    // A tool call's error names it too (the official SDK client over the tool bridge).
    const client = new Client({ name: 'service-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const tool = await notesOutOfReach(() => client.callTool({ name: 'get_transaction', arguments: { id: txId } }));
    await client.close();
    expect(tool.isError).toBe(true);
    const toolError = JSON.parse((tool.content as { text: string }[])[0].text) as { error: { code: string; details: { requestId: string } } };
    expect(toolError.error).toMatchObject({ code: 'internal_error', details: { requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    // The books are whole again: the same read answers.
    expect((await at(`/api/v1/transactions/${txId}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe('desk posts', () => {
  const post = (path: string, headers: Record<string, string>, body = '{}') => at(path, { method: 'POST', headers, body });

  it('are refused with 415 without Content-Type: application/json (sign-in, operations, sign-out), an upload without octet-stream too', async () => {
    const signIn = await post('/desk/sign-in', {}, JSON.stringify({ email: 'ann@firm.example', password: PASSWORD }));
    expect([signIn.status, json(signIn.body).error.code, json(signIn.body).error.details]).toEqual([
      415,
      'unsupported_media_type',
      { contentType: null, expected: 'application/json' },
    ]);
    expect((await post('/desk/invitation', { 'content-type': 'text/plain' }, JSON.stringify({ code: 'x', password: PASSWORD }))).status).toBe(415);
    const op = await post('/desk/api/whoAmI', { cookie: `ldk_desk=${cookie}` });
    expect([op.status, json(op.body).error.code]).toEqual([415, 'unsupported_media_type']);
    expect((await post('/desk/api/sign-out', { cookie: `ldk_desk=${cookie}` }, '')).status).toBe(415);
    expect((await post('/desk/api/sign-out-everywhere', { cookie: `ldk_desk=${cookie}` })).status).toBe(415);
    const upload = await post(`/desk/api/uploadReceipt?orgId=${org.id}&fileName=a.png`, { cookie: `ldk_desk=${cookie}`, 'content-type': 'application/json' }, '{}');
    expect([upload.status, json(upload.body).error.details.expected]).toEqual([415, 'application/octet-stream']);
    // The session was not ended by the refused sign-out, and a typed call works.
    expect((await post('/desk/api/whoAmI', { cookie: `ldk_desk=${cookie}`, 'content-type': 'application/json' })).status).toBe(200);
  });

  it('leave the agent API as v1 has it: a token, never a cookie, so an untyped JSON body is still read', async () => {
    const res = await post('/api/v1/notes', { authorization: `Bearer ${token}` }, JSON.stringify({ transactionId: txId, content: 'untyped but JSON' }));
    expect(res.status).toBe(201);
  });
});

describe('HSTS', () => {
  it('is sent on every answer of a server reached over HTTPS (a proxy at an https public URL), never on plain loopback', async () => {
    const served = await startServer({ ledger: app.ledger, port: 0, log: () => {}, publicUrl: 'https://books.firm.example' });
    try {
      for (const path of ['/api/v1/ontology.jsonld', '/healthz', '/nowhere'])
        expect((await rawRequest(`http://127.0.0.1:${served.port}${path}`, { headers: { host: 'books.firm.example' } })).headers['strict-transport-security']).toBe(
          'max-age=31536000',
        );
    } finally {
      await served.close();
    }
    expect((await at('/api/v1/ontology.jsonld')).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('metrics', () => {
  const scrape = async () => (await fetch(app.metricsUrl!)).text();

  it('count requests by route template and status, their latency, proposals made and reviewed, and the pool on PostgreSQL', async () => {
    expect(app.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const other = (await books.stmt("SELECT id FROM transactions WHERE org_seq = ? AND status = 'uncategorized' ORDER BY seq DESC LIMIT 1").pluck().get(org.seq)) as string;
    const propose = () =>
      fetch(`${app.server.url}/api/v1/proposals/categorization`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ transactionId: other, categoryCode: '5100' }),
      });
    const proposed = await propose();
    expect(proposed.status).toBe(201);
    // The same change proposed again answers the pending one: not another proposal, not counted.
    expect((await propose()).status).toBe(200);
    const id = ((await proposed.json()) as { data: { id: string } }).data.id;
    const reviewed = await at('/desk/api/reviewProposals', {
      method: 'POST',
      headers: { cookie: `ldk_desk=${cookie}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orgId: org.id, ids: [id], decision: 'approve' }),
    });
    expect(reviewed.status).toBe(200);
    expect((await at(`/api/v1/transactions/${other}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const text = await scrape();
    expect(text).toMatch(/^ledgerdesk_http_requests_total\{method="GET",route="\/api\/v1\/transactions\/\{id\}",status="200"\} [1-9]/m);
    expect(text).toMatch(/^ledgerdesk_http_requests_total\{method="POST",route="\/desk\/api\/reviewProposals",status="200"\} 1$/m);
    expect(text).toMatch(/^ledgerdesk_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/v1\/transactions\/\{id\}"\} [1-9]/m);
    expect(text).toMatch(/^ledgerdesk_proposals_created_total\{type="categorization",channel="rest"\} 1$/m);
    expect(text).toMatch(/^ledgerdesk_proposals_reviewed_total\{type="categorization",decision="approved"\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
    // Ids never become labels: a row's id is in no series.
    expect(text).not.toContain(other);
    expect(/^ledgerdesk_db_pool_in_use \d+$/m.test(text)).toBe(onPostgres);
    expect(/^ledgerdesk_db_pool_waiting \d+$/m.test(text)).toBe(onPostgres);
    expect((await fetch(app.metricsUrl!.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('are off unless asked for, and behind a bearer token when one is set', async () => {
    const data = tempDir('ldk-service-metrics-');
    const plain = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {} });
    expect(plain.metricsUrl).toBeUndefined();
    await plain.stop();
    const guarded = await startHeadless(data, {
      ...headlessBooks(data),
      port: 0,
      rendererDir: tempDir(),
      log: () => {},
      metrics: { listen: { host: '127.0.0.1', port: 0 }, token: 'scrape-secret' },
    });
    try {
      expect((await fetch(guarded.metricsUrl!)).status).toBe(401);
      expect((await fetch(guarded.metricsUrl!, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(guarded.metricsUrl!, { headers: { authorization: 'Bearer scrape-secret' } });
      expect([ok.status, ok.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/plain; version=0\.0\.4/)]);
    } finally {
      await guarded.stop();
    }
  });
});

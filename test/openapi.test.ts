// The OpenAPI document tells the whole truth: every operation is probed over
// real HTTP with each way a request can go wrong, and every status (with its
// error.code) the server answers must be documented for that operation, and
// every documented one must have been answered, internal_error and unavailable (a stopping server) aside.
import { Validator } from '@seriousme/openapi-schema-validator';
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations, type Operation } from '../src/main/api/registry';
import { call, rawRequest, world, type World } from './support/env';

let w: World;
let doc: any;
const GHOST = '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a';
let tx: L.Transaction;
let receipt: L.Receipt;
let proposalId: string;
/** A row whose tax a filed return took: a categorization of it is refused with 409 period_locked. */
let filedRow: L.HandRow;

beforeAll(async () => {
  w = await world(200);
  tx = (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 1, offset: 0 })).data[0];
  receipt = (await L.searchReceipts(w.ledger, w.orgA.seq, 'invoice'))[0];
  // One invoice, so that get_invoice has something to answer.
  await L.addContact(w.ledger, w.orgA.seq, L.deskActor(), { name: 'Probe customer', customer: true });
  await L.createDocument(
    w.ledger,
    w.orgA.seq,
    L.deskActor(),
    { contact: 'Probe customer', lines: [{ description: 'x', quantity: 1, unitPrice: 1, categoryCode: '4000' }] },
    { kind: 'invoice' },
  );
  await L.setupTaxSet(w.ledger, w.orgA.seq, L.deskActor(), 'uk-vat');
  const account = (await L.listAccounts(w.ledger, w.orgA.seq))[0].name;
  filedRow = await L.addTransaction(w.ledger, w.orgA.seq, L.deskActor(), {
    account,
    date: '2020-01-15',
    amount: -12,
    description: 'Filed row',
    categoryCode: '5100',
    taxCode: 'S',
  });
  await L.fileTaxReturn(w.ledger, w.orgA.seq, L.deskActor(), { from: '2020-01-01', to: '2020-03-31' });
  doc = (await call(w.base, 'GET', '/openapi.json')).json;
  const made = await call(w.base, 'POST', '/proposals/categorization', { token: w.tokenA, body: { transactionId: tx.id, categoryCode: '5100' } });
  proposalId = made.json.data.id;
});

/** A request that succeeds, and one that names an id that does not exist (for operations that can answer 404). */
function requests(op: Operation): { path: string; body?: unknown; ghost?: { path: string; body?: unknown } } {
  const id = op.path.startsWith('/transactions') ? tx.id : op.path.startsWith('/receipts') ? receipt.id : op.path.startsWith('/invoices') ? 'INV-0001' : proposalId;
  const path = op.path.replace('{id}', id);
  const ghostPath = op.path.replace('{id}', GHOST);
  switch (op.operationId) {
    case 'search_receipts':
      return { path: `${path}?q=invoice` };
    case 'list_notes':
      return { path: `${path}?transactionId=${tx.id}`, ghost: { path: `${path}?transactionId=${GHOST}` } };
    case 'propose_categorization':
      return { path, body: { transactionId: tx.id, categoryCode: '5300' }, ghost: { path, body: { transactionId: GHOST, categoryCode: '5300' } } };
    case 'propose_journal_entry':
      return { path, body: { date: '2026-01-02', description: 'Coffee', amount: -3.5 } };
    case 'propose_receipt_link':
      return { path, body: { transactionId: tx.id, receiptId: receipt.id }, ghost: { path, body: { transactionId: tx.id, receiptId: GHOST } } };
    case 'attach_note':
    case 'create_note':
      return { path, body: { transactionId: tx.id, content: 'checked' }, ghost: { path, body: { transactionId: GHOST, content: 'x' } } };
    default:
      return { path, ...(op.path.includes('{id}') ? { ghost: { path: ghostPath } } : {}) };
  }
}

/** Each way in: [label, status, error.code or null, response]. */
async function probe(op: Operation): Promise<[string, number, string | null][]> {
  const { path, body, ghost } = requests(op);
  const token = op.scope ? w.tokenA : undefined;
  const otherScope = op.scope === 'read' ? w.writeOnlyA : w.readOnlyA;
  const send = async (label: string, p: string, options: Parameters<typeof call>[3]) =>
    call(w.base, op.method, p, options).then((r) => [label, r.status, r.json?.error?.code ?? null] as [string, number, string | null]);
  const withQuery = (p: string, q: string) => `${p}${p.includes('?') ? '&' : '?'}${q}`;
  const url = new URL(w.base);
  const raw = async (label: string, headers: Record<string, string>) => {
    const r = await rawRequest(`${w.base}${path}`, {
      method: op.method,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return [label, r.status, JSON.parse(r.body || '{}')?.error?.code ?? null] as [string, number, string | null];
  };
  const answers = [
    await send('valid', path, { token, body }),
    await send('unknown query parameter', withQuery(path, 'zz=1'), { token, body }),
    await raw('foreign Host', { host: 'evil.example' }),
    await raw('foreign Origin', { host: url.host, origin: 'https://evil.example' }),
  ];
  if (op.scope) {
    answers.push(await send('no token', path, { body }));
    answers.push(await send('the other scope only', path, { token: otherScope, body }));
    // A client's token (issue 45) reads what a client reads: the rest is forbidden.
    answers.push(await send("a client's token", path, { token: w.clientA, body }));
  }
  if (ghost) answers.push(await send('unknown id', ghost.path, { token, body: ghost.body }));
  if (op.body) {
    answers.push(await send('malformed JSON', path, { token, rawBody: '{"x":', headers: { 'content-type': 'application/json' } }));
    answers.push(await send('not JSON', path, { token, rawBody: 'x=1', headers: { 'content-type': 'text/plain' } }));
    answers.push(await send('over 1 MiB', path, { token, rawBody: JSON.stringify({ content: 'x'.repeat(1024 * 1024) }), headers: { 'content-type': 'application/json' } }));
    answers.push(await send('a field missing', path, { token, body: {} }));
    const key = `probe-${op.operationId}`;
    answers.push(await send('a new Idempotency-Key', path, { token, body, headers: { 'idempotency-key': key } }));
    answers.push(
      await send('the key again, another body', path, {
        token,
        body: { ...(body as object), ...('content' in (body as object) ? { content: 'changed' } : { confidence: 0.5 }) },
        headers: { 'idempotency-key': key },
      }),
    );
    answers.push(await keyInUse(path, op.method, token!, body));
  }
  if (op.alsoAnswers) {
    answers.push(await send('the same change again', path, { token, body }));
    const pending = (await L.listPendingProposals(w.ledger, w.orgA.seq, { limit: 1, offset: 0 })).proposals[0];
    await L.reviewProposal(w.ledger, w.orgA.seq, pending.id, 'reject', L.deskActor(), 'Not this one');
    answers.push(await send('the same change once rejected', path, { token, body }));
  }
  if (op.errors.includes('period_locked')) {
    await L.lockPeriod(w.ledger, w.orgA.seq, L.deskActor(), '2026-12-31', 'probe');
    answers.push(await send('dated in a closed period', path, { token, body: { ...(body as object), confidence: 0.4 } }));
    await L.unlockPeriod(w.ledger, w.orgA.seq, L.deskActor(), 'probe done');
  }
  if (op.operationId === 'propose_categorization') {
    answers.push(await send('a row whose tax a filed return took', path, { token, body: { transactionId: filedRow.id, categoryCode: '5300' } }));
  }
  return answers;
}

/** A second request with a key whose first request is still sending its body. */
async function keyInUse(path: string, method: string, token: string, body: unknown): Promise<[string, number, string | null]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `busy-${path}-${method}` };
  const text = JSON.stringify(body);
  const first = request(`${w.base}${path}`, { method, headers: { ...headers, 'content-length': Buffer.byteLength(text) } });
  first.on('error', () => {});
  first.write(text.slice(0, 5));
  await new Promise((r) => setTimeout(r, 50));
  const second = await rawRequest(`${w.base}${path}`, { method, headers, body: text });
  first.end(text.slice(5));
  await new Promise((r) => first.on('response', (res) => res.resume().on('end', r)));
  return ['the key while its first request is sent', second.status, JSON.parse(second.body).error?.code ?? null];
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 with a tag and a description on every operation and parameter, a license and a contact', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.info.contact.name).toBeTruthy();
    const tags = new Set(doc.tags.map((t: { name: string }) => t.name));
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, o] of Object.entries<any>(methods)) {
        expect(o.tags, `${method} ${path}`).toHaveLength(1);
        expect(tags.has(o.tags[0]), o.tags[0]).toBe(true);
        expect(o.description, `${method} ${path}`).toBeTruthy();
        for (const p of o.parameters ?? []) expect(p.description, `${method} ${path} ${p.name}`).toBeTruthy();
      }
    }
  });

  it.each(operations.map((op) => [op.operationId, op] as const))('documents exactly the statuses and error codes %s answers', async (_id, op) => {
    const documented = doc.paths[op.path][op.method.toLowerCase()].responses as Record<string, any>;
    const codesOf = (status: number): string[] => documented[status]?.content['application/json'].schema.allOf?.[1].properties.error.properties.code.enum ?? [];
    const answered = await probe(op);
    const seen = new Set<string>();
    for (const [label, status, code] of answered) {
      expect(Object.keys(documented), `${label}: ${status} ${code}`).toContain(String(status));
      if (status >= 400) {
        expect(codesOf(status), `${label}: ${status}`).toContain(code);
        seen.add(`${status} ${code}`);
      } else seen.add(String(status));
    }
    const promised = Object.keys(documented).flatMap((s) => (Number(s) < 400 ? [s] : codesOf(Number(s)).map((c) => `${s} ${c}`)));
    // A read replica's and an outdated build's refusals happen on PostgreSQL only: answered in
    // test/postgres-replica.test.ts and test/postgres.test.ts.
    const elsewhere = ['500 internal_error', '503 unavailable', '503 read_only', '503 outdated_build'];
    expect(
      promised.filter((p) => !elsewhere.includes(p) && !seen.has(p)),
      'documented but never answered',
    ).toEqual([]);
  });
});

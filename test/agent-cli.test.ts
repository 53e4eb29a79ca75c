// The agent commands as child processes against a real server: the same
// answers as REST, the exit codes, the token sources, a server that is down.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations } from '../src/main/api/registry';
import { call, tempDir, world, type World } from './support/env';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');

let w: World;
let config: string;
let txA: L.Transaction;
let receiptA: L.Receipt;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Async, so the in-process server keeps answering while the child runs. */
function ledgerdesk(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: root,
    env: { ...process.env, LEDGERDESK_TOKEN: undefined, LEDGERDESK_URL: w.server.url, LEDGERDESK_CONFIG: config, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const agent = (args: string[], env: Record<string, string | undefined> = {}) => ledgerdesk(args, { LEDGERDESK_TOKEN: w.tokenA, ...env });
const rest = async (path: string) => (await call(w.base, 'GET', path, { token: w.tokenA })).json;

beforeAll(async () => {
  w = await world(200);
  config = join(tempDir('ldk-cli-'), 'config', 'cli.json');
  txA = (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 1, offset: 0 })).data[0];
  receiptA = (await L.searchReceipts(w.ledger, w.orgA.seq, 'invoice'))[0];
});

describe('agent commands', () => {
  it('prints each read exactly as REST sent it with --json, in both spellings', async () => {
    const proposal = await L.proposeNote(
      w.ledger,
      w.orgA.seq,
      { type: 'token', tokenSeq: 1, tokenId: w.tokenAId, tokenName: 'A agent', channel: 'rest' },
      { transactionId: txA.id, content: 'cli' },
    );
    const reads: [string[], string][] = [
      [['get_ontology'], '/ontology.jsonld'],
      [['get-ontology-context'], '/ontology/context.jsonld'],
      [['list-transactions', '--status', 'uncategorized', '--limit', '5', '--offset', '1'], '/transactions?status=uncategorized&limit=5&offset=1'],
      [['list_transactions', '--date-from', '2024-01-01', '--dateTo', '2024-06-30'], '/transactions?dateFrom=2024-01-01&dateTo=2024-06-30'],
      [['get_transaction', txA.id], `/transactions/${txA.id}`],
      [['get-transaction', '--id', txA.id], `/transactions/${txA.id}`],
      [['get_dashboard_summary'], '/dashboard/summary'],
      [['search_receipts', '--q', 'invoice'], '/receipts/search?q=invoice'],
      [['get_receipt', receiptA.id], `/receipts/${receiptA.id}`],
      [['list_categories'], '/categories'],
      [['list_connectors'], '/connectors'],
      [['list_pending_proposals'], '/proposals'],
      [['get_proposal', proposal.id], `/proposals/${proposal.id}`],
      [['list_notes', '--transaction-id', txA.id], `/notes?transactionId=${txA.id}`],
    ];
    const runs = await Promise.all(reads.map(([args]) => agent([...args, '--json'])));
    for (const [i, [args, path]] of reads.entries()) {
      expect(runs[i].code, `${args.join(' ')}: ${runs[i].stderr}`).toBe(0);
      expect(JSON.parse(runs[i].stdout), args.join(' ')).toEqual(await rest(path));
    }
  });

  it('prints lists as aligned tables and single items as key/value lines', async () => {
    const list = await agent(['list_transactions', '--status', 'uncategorized', '--limit', '3']);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+date\s+amount\s+currency\s+description/);
    expect(lines[1]).toMatch(/^-+ +-+/);
    expect(lines.slice(2, 5).every((l) => l.indexOf(' ', 36) === 36)).toBe(true);
    const total = (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 1, offset: 0 })).meta.totalCount;
    expect(lines.at(-1)).toBe(`1-3 of ${total}`);
    const one = await agent(['get_receipt', receiptA.id]);
    expect(one.stdout).toMatch(new RegExp(`^id +${receiptA.id}$`, 'm'));
    expect(one.stdout).toMatch(/^fileName +\S+/m);
  });

  it('runs the categorization workflow: categories, work, detail, proposal, pending', async () => {
    const categories = JSON.parse((await agent(['list_categories', '--json'])).stdout).data as L.Category[];
    const code = categories.find((c) => c.name === 'Cloud infrastructure')!.code;
    const work = JSON.parse((await agent(['list_transactions', '--status', 'uncategorized', '--limit', '50', '--json'])).stdout).data as L.Transaction[];
    const target = work.at(-1)!;
    expect((await agent(['get_transaction', target.id])).code).toBe(0);
    const proposed = await agent([
      'propose-categorization',
      '--transaction-id',
      target.id,
      '--category-code',
      code,
      '--confidence',
      '0.85',
      '--reason',
      'Monthly AWS bill',
      '--evidence',
      'counterparty_match=AWS:invoice AWS-77',
      '--evidence',
      '{"type":"keyword","value":"aws"}',
      '--json',
    ]);
    expect(proposed.code, proposed.stderr).toBe(0);
    const proposal = JSON.parse(proposed.stdout).data as L.Proposal;
    expect(proposal).toMatchObject({ status: 'pending', proposedBy: `mcp:${w.tokenAId}`, confidence: 0.85, reason: 'Monthly AWS bill' });
    expect(proposal.payload).toMatchObject({
      transactionId: target.id,
      categoryCode: code,
      evidence: [
        { type: 'counterparty_match', value: 'AWS', detail: 'invoice AWS-77' },
        { type: 'keyword', value: 'aws' },
      ],
    });
    const pending = await agent(['list_pending_proposals']);
    expect(pending.stdout).toContain(proposal.id);
    // The same change again: the pending proposal, said on stderr; a write under a key runs once.
    const again = await agent(['propose-categorization', '--transaction-id', target.id, '--category-code', code, '--json']);
    expect([again.code, JSON.parse(again.stdout).data.id]).toEqual([0, proposal.id]);
    expect(again.stderr).toContain('already pending');
    const note = ['attach_note', '--transaction-id', target.id, '--content', 'Paid twice?', '--idempotency-key', 'cli-note-1', '--json'];
    const first = await agent(note);
    const replay = await agent(note);
    expect([first.code, replay.code, JSON.parse(replay.stdout).data.id]).toEqual([0, 0, JSON.parse(first.stdout).data.id]);
    expect(replay.stderr).toContain('--idempotency-key');
    expect((await agent(['list_transactions', '--idempotency-key', 'x'])).code).toBe(2);
    expect((await L.getTransaction(w.ledger, w.orgA.seq, target.id)).transaction.status).toBe('uncategorized');
  });

  it('makes the other proposals and the deprecated direct note', async () => {
    const runs = await Promise.all([
      agent(['propose_journal_entry', '--date', '2025-02-28', '--description', 'Bank fee', '--amount', '-4.5', '--category-code', '5000', '--json']),
      agent(['propose_receipt_link', '--transaction-id', txA.id, '--receipt-id', receiptA.id, '--json']),
      agent(['attach_note', '--transaction-id', txA.id, '--content', 'Check with client', '--json']),
      agent(['create_note', '--transaction-id', txA.id, '--content', 'Direct', '--json']),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(runs.slice(0, 3).map((r) => JSON.parse(r.stdout).data.type)).toEqual(['journal_entry', 'receipt_link', 'note']);
    expect(JSON.parse(runs[3].stdout).data).toMatchObject({ transactionId: txA.id, content: 'Direct' });
  });

  it('has no approve or reject command, and a command for every operation', async () => {
    for (const command of ['approve', 'reject']) {
      const run = await agent([command, 'x']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/Approvals screen/);
    }
    const help = await ledgerdesk(['help']);
    for (const op of operations) expect(help.stdout).toContain(op.operationId);
    const commandHelp = await ledgerdesk(['propose_categorization', '--help']);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain(operations.find((o) => o.operationId === 'propose_categorization')!.description);
    expect(commandHelp.stdout).toMatch(/--category-code/);
  });
});

describe('exit codes', () => {
  it('exits 2 with the usage for unknown commands, flags and bad values', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /Unknown command "frobnicate"/],
      [['list_transactions', '--bogus', '1'], /Unknown option '--bogus'/],
      [['list_transactions', '--limit', 'abc'], /--limit must be a number/],
      [['list_transactions', '--limit', '501'], /--limit: must be at most 500/],
      [['list_transactions', '--status', 'bogus'], /--status: /],
      [['propose_categorization', '--category-code', '5300'], /--transaction-id: is required/],
      [['propose_categorization', '--transaction-id', txA.id, '--evidence', 'nonsense'], /--evidence: expected JSON or type=value/],
      [['get_transaction', 'not-a-uuid'], /--id: must be a uuid/],
    ];
    const runs = await Promise.all(cases.map(([args]) => agent(args)));
    for (const [i, [args, message]] of cases.entries()) {
      expect(runs[i].code, args.join(' ')).toBe(2);
      expect(runs[i].stderr, args.join(' ')).toMatch(message);
      expect(runs[i].stderr).toMatch(/Usage: ledgerdesk/);
    }
  });

  it('exits 1 with the API error code, message and details', async () => {
    const unknown = await agent(['propose_categorization', '--transaction-id', txA.id, '--category', 'Snacks']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/validation_failed \(HTTP 400\)/);
    expect(unknown.stderr).toMatch(/^ {2}category: "Snacks" is not a category/m);
    const ghost = await agent(['get_transaction', '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a', '--json']);
    expect(ghost.code).toBe(1);
    expect(JSON.parse(ghost.stdout).error.code).toBe('not_found');
    const scope = await ledgerdesk(['attach_note', '--transaction-id', txA.id, '--content', 'x'], { LEDGERDESK_TOKEN: w.readOnlyA });
    expect(scope.code).toBe(1);
    expect(scope.stderr).toMatch(/insufficient_scope \(HTTP 403\)/);
  });

  it('exits 1 with the 401 for a missing, wrong or revoked token, never printing it', async () => {
    const missing = await ledgerdesk(['list_categories']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no token/);
    const token = await L.createToken(w.ledger, w.orgA.seq, { name: 'to revoke', scopes: ['read'] });
    expect((await ledgerdesk(['list_categories', '--token', token.token])).code).toBe(0);
    await L.revokeToken(w.ledger, w.orgA.seq, token.info.id);
    const revoked = await ledgerdesk(['list_categories', '--token', token.token]);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/unauthorized \(HTTP 401\)/);
    expect(revoked.stderr + revoked.stdout).not.toContain(token.token);
  });

  it('explains a server that is not running', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await agent(['list_categories'], { LEDGERDESK_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Could not reach Ledgerdesk at http://127.0.0.1:${port} (connection refused)`);
    expect(run.stderr).toMatch(/npm start/);
  });
});

describe('login', () => {
  it('checks the token, saves it 0600 and uses it; flags beat the environment, which beats the file', async () => {
    const bad = await ledgerdesk(['login', '--url', w.server.url], {}, 'ldk_live_nope\n');
    expect(bad.code).toBe(1);
    const good = await ledgerdesk(['login', '--url', w.server.url], {}, `${w.readOnlyA}\n`);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).not.toContain(w.readOnlyA);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    const saved = await ledgerdesk(['list_pending_proposals', '--json'], { LEDGERDESK_URL: undefined });
    expect(saved.code, saved.stderr).toBe(0);
    const write = await ledgerdesk(['attach_note', '--transaction-id', txA.id, '--content', 'x'], { LEDGERDESK_URL: undefined });
    expect(write.stderr).toMatch(/insufficient_scope/); // the saved read-only token was used
    const env = await ledgerdesk(['attach_note', '--transaction-id', txA.id, '--content', 'x'], { LEDGERDESK_TOKEN: w.tokenA });
    expect(env.code, env.stderr).toBe(0);
    const flag = await ledgerdesk(['attach_note', '--transaction-id', txA.id, '--content', 'x', '--token', w.writeOnlyA]);
    expect(flag.code, flag.stderr).toBe(0);
    expect((await ledgerdesk(['logout'])).code).toBe(0);
    expect((await ledgerdesk(['list_categories'])).stderr).toMatch(/no token/);
  });
});

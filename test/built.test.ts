// The `ledgerdesk` command as a user runs it: the built JavaScript (out/cli,
// made by `npm install`; test/global-setup.ts builds it when the sources are
// newer), not the TypeScript sources the other suites run.
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCommands } from '../src/cli/agent';
import { ownerCommands } from '../src/cli/commands';
import { deskOperations } from '../src/main/desk/operations';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');
const built = { ...process.env, LEDGERDESK_SOURCE: '' };
const run = (args: string[], env: NodeJS.ProcessEnv = built) => spawnSync(process.execPath, [BIN, ...args], { cwd: root, encoding: 'utf8', env, timeout: 60_000 });

interface Meta {
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown> }>;
}

/** Everything a chunk loads before its code runs: its static imports, transitively (dynamic imports load later, if ever). */
function eager(meta: Meta, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const i of meta.outputs[file]?.imports ?? []) if (i.kind === 'import-statement') eager(meta, i.path, seen);
  return seen;
}

/** A built command run with every ES module it loads printed (test/support/loads.mjs): the sources behind the built files. */
function traced(args: string[]): { stdout: string; urls: string[]; sources: string[] } {
  const r = spawnSync(process.execPath, ['--import', './test/support/loads.mjs', BIN, ...args], { cwd: root, encoding: 'utf8', env: built });
  expect(r.status, r.stderr).toBe(0);
  const meta = JSON.parse(readFileSync(join(root, 'out', 'cli', 'meta.json'), 'utf8')) as Meta;
  const urls = [...r.stderr.matchAll(/^loads (\S+)$/gm)].map((m) => m[1]);
  // meta.json names outputs from the folder the build swapped in.
  const sources = urls
    .filter((u) => u.includes('/out/cli/'))
    .flatMap((u) => {
      const output = Object.keys(meta.outputs).find((o) => o.endsWith(`/${u.split('/out/cli/')[1]}`));
      return output ? Object.keys(meta.outputs[output].inputs) : [];
    });
  return { stdout: r.stdout, urls, sources };
}

describe('the built command', () => {
  it('prints its version and the same help as the sources', () => {
    const version = run(['--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
    const help = run(['--help']);
    const fromSources = run(['--help'], { ...process.env, LEDGERDESK_SOURCE: '1' });
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(fromSources.stdout);
    expect(help.stdout).toContain('list_transactions');
    expect(help.stdout).toContain('report pl');
  });

  it('loads neither the database driver nor the servers for help and agent commands, nor the servers for owner commands', () => {
    const meta = JSON.parse(readFileSync(join(root, 'out', 'cli', 'meta.json'), 'utf8')) as Meta;
    const outputs = Object.keys(meta.outputs);
    const chunk = (name: string) => outputs.find((o) => new RegExp(`/${name}(-[A-Z0-9]+)?\\.js$`).test(o))!;
    const holds = (files: Set<string>, what: RegExp) =>
      [...files].filter(
        (f) => Object.keys(meta.outputs[f]?.inputs ?? {}).some((i) => what.test(i)) || (meta.outputs[f]?.imports ?? []).some((i) => i.external && what.test(i.path)),
      );
    const servers = /node_modules\/(express|@modelcontextprotocol|@hono)\//;
    const driver = /^better-sqlite3$|^drizzle-orm/;
    for (const name of ['index', 'agent']) {
      const loaded = eager(meta, chunk(name));
      expect(holds(loaded, servers), name).toEqual([]);
      expect(holds(loaded, driver), name).toEqual([]);
    }
    const owner = eager(meta, chunk('owner'));
    expect(holds(owner, servers)).toEqual([]);
    expect(holds(owner, driver).length).toBeGreaterThan(0);
    expect(holds(eager(meta, chunk('headless')), servers).length).toBeGreaterThan(0);
  });

  it('runs an owner command loading its own group of operations alone: not the others, the agent client or drizzle', () => {
    const data = tempDir();
    expect(run(['demo', '--data', data, '--transactions', '20']).status).toBe(0);
    const listed = traced(['account', 'list', '--data', data]);
    expect(listed.stdout).toContain('Operating account');
    const { sources, urls } = listed;
    expect(sources).toContain('src/main/desk/accounts/accounts.ts');
    expect(sources.filter((s) => /^src\/main\/desk\/(tax|documents|journals|reports)\//.test(s) || s === 'src/main/desk/operations.ts')).toEqual([]);
    expect(sources.filter((s) => /^src\/cli\/(agent|client)\.ts$|^src\/main\/api\/registry\.ts$/.test(s))).toEqual([]);
    expect(urls.filter((u) => /drizzle-orm|node:http$|node:child_process/.test(u))).toEqual([]);
    // The domain by concern (issue 51): the accounts' and what they stand on, not the other concerns the domain's
    // index names (of the journals, only the look for a repeat due: the next test); the fields of an input, not the
    // API's resource schemas; zod's parts in use, not its compiler.
    expect(
      sources.filter((s) => /^src\/main\/ledger\/(documents|imports|tax|reports|rules|proposals|transactions)\/|^src\/main\/ledger\/journals\/(?!repeat-row|numbers)/.test(s)),
    ).toEqual([]);
    expect(sources).toContain('src/main/api/fields.ts');
    expect(sources.filter((s) => s === 'src/main/api/schemas.ts' || /zod\/v4\/(core\/compile|classic\/from-json-schema)\.js$/.test(s))).toEqual([]);
  });

  it('lists tokens without loading the demo books, the server or its packages', () => {
    const data = tempDir();
    expect(run(['demo', '--data', data, '--transactions', '20']).status).toBe(0);
    const listed = traced(['token', 'list', '--data', data]);
    expect(listed.sources.filter((s) => /^src\/main\/demo\.ts$|^src\/cli\/serve\.ts$|node_modules\/(express|@modelcontextprotocol|@hono)\//.test(s))).toEqual([]);
  });

  it("makes a repeating journal's occurrence due by today when an owner command opens the books, loading the journal writer only then", () => {
    const data = tempDir();
    const at = ['--data', data, '--org', 'studio'];
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    for (const args of [
      ['org', 'create', 'studio', '--name', 'Hartley Studio', '--currency', 'GBP', '--data', data],
      ['category', 'add', '2100', '--name', 'Accumulated depreciation', '--type', 'liability', ...at],
      ['journal', 'add', '--date', yesterday, '--narration', 'Depreciation', '--line', '5200=100', '--line', '2100=-100', '--repeat', 'monthly', ...at],
    ]) {
      const r = run(args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const made = () => {
      const db = new Database(join(data, 'ledger.db'), { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM journals WHERE repeat_seq IS NOT NULL').pluck().get();
      } finally {
        db.close();
      }
    };
    const writer = 'src/main/ledger/journals/repeats.ts';
    expect(traced(['account', 'list', ...at]).sources).not.toContain(writer);
    expect(made()).toBe(1);
    // As if a month had passed: the next occurrence falls due today.
    const db = new Database(join(data, 'ledger.db'));
    db.prepare('UPDATE journal_repeats SET next_date = ?').run(today);
    db.close();
    expect(traced(['account', 'list', ...at]).sources).toContain(writer);
    expect(made()).toBe(2);
  });

  it('places every owner command where its operation is, and no owner command starts with an agent command', async () => {
    const placed = JSON.parse(readFileSync(join(root, 'out', 'cli', 'commands.json'), 'utf8')) as Record<string, { operation: string }>;
    const all = await ownerCommands();
    // The Approvals and Practice groups are made from every operation's roles (review.ts, practice.ts): their commands load them all.
    expect(all.filter((c) => !placed[c.spec.name]).map((c) => c.spec.name)).toEqual(['proposal reverse', 'practice', 'practice assign']);
    for (const [name, { operation }] of Object.entries(placed))
      expect((deskOperations as Record<string, { command?: { name: string } }>)[operation]?.command?.name, operation).toBe(name);
    const firstWords = new Set(all.map((c) => c.spec.name.split(' ')[0]));
    expect([...agentCommands.keys()].filter((k) => firstWords.has(k))).toEqual([]);
  });

  it('writes an invoice as a PDF that a reader reads back (pdfkit, loaded when asked for, finds its own files)', () => {
    const data = tempDir();
    const at = ['--data', data, '--org', 'acme'];
    for (const args of [
      ['org', 'create', 'acme', '--name', 'Acme Ltd', '--data', data],
      ['contact', 'add', 'Globex', '--kind', 'customer', ...at],
      ['invoice', 'create', '--customer', 'Globex', '--date', '2026-03-02', '--line', 'Design;2;85.50;4000', '--issue', ...at],
      ['invoice', 'pdf', 'INV-0001', '--out', join(data, 'inv.pdf'), ...at],
    ]) {
      const r = run(args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const text = spawnSync('pdftotext', ['-layout', join(data, 'inv.pdf'), '-'], { encoding: 'utf8' });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('INV-0001');
    expect(text.stdout).toContain('Globex');
    expect(text.stdout).toMatch(/171\.00/);
  });

  it('runs owner commands, serves, answers an agent command and hands out a fresh sign-in link', async () => {
    const data = tempDir();
    expect(run(['demo', '--data', data, '--transactions', '60']).status).toBe(0);
    const token = run(['token', 'create', '--data', data, '--name', 'built', '--scopes', 'read,propose-write']).stdout.trim().split('\n').at(-1)!;
    const accounts = run(['account', 'list', '--data', data, '--json']);
    expect(accounts.status, accounts.stderr).toBe(0);
    expect(JSON.parse(accounts.stdout).length).toBeGreaterThan(0);

    const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', data], { cwd: root, env: built });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (c) => {
          out += c;
          const found = /^(http:\/\/127\.0\.0\.1:\d+)\/api\/v1$/m.exec(out)?.[1];
          if (found) resolve(found);
        });
        server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const listed = run(['list_transactions', '--limit', '2', '--json', '--url', url, '--token', token]);
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).data).toHaveLength(2);

      const link = run(['sign-in', '--data', data]);
      expect(link.status, link.stderr).toBe(0);
      expect(link.stdout.trim()).toMatch(new RegExp(`^${url}/desk/sign-in\\?code=[\\w-]{43}$`));
      const first = await fetch(link.stdout.trim(), { redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('set-cookie')).toMatch(/^ldk_desk=/);
      expect((await fetch(link.stdout.trim(), { redirect: 'manual' })).status).toBe(401);
    } finally {
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
    const after = run(['sign-in', '--data', data]);
    expect(after.status).toBe(1);
    expect(after.stderr).toMatch(/No Ledgerdesk server is running/);
  });
});

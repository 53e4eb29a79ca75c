// Staged uploads and exports (issue 51), on both engines, over the browser's
// desk route (/desk/api/...): an upload belongs to the organization and the
// person that staged it, and is the same unknown id to anyone else (another
// organization's bookkeeper, a colleague in the same one); an export likewise,
// and it is removed once downloaded; an error about a file names what is
// wrong, not what the file holds; on PostgreSQL the rows are under row-level
// security. The per-upload limit (413 payload_too_large) and the quotas of
// what a person and an organization keep staged (413 staging_quota_exceeded).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember } from '../src/main/ledger/access/people';
import { privateTemp } from '../src/main/desk/private-temp';
import { stagedDir } from '../src/main/desk/staged';
import { STAGED_TTL_MS } from '../src/main/desk/staged-limits';
import { sweepStaged } from '../src/main/desk/staged-sweep';
import { headlessBooks, onPostgres, testBooks } from './support/books';
import { tempDir } from './support/env';

const MB = 2 ** 20;
const PASSWORD = 'correct horse battery staple';
let app: Headless;
let books: L.Ledger;
let data: string;
let a: L.Organization;
let b: L.Organization;
/** Session cookies: Ann and Abe keep A's books, Bea and Ben B's (Ben an accountant, as Bea). */
const cookies: Record<string, string> = {};

interface Answer {
  status: number;
  data?: any;
  error?: { code: string; message: string; details: any };
}
const answer = async (res: Response): Promise<Answer> => ({ status: res.status, ...((await res.json()) as object) });
const desk = async (who: string, name: string, input: unknown): Promise<Answer> =>
  answer(
    await fetch(`${app.server.url}/desk/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `ldk_desk=${cookies[who]}` },
      body: JSON.stringify(input),
    }),
  );
const stage = async (who: string, org: L.Organization, fileName: string, body: string | Buffer): Promise<Answer> =>
  answer(
    await fetch(`${app.server.url}/desk/api/stageStatement?${new URLSearchParams({ orgId: org.id, fileName })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', cookie: `ldk_desk=${cookies[who]}` },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    }),
  );
const download = (who: string, org: L.Organization, exportId: string) =>
  fetch(`${app.server.url}/desk/api/download/${exportId}?${new URLSearchParams({ orgId: org.id })}`, { headers: { cookie: `ldk_desk=${cookies[who]}` } });
const stagedRows = async (org: L.Organization): Promise<number> => Number(await books.stmt('SELECT count(*) FROM staged_files WHERE org_seq = ?').pluck().get(org.seq));

const B_STATEMENT = 'Date,Description,Amount\n2026-05-03,BETA PAYROLL SECRET,-100.00\n';

async function member(org: L.Organization, who: string, role: 'bookkeeper' | 'accountant' | 'client') {
  const email = `${who}@firm.example`;
  await books.forOrg(org.seq, () => addMember(books, org.seq, L.deskActor(), { email, name: who, role, password: PASSWORD }));
  const res = await fetch(`${app.server.url}/desk/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  cookies[who] = /ldk_desk=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')![1];
}

beforeAll(async () => {
  data = tempDir('ldk-staged-');
  // Small limits, so that a few MB reach them: 3 MB an upload, 4 MB a person, 6 MB an organization.
  const staging = { uploadBytes: 3 * MB, quotas: { person: 4 * MB, organization: 6 * MB } };
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {}, staging });
  books = await testBooks(app.ledger, data);
  a = await books.forOrg('all', () => L.createOrganization(books, { slug: 'alpha', name: 'Alpha Ltd' }));
  b = await books.forOrg('all', () => L.createOrganization(books, { slug: 'beta', name: 'Beta Ltd' }));
  for (const org of [a, b]) await books.forOrg(org.seq, () => L.createAccount(books, org.seq, L.deskActor(), { name: 'Current', type: 'checking' }));
  await member(a, 'ann', 'bookkeeper');
  await member(a, 'abe', 'bookkeeper');
  await member(a, 'cal', 'client');
  await member(b, 'bea', 'accountant');
  await member(b, 'ben', 'accountant');
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('an upload belongs to its organization and the person who staged it', () => {
  it("is refused to another organization's bookkeeper, and to a colleague, with the answer an unknown id gets", async () => {
    const staged = await stage('bea', b, 'beta.csv', B_STATEMENT);
    expect(staged.status).toBe(200);
    const file = staged.data.uploadId as string;
    const unknown = await desk('ann', 'importStatement', { orgId: a.id, file: randomUUID(), account: 'Current', dryRun: true });
    expect([unknown.status, unknown.error!.code]).toEqual([400, 'validation_failed']);
    // Ann (A's bookkeeper) dry-runs B's upload in her own organization: as if it did not exist, nothing of B's shown.
    const across = await desk('ann', 'importStatement', { orgId: a.id, file, account: 'Current', dryRun: true });
    expect(across).toEqual(unknown);
    expect(JSON.stringify(across)).not.toContain('BETA PAYROLL');
    // In B's organization she has no role: B is not found to her at all.
    expect((await desk('ann', 'importStatement', { orgId: b.id, file, account: 'Current', dryRun: true })).error!.code).toBe('not_found');
    // Ben, Bea's colleague in B, neither.
    expect(await desk('ben', 'importStatement', { orgId: b.id, file, account: 'Current', dryRun: true })).toEqual(unknown);
    // Nor as invoices, rates or a logo.
    for (const [name, input] of [
      ['importInvoices', { orgId: a.id, file }],
      ['importRates', { orgId: a.id, file }],
    ] as const)
      expect(await desk('ann', name, input)).toEqual(unknown);
    // Bea sees her rows.
    const own = await desk('bea', 'importStatement', { orgId: b.id, file, account: 'Current', dryRun: true });
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.data.preview)).toContain('BETA PAYROLL SECRET');
  });

  it('is staged only for an organization the person may import into', async () => {
    expect((await stage('ann', b, 'x.csv', B_STATEMENT)).error!.code).toBe('not_found');
    expect((await stage('cal', a, 'x.csv', B_STATEMENT)).error!.code).toBe('forbidden');
    const unnamed = await answer(
      await fetch(`${app.server.url}/desk/api/stageStatement?fileName=x.csv`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', cookie: `ldk_desk=${cookies.ann}` },
        body: B_STATEMENT,
      }),
    );
    expect([unnamed.status, unnamed.error!.details]).toEqual([400, [expect.objectContaining({ field: 'orgId' })]]);
  });

  it("answers an invoices file's missing columns by name, never quoting the file's header", async () => {
    const staged = await stage('ann', a, 'invoices.csv', 'Salary Of Dana,Home Address\n1,2\n');
    const refused = await desk('ann', 'importInvoices', { orgId: a.id, file: staged.data.uploadId });
    expect(refused.error!.code).toBe('validation_failed');
    expect(refused.error!.details).toEqual([{ field: 'file', message: 'lacks the column(s) customer, description, unit price, category in its first line' }]);
    expect(JSON.stringify(refused)).not.toMatch(/Salary|Address/);
  });

  it('is gone once imported, freeing what its owner keeps staged', async () => {
    const before = await stagedRows(b);
    const file = (await stage('bea', b, 'again.csv', 'Date,Description,Amount\n2026-05-04,BETA RENT,-900.00\n')).data.uploadId as string;
    expect(await stagedRows(b)).toBe(before + 1);
    expect((await desk('bea', 'importStatement', { orgId: b.id, file, account: 'Current' })).data.imported).toBe(1);
    expect(await stagedRows(b)).toBe(before);
    expect((await desk('bea', 'importStatement', { orgId: b.id, file, account: 'Current', dryRun: true })).error!.code).toBe('validation_failed');
  });
});

describe('an export belongs to the person who made it', () => {
  it("is downloaded by them alone, once: then nothing of it is left, in the data folder or this process's private folder", async () => {
    const made = await desk('bea', 'exportBooks', { orgId: b.id, format: 'csv' });
    const exportId = made.data.exportId as string;
    const gone = await download('ben', b, randomUUID());
    expect(gone.status).toBe(404);
    const goneBody = await gone.json();
    // Ben, an accountant of B too, and Ann of A: the answer to an unknown export.
    const other = await download('ben', b, exportId);
    expect([other.status, await other.json()]).toEqual([404, { ...goneBody, error: { ...goneBody.error, details: { resource: 'export', id: exportId } } }]);
    expect((await download('ann', b, exportId)).status).toBe(404);
    const res = await download('bea', b, exportId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('beta.csv');
    expect(await res.text()).toMatch(/^id,date,account/);
    // Removed once served (the removal follows the answer's end).
    await expect.poll(() => stagedRows(b).then(async () => Number(await books.stmt('SELECT count(*) FROM staged_files WHERE id = ?').pluck().get(exportId)))).toBe(0);
    expect((await download('bea', b, exportId)).status).toBe(404);
    expect(existsSync(join(stagedDir(data), exportId))).toBe(false);
    expect(readdirSync(privateTemp()).filter((f) => f.includes(exportId))).toEqual([]);
    // Nor where earlier builds left them: a shared folder of the system's temp, the data folder's exports.
    expect(existsSync(join(tmpdir(), 'ledgerdesk-staged', exportId))).toBe(false);
    expect(existsSync(join(data, 'exports', b.id, exportId))).toBe(false);
  });

  it("waits in this process's own folder: made with mkdtemp, 0700, removed when the process exits", async () => {
    const dir = privateTemp();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(basename(dir)).toMatch(/^ledgerdesk-[A-Za-z0-9]{6}$/);
    const script = "import('./src/main/desk/private-temp.ts').then((m) => console.log(m.privateTemp()))";
    // Not execFileSync: the server in this process keeps its connections' timers while the child runs.
    const child = (await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', cwd: join(__dirname, '..') })).stdout.trim();
    expect(child).not.toBe(dir);
    expect(basename(child)).toMatch(/^ledgerdesk-/);
    expect(existsSync(child)).toBe(false);
  });
});

describe('the limits of what is staged', () => {
  it('refuses an upload over its limit with 413 payload_too_large naming the limit, keeping nothing of it', async () => {
    const before = await stagedRows(a);
    const over = await stage('ann', a, 'big.csv', Buffer.alloc(3 * MB + 1, 'x'));
    expect([over.status, over.error!.code, over.error!.details.limit]).toEqual([413, 'payload_too_large', 3 * MB]);
    expect(await stagedRows(a)).toBe(before);
    // Far over: refused part way, the rest read and dropped, so that the browser still sending reads the answer.
    const far = await stage('ann', a, 'huge.csv', Buffer.alloc(24 * MB, 'x'));
    expect([far.status, far.error!.code]).toEqual([413, 'payload_too_large']);
    expect(await stagedRows(a)).toBe(before);
  });

  it("refuses past a person's quota, then past the organization's, with 413 staging_quota_exceeded: the limit and what is staged", async () => {
    const three = await stage('ann', a, 'three.csv', Buffer.alloc(3 * MB, 'x'));
    expect(three.status).toBe(200);
    const annStaged = Number(await books.stmt("SELECT sum(size_bytes) FROM staged_files WHERE org_seq = ? AND staged_by IS NOT NULL AND kind = 'upload'").pluck().get(a.seq));
    const person = await stage('ann', a, 'two.csv', Buffer.alloc(2 * MB, 'x'));
    expect([person.status, person.error!.code]).toEqual([413, 'staging_quota_exceeded']);
    expect(person.error!.details).toMatchObject({ quota: 'person', limit: 4 * MB, staged: annStaged });
    expect(person.error!.message).toMatch(/at most 4 MB/);
    // Abe, in the same organization, has a quota of his own, until the organization's 6 MB are reached.
    expect((await stage('abe', a, 'two.csv', Buffer.alloc(2 * MB, 'x'))).status).toBe(200);
    const organization = await stage('abe', a, 'more.csv', Buffer.alloc(MB + 10, 'x'));
    expect([organization.status, organization.error!.code, organization.error!.details.quota, organization.error!.details.limit]).toEqual([
      413,
      'staging_quota_exceeded',
      'organization',
      6 * MB,
    ]);
    // Another organization is not held to A's.
    expect((await stage('bea', b, 'b.csv', Buffer.alloc(2 * MB, 'x'))).status).toBe(200);
  });
});

describe('the sweep', () => {
  const all = async () => Number(await books.stmt('SELECT count(*) FROM staged_files').pluck().get());

  it('removes what is past its day, a bounded number a pass, the next going on from there; two passes at once remove each file once', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await stage('bea', b, `s${n}.csv`, B_STATEMENT)).data.uploadId as string);
    expect((await sweepStaged(app.ledger, data)).removed).toBe(0);
    const staged = await all();
    expect(staged).toBeGreaterThanOrEqual(3);
    // The clock a day on: each is past its day.
    const later = Date.now() + STAGED_TTL_MS + 60_000;
    const first = await sweepStaged(app.ledger, data, { now: later, files: 2 });
    expect(first.removed).toBe(2);
    expect(await all()).toBe(staged - 2);
    const both = await Promise.all([0, 1].map(() => sweepStaged(app.ledger, data, { now: later, after: first.next })));
    expect(first.removed + both[0].removed + both[1].removed).toBe(staged);
    expect(await all()).toBe(0);
    expect(Number(await books.stmt('SELECT count(*) FROM staged_chunks').pluck().get())).toBe(0);
    if (!onPostgres) expect(readdirSync(stagedDir(data))).toEqual([]);
    expect((await desk('bea', 'importStatement', { orgId: b.id, file: ids[2], account: 'Current', dryRun: true })).error!.code).toBe('validation_failed');
  });
});

// Staged files on a firm's server are under row-level security (issue 51): a
// server connection set to one organization reads none of another's staged
// uploads or their chunks, and cannot stage a row into another's.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openBooksOf } from './support/books';
import { tempDir } from './support/env';

const data = tempDir('ldk-pg-staged-');
const opened: L.Ledger[] = [];
afterAll(() => Promise.all(opened.map((l) => l.end())));

describe('staged files', () => {
  it("are under row-level security: a server connection set to another organization reads and writes none of B's", async () => {
    const owner = await openBooksOf(data);
    opened.push(owner);
    const [a, b] = [await L.createOrganization(owner, { slug: 'alpha' }), await L.createOrganization(owner, { slug: 'beta' })];
    const id = randomUUID();
    await owner.stmt("INSERT INTO staged_files (id, org_seq, kind, name, size_bytes, created_at) VALUES (?, ?, 'upload', 'b.csv', 3, 0)").run(id, b.seq);
    await owner.stmt('INSERT INTO staged_chunks (org_seq, file_id, n, bytes) VALUES (?, ?, 0, ?)').run(b.seq, id, Buffer.from('a,b'));
    const server = await openBooksOf(data, { asServer: true });
    opened.push(server);
    const count = (table: string) => server.stmt(`SELECT count(*) FROM ${table}`).pluck().get() as Promise<number>;
    for (const table of ['staged_files', 'staged_chunks']) {
      expect(await server.forOrg(a.seq, () => count(table))).toBe(0);
      expect(await server.forOrg(b.seq, () => count(table))).toBe(1);
      expect(await count(table)).toBe(0);
    }
    await expect(
      server.forOrg(a.seq, () =>
        server.stmt("INSERT INTO staged_files (id, org_seq, kind, name, size_bytes, created_at) VALUES (?, ?, 'upload', 'x', 0, 0)").run(randomUUID(), b.seq),
      ),
    ).rejects.toThrow(/row-level security/);
  });
});

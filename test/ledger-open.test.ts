// Opening a ledger file: pragmas, forward-only migrations applied to existing
// books, and refusal of files written by a newer build.
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { tempLedger } from './support/env';

describe('opening a ledger', () => {
  it('sets WAL, synchronous=FULL, foreign keys and a busy timeout', () => {
    const { ledger } = tempLedger();
    expect(ledger.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(ledger.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    expect(ledger.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(ledger.sqlite.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
  });

  it('refuses a file with a migration this build does not know, and leaves it unchanged', () => {
    const { ledger, file } = tempLedger();
    ledger.sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('from-the-future', 9_999_999_999_999);
    const before = statSync(file).mtimeMs;
    expect(() => L.openLedger(file)).toThrow(/newer or different Ledgerdesk build/);
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it('upgrades a file written before migrations 0004-0005 and backfills its description shapes', () => {
    const { ledger, file } = tempLedger();
    const org = L.createOrganization(ledger, { slug: 'acme' });
    L.fillDemo(ledger, org.seq, org.slug, 300, org.currency);
    // The file as the build before 0004 left it: no shapes, 0004 not applied.
    ledger.sqlite.exec(`DROP TRIGGER transactions_shapes_ai; DROP TRIGGER transactions_shapes_ad; DROP TRIGGER transactions_shapes_au;
      DROP TRIGGER description_shapes_ai; DROP TRIGGER description_shapes_ai_totals; DROP TABLE description_shape_totals;
      DROP TABLE description_shapes_fts; DROP TABLE description_shapes;
      DELETE FROM __drizzle_migrations WHERE rowid IN (SELECT rowid FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 2);`);
    ledger.close();
    const upgraded = L.openLedger(file);
    const rows = upgraded.sqlite.prepare("SELECT count(*) AS n FROM transactions WHERE org_seq = ? AND lower(description) LIKE '%figma%'").get(org.seq) as { n: number };
    expect(rows.n).toBeGreaterThan(0);
    expect(L.listTransactions(upgraded, org.seq, { description: 'Figma', limit: 1, offset: 0 }).meta.totalCount).toBe(rows.n);
    expect(upgraded.sqlite.prepare('SELECT sum(n) AS n FROM description_shapes WHERE org_seq = ?').get(org.seq)).toEqual({ n: 300 });
    const shapes = upgraded.sqlite.prepare('SELECT count(*) AS n FROM description_shapes WHERE org_seq = ?').get(org.seq);
    expect(upgraded.sqlite.prepare('SELECT shapes AS n FROM description_shape_totals WHERE org_seq = ?').get(org.seq)).toEqual(shapes);
    upgraded.close();
  });

  it('reopens its own file without re-running migrations', () => {
    const { ledger, file } = tempLedger();
    L.createOrganization(ledger, { slug: 'x' });
    const again = L.openLedger(file);
    expect(L.listOrganizations(again).map((o) => o.slug)).toEqual(['x']);
    again.close();
  });
});

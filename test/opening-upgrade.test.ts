// Books an earlier build took over (issue 50), upgraded in place on both
// engines: its opening entry was dated the conversion day, so the year to date
// it carries read as the first quarter's. The upgrade (SQLite migration 0038,
// PostgreSQL 0001) dates it the day before, as this build writes it: the
// entry's postings, its open invoices' own postings (a void's reversal keeps
// its day), the money accounts' opening balances; said in the audit log, whose
// chain still verifies; every total kept.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { expectTotalsMatchRows } from './support/aggregates';
import { onPostgres } from './support/books';
import { ledgerAtMigration, tempDir } from './support/env';
import { psqlSync } from './support/postgres';

const Q3 = { from: '2026-07-01', to: '2026-09-30' };

/** Books as the build before this one opens them, and a way to open them with this build's migrations. */
async function earlierBooks(): Promise<{ old: L.Ledger; upgrade: () => Promise<L.Ledger> }> {
  if (!onPostgres) {
    const { ledger: old, file } = ledgerAtMigration('0037_people');
    return { old, upgrade: async () => (old.close(), L.openLedger(file)) };
  }
  const cluster = inject('postgres');
  const name = `books_upgrade_${process.pid}`;
  psqlSync(cluster, `CREATE DATABASE ${name}`);
  const url = `postgresql://ledgerdesk@localhost/${name}?host=${encodeURIComponent(cluster.socketDir)}&port=${cluster.port}`;
  const folder = tempDir('ldk-pg-migrations-');
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(__dirname, '..', 'db', 'postgres', '0000_schema.sql'), join(folder, '0000_schema.sql'));
  const old = await openPostgres(url, { role: null, migrationsFolder: folder });
  return { old, upgrade: async () => (await old.end(), await openPostgres(url, { role: null })) };
}

/** Columns of migrations after 0039 that today's domain reads or writes, as the later migration makes them. */
const LATER_COLUMNS = [
  ['organizations', 'chart_template', 'text'],
  ['organizations', 'archived_at', 'text'],
  ['organizations', 'quote_prefix', "text NOT NULL DEFAULT 'QU-'"],
  ['organizations', 'quote_next', 'bigint NOT NULL DEFAULT 1'],
  ['categories', 'role', 'text'],
] as const;

describe('an opening entry an earlier build dated on the conversion day', () => {
  it('is dated the day before once upgraded: the first quarter no longer holds the year to date, audited, every total kept', async () => {
    const { old, upgrade } = await earlierBooks();
    // Today's domain writes the earlier build's books: the columns later migrations add stand in meanwhile.
    for (const [table, column, type] of LATER_COLUMNS) await old.stmt(`ALTER TABLE ${table} ADD ${column} ${type}`).run();
    const me = L.deskActor();
    const org = await L.createOrganization(old, { slug: 'taken', name: 'Taken Over Ltd', currency: 'GBP' });
    await old.forOrg(org.seq, async () => {
      await L.createAccount(old, org.seq, me, { name: 'Current', type: 'checking' });
      await L.addContact(old, org.seq, me, { name: 'Acme Ltd', customer: true });
      await L.setOpeningBalances(old, org.seq, me, {
        date: '2026-07-01',
        lines: [
          { account: 'Current', amount: '21000' },
          { account: '4000', amount: '-33000' },
          { account: '5300', amount: '12000' },
        ],
        invoices: [
          { number: 'INV-0412', contact: 'Acme Ltd', date: '2026-06-10', outstanding: '1200' },
          { number: 'INV-0413', contact: 'Acme Ltd', date: '2026-06-12', outstanding: '300' },
        ],
        balanceToEquity: true,
      });
      // What the build before wrote: the whole entry on the conversion day.
      for (const sql of [
        "UPDATE postings SET date = '2026-07-01' WHERE date = '2026-06-30'",
        "UPDATE journals SET date = '2026-07-01' WHERE kind = 'opening'",
        "UPDATE accounts SET opening_date = '2026-07-01' WHERE opening_date = '2026-06-30'",
      ])
        await old.stmt(sql).run();
      // A void of the conversion day: its reversal stays there.
      await L.voidDocument(old, org.seq, me, ['invoice'], 'INV-0413', 'Sent twice', '2026-07-01');
      await L.addTransaction(old, org.seq, me, { account: 'Current', date: '2026-08-20', amount: 11000, description: 'Corvid', categoryCode: '4000' });
      expect((await L.profitAndLoss(old, org.seq, Q3)).revenue).toBe(44000);
    });
    for (const [table, column] of LATER_COLUMNS) await old.stmt(`ALTER TABLE ${table} DROP COLUMN ${column}`).run();
    const books = await upgrade();
    try {
      await books.forOrg(org.seq, async () => {
        expect((await L.profitAndLoss(books, org.seq, Q3)).revenue).toBe(11000);
        expect(await L.showOpeningBalances(books, org.seq)).toMatchObject({ date: '2026-07-01', asAt: '2026-06-30', difference: 1500 });
        expect((await L.listAccounts(books, org.seq))[0]).toMatchObject({ name: 'Current', openingDate: '2026-06-30' });
        const dates = await books.rows<{ number: string; kind: string; date: string }>(
          'SELECT d.number, p.kind, p.date FROM postings p JOIN documents d ON d.seq = p.document_seq ORDER BY d.number, p.seq',
        );
        expect(dates.map((p) => [p.number, p.kind, p.date])).toEqual([
          ['INV-0412', 'receivable', '2026-06-30'],
          ['INV-0412', 'opening', '2026-06-30'],
          ['INV-0413', 'receivable', '2026-06-30'],
          ['INV-0413', 'opening', '2026-06-30'],
          ['INV-0413', 'receivable', '2026-07-01'],
          ['INV-0413', 'opening', '2026-07-01'],
        ]);
        const june = await L.balanceSheet(books, org.seq, { date: '2026-06-30' });
        expect([june.assets.total, june.currentYearEarnings, june.liabilitiesAndEquity]).toEqual([22500, 21000, 22500]);
        const [entry] = (await L.listAudit(books, org.seq, { action: 'opening.redated', limit: 5, offset: 0 })).entries;
        expect(entry).toMatchObject({ targetType: 'journal', actor: { name: 'Ledgerdesk upgrade' } });
        expect(entry.summary).toBe(
          "The opening balances of the conversion date 2026-07-01 are now dated 2026-06-30, the day before, as Xero dates conversion balances (issue 50): the revenue and expenses to date they carry are no longer in the first period's profit and loss, and the balance sheet of 2026-06-30 holds them.",
        );
        await expectTotalsMatchRows(books);
      });
      expect(await L.verifyAuditChain(books)).toMatchObject({ ok: true });
    } finally {
      await books.end();
    }
  });
});

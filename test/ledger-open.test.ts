// Opening a ledger file: pragmas, forward-only migrations applied to existing
// books, and refusal of files written by a newer build.
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS, TOTALS, triggerName, triggerSql } from '../src/main/ledger/totals/declared';
import { expectTotalsMatchRows } from './support/aggregates';
import { ledgerAtMigration, tempSqliteLedger } from './support/env';
import { mapInOrder } from '../src/main/ledger/core/in-order';
import { rawGet } from './support/sql';

/** An organization (seq 1) with the default chart and one checking account (seq 1), written as builds since 0006 wrote them (today's code knows columns they did not have). */
function oldBooks(ledger: L.Ledger, openingMinor: number): { seq: number } {
  ledger.sqlite.exec(`INSERT INTO organizations (id, slug, name, currency, created_at) VALUES ('10000000-0000-4000-8000-000000000000', 'acme', 'Acme', 'USD', 'x');
    INSERT INTO categories (org_seq, code, name, type) VALUES (1, '5100', 'Software & tools', 'expense'), (1, '4000', 'Revenue', 'revenue');
    INSERT INTO accounts (id, org_seq, name, type, currency, opening_balance_minor, created_at) VALUES ('10000000-0000-4000-8000-000000000001', 1, 'Bank', 'checking', 'USD', ${openingMinor}, 'x');`);
  return { seq: 1 };
}

const migrationTags = (): string[] =>
  (JSON.parse(readFileSync(join(__dirname, '..', 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] }).entries.map((e) => e.tag);

describe('opening a ledger', () => {
  it('sets WAL, synchronous=FULL, foreign keys and a busy timeout', () => {
    const { ledger } = tempSqliteLedger();
    expect(ledger.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(ledger.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    expect(ledger.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(ledger.sqlite.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
  });

  it('refuses a file with a migration this build does not know, and leaves it unchanged', () => {
    const { ledger, file } = tempSqliteLedger();
    ledger.sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('from-the-future', 9_999_999_999_999);
    const before = statSync(file).mtimeMs;
    expect(() => L.openLedger(file)).toThrow(/newer or different Ledgerdesk build/);
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it('upgrades a file written before migrations 0004-0006: description shapes backfilled, every row given an account', async () => {
    const { ledger: old, file } = ledgerAtMigration('0003_proposal_status_counts');
    // Rows as that build wrote them: two organizations, three sources, a second currency, an approved journal entry.
    old.sqlite.exec(`
      INSERT INTO organizations (seq, id, slug, name, currency, created_at) VALUES
        (1, '00000000-0000-4000-8000-000000000001', 'acme', 'Acme', 'USD', '2026-01-01'),
        (2, '00000000-0000-4000-8000-000000000002', 'beta', 'Beta', 'EUR', '2026-01-01');
      INSERT INTO transactions (id, org_seq, date, amount_minor, currency, description, category, status, source, created_at) VALUES
        ('10000000-0000-4000-8000-000000000001', 1, '2026-01-02', -1500, 'USD', 'FIGMA.COM 123', NULL, 'uncategorized', 'bankfeed', 'x'),
        ('10000000-0000-4000-8000-000000000002', 1, '2026-01-03', -2500, 'USD', 'Figma monthly', NULL, 'uncategorized', 'bankfeed', 'x'),
        ('10000000-0000-4000-8000-000000000003', 1, '2026-01-04', 90000, 'USD', 'STRIPE PAYOUT', NULL, 'matched', 'paymentproc', 'x'),
        ('10000000-0000-4000-8000-000000000004', 1, '2026-01-05', -700, 'EUR', 'Paris taxi', NULL, 'uncategorized', 'manual_csv', 'x'),
        ('10000000-0000-4000-8000-000000000005', 1, '2026-01-06', -12050, 'USD', 'Accrued hosting', 'Cloud infrastructure', 'matched', 'manual_csv', 'x'),
        ('10000000-0000-4000-8000-000000000006', 2, '2026-01-07', -100, 'EUR', 'Kaffee', NULL, 'uncategorized', 'bankfeed', 'x');
      INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary) VALUES
        ('20000000-0000-4000-8000-000000000001', 1, 'x', 'human', 'local-user', 'me', 'desk', 'proposal.approved', 'proposal', 'p',
         'Approved journal entry proposal by mcp:abc: transaction 10000000-0000-4000-8000-000000000005 "Accrued hosting" 2026-01-06 -120.50 USD created, status matched');`);
    old.close();
    const said: string[] = [];
    const upgraded = L.openLedger(file, { log: (m) => said.push(m) });
    const due = migrationTags().length - 1 - migrationTags().indexOf('0003_proposal_status_counts');
    expect(said).toEqual([`${file}: upgrading the ledger file (${due} migration(s) from an earlier build)...`, expect.stringMatching(/: upgraded in \d+\.\d s$/)]);
    expect((await L.listTransactions(upgraded, 1, { description: 'Figma', limit: 1, offset: 0 })).meta.totalCount).toBe(2);
    expect(upgraded.sqlite.prepare('SELECT sum(n) AS n FROM description_shapes WHERE org_seq = 1').get()).toEqual({ n: 5 });
    const accounts = async (org: number) => (await L.listAccounts(upgraded, org)).map((a) => [a.name, a.type, a.currency, a.balance, a.transactionCount]);
    expect(await accounts(1)).toEqual([
      ['Bank account', 'checking', 'USD', -40, 2],
      ['Manual entries', 'cash', 'USD', -120.5, 1],
      ['Manual entries (EUR)', 'cash', 'EUR', -7, 1],
      ['Payment processor', 'payment_processor', 'USD', 900, 1],
    ]);
    expect(await accounts(2)).toEqual([['Bank account', 'checking', 'EUR', -1, 1]]);
    expect(upgraded.sqlite.prepare('SELECT count(*) FROM transactions WHERE account_seq IS NULL').pluck().get()).toBe(0);
    const origins = upgraded.sqlite.prepare('SELECT origin, count(*) AS n FROM transactions GROUP BY origin ORDER BY origin').all();
    expect(origins).toEqual([
      { origin: 'agent', n: 1 },
      { origin: 'feed', n: 5 },
    ]);
    // From now on no row without an account, nor one in another currency than its account's.
    const insert = (account: number, currency: string) =>
      upgraded.sqlite
        .prepare(
          `INSERT INTO transactions (id, org_seq, account_seq, date, amount_minor, currency, description, status, source, created_at)
        VALUES (lower(hex(randomblob(16))), 1, ?, '2026-02-01', 1, ?, 'x', 'uncategorized', 'manual_csv', 'x')`,
        )
        .run(account, currency);
    expect(() => insert(null as unknown as number, 'USD')).toThrow(/belongs to an account/);
    const eur = upgraded.sqlite.prepare("SELECT seq FROM accounts WHERE currency = 'EUR' AND org_seq = 1").pluck().get() as number;
    expect(() => insert(eur, 'USD')).toThrow(/of its currency/);
    upgraded.close();
  });

  it('upgrades proposals written before 0009 with the channel their audit entry recorded', () => {
    const { ledger: old, file } = ledgerAtMigration('0008_reports_audit_chain');
    const proposal = (n: number) => `30000000-0000-4000-8000-00000000000${n}`;
    old.sqlite.exec(`
      INSERT INTO organizations (seq, id, slug, name, currency, created_at) VALUES (1, '00000000-0000-4000-8000-000000000001', 'acme', 'Acme', 'USD', '2026-01-01');
      INSERT INTO proposals (id, org_seq, type, status, payload, proposed_by, created_at) VALUES
        ('${proposal(1)}', 1, 'note', 'pending', '{}', 'mcp:t', 'x'),
        ('${proposal(2)}', 1, 'note', 'pending', '{}', 'mcp:t', 'x'),
        ('${proposal(3)}', 1, 'note', 'pending', '{}', 'mcp:t', 'x');
      INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary) VALUES
        ('20000000-0000-4000-8000-000000000001', 1, 'x', 'token', 't', 'Claude', 'mcp', 'proposal.created', 'proposal', '${proposal(1)}', 's'),
        ('20000000-0000-4000-8000-000000000002', 1, 'x', 'token', 't', 'Claude', 'rest', 'proposal.created', 'proposal', '${proposal(2)}', 's');`);
    old.close();
    const upgraded = L.openLedger(file);
    expect(upgraded.sqlite.prepare('SELECT id, channel FROM proposals ORDER BY seq').all()).toEqual([
      { id: proposal(1), channel: 'mcp' },
      { id: proposal(2), channel: 'rest' },
      { id: proposal(3), channel: null }, // no audit entry to say: the screens then name the token alone
    ]);
    upgraded.close();
  });

  it('upgrades proposals written before 0010 with the change each would make, so that the same change is not filed again', async () => {
    const { ledger: old, file } = ledgerAtMigration('0009_proposal_channel');
    const org = oldBooks(old, 0);
    // Written as that build wrote rows (today's code knows columns it did not have).
    old.sqlite.exec(`INSERT INTO transactions (id, org_seq, account_seq, origin, date, amount_minor, currency, description, status, source, created_at)
      VALUES ('20000000-0000-4000-8000-000000000001', ${org.seq}, 1, 'manual', '2026-01-02', -1500, 'USD', 'FIGMA.COM', 'uncategorized', 'manual_csv', 'x')`);
    const row = { id: '20000000-0000-4000-8000-000000000001', seq: 1 };
    const entry = { date: '2026-01-03', description: 'Stamps', amount: -4.2, currency: 'USD', categoryCode: null, category: null, source: 'manual_csv' };
    old.sqlite.exec(`INSERT INTO proposals (id, org_seq, type, status, payload, proposed_by, created_at) VALUES
      ('30000000-0000-4000-8000-000000000001', ${org.seq}, 'categorization', 'pending', '${JSON.stringify({ transactionId: row.id, categoryCode: '5100', category: 'Software & tools', evidence: [] })}', 'mcp:t', 'x'),
      ('30000000-0000-4000-8000-000000000002', ${org.seq}, 'journal_entry', 'rejected', '${JSON.stringify(entry)}', 'mcp:t', 'x')`);
    old.close();
    const upgraded = L.openLedger(file);
    const keys = upgraded.sqlite.prepare('SELECT change_key FROM proposals ORDER BY seq').pluck().all();
    expect(keys).toEqual([
      L.changeKeyOf('categorization', { transactionId: row.id, categoryCode: '5100', category: '', evidence: [] }, row.seq),
      L.changeKeyOf('journal_entry', entry as L.ProposalPayloads['journal_entry'], null),
    ]);
    const agent = { type: 'token' as const, tokenSeq: 0, tokenId: 't', tokenName: 'bot', channel: 'rest' as const };
    const again = await L.proposeCategorization(upgraded, org.seq, agent, { transactionId: row.id, categoryCode: '5100' });
    expect([again.id, L.isAlreadyPending(again)]).toEqual(['30000000-0000-4000-8000-000000000001', true]);
    await expect(L.proposeJournalEntry(upgraded, org.seq, agent, { date: '2026-01-03', description: 'Stamps', amount: -4.2 })).rejects.toThrow(/rejected this same change/);
    upgraded.close();
  });

  it('upgrades a file written before 0011: reconciled rows without a category read uncategorized again, every total kept', async () => {
    const { ledger: old, file } = ledgerAtMigration('0010_rules_idempotency');
    const org = oldBooks(old, 10000);
    const insert = old.sqlite.prepare(`INSERT INTO transactions (id, org_seq, account_seq, origin, date, amount_minor, currency, description, category, status, source, created_at)
      VALUES (?, ${org.seq}, 1, 'import', ?, ?, 'USD', ?, ?, ?, 'manual_csv', 'x')`);
    const rows = [
      ['2026-01-02', -1500, 'Never categorized, reconciled', null, 'reconciled'],
      ['2026-01-03', -2500, 'Categorized, reconciled', 'Software & tools', 'reconciled'],
      ['2026-01-04', -700, 'Needs a receipt', 'Software & tools', 'receipt_missing'],
      ['2026-01-05', 9900, 'Reconciled while it needed a receipt', 'Revenue', 'reconciled'],
      ['2026-01-06', -300, 'Agent suggested (legacy)', 'Software & tools', 'agent_suggested'],
    ] as const;
    rows.forEach((r, i) => insert.run(`40000000-0000-4000-8000-00000000000${i}`, ...r));
    old.sqlite.exec(`INSERT INTO reconciliations (id, org_seq, account_seq, statement_date, statement_balance_minor, rows, created_at, created_by)
      VALUES ('50000000-0000-4000-8000-000000000000', ${org.seq}, 1, '2026-01-31', 15100, 3, 'x', 'me');
      INSERT INTO reconciliation_rows VALUES (1, 1, 'uncategorized'), (1, 2, 'matched'), (1, 4, 'receipt_missing');`);
    old.close();
    const upgraded = L.openLedger(file);
    const facts = upgraded.sqlite.prepare('SELECT description, status, reconciled, receipt_needed FROM transactions ORDER BY seq').raw(true).all();
    expect(facts).toEqual([
      ['Never categorized, reconciled', 'uncategorized', 1, 0],
      ['Categorized, reconciled', 'reconciled', 1, 0],
      ['Needs a receipt', 'receipt_missing', 0, 1],
      ['Reconciled while it needed a receipt', 'receipt_missing', 1, 1],
      ['Agent suggested (legacy)', 'agent_suggested', 0, 0],
    ]);
    expect((await L.balancesAt(upgraded, org.seq, '2026-12-31')).accounts[0]).toMatchObject({ balance: 149, cleared: 149, reconciled: 159, unreconciled: -10 });
    expect((await L.listTransactions(upgraded, org.seq, { status: 'uncategorized', limit: 50, offset: 0 })).meta.totalCount).toBe(1);
    expect((await L.organizationBySeq(upgraded, org.seq)).decimalMark).toBe('.');
    await expectTotalsMatchRows(upgraded);
    upgraded.close();
  });

  it('upgrades a file written by the release before the lines (0013): every row a balanced entry, every total kept', async () => {
    const { ledger: old, file } = ledgerAtMigration('0013_totals_declared');
    const org = oldBooks(old, 10000);
    old.sqlite.exec(
      `INSERT INTO accounts (id, org_seq, name, type, currency, opening_balance_minor, created_at) VALUES ('10000000-0000-4000-8000-000000000002', 1, 'Euro', 'cash', 'EUR', 0, 'x');
       INSERT INTO counterparties (org_seq, id, name, aliases, default_code) VALUES (1, '70000000-0000-4000-8000-000000000001', 'Old Vendor Co', '[]', '5300');`,
    );
    const insert = old.sqlite
      .prepare(`INSERT INTO transactions (id, org_seq, account_seq, origin, date, amount_minor, currency, description, category, status, source, created_at, reconciled, receipt_needed)
      VALUES (?, ${org.seq}, ?, 'import', ?, ?, ?, ?, ?, ?, 'manual_csv', 'x', ?, ?)`);
    const rows = [
      [1, '2025-12-30', -1500, 'USD', 'Figma', 'Software & tools', 'reconciled', 1, 0],
      [1, '2026-01-03', -2500, 'USD', 'Uncategorized card row', null, 'uncategorized', 0, 0],
      [1, '2026-01-04', 9900, 'USD', 'Customer', 'Revenue', 'matched', 0, 0],
      [1, '2026-01-05', -700, 'USD', 'A name the chart lacks', 'Petty cash', 'receipt_missing', 0, 1],
      [1, '2026-02-01', -300, 'USD', 'Another case', 'software & TOOLS', 'agent_suggested', 0, 0],
      [2, '2026-01-06', -450, 'EUR', 'Café', 'Software & tools', 'matched', 0, 0],
    ] as const;
    rows.forEach((r, i) => insert.run(`60000000-0000-4000-8000-00000000000${i}`, ...r));
    const totals = (l: L.Ledger, sql: string) => l.sqlite.prepare(sql).raw(true).all().map(String).sort();
    const before = {
      byName: totals(old, "SELECT currency, month, lower(category), sum_minor FROM category_month_totals WHERE n > 0 AND category <> ''"),
      uncategorized: totals(old, "SELECT currency, month, sum_minor FROM category_month_totals WHERE n > 0 AND category = ''"),
      accounts: totals(old, 'SELECT account_seq, date, status, reconciled, n, sum_minor FROM account_day_totals WHERE n > 0'),
      days: totals(old, 'SELECT * FROM transaction_day_counts WHERE n > 0'),
      shown: old.sqlite.prepare('SELECT id, status FROM transactions ORDER BY seq').raw(true).all(),
    };
    old.close();
    const upgraded = L.openLedger(file);
    await expectTotalsMatchRows(upgraded);
    // The same money by category (now by identity: lines negated), uncategorized as suspense lines, the same accounts and counts.
    expect(
      totals(
        upgraded,
        "SELECT l.currency, l.month, lower(c.name), -l.sum_minor FROM line_month_totals l JOIN categories c ON c.seq = l.category_seq WHERE l.n > 0 AND l.kind = 'category'",
      ),
    ).toEqual(before.byName);
    expect(totals(upgraded, "SELECT currency, month, -sum_minor FROM line_month_totals WHERE n > 0 AND kind = 'suspense'")).toEqual(before.uncategorized);
    expect(totals(upgraded, 'SELECT account_seq, date, status, reconciled, n, sum_minor FROM account_day_totals WHERE n > 0')).toEqual(before.accounts);
    expect(totals(upgraded, 'SELECT * FROM transaction_day_counts WHERE n > 0')).toEqual(before.days);
    expect(upgraded.sqlite.prepare('SELECT id, status FROM transactions ORDER BY seq').raw(true).all()).toEqual(before.shown);
    // Names resolved to the chart (any case); a name it lacked is an ad-hoc category (code ''), typed by the money's sign.
    const shown = (await L.listTransactions(upgraded, org.seq, { limit: 10, offset: 0 })).data.map((t) => [t.description, t.category]);
    expect(shown).toEqual([
      ['Another case', 'Software & tools'],
      ['Café', 'Software & tools'],
      ['A name the chart lacks', 'Petty cash'],
      ['Customer', 'Revenue'],
      ['Uncategorized card row', null],
      ['Figma', 'Software & tools'],
    ]);
    expect((await L.chartRows(upgraded, org.seq)).find((c) => c.name === 'Petty cash')).toMatchObject({ code: '', type: 'expense' });
    expect(upgraded.sqlite.prepare("SELECT count(*) FROM pragma_table_info('transactions') WHERE name = 'category'").pluck().get()).toBe(0);
    expect(await L.organizationBySeq(upgraded, org.seq)).toMatchObject({ fiscalYearStart: '01-01', lockedThrough: null });
    // Its counterparties are vendors now (migration 0024, issue 29).
    expect((await L.listContacts(upgraded, org.seq)).find((c) => c.name === 'Old Vendor Co')).toMatchObject({ vendor: true, customer: false, categoryCode: '5300' });
    // Issue 30: rows in the base currency keep their amount as their base amount; the euro row awaits a rate, counting 0 in base until one serves its date.
    const bases = () => upgraded.sqlite.prepare('SELECT currency, amount_minor, base_minor FROM transactions ORDER BY seq').raw(true).all();
    expect(bases()).toEqual([...rows.slice(0, 5).map((r) => [r[3], r[2], r[2]]), ['EUR', -450, null]]);
    expect(upgraded.sqlite.prepare("SELECT sum(sum_base) FROM line_day_totals WHERE currency = 'EUR'").pluck().get()).toBe(0);
    expect(await L.setRate(upgraded, org.seq, L.deskActor(), { currency: 'EUR', date: '2026-01-02', rate: '1.1' })).toMatchObject({ rate: '1.1' });
    expect(bases()[5]).toEqual(['EUR', -450, -495]);
    expect(upgraded.sqlite.prepare('SELECT base_minor FROM lines WHERE transaction_seq = 6').pluck().all()).toEqual([495]);
    await expectTotalsMatchRows(upgraded);
    // A rename now touches no row and every row shows it.
    await L.renameCategory(upgraded, org.seq, L.deskActor(), '5100', 'Software');
    expect((await L.listTransactions(upgraded, org.seq, { category: 'Software', limit: 10, offset: 0 })).meta.totalCount).toBe(3);
    upgraded.close();
  });

  it('keeps every total with exactly the triggers its declaration derives (names and SQL)', () => {
    const { ledger } = tempSqliteLedger();
    const stored = new Map(
      (ledger.sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as { name: string; sql: string }[]).map((t) => [t.name, t.sql]),
    );
    const flat = (sql: string | undefined) => sql?.replace(/\s+/g, ' ').trim();
    for (const t of TOTALS) for (const event of EVENTS) expect(flat(stored.get(triggerName(t, event))), triggerName(t, event)).toBe(flat(triggerSql(t, event)));
    // No other trigger keeps a declared total.
    const keeping = [...stored]
      .filter(([, sql]) => TOTALS.some((t) => new RegExp(`INSERT INTO ${t.table} `).test(sql)))
      .map(([name]) => name)
      .sort();
    expect(keeping).toEqual(TOTALS.flatMap((t) => EVENTS.map((e) => triggerName(t, e))).sort());
  });

  it('reopens its own file without re-running migrations', async () => {
    const { ledger, file } = tempSqliteLedger();
    await L.createOrganization(ledger, { slug: 'x' });
    const said: string[] = [];
    const again = L.openLedger(file, { log: (m) => said.push(m) });
    expect(said).toEqual([]);
    expect((await L.listOrganizations(again)).map((o) => o.slug)).toEqual(['x']);
    again.close();
  });
});

// Moved from takeover.test.ts and invoice-pdf.test.ts (issue 44): upgrades of SQLite files an earlier build left,
// which only SQLite has (a PostgreSQL database starts at its one schema).
describe('an existing file, upgraded in place: the opening entry (takeover)', () => {
  it('keeps its balance sheet at every date: the money accounts\u2019 opening balances are the opening entry\u2019s', async () => {
    const { ledger: old, file } = ledgerAtMigration('0034_invoice_details');
    old.sqlite.exec(`
      INSERT INTO organizations (id, slug, name, currency, created_at) VALUES ('10000000-0000-4000-8000-000000000000', 'acme', 'Acme', 'GBP', 'x');
      INSERT INTO categories (org_seq, code, name, type) VALUES (1, '4000', 'Revenue', 'revenue'), (1, '5100', 'Software', 'expense');
      INSERT INTO accounts (id, org_seq, name, type, currency, opening_balance_minor, opening_date, created_at) VALUES
        ('10000000-0000-4000-8000-000000000001', 1, 'Bank', 'checking', 'GBP', 250000, '2025-12-31', 'x'),
        ('10000000-0000-4000-8000-000000000002', 1, 'Card', 'credit_card', 'GBP', -12000, '2026-01-31', 'x');
      INSERT INTO counterparties (org_seq, id, name, is_customer) VALUES (1, '70000000-0000-4000-8000-000000000001', 'Client', 1);
      INSERT INTO transactions (id, org_seq, account_seq, origin, date, amount_minor, base_minor, currency, description, category_seq, status, source, created_at)
        VALUES ('60000000-0000-4000-8000-000000000001', 1, 1, 'import', '2026-02-03', -4500, -4500, 'GBP', 'Figma', 2, 'matched', 'manual_csv', 'x');
      INSERT INTO lines (transaction_seq, position, org_seq, kind, category_seq, date, currency, amount_minor, base_minor) VALUES (1, 0, 1, 'category', 2, '2026-02-03', 'GBP', 4500, 4500);
      INSERT INTO documents (id, org_seq, kind, state, contact_seq, number, issue_date, due_date, currency, net_minor, tax_minor, total_minor, created_at, issued_at)
        VALUES ('80000000-0000-4000-8000-000000000001', 1, 'invoice', 'issued', 1, 'INV-0001', '2026-02-10', '2026-03-12', 'GBP', 90000, 0, 90000, 'x', 'x');
      INSERT INTO postings (document_seq, org_seq, kind, category_seq, settles_seq, contact_seq, date, currency, amount_minor, base_minor) VALUES
        (1, 1, 'category', 1, NULL, 1, '2026-02-10', 'GBP', -90000, -90000), (1, 1, 'receivable', NULL, 1, 1, '2026-02-10', 'GBP', 90000, 90000);`);
    const dates = ['2025-12-31', '2026-01-31', '2026-02-05', '2026-02-10', '2026-12-31'];
    // What the release before showed at those dates, worked out by hand from its rows.
    const before = [
      [2500, 0, 2500],
      [2500, 120, 2380],
      [2455, 120, 2335],
      [3355, 120, 3235],
      [3355, 120, 3235],
    ];
    old.close();
    const upgraded = L.openLedger(file);
    const sheets = await mapInOrder(dates, (date) => L.balanceSheet(upgraded, 1, { date }));
    expect(sheets.map((s) => [s.assets.total, s.liabilities.total, s.equity.total])).toEqual(before);
    expect(sheets[4].equity.lines.find((l) => l.ref === 'opening-balances')).toMatchObject({ amount: 2380 });
    expect(await rawGet(upgraded, 'SELECT count(*), sum(amount_minor), count(document_seq) FROM postings')).toEqual([2, 0, 2]);
    const shown = await L.showOpeningBalances(upgraded, 1);
    expect([shown.date, shown.lines.map((l) => [l.name, l.amount]), shown.difference]).toEqual([
      null,
      [
        ['Bank', 2500],
        ['Card', -120],
      ],
      2380,
    ]);
    expect((await L.generalLedger(upgraded, 1, { account: 'opening-balances', limit: 10, offset: 0 })).endingBalance).toBe(-2380);
    await expectTotalsMatchRows(upgraded);
    upgraded.close();
  });
});

describe('an existing file, upgraded in place: invoices', () => {
  it('upgrades a file: an invoice’s copy of the payment instructions is dropped where it says what the organization says', async () => {
    const { ledger: old, file } = ledgerAtMigration('0033_tax_corrections');
    old.sqlite.exec(`
      INSERT INTO organizations (seq, id, slug, name, currency, created_at, payment_instructions) VALUES (1, '00000000-0000-4000-8000-000000000001', 'acme', 'Acme', 'GBP', 'x', 'Pay to 12345678');
      INSERT INTO counterparties (seq, org_seq, id, name, is_customer) VALUES (1, 1, '00000000-0000-4000-8000-000000000002', 'Globex', 1);
      INSERT INTO documents (id, org_seq, kind, state, contact_seq, number, issue_date, due_date, currency, net_minor, tax_minor, total_minor, payment_instructions, created_at) VALUES
        ('10000000-0000-4000-8000-000000000001', 1, 'invoice', 'draft', 1, 'INV-0001', '2026-01-01', '2026-01-31', 'GBP', 100, 0, 100, 'Pay to 12345678', 'x'),
        ('10000000-0000-4000-8000-000000000002', 1, 'invoice', 'draft', 1, 'INV-0002', '2026-01-01', '2026-01-31', 'GBP', 100, 0, 100, 'Cheques to Acme', 'x');`);
    old.close();
    const upgraded = L.openLedger(file);
    expect(await upgraded.stmt('SELECT number, payment_instructions AS p FROM documents ORDER BY seq').all()).toEqual([
      { number: 'INV-0001', p: null },
      { number: 'INV-0002', p: 'Cheques to Acme' },
    ]);
    expect(await L.organizationBySeq(upgraded, 1)).toMatchObject({ paymentInstructions: 'Pay to 12345678', iban: null, dateStyle: null, country: null });
    upgraded.close();
  });
});

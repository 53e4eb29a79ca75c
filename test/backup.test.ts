// Backups, restore and the audit chain, as the owner uses them: commands as
// child processes on real data folders, the sqlite3 shell to tamper.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dailyBackup, DAILY_KEPT } from '../src/main/desk/access/backups';
import * as L from '../src/main/ledger';
import { ledgerFile, receiptsDir } from '../src/main/paths';
import { markRunning } from '../src/main/running';
import { ledgerAtMigration, tempDir } from './support/env';
import { textPdf } from './support/pdf';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');
const ledgerdesk = (data: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args, '--data', data], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const count = (file: string) => {
  const ledger = L.openLedger(file);
  try {
    return (ledger.sqlite.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  } finally {
    ledger.close();
  }
};

describe('backup and restore', () => {
  it('backs up consistently while another process writes, with the receipts, and restores it', async () => {
    const data = tempDir();
    expect(ledgerdesk(data, 'demo', '--transactions', '2000').code).toBe(0);
    const ledger = L.openLedger(ledgerFile(data));
    const org = (await L.listOrganizations(ledger))[0];
    const pdf = textPdf(['Invoice 77']);
    const { sha256Of } = await import('../src/main/receipts/intake');
    const { receipt } = await L.addReceipt(ledger, org.seq, L.deskActor(), {
      fileName: 'r.pdf',
      mimeType: 'application/pdf',
      sizeBytes: pdf.length,
      sha256: sha256Of(pdf),
      ocrText: null,
      bytes: pdf,
    });
    ledger.close();
    // A writer in another process while the backup runs.
    const writer = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `
      const L = await import(${JSON.stringify(join(root, 'src/main/ledger/index.ts'))});
      const ledger = L.openLedger(${JSON.stringify(ledgerFile(data))});
      const org = (await L.listOrganizations(ledger))[0];
      for (let i = 0; i < 300; i++) await L.addTransaction(ledger, org.seq, L.deskActor(), { account: 'Operating account', date: '2026-07-01', amount: -1, description: 'during backup ' + i });
      ledger.close();`,
      ],
      { cwd: root, stdio: 'inherit' },
    );
    const out = join(tempDir(), 'copy.backup');
    const backup = ledgerdesk(data, 'backup', '--out', out);
    await new Promise((done) => writer.once('exit', done));
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backed up to .*copy\.backup \(\d+ bytes, 1 receipt file\(s\)\)/);
    expect(L.checkBackup(out)).toMatchObject({ receipts: 1 });
    const inBackup = spawnSync('sqlite3', [out, 'SELECT count(*) FROM transactions; PRAGMA integrity_check;'], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(inBackup[1]).toBe('ok');
    const saved = Number(inBackup[0]);
    expect(saved).toBeGreaterThanOrEqual(2000);
    expect(saved).toBeLessThanOrEqual(2300);

    // Restore into a fresh folder: the books and the receipt files.
    const other = tempDir();
    ledgerdesk(other, 'demo', '--transactions', '10');
    const restored = ledgerdesk(other, 'restore', out);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('1 receipt file(s) in it');
    expect(restored.stdout).toMatch(/The books it replaced are kept in .*before-restore-/);
    expect(count(ledgerFile(other))).toBe(saved);
    const back = L.openLedger(ledgerFile(other));
    expect(Buffer.from((await L.receiptFileOf(back, org.seq, receipt.id)).bytes)).toEqual(pdf);
    back.close();
    const kept = readdirSync(join(other, 'backups')).find((n) => n.startsWith('before-restore'))!;
    expect(count(join(other, 'backups', kept))).toBe(10);
    expect(receipt.id).toBeTruthy();
  });

  it("moves an earlier build's receipts folder into the ledger when it opens, and removes the folder", async () => {
    const data = tempDir();
    const ledger = L.openLedger(ledgerFile(data));
    const org = await L.createOrganization(ledger, { slug: 'acme' });
    const pdf = textPdf(['Invoice 78']);
    const { sha256Of } = await import('../src/main/receipts/intake');
    const sha256 = sha256Of(pdf);
    const { receipt } = await L.addReceipt(ledger, org.seq, L.deskActor(), { fileName: 'r.pdf', mimeType: 'application/pdf', sizeBytes: pdf.length, sha256, ocrText: null });
    ledger.close();
    // As builds before issue 44 kept it: <data>/receipts/<first two>/<sha256>.
    mkdirSync(join(receiptsDir(data), sha256.slice(0, 2)), { recursive: true });
    writeFileSync(join(receiptsDir(data), sha256.slice(0, 2), sha256), pdf);
    const opened = L.openLedger(ledgerFile(data));
    expect(Buffer.from((await L.receiptFileOf(opened, org.seq, receipt.id)).bytes)).toEqual(pdf);
    expect(existsSync(receiptsDir(data))).toBe(false);
    opened.close();
  });

  it('refuses a bad backup with the current books untouched, and any restore while the app runs', () => {
    const data = tempDir();
    ledgerdesk(data, 'demo', '--transactions', '50');
    const junk = join(tempDir(), 'junk.backup');
    writeFileSync(junk, 'not a database at all');
    const bad = ledgerdesk(data, 'restore', junk);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not a backup Ledgerdesk can read');
    const plain = join(tempDir(), 'plain.db');
    spawnSync('sqlite3', [plain, 'CREATE TABLE x (a); INSERT INTO x VALUES (1);']);
    expect(ledgerdesk(data, 'restore', plain).stderr).toContain('it is not a Ledgerdesk backup');
    const good = join(tempDir(), 'good.backup');
    expect(ledgerdesk(data, 'backup', '--out', good).code).toBe(0);
    // A backup from a newer build is refused too.
    spawnSync('sqlite3', [good, "INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-the-future', 9999999999999);"]);
    expect(ledgerdesk(data, 'restore', good).stderr).toContain('written by a newer Ledgerdesk build');
    expect(count(ledgerFile(data))).toBe(50);
    expect(existsSync(join(data, 'backups'))).toBe(false); // nothing was even kept: nothing was replaced
    const unmark = markRunning(data); // the folder's lock held, as a running server holds it
    try {
      const running = ledgerdesk(data, 'restore', junk);
      expect(running.code).toBe(1);
      expect(running.stderr).toContain(`Ledgerdesk is running on ${data} (process ${process.pid}): stop it`);
    } finally {
      unmark();
    }
  });

  it('keeps one automatic backup a day, the last seven', async () => {
    const data = tempDir();
    const ledger = L.openLedger(ledgerFile(data));
    for (let day = 1; day <= 10; day++) await dailyBackup(ledger, data, `2026-01-${String(day).padStart(2, '0')}`);
    expect(await dailyBackup(ledger, data, '2026-01-10')).toBeNull(); // once a day
    ledger.close();
    expect(readdirSync(join(data, 'backups')).sort()).toEqual(Array.from({ length: DAILY_KEPT }, (_, i) => `ledgerdesk-2026-01-${String(i + 4).padStart(2, '0')}.backup`));
  });
});

describe('the audit chain', () => {
  it('verifies, and names the first entry changed behind the app back', () => {
    const data = tempDir();
    ledgerdesk(data, 'demo', '--transactions', '20');
    ledgerdesk(data, 'account', 'create', 'Petty cash', '--type', 'cash');
    ledgerdesk(data, 'account', 'edit', 'Petty cash', '--name', 'Cash box');
    const ok = ledgerdesk(data, 'audit', 'verify');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/The audit log verifies: \d+ entries/);
    const [target] = spawnSync('sqlite3', [ledgerFile(data), "SELECT id FROM audit_log WHERE action = 'account.created' AND summary LIKE '%Petty cash%'"], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    // The guard refuses a plain UPDATE; with the trigger dropped, the change goes in, and shows.
    expect(spawnSync('sqlite3', [ledgerFile(data), `UPDATE audit_log SET summary = 'nothing happened' WHERE id = '${target}'`], { encoding: 'utf8' }).stderr).toContain(
      'append-only',
    );
    spawnSync('sqlite3', [ledgerFile(data), `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET summary = 'nothing happened' WHERE id = '${target}';`]);
    const broken = ledgerdesk(data, 'audit', 'verify');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`entry ${target}`);
  });

  it('is built for a file written before the chain existed', async () => {
    const { ledger: old, file } = ledgerAtMigration('0007_hand_chart_reconcile');
    old.sqlite.exec(`INSERT INTO organizations (seq, id, slug, name, currency, created_at) VALUES (1, '00000000-0000-4000-8000-000000000001', 'acme', 'Acme', 'USD', 'x');`);
    const insert = old.sqlite.prepare(
      `INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary) VALUES (?, 1, ?, 'human', 'u', 'me', 'desk', 'x.y', 't', 't', ?)`,
    );
    for (let i = 0; i < 5; i++) insert.run(`10000000-0000-4000-8000-00000000000${i}`, `2026-01-0${i + 1}`, `entry ${i}`);
    old.close();
    const upgraded = L.openLedger(file);
    expect(await L.verifyAuditChain(upgraded)).toEqual({ ok: true, entries: 5, firstBad: null });
    await L.createAccount(upgraded, 1, L.deskActor(), { name: 'Bank', type: 'checking' });
    expect(await L.verifyAuditChain(upgraded, 1)).toMatchObject({ ok: true, entries: 6 });
    expect(() => upgraded.sqlite.prepare("UPDATE audit_log SET summary = 'x' WHERE action = 'x.y'").run()).toThrow(/append-only/);
    upgraded.close();
  });
});

describe('report commands', () => {
  it('print the profit and loss as one JSON object scripts can use, and as CSV', () => {
    const data = tempDir();
    ledgerdesk(data, 'demo', '--transactions', '300');
    const json = ledgerdesk(data, 'report', 'pl', '--from', '2025-01-01', '--to', '2025-12-31', '--json');
    expect(json.code, json.stderr).toBe(0);
    const pl = JSON.parse(json.stdout);
    expect(pl).toMatchObject({
      currency: 'USD',
      net: expect.any(Number),
      lines: expect.arrayContaining([expect.objectContaining({ code: '5300', name: 'Cloud infrastructure', type: 'expense', amount: expect.any(Number) })]),
    });
    const csv = ledgerdesk(data, 'report', 'pl', '--by', 'month', '--csv');
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^section,kind,code,name,parent,\d{4}-\d{2},.*,total$/);
    expect(csv.stdout).toMatch(/\r\n,total,,Net,,/);
    // By month: every parent's months are the subtotal of its children, and net is given per month.
    const monthly = JSON.parse(ledgerdesk(data, 'report', 'pl', '--from', '2025-01-01', '--to', '2025-06-30', '--by', 'month', '--json').stdout) as L.ProfitAndLoss;
    const parent = monthly.lines.find((l) => l.code === '5000' && !l.direct)!;
    const children = monthly.lines.filter((l) => l.parentCode === '5000' && !l.direct);
    for (const m of monthly.months!) {
      expect(parent.months![m]).toBeCloseTo((monthly.lines.find((l) => l.code === '5000' && l.direct)?.months?.[m] ?? 0) + children.reduce((s, c) => s + c.months![m], 0), 6);
      expect(monthly.netMonths![m]).toBeCloseTo(
        monthly.sections.reduce((s, x) => s + x.months![m], 0),
        6,
      );
    }
    const text = ledgerdesk(data, 'report', 'pl', '--from', '2025-01-01', '--to', '2025-06-30', '--by', 'month').stdout.split('\n');
    expect(text[1]).toMatch(/^\s+2025-01\s+2025-02\s+2025-03\s+2025-04\s+2025-05\s+2025-06\s+Total$/);
    expect(text).toContain('Revenue');
    expect(
      text
        .find((l) => l.startsWith('  5000 Operating expenses'))!
        .trim()
        .split(/\s+/)
        .slice(-7),
    ).toEqual([...monthly.months!.map((m) => parent.months![m].toFixed(2)), parent.total.toFixed(2)]);
    expect(text.find((l) => l.startsWith('Net'))).toMatch(/^Net\s+(-?\d+\.\d\d\s+){6}-?\d+\.\d\d$/);
    const balances = ledgerdesk(data, 'report', 'balances', '--date', '2025-06-30');
    expect(balances.stdout).toMatch(/^Balances at 2025-06-30\nCompany card/);
    const stdout = ledgerdesk(data, 'export', '--format', 'hledger', '--from', '2025-01-01', '--to', '2025-01-31');
    expect(stdout.code).toBe(0);
    expect(stdout.stdout).toMatch(/^; My organization \(default\), exported by Ledgerdesk for 2025-01-01 to 2025-01-31/);
  });
});

// The owner commands of issue 43 as a person runs them (child processes on a
// real data folder): `journal add|list|show|reverse|stop` and
// `opening-balances set|show`; exit 1 with the reason when refused.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/env';
import { booksFlags } from './support/books';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');

function ledgerdesk(data: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('journal and opening-balances commands', () => {
  const data = tempDir();
  const ok = (...args: string[]) => {
    const r = ledgerdesk(data, ...args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };

  it('take over a studio: the opening entry set and shown, refused while it leaves a difference', () => {
    ok('org', 'create', 'studio', '--name', 'Hartley Studio', '--currency', 'GBP', '--tax-set', 'uk-vat', '--chart', 'default');
    ok('account', 'create', 'Current', '--type', 'checking');
    ok('category', 'add', '3000', '--name', 'Share capital', '--type', 'equity');
    ok('category', 'add', '2100', '--name', "Director's loan", '--type', 'liability');
    ok('contact', 'add', 'Acme Ltd', '--kind', 'customer');
    const args = ['opening-balances', 'set', '--date', '2026-07-01', '--line', 'Current=12,000.00', '--line', '2100=-5000', '--line', '3000=-100', '--line', 'tax-control=-2400'];
    const refused = ledgerdesk(data, ...args, '--invoice', 'INV-0412;Acme Ltd;2026-06-10;2026-07-10;1,800.00');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/leave 6300\.00 GBP over \(debits exceed\)/);
    const set = ok(...args, '--invoice', 'INV-0412;Acme Ltd;2026-06-10;2026-07-10;1,800.00', '--balance-to-equity');
    expect(set).toMatch(/Opening balances as at 2026-06-30, the day before the conversion date 2026-07-01/);
    expect(set).toMatch(/6300\.00 GBP left over, at Opening balances \(equity, a credit\)/);
    expect(set).toMatch(/INV-0412 +Acme Ltd +2026-06-10 +due 2026-07-10 +1800\.00 GBP +no VAT given/);
    expect(set).toMatch(/Tax owed at the conversion: the return for 2026-04-01 to 2026-06-30, 2400\.00 GBP, unpaid/);
    expect(ok('opening-balances', 'show')).toEqual(set);
    expect(ok('report', 'balance-sheet', '--date', '2026-06-30')).toMatch(/Opening balances\s+6300\.00/);
  });

  it('enter, list, show and reverse journals; a monthly repeat stopped', () => {
    const entered = ok(
      'journal',
      'add',
      '--date',
      '2026-07-31',
      '--narration',
      'Accrued rent',
      '--line',
      '5200=500:July rent@S',
      '--line',
      '2100=-600',
      '--reverse-on',
      '2026-08-01',
    );
    expect(entered).toMatch(/^Entered JNL-0001\./);
    expect(entered).toMatch(/Sales tax control +100\.00 +\(tax at S\) +July rent/);
    expect(entered).toMatch(/Reversed by JNL-0002 on 2026-08-01\./);
    const short = ledgerdesk(data, 'journal', 'add', '--date', '2026-07-31', '--narration', 'Short', '--line', '5200=500', '--line', '2100=-400');
    expect([short.code, short.stderr]).toEqual([1, expect.stringMatching(/differ by 100\.00 GBP/)]);
    const repeating = ok('journal', 'add', '--date', '2026-07-31', '--narration', 'Depreciation', '--line', '5200=100', '--line', '2100=-100', '--repeat', 'monthly', '--json');
    expect(JSON.parse(repeating).repeat).toMatchObject({ firstDate: '2026-07-31', count: null, until: null });
    const list = ok('journal', 'list');
    expect(list).toMatch(/JNL-0002 +2026-08-01 +600\.00 GBP +Reversal of JNL-0001: Accrued rent +\(reverses JNL-0001\)/);
    expect(ok('journal', 'show', 'JNL-0002')).toMatch(/Reverses JNL-0001 \(2026-07-31\)\./);
    const stopped = ok('journal', 'stop', 'JNL-0003');
    expect(stopped).toMatch(/Repeats monthly from 2026-07-31: JNL-0003.*; stopped\./);
    const reversed = ok('journal', 'reverse', 'JNL-0003', '--date', '2026-08-15');
    expect(reversed).toMatch(/^Entered JNL-\d{4}\.\nJNL-\d{4} 2026-08-15 +Reversal of JNL-0003: Depreciation/);
    const again = ledgerdesk(data, 'journal', 'reverse', 'JNL-0003');
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/JNL-0003 is already reversed by JNL-\d{4}/)]);
  });
});

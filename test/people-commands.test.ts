// The `ledgerdesk user ...` commands (issue 45) as a firm's owner runs them, on
// both engines: an invitation link or a password from standard input, roles per
// organization, the last owner kept, removal from one organization or all.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { signIn } from '../src/main/ledger/access/sign-in';
import { startHeadless } from '../src/main/headless';
import { booksFlags, headlessBooks, openBooksOf } from './support/books';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');

function ledgerdesk(data: string, args: string[], input?: string, env: NodeJS.ProcessEnv = { LEDGERDESK_PUBLIC_URL: 'https://books.firm.example' }) {
  const r = spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    input,
    env: { ...process.env, LEDGERDESK_PUBLIC_URL: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('user commands', () => {
  it('adds, lists, changes, resets and removes people, per organization', async () => {
    const data = tempDir('ldk-user-cmd-');
    expect(ledgerdesk(data, ['org', 'create', 'studio', '--name', 'Hartley Studio']).code).toBe(0);
    expect(ledgerdesk(data, ['org', 'create', 'cafe', '--name', 'Corner Cafe']).code).toBe(0);

    const added = ledgerdesk(data, ['user', 'add', 'dana@firm.example', '--name', 'Dana Reyes', '--org', 'studio', '--role', 'bookkeeper']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /^Added dana@firm\.example\s+Dana Reyes\s+bookkeeper\s+\(invited\)\nInvitation link \(one use, 7 days\): https:\/\/books\.firm\.example\/#\/invitation\/[A-Za-z0-9_-]{43}\n$/,
    );

    const scripted = ledgerdesk(data, ['user', 'add', 'ops@firm.example', '--name', 'Ops', '--org', 'cafe', '--role', 'owner', '--password-stdin'], 'a long enough passphrase\n');
    expect(scripted.code, scripted.stderr).toBe(0);
    expect(scripted.stdout).not.toContain('Invitation link');
    const weak = ledgerdesk(data, ['user', 'add', 'weak@firm.example', '--name', 'Weak', '--org', 'cafe', '--role', 'client', '--password-stdin'], 'password1234\n');
    expect([weak.code, weak.stderr]).toEqual([1, expect.stringContaining('password')]);
    expect(ledgerdesk(data, ['user', 'add', 'dana@firm.example', '--name', 'Dana Reyes', '--org', 'cafe', '--role', 'preparer']).code).toBe(0);

    const list = ledgerdesk(data, ['user', 'list', '--org', 'studio', '--json']);
    expect(JSON.parse(list.stdout).people.map((p: { email: string; role: string }) => [p.email, p.role])).toEqual([['dana@firm.example', 'bookkeeper']]);
    expect(ledgerdesk(data, ['user', 'role', 'dana@firm.example', '--org', 'studio', '--role', 'accountant']).stdout).toMatch(/^Now dana@firm\.example\s+Dana Reyes\s+accountant/);

    // The last owner stays.
    const demote = ledgerdesk(data, ['user', 'role', 'ops@firm.example', '--org', 'cafe', '--role', 'bookkeeper']);
    expect([demote.code, demote.stderr]).toEqual([1, expect.stringContaining("the organization's last owner")]);

    const reset = ledgerdesk(data, ['user', 'reset', 'ops@firm.example', '--org', 'cafe', '--password-stdin'], 'another long passphrase\n');
    expect(reset.stdout).toBe('Password set for ops@firm.example.\n');
    const books = await openBooksOf(data);
    try {
      expect((await signIn(books, 'ops@firm.example', 'another long passphrase')).person.email).toBe('ops@firm.example');

      // --org names the one organization; without it, every one.
      expect(ledgerdesk(data, ['user', 'remove', 'dana@firm.example', '--org', 'cafe']).stdout).toBe('Removed dana@firm.example (1 organization(s)).\n');
      expect(await books.stmt("SELECT count(*) FROM memberships m JOIN users u ON u.seq = m.user_seq WHERE u.email = 'dana@firm.example'").pluck().get()).toBe(1);
      expect(ledgerdesk(data, ['user', 'remove', 'dana@firm.example']).stdout).toBe('Removed dana@firm.example (1 organization(s)).\n');
      const audit = await books.rows<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'person.%' ORDER BY seq");
      expect(audit.map((a) => a.action)).toEqual(['person.added', 'person.added', 'person.added', 'person.role_changed', 'person.reset', 'person.removed', 'person.removed']);
      expect(await L.verifyAuditChain(books)).toMatchObject({ ok: true });
    } finally {
      await books.end();
    }
  }, 120_000);

  it('records what a command writes under the person it names (--as, LEDGERDESK_AS), with their role checked, and says when none is named', async () => {
    const data = tempDir('ldk-user-as-');
    expect(ledgerdesk(data, ['org', 'create', 'studio', '--name', 'Hartley Studio']).code).toBe(0);
    expect(
      ledgerdesk(data, ['user', 'add', 'bea@firm.example', '--name', 'Bea Marsh', '--org', 'studio', '--role', 'bookkeeper', '--password-stdin'], 'a long enough passphrase\n')
        .code,
    ).toBe(0);
    expect(
      ledgerdesk(data, ['user', 'add', 'cal@firm.example', '--name', 'Cal Client', '--org', 'studio', '--role', 'client', '--password-stdin'], 'a long enough passphrase\n').code,
    ).toBe(0);

    const asBea = ledgerdesk(data, ['account', 'create', 'Current', '--org', 'studio', '--as', 'Bea@firm.example']);
    expect(asBea.code, asBea.stderr).toBe(0);
    expect(asBea.stderr).not.toMatch(/machine's owner/);
    const byVariable = spawnSync(process.execPath, [BIN, 'account', 'create', 'Savings', '--org', 'studio', ...booksFlags(data)], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, LEDGERDESK_AS: 'bea@firm.example' },
    });
    expect(byVariable.status, byVariable.stderr).toBe(0);
    // A client may not make accounts: refused as the screens refuse it, nothing written.
    const asClient = ledgerdesk(data, ['account', 'create', 'Card', '--org', 'studio', '--as', 'cal@firm.example']);
    expect([asClient.code, asClient.stderr]).toEqual([1, expect.stringMatching(/^ledgerdesk: forbidden: As client of Hartley Studio you may not create account/)]);
    const nobody = ledgerdesk(data, ['account', 'create', 'Card', '--org', 'studio', '--as', 'who@firm.example']);
    expect([nobody.code, nobody.stderr]).toEqual([2, expect.stringContaining('No person who@firm.example on these books')]);
    // None named on books people sign in to: done as the machine's owner, and said.
    const unnamed = ledgerdesk(data, ['account', 'create', 'Petty cash', '--org', 'studio']);
    expect(unnamed.code, unnamed.stderr).toBe(0);
    expect(unnamed.stderr).toMatch(/Recorded as the machine's owner \(.*\): name the person running it with --as <email> \(or LEDGERDESK_AS\)/);

    const books = await openBooksOf(data);
    try {
      const org = (await L.findOrganization(books, 'studio'))!;
      const made = await books.forOrg(org.seq, () =>
        books.rows<{ summary: string; actor_name: string }>("SELECT summary, actor_name FROM audit_log WHERE action = 'account.created' ORDER BY seq"),
      );
      expect(made.map((a) => a.actor_name)).toEqual(['Bea Marsh (bookkeeper)', 'Bea Marsh (bookkeeper)', expect.not.stringContaining('Bea')]);
    } finally {
      await books.end();
    }
  }, 120_000);

  it('links invitations to the public address serve --public-url kept in the books, whichever shell prints them', async () => {
    const data = tempDir('ldk-user-public-');
    expect(ledgerdesk(data, ['org', 'create', 'studio', '--name', 'Hartley Studio']).code).toBe(0);
    const served = await startHeadless(data, { ...headlessBooks(data), port: 0, publicUrl: 'https://books.hartley.example', log: () => {} });
    await served.stop();

    const added = ledgerdesk(data, ['user', 'add', 'dana@firm.example', '--name', 'Dana Reyes', '--org', 'studio', '--role', 'bookkeeper'], undefined, {});
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/Invitation link \(one use, 7 days\): https:\/\/books\.hartley\.example\/#\/invitation\//);
    // This shell's own setting still wins.
    const mine = ledgerdesk(data, ['user', 'reset', 'dana@firm.example', '--org', 'studio'], undefined, { LEDGERDESK_PUBLIC_URL: 'https://elsewhere.example' });
    expect(mine.stdout).toMatch(/: https:\/\/elsewhere\.example\/#\/invitation\//);
  }, 120_000);
});

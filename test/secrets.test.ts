// The one module that seals secrets (issue 51), on both engines: AES-256-GCM in
// a versioned form naming its key, bound to its row; second-factor secrets an
// earlier build kept in clear sealed when the books open; a data folder's key
// file (mode 0600) made on first need; a server refused at start without the key
// its secrets need; a rotated key's older values sealed again at open.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import { checkTotp } from '../src/main/ledger/access/second-factor';
import { newTotpSecret, totpCode } from '../src/main/ledger/access/totp';
import { openBooks } from '../src/main/ledger/core/open';
import { KEY_FILE } from '../src/main/ledger/core/secrets/keys';
import { keyringOf, seal, sealedWith, unseal } from '../src/main/ledger/core/secrets/seal';
import { databaseOf, onPostgres } from './support/books';
import { tempDir } from './support/env';

const key = () => randomBytes(32);
const configured = process.env.LEDGERDESK_SECRET_KEY;
afterEach(() => {
  if (configured === undefined) delete process.env.LEDGERDESK_SECRET_KEY;
  else process.env.LEDGERDESK_SECRET_KEY = configured;
});

describe('the sealed form', () => {
  const ring = keyringOf([key()]);
  const context = { purpose: 'totp', owner: 'users/a' };

  it('opens what it sealed, names its key, and refuses a changed value, another row, another purpose or an unknown key', () => {
    const sealed = seal(ring, 'JBSWY3DPEHPK3PXP', context);
    expect(sealed).toMatch(/^ldk-sealed:v1:[0-9a-f]{16}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealedWith(sealed)).toBe(ring.current.id);
    expect(unseal(ring, sealed, context)).toBe('JBSWY3DPEHPK3PXP');
    expect(seal(ring, 'JBSWY3DPEHPK3PXP', context)).not.toBe(sealed); // a random nonce each time
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BA' : 'AA');
    expect(() => unseal(ring, tampered, context)).toThrow(/does not open/);
    expect(() => unseal(ring, sealed, { purpose: 'totp', owner: 'users/b' })).toThrow(/does not open/);
    expect(() => unseal(ring, sealed, { purpose: 'mail', owner: 'users/a' })).toThrow(/does not open/);
    expect(() => unseal(keyringOf([key()]), sealed, context)).toThrow(/not configured/);
    expect(() => unseal(ring, 'JBSWY3DPEHPK3PXP', context)).toThrow(/not in the sealed form/);
  });

  it('opens values of an older key while the newer one seals (rotation)', () => {
    const old = keyringOf([key()]);
    const sealed = seal(old, 'JBSWY3DPEHPK3PXP', context);
    const rotated = keyringOf([key(), old.current.key]);
    expect(unseal(rotated, sealed, context)).toBe('JBSWY3DPEHPK3PXP');
    expect(sealedWith(seal(rotated, 'x', context))).toBe(rotated.current.id);
  });
});

describe('secrets when the books open', () => {
  /** Books with a person whose second factor an earlier build kept in clear. */
  async function booksWithClearSecret(): Promise<{ at: { ledgerFile: string; database?: string }; dir: string; secret: string }> {
    const dir = tempDir('ldk-secrets-');
    const at = { ledgerFile: join(dir, 'ledger.db'), database: databaseOf(dir) };
    const secret = newTotpSecret();
    const books = await openBooks(at);
    try {
      const org = (await books.forOrg('all', () => L.listOrganizations(books)))[0] ?? (await books.forOrg('all', () => L.ensureDefaultOrganization(books)));
      await books.forOrg(org.seq, () =>
        addMember(books, org.seq, L.deskActor(), { email: 'zoe@firm.example', name: 'Zoe', role: 'owner', password: 'correct horse battery staple' }),
      );
      await books.stmt("UPDATE users SET totp_secret = ?, totp_step = 0 WHERE email = 'zoe@firm.example'").run(secret);
    } finally {
      await books.end();
    }
    return { at, dir, secret };
  }
  const storedOf = async (books: L.Ledger) => (await books.stmt("SELECT totp_secret FROM users WHERE email = 'zoe@firm.example'").pluck().get()) as string;

  it('seals a second factor kept in clear, and it still signs in', async () => {
    const { at, dir, secret } = await booksWithClearSecret();
    const logged: string[] = [];
    const books = await openBooks(at, { log: (m) => logged.push(m) });
    try {
      const stored = await storedOf(books);
      expect(stored).toMatch(/^ldk-sealed:v1:/);
      expect(stored).not.toContain(secret);
      expect(logged).toContainEqual(expect.stringMatching(/^sealed 1 stored secret\(s\) with key [0-9a-f]{16}$/));
      const zoe = (await personByEmail(books, 'zoe@firm.example'))!;
      expect(await checkTotp(books, zoe.seq, totpCode(secret))).toBe(true);
      if (!onPostgres) {
        // A data folder's key beside its books, its owner's alone.
        expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
        expect(JSON.parse(readFileSync(join(dir, KEY_FILE), 'utf8'))).toMatchObject({ format: 'ledgerdesk-secret-keys', version: 1, protection: 'none' });
      } else expect(existsSync(join(dir, KEY_FILE))).toBe(false);
    } finally {
      await books.end();
    }
  });

  it('seals again, at open, what an older key sealed once a new key is put first; the older key alone then opens nothing', async () => {
    const { at } = await booksWithClearSecret();
    const [older, newer] = [key().toString('base64'), key().toString('base64')];
    process.env.LEDGERDESK_SECRET_KEY = older;
    await (await openBooks(at)).end();
    process.env.LEDGERDESK_SECRET_KEY = `${newer},${older}`;
    const books = await openBooks(at);
    const stored = await storedOf(books);
    await books.end();
    expect(sealedWith(stored)).toBe(keyringOf([Buffer.from(newer, 'base64')]).current.id);
    process.env.LEDGERDESK_SECRET_KEY = newer;
    await (await openBooks(at)).end();
    if (onPostgres) {
      process.env.LEDGERDESK_SECRET_KEY = older;
      await expect(openBooks(at)).rejects.toThrow(/sealed with key\(s\) [0-9a-f]{16}, which this process is not given/);
    }
  });

  it('refuses to start a server whose secrets need a key it was not given, saying how to make one; a data folder whose key is gone opens, saying so', async () => {
    const { at, dir } = await booksWithClearSecret();
    await (await openBooks(at)).end();
    delete process.env.LEDGERDESK_SECRET_KEY;
    if (onPostgres) {
      await expect(openBooks(at)).rejects.toThrow(/no key to open them\. Make one with `openssl rand -base64 32`.*LEDGERDESK_SECRET_KEY/);
      return;
    }
    // Restored on another computer without its key file: the books open, and its people set their second factor up again.
    rmSync(join(dir, KEY_FILE));
    const logged: string[] = [];
    await (await openBooks(at, { log: (m) => logged.push(m) })).end();
    expect(logged).toContainEqual(expect.stringContaining('sealed totp secret(s) and this process has no key to open them'));
  });
});

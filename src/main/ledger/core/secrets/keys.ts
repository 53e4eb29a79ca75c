// Where the keys that seal secrets come from (issue 51). A server is given its
// key by IT: LEDGERDESK_SECRET_KEY (base64 of 32 random bytes; several, comma-
// separated, while rotating: the first seals, every one opens) or
// LEDGERDESK_SECRET_KEY_FILE (one such key a line). Never made up by the server:
// a key generated on first start would live only on that machine, and a
// restore or a second process elsewhere could not open what it sealed. A data
// folder's books keep their key beside them, in `secret.key` (mode 0600), made
// the first time a secret is sealed; the desktop app has Electron's safeStorage
// (the system's keychain) protect it there, and plain Node reads it as it is.
import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Ledger } from '../storage';
import { KEY_BYTES, keyringOf, SecretError, type Keyring } from './seal';

export const KEY_FILE = 'secret.key';
const FORMAT = 'ledgerdesk-secret-keys';

/** How the desktop protects the key file's keys (Electron's safeStorage); none under plain Node. */
export interface KeyProtection {
  name: 'safeStorage';
  protect(text: string): Buffer;
  unprotect(blob: Buffer): string;
}

let protection: KeyProtection | null = null;

/** The desktop app (src/main/index.ts) hands over safeStorage before it opens the books. */
export function protectKeysWith(p: KeyProtection | null): void {
  protection = p;
}

export const HOW_TO_MAKE_A_KEY =
  'Make one with `openssl rand -base64 32`, keep it where the firm keeps its other secrets, and give it to every server process as LEDGERDESK_SECRET_KEY ' +
  '(or a file of it, mode 0600, as LEDGERDESK_SECRET_KEY_FILE). See docs/secrets.md.';

function decodeKey(text: string, where: string): Buffer {
  const key = text.trim();
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(key) ? Buffer.from(key, 'base64') : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) throw new SecretError(`${where} must be base64 of ${KEY_BYTES} random bytes. ${HOW_TO_MAKE_A_KEY}`);
  return bytes;
}

/** The keys the process is configured with (LEDGERDESK_SECRET_KEY or LEDGERDESK_SECRET_KEY_FILE), or null. */
export function configuredKeys(env: NodeJS.ProcessEnv = process.env): Buffer[] | null {
  const inline = env.LEDGERDESK_SECRET_KEY || undefined;
  const file = env.LEDGERDESK_SECRET_KEY_FILE || undefined;
  if (inline && file) throw new SecretError('Set LEDGERDESK_SECRET_KEY or LEDGERDESK_SECRET_KEY_FILE, not both.');
  if (inline) return inline.split(',').map((k, i) => decodeKey(k, `LEDGERDESK_SECRET_KEY's key ${i + 1}`));
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SecretError(`LEDGERDESK_SECRET_KEY_FILE (${file}) cannot be read: ${(error as Error).message}`);
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim() && !l.trim().startsWith('#'));
  if (!lines.length) throw new SecretError(`LEDGERDESK_SECRET_KEY_FILE (${file}) holds no key. ${HOW_TO_MAKE_A_KEY}`);
  return lines.map((l, i) => decodeKey(l, `LEDGERDESK_SECRET_KEY_FILE's line ${i + 1}`));
}

interface KeyFile {
  format: typeof FORMAT;
  version: 1;
  protection: 'none' | 'safeStorage';
  /** base64 keys, the first sealing; under safeStorage, base64 of what safeStorage made of each. */
  keys: string[];
}

function writeKeyFile(path: string, keys: Buffer[], exclusive: boolean): void {
  const file: KeyFile = {
    format: FORMAT,
    version: 1,
    protection: protection ? protection.name : 'none',
    keys: keys.map((k) => (protection ? protection.protect(k.toString('base64')).toString('base64') : k.toString('base64'))),
  };
  const text = `${JSON.stringify(file, null, 2)}\n`;
  if (exclusive) return writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
  // Replaced whole: a reader sees the old file or the new one, never half of one.
  const next = `${path}.${process.pid}.next`;
  writeFileSync(next, text, { mode: 0o600 });
  renameSync(next, path);
}

function readKeyFile(path: string): Buffer[] {
  // Readable by its owner alone: a key file another user could read is tightened before it is used.
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const file = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  if (file.format !== FORMAT || file.version !== 1 || !Array.isArray(file.keys) || !file.keys.length) throw new SecretError(`${path} is not a Ledgerdesk key file.`);
  if (file.protection === 'safeStorage') {
    if (!protection) {
      throw new SecretError(`${path} is protected by the desktop app's keychain (Electron's safeStorage): open these books with the desktop app, or give this process the key.`);
    }
    return file.keys.map((k) => decodeKey(protection!.unprotect(Buffer.from(k, 'base64')), path));
  }
  const keys = file.keys.map((k) => decodeKey(k, path));
  // The desktop app protects a key file plain Node made, the first time it reads it.
  if (protection) writeKeyFile(path, keys, false);
  return keys;
}

/** A data folder's keys: its key file, made (one new key) when `create` and there is none yet; null when none and not made. */
export function dataFolderKeys(dir: string, create: boolean): Buffer[] | null {
  const path = join(dir, KEY_FILE);
  if (!existsSync(path)) {
    if (!create) return null;
    try {
      writeKeyFile(path, [randomBytes(KEY_BYTES)], true);
    } catch (error) {
      // Another process made it first: theirs is the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readKeyFile(path);
}

const rings = new WeakMap<Ledger, Keyring>();

/**
 * The keyring of a ledger's secrets: the configured key where the process has one; else a data folder's key file
 * (made when `create`); an in-memory ledger's own key; null on a database server without a configured key.
 */
export function keyringFor(ledger: Pick<Ledger, 'engine' | 'file'>, create: boolean, env: NodeJS.ProcessEnv = process.env): Keyring | null {
  const known = rings.get(ledger as Ledger);
  if (known) return known;
  const configured = configuredKeys(env);
  let keys = configured;
  if (!keys && ledger.engine === 'sqlite') keys = ledger.file === ':memory:' ? [randomBytes(KEY_BYTES)] : dataFolderKeys(dirname(ledger.file), create);
  if (!keys) return null;
  const ring = keyringOf(keys);
  rings.set(ledger as Ledger, ring);
  return ring;
}

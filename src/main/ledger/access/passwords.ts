// People's passwords (issue 45): at least 12 characters, not one of the commonest
// leaked passwords (nor one built on the words they are built on), kept only as
// scrypt's hash: N = 2^15, r = 8, p = 1, a 16-byte random salt, a 32-byte key,
// written `scrypt$<N>$<r>$<p>$<salt>$<key>` (base64), so parameters can grow
// later without losing the old hashes. Compared in constant time.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { promisify } from 'node:util';
import { invalid } from '../core/errors';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/**
 * Each scrypt derivation is published here with its cost parameters (never the password): what shows that a sign-in
 * at an unknown address does the same work as one at a known address (test/sign-in-limits.test.ts), and what a
 * profiler may count. Free when no one subscribes.
 */
export const SCRYPT_CHANNEL = 'ledgerdesk:scrypt';
const derivations = channel(SCRYPT_CHANNEL);

function derive(password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }): Promise<Buffer> {
  if (derivations.hasSubscribers) derivations.publish({ N: options.N, r: options.r, p: options.p, keylen });
  return scryptAsync(password, salt, keylen, options);
}

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32 } as const;
const MIN_PASSWORD = 12;
/** 128 * N * r bytes is what scrypt needs; twice that is allowed. */
const maxmem = (N: number, r: number) => 256 * N * r;

/**
 * The commonest leaked passwords of 12 characters or more, and the words the short ones are built on (a password
 * that is one of them with digits and signs around it is refused too). Compiled from the published top lists.
 */
const LEAKED = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123123123123',
  '111111111111',
  '000000000000',
  '123456123456',
  '1q2w3e4r5t6y',
  '1qaz2wsx3edc',
  'zaq12wsxcde3',
  'qwertyuiopas',
  'qwertyuiop12',
  'qwertyuiop123',
  'qwerty123456',
  'password1234',
  'password12345',
  'password123456',
  'passwordpassword',
  'iloveyou1234',
  'abc123abc123',
  'aaaaaaaaaaaa',
  'asdfghjkl123',
  'q1w2e3r4t5y6',
  'a1b2c3d4e5f6',
  '1234qwerasdf',
  'qazwsxedcrfv',
  'letmeinletmein',
  'welcome12345',
  'administrator',
  'administrator1',
  'changeme1234',
  'trustno1trustno1',
  'monkey123456',
  'football1234',
  'baseball1234',
  'superman1234',
  'sunshine1234',
  'princess1234',
  'starwars1234',
  'qwertyqwerty',
  'asdfasdfasdf',
  '1234512345',
]);
const WORDS = [
  'password',
  'passw0rd',
  'qwerty',
  'qwertz',
  'azerty',
  'letmein',
  'welcome',
  'iloveyou',
  'admin',
  'administrator',
  'monkey',
  'dragon',
  'football',
  'baseball',
  'soccer',
  'sunshine',
  'princess',
  'starwars',
  'superman',
  'batman',
  'shadow',
  'master',
  'michael',
  'jessica',
  'charlie',
  'freedom',
  'whatever',
  'trustno1',
  'changeme',
  'secret',
  'login',
  'abc123',
  'ledgerdesk',
];

/** Refuses a password shorter than MIN_PASSWORD or common, naming the field. */
export function checkPassword(password: string, field = 'password'): void {
  if ([...password].length < MIN_PASSWORD) throw invalid([{ field, message: `must be at least ${MIN_PASSWORD} characters` }]);
  const lower = password.toLowerCase();
  const core = lower.replace(/^[^a-z]+|[^a-z]+$/g, '');
  if (LEAKED.has(lower) || WORDS.includes(core) || new Set(lower).size <= 2 || /^(?:0123456789|1234567890|9876543210)+$/.test(lower)) {
    throw invalid([{ field, message: 'is one of the commonest leaked passwords (or built on one): choose another' }]);
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keylen } = SCRYPT;
  const key = await derive(password, salt, keylen, { N, r, p, maxmem: maxmem(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A hash to compare against when there is none (an unknown address): the same work, so the answer takes as long. */
let dummy: Promise<string> | undefined;
export const dummyHash = (): Promise<string> => (dummy ??= hashPassword(randomBytes(16).toString('hex')));

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const got = await derive(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: maxmem(Number(n), Number(r)) });
  return got.length === expected.length && timingSafeEqual(got, expected);
}

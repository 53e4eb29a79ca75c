// Sealing a secret (issue 51): AES-256-GCM with a random 96-bit nonce, in a
// versioned, self-describing text that names the key it was sealed with, so a
// key can be rotated while older values are still opened:
//
//   ldk-sealed:v1:<key id>:<nonce, base64url>:<ciphertext and 16-byte tag, base64url>
//
// The associated data is the header with what the secret is and whose it is
// (`totp` of `users/<person id>`): a sealed value copied onto another row, or
// into another column, does not open. Pure functions: where the keys come from
// is keys.ts, which values are sealed is sealed.ts.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'ldk-sealed';
const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export interface SecretKey {
  /** 16 hex digits of the key's SHA-256: names the key in a sealed value without revealing it. */
  id: string;
  key: Buffer;
}

/** The keys secrets are sealed with: the first seals, every one opens (the older ones until their values are sealed again). */
export interface Keyring {
  current: SecretKey;
  all: readonly SecretKey[];
}

/** What a secret is and whose: bound to the sealed value (AES-GCM's associated data). */
export interface SecretContext {
  /** What it is: `totp`, later `bank-feed`, `mail`, `hmrc`. */
  purpose: string;
  /** Whose it is: the row it belongs to, by a stable id (`users/<person id>`). */
  owner: string;
}

export class SecretError extends Error {}

export function secretKey(key: Buffer): SecretKey {
  if (key.length !== KEY_BYTES) throw new SecretError(`A secret key is ${KEY_BYTES} bytes (base64 of 32 random bytes: \`openssl rand -base64 32\`), not ${key.length}.`);
  return { id: createHash('sha256').update('ledgerdesk secret key id\0').update(key).digest('hex').slice(0, 16), key };
}

export function keyringOf(keys: Buffer[]): Keyring {
  if (!keys.length) throw new SecretError('No secret key.');
  const all = keys.map(secretKey);
  return { current: all[0], all };
}

const header = (keyId: string) => `${PREFIX}:${VERSION}:${keyId}`;
const aad = (keyId: string, context: SecretContext) => Buffer.from(`${header(keyId)}\0${context.purpose}\0${context.owner}`, 'utf8');

/** Whether a stored value is in the sealed form (of any version). */
export const isSealed = (stored: string): boolean => stored.startsWith(`${PREFIX}:`);

/** The key id a sealed value names (null: not sealed). */
export const sealedWith = (stored: string): string | null => (isSealed(stored) ? (stored.split(':')[2] ?? null) : null);

export function seal(keyring: Keyring, secret: string, context: SecretContext): string {
  const { id, key } = keyring.current;
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(id, context));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${header(id)}:${nonce.toString('base64url')}:${sealed.toString('base64url')}`;
}

/** The secret a sealed value holds; refused when it is not sealed, its key is not in the keyring, or it belongs elsewhere. */
export function unseal(keyring: Keyring, stored: string, context: SecretContext): string {
  const [prefix, version, keyId, nonceText, sealedText, extra] = stored.split(':');
  if (prefix !== PREFIX || version !== VERSION || !sealedText || extra !== undefined) throw new SecretError(`A ${context.purpose} secret is not in the sealed form.`);
  const found = keyring.all.find((k) => k.id === keyId);
  if (!found) throw new SecretError(`A ${context.purpose} secret is sealed with key ${keyId}, which is not configured (see docs/secrets.md).`);
  const sealed = Buffer.from(sealedText, 'base64url');
  const nonce = Buffer.from(nonceText, 'base64url');
  if (nonce.length !== NONCE_BYTES || sealed.length < TAG_BYTES) throw new SecretError(`A ${context.purpose} secret's sealed form is damaged.`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', found.key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(keyId, context));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretError(`A ${context.purpose} secret does not open: it was changed, or moved from another row.`);
  }
}

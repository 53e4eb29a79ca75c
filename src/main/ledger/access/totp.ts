// A second factor (issue 45): RFC 6238 TOTP, as authenticator apps read it
// (HMAC-SHA1, 30-second steps, 6 digits), a 20-byte secret in base32 (RFC 4648),
// a code accepted one step either side of now (clocks drift).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const STEP_SECONDS = 30;

export function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text.replace(/=+$/, '').toUpperCase()) {
    const at = BASE32.indexOf(ch);
    if (at < 0) throw new Error('not base32');
    value = (value << 5) | at;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export const newTotpSecret = (): string => base32(randomBytes(20));

/** The code of a step (RFC 4226's dynamic truncation). */
export function totpCode(secret: string, at = Date.now(), offset = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / STEP_SECONDS) + offset));
  const mac = createHmac('sha1', fromBase32(secret)).update(counter).digest();
  const start = mac[mac.length - 1] & 15;
  return String((mac.readUInt32BE(start) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** The time step whose code this is (one step of drift either way), or null. */
export function totpStep(secret: string, code: string, at = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = Math.floor(at / 1000 / STEP_SECONDS);
  const offset = [-1, 0, 1].find((o) => timingSafeEqual(Buffer.from(totpCode(secret, at, o)), Buffer.from(code)));
  return offset === undefined ? null : now + offset;
}

export const verifyTotp = (secret: string, code: string, at = Date.now()): boolean => totpStep(secret, code, at) !== null;

/** What an authenticator app reads (as a QR code or typed): otpauth://totp/<issuer>:<account>?secret=... */
export const totpUri = (secret: string, account: string, issuer = 'Ledgerdesk'): string =>
  `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${STEP_SECONDS}`;

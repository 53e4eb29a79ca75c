// An organization's logo, printed at the top of its invoices (issue 43): a
// PNG or a JPEG up to 1 MB, judged by its bytes (not its name), its size read
// from its header. Kept in the database (one row per organization), so the
// books and everything they print travel in one file. Set and removed audited.
import { createHash } from 'node:crypto';
import { appendAudit, type Actor } from './audit';
import { nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';

export const MAX_LOGO_BYTES = 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

export interface Logo {
  fileName: string;
  mimeType: LogoType;
  width: number;
  height: number;
  sizeBytes: number;
  sha256: string;
  setAt: string;
}

const refused = (code: 'validation_failed' | 'payload_too_large' | 'unsupported_media_type', message: string) => new LedgerError(code, message, [{ field: 'file', message }]);

/** A PNG's size from its IHDR chunk, the first after the signature. */
function pngSize(b: Uint8Array): [number, number] | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return b.length >= 24 && String.fromCharCode(...b.subarray(12, 16)) === 'IHDR' ? [view.getUint32(16), view.getUint32(20)] : null;
}

/** A JPEG's size from its first start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC). */
function jpegSize(b: Uint8Array): [number, number] | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    const length = (b[at + 2] << 8) | b[at + 3];
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return [(b[at + 7] << 8) | b[at + 8], (b[at + 5] << 8) | b[at + 6]];
    at += 2 + length;
  }
  return null;
}

/** What a file is, if it can be a logo: PNG or JPEG by its first bytes, with a size in its header. */
export function logoFacts(bytes: Uint8Array): { mimeType: LogoType; width: number; height: number } {
  if (bytes.length === 0) throw refused('validation_failed', 'The file is empty.');
  if (bytes.length > MAX_LOGO_BYTES) throw refused('payload_too_large', `A logo can be at most 1 MB; this file is ${(bytes.length / 1024 / 1024).toFixed(1)} MB.`);
  const png = bytes.length > 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => bytes[i] === x);
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!png && !jpeg) throw refused('unsupported_media_type', 'A logo is a PNG or JPEG image (judged by the file contents).');
  const size = png ? pngSize(bytes) : jpegSize(bytes);
  if (!size || size[0] === 0 || size[1] === 0) throw refused('validation_failed', `The ${png ? 'PNG' : 'JPEG'} image is damaged: its size cannot be read.`);
  return { mimeType: png ? 'image/png' : 'image/jpeg', width: size[0], height: size[1] };
}

const SELECT =
  'SELECT file_name AS "fileName", mime_type AS "mimeType", width, height, length(bytes) AS "sizeBytes", sha256, set_at AS "setAt" FROM organization_logos WHERE org_seq = ?';

/** The organization's logo (without its bytes), or null. */
export const logoOf = async (ledger: Ledger, orgSeq: number): Promise<Logo | null> => ((await ledger.stmt(SELECT).get(orgSeq)) as Logo | undefined) ?? null;

/** The logo's bytes, or null. */
export const logoBytes = async (ledger: Ledger, orgSeq: number): Promise<Buffer | null> =>
  ((await ledger.stmt('SELECT bytes FROM organization_logos WHERE org_seq = ?').pluck().get(orgSeq)) as Buffer | undefined) ?? null;

const describe = (l: Pick<Logo, 'fileName' | 'mimeType' | 'width' | 'height'>, size: number) =>
  `${l.fileName} (${l.mimeType === 'image/png' ? 'PNG' : 'JPEG'} ${l.width}x${l.height}, ${Math.ceil(size / 1024)} KB)`;

/** Sets (or replaces) the logo, checked; audited. */
export async function setLogo(ledger: Ledger, org: { seq: number; id: string; slug: string }, actor: Actor, fileName: string, bytes: Uint8Array): Promise<Logo> {
  const facts = logoFacts(bytes);
  const name = fileName.trim().slice(0, 200) || (facts.mimeType === 'image/png' ? 'logo.png' : 'logo.jpg');
  return ledger.write(async () => {
    const was = await logoOf(ledger, org.seq);
    await ledger
      .stmt(
        `INSERT INTO organization_logos (org_seq, file_name, mime_type, width, height, sha256, bytes, set_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_seq) DO UPDATE SET file_name = excluded.file_name, mime_type = excluded.mime_type, width = excluded.width, height = excluded.height,
           sha256 = excluded.sha256, bytes = excluded.bytes, set_at = excluded.set_at`,
      )
      .run(org.seq, name, facts.mimeType, facts.width, facts.height, createHash('sha256').update(bytes).digest('hex'), Buffer.from(bytes), nowIso());
    const logo = (await logoOf(ledger, org.seq))!;
    await appendAudit(ledger, org.seq, actor, {
      action: 'organization.updated',
      targetType: 'organization',
      targetId: org.id,
      summary: `Organization ${org.slug} changed: logo ${was ? `${describe(was, was.sizeBytes)} -> ` : ''}${describe(logo, logo.sizeBytes)}`,
    });
    return logo;
  });
}

/** Removes the logo; audited. Refused when there is none. */
export async function removeLogo(ledger: Ledger, org: { seq: number; id: string; slug: string }, actor: Actor): Promise<Logo> {
  return ledger.write(async () => {
    const was = await logoOf(ledger, org.seq);
    if (!was) throw new LedgerError('not_found', `Organization ${org.slug} has no logo.`, { resource: 'logo', id: org.id });
    await ledger.stmt('DELETE FROM organization_logos WHERE org_seq = ?').run(org.seq);
    await appendAudit(ledger, org.seq, actor, {
      action: 'organization.updated',
      targetType: 'organization',
      targetId: org.id,
      summary: `Organization ${org.slug} changed: logo ${describe(was, was.sizeBytes)} removed`,
    });
    return was;
  });
}

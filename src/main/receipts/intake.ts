// Receipt files from the desk: the type is read from the bytes (never the name),
// the file is stored once under its SHA-256 and written atomically, and PDFs
// with a text layer give their text to ocrText so agents can search it.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerError } from '../ledger/core/errors';

export const MAX_RECEIPT_BYTES = 20 * 1024 * 1024;
export const RECEIPT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/heic'] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** PDF, JPEG, PNG or HEIC by magic bytes; null for anything else. */
export function sniffType(bytes: Uint8Array): ReceiptType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && HEIC_BRANDS.has(ascii(bytes, 8, 12))) return 'image/heic';
  return null;
}

/** The original name as harmless metadata: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (!cleaned) return 'receipt';
  if (cleaned.length <= 200) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, 200 - ext.length) + ext;
}

export function checkReceiptFile(bytes: Uint8Array): ReceiptType {
  if (bytes.length === 0) throw new LedgerError('validation_failed', 'The file is empty.', [{ field: 'file', message: 'is empty' }]);
  if (bytes.length > MAX_RECEIPT_BYTES) {
    throw new LedgerError('payload_too_large', 'Receipts can be at most 20 MB.', { limitBytes: MAX_RECEIPT_BYTES, sizeBytes: bytes.length });
  }
  const type = sniffType(bytes);
  if (!type) {
    throw new LedgerError('unsupported_media_type', 'Only PDF, JPEG, PNG and HEIC receipts are accepted (judged by the file contents).', {
      accepted: RECEIPT_TYPES,
    });
  }
  return type;
}

export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Where the file with this SHA-256 is kept. */
export const receiptFilePath = (dir: string, sha256: string): string => join(dir, sha256.slice(0, 2), sha256);

/** <dir>/<first two hex>/<sha256>; an existing file with that hash is the same file. */
export function storeReceiptFile(dir: string, bytes: Uint8Array): { sha256: string; path: string } {
  const sha256 = sha256Of(bytes);
  const path = receiptFilePath(dir, sha256);
  const folder = join(dir, sha256.slice(0, 2));
  if (existsSync(path)) return { sha256, path };
  mkdirSync(folder, { recursive: true });
  const temp = join(folder, `.${sha256}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, bytes, { flag: 'wx', mode: 0o600, flush: true });
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
  return { sha256, path };
}

/** The text layer of a PDF (pdf.js), or null when it has none or cannot be read. */
export async function pdfText(bytes: Uint8Array): Promise<string | null> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  try {
    const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, 50); n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''));
    }
    await doc.destroy();
    const text = pages
      .join('\n')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n\s*\n+/g, '\n')
      .trim();
    return text ? text.slice(0, 100_000) : null;
  } catch {
    return null; // a damaged or encrypted PDF is still a receipt, just not searchable by its text
  }
}

// Bytes to text: byte-order marks, UTF-8 checked strictly, and Windows-1252
// (the WHATWG decoder's reading of ISO-8859-1 too) where a file is not UTF-8.
// Binary files are refused before any parsing.
import { StatementError } from './types';

export interface Decoded {
  encoding: string;
  text: string;
}

const BOMS: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

export function bomOf(bytes: Uint8Array): { encoding: string; length: number } | null {
  for (const [mark, encoding] of BOMS) if (mark.every((b, i) => bytes[i] === b)) return { encoding, length: mark.length };
  return null;
}

/** A decoder label the platform knows, in its canonical name; a clear error otherwise. */
export function checkEncoding(label: string): string {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    throw new StatementError(`Unknown encoding "${label}": use utf-8, windows-1252, iso-8859-1 or another WHATWG encoding label.`, 'encoding');
  }
}

const MAGIC: [number[], string][] = [
  [[0x25, 0x50, 0x44, 0x46], 'a PDF'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (an Excel .xlsx file is one: save it as CSV)'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Excel or Word file (save it as CSV)'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

/** Refuses empty and binary files, saying what they look like. */
export function checkText(head: Uint8Array): void {
  if (head.length === 0) throw new StatementError('The file is empty.');
  for (const [magic, what] of MAGIC) {
    if (magic.every((b, i) => head[i] === b)) throw new StatementError(`This is ${what}, not a bank statement Ledgerdesk can read (CSV, OFX, QFX, QIF, CAMT.053 or MT940).`);
  }
  const bom = bomOf(head);
  if (bom?.encoding.startsWith('utf-16')) return;
  const sample = head.subarray(0, 64 * 1024);
  let control = 0;
  for (const b of sample) {
    if (b === 0) throw new StatementError('This file holds binary data (NUL bytes), not the text of a bank statement.');
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1a)) control++;
  }
  if (control > sample.length / 100) throw new StatementError('This file looks binary, not like the text of a bank statement.');
}

/** The encoding of a file: its BOM, else UTF-8 where the sample is valid UTF-8, else Windows-1252. */
export function detectEncoding(head: Uint8Array): string {
  const bom = bomOf(head);
  if (bom) return bom.encoding;
  // A sample may end inside a multi-byte character: leave the last three bytes out.
  const sample = head.length > 4 ? head.subarray(0, head.length - 3) : head;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** Whole-file decoding (the tree formats): strict in UTF-8, so a wrong guess is said, not garbled. */
export function decode(bytes: Uint8Array, encoding: string): string {
  const bom = bomOf(bytes);
  const body = bom && bom.encoding === encoding ? bytes.subarray(bom.length) : bytes;
  try {
    return new TextDecoder(encoding, { fatal: encoding === 'utf-8' }).decode(body);
  } catch {
    throw new StatementError('The file is not valid UTF-8 throughout; give its encoding (for example windows-1252).', 'encoding');
  }
}

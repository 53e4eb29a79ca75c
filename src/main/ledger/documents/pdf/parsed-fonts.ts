// Each font file parsed once per process (issue 53's speed). pdfkit parses the
// font it is given anew for every document: reading DejaVu's tables again
// (fontkit, restructure) was about half of a PDF's time. pdfkit takes a font
// only as a path or the file's bytes, so each document is given a short
// stand-in ("ledgerdesk-font:1") and pdfkit's own fontkit a format that
// knows the stand-in and answers a view of the font parsed the first time.
// Each document still makes its own glyphs and subset, so its bytes are the
// same as before: only the parsing is shared (test/pdf-fonts.test.ts compares).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A font as fontkit parsed it: opaque here, read by pdfkit. */
type Parsed = object;

interface Fontkit {
  create(buffer: Uint8Array, postscriptName?: string): Parsed;
  registerFormat(format: unknown): void;
}

/** Each font parsed, by its stand-in ("ledgerdesk-font:1"); each stand-in by the file (and face) it stands for. */
const parsed = new Map<string, Parsed>();
const standIns = new Map<string, Buffer>();

/** A stand-in's text, or null for anything longer (a real font's bytes are never read as text). */
const standIn = (bytes: Uint8Array): string | null => (bytes.length < 40 ? Buffer.from(bytes).toString('latin1') : null);

/**
 * The format the stand-ins are: fontkit probes a buffer with each format it knows, then `new`s the one that says yes.
 * Each document gets its own view of the parsed font: the tables (what is slow to read) shared, its glyphs its own,
 * as fontkit keeps each glyph with the characters it was first asked for (the text a PDF's reader copies out), and
 * a glyph one document met first must not lose them in the next.
 */
function ParsedFont(stream: { buffer: Uint8Array }): Parsed {
  return Object.create(parsed.get(standIn(stream.buffer) ?? '')!, { _glyphs: { value: {}, writable: true } }) as Parsed;
}
ParsedFont.probe = (bytes: Uint8Array): boolean => {
  const key = standIn(bytes);
  return key !== null && parsed.has(key);
};

let fontkit: Fontkit | undefined;

/** pdfkit's own fontkit (the copy its fonts are made with, wherever a bundle puts ours), told about the stand-ins once. */
function pdfkitsFontkit(): Fontkit {
  if (!fontkit) {
    fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as Fontkit;
    fontkit.registerFormat(ParsedFont);
  }
  return fontkit;
}

/**
 * What to hand pdfkit's registerFont for a font file (a face of a collection when `face` names it): the stand-in of
 * the font parsed the first time it was asked for, in this process.
 */
export function parsedFont(file: string, face?: string): Buffer {
  const which = face ? `${file}#${face}` : file;
  let bytes = standIns.get(which);
  if (!bytes) {
    const font = pdfkitsFontkit().create(readFileSync(file), face);
    // As pdfkit says of a file it cannot read (a collection without that face).
    if (!font) throw new Error(`${which}: not a supported font format or standard PDF font.`);
    bytes = Buffer.from(`ledgerdesk-font:${standIns.size + 1}`, 'latin1');
    parsed.set(bytes.toString('latin1'), font);
    standIns.set(which, bytes);
  }
  return bytes;
}

/** The parsed font behind a stand-in (for the tests: the same object each time, the one the PDFs used). */
export const parsedFontOf = (standInBytes: Uint8Array): Parsed | undefined => parsed.get(standIn(standInBytes) ?? '');

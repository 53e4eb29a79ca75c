// The PDF's fonts: DejaVu Sans (npm dejavu-fonts-ttf, embedded as a subset)
// prints Latin with accents, Greek, Cyrillic, Hebrew, Arabic and more, but no
// Chinese, Japanese or Korean. For those a text is set in a CJK font of the
// machine's (or the one LEDGERDESK_CJK_FONT names: a .ttf/.otf, or a
// .ttc with "#<PostScript name>"), found once. Without one such text prints as
// empty boxes, and the README says which package gives one.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parsedFont } from './parsed-fonts';

const require = createRequire(import.meta.url);
const BODY = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** Where the systems keep a CJK font, with the PostScript name of the face to take from a collection. */
const CJK_FONTS: readonly [string, string?][] = [
  ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', 'WenQuanYiMicroHei'],
  ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 'NotoSansCJKsc-Regular'],
  ['/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc', 'NotoSansCJKsc-Regular'],
  ['/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc', 'NotoSansCJKsc-Regular'],
  ['/System/Library/Fonts/PingFang.ttc', 'PingFangSC-Regular'],
  ['/System/Library/Fonts/Supplemental/Arial Unicode.ttf'],
  ['/Library/Fonts/Arial Unicode.ttf'],
  ['C:\\Windows\\Fonts\\msyh.ttc', 'MicrosoftYaHei'],
  ['C:\\Windows\\Fonts\\msgothic.ttc', 'MS-Gothic'],
];

/** Han, kana, Hangul, their punctuation and full-width forms. */
const CJK = /[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u30ff\u3130-\u318f\u31f0-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u{20000}-\u{3134f}]/u;

let cjkFont: [string, string?] | null | undefined;

/** The CJK font to fall back on, if the machine has one (looked for once). */
export function cjkFallback(): [string, string?] | null {
  if (cjkFont !== undefined) return cjkFont;
  const named = process.env.LEDGERDESK_CJK_FONT;
  const candidates: [string, string?][] = named ? [named.split('#') as [string, string?]] : [...CJK_FONTS];
  cjkFont = candidates.find(([path]) => existsSync(path)) ?? null;
  return cjkFont;
}

export type Face = 'body' | 'bold';

/** Registers the fonts a document's PDF uses, each parsed once per process (parsed-fonts.ts). */
export function registerFonts(pdf: PDFKit.PDFDocument): void {
  pdf.registerFont('body', parsedFont(BODY));
  pdf.registerFont('bold', parsedFont(BOLD));
}

/**
 * Sets the font for a text: DejaVu in its face, or the CJK font when the text has such letters and the machine one
 * (registered when first needed: a document without such text never reads that large file).
 */
export function fontFor(pdf: PDFKit.PDFDocument, face: Face, text: string): PDFKit.PDFDocument {
  const cjk = CJK.test(text) ? cjkFallback() : null;
  if (!cjk) return pdf.font(face);
  return pdf.registerFont('cjk', parsedFont(...cjk)).font('cjk');
}

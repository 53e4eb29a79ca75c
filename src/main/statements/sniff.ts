// Which format a statement file is, from its first bytes (never from its name
// alone): cheap, and without loading any format's parser.
import { StatementError, type StatementFormat } from './types';

/** The CAMT.053 version a document's namespace names (02 to 08...), or null. */
export function camtVersion(head: string): string | null {
  return /urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.(\d+)/.exec(head)?.[1] ?? null;
}

/** What the first bytes say the file is. */
export function sniffFormat(head: Uint8Array, name = ''): StatementFormat {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 64 * 1024)).replace(/^[\ufeff\u00ef\u00bb\u00bf\s]+/, '');
  if (/^OFXHEADER\s*:/i.test(text) || /<OFX>/i.test(text) || /<\?OFX\s/i.test(text)) return /\.qfx$/i.test(name) || /<INTU\.BID>/i.test(text) ? 'qfx' : 'ofx';
  if (/^<\?xml/i.test(text) || /^<[A-Za-z]/.test(text)) {
    if (camtVersion(text)) return 'camt053';
    const ns = /xmlns(?::\w+)?="([^"]+)"/.exec(text)?.[1];
    throw new StatementError(`This is an XML file${ns ? ` (${ns})` : ''} but not a CAMT.053 bank statement.`);
  }
  // QIF, after any comment lines (# ...) that Quicken and quiffen write first.
  if (/^(?:#[^\n]*\n\s*)*!(Type|Account|Option|Clear)/i.test(text)) return 'qif';
  if (/^:20:/m.test(text) && /^:(25|61):/m.test(text)) return 'mt940';
  if (/^\{1:/.test(text) && /:20:/.test(text)) return 'mt940';
  return 'csv';
}

export const LABEL: Record<StatementFormat, string> = { csv: 'CSV', ofx: 'OFX', qfx: 'QFX', qif: 'QIF', camt053: 'CAMT.053', mt940: 'MT940' };


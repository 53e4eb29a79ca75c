// OFX 1.x (SGML: KEY:VALUE headers, leaf tags without closing tags), OFX 2.x
// (XML) and QFX (OFX with Intuit's extra tags), read by one tolerant reader:
// a leaf is a tag followed by text, an aggregate a tag followed by another tag,
// and a closing tag closes the nearest open aggregate of its name.
// Bank (STMTRS) and credit-card (CCSTMTRS) statements, any number per file.
import { parseAmount, decimalMarkOf } from '../../shared/amounts';
import { isoDate } from './dates';
import { joinDescription } from './describe';
import { decode } from './text';
import { emptySection, normalizeAccountId, StatementError, type AccountType, type ParsedStatement, type StatementRow, type StatementSection, type StatedBalance } from './types';
import { StatementRows } from './rows';
import type { StatementReader } from './reader';

interface Node {
  name: string;
  line: number;
  value: string | null;
  children: Node[];
}

// Leaves that may appear with an empty value; without this an empty <MEMO>
// in SGML would be taken for an aggregate and swallow the tags after it.
const LEAVES = new Set(
  'TRNTYPE DTPOSTED DTUSER DTAVAIL TRNAMT FITID CORRECTFITID CORRECTACTION SRVRTID CHECKNUM REFNUM SIC PAYEEID NAME EXTDNAME MEMO CURDEF BANKID BRANCHID ACCTID ACCTTYPE ACCTKEY BALAMT DTASOF DTSTART DTEND CURRATE CURSYM CODE SEVERITY MESSAGE DTSERVER LANGUAGE TRNUID ORG FID INTU.BID INTU.USERID ADDR1 ADDR2 ADDR3 CITY STATE POSTALCODE COUNTRY PHONE'.split(
    ' ',
  ),
);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const unescape = (s: string): string =>
  !s.includes('&')
    ? s
    : s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
        if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
        return ENTITIES[e.toLowerCase()] ?? whole;
      });

/** A leaf's children: none, and one shared empty list (a file holds a million leaves). */
const NO_CHILDREN: Node[] = [];

/** The tree, and the aggregates still open where the text ends (none in a whole file). */
function parseTree(text: string): { root: Node; open: Node[] } {
  const root: Node = { name: '#root', line: 1, value: null, children: [] };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][A-Za-z0-9._]*)[^>]*>([^<]*)/g;
  let line = 1;
  // The next line break not yet counted: each is found once, so a file on one line (some banks write it so) stays linear.
  let nextBreak = text.indexOf('\n');
  // Tag names in capitals, each made once: a file repeats a few dozen names a million times.
  const uppers = new Map<string, string>();
  const upper = (name: string): string => {
    let capitals = uppers.get(name);
    if (capitals === undefined) uppers.set(name, (capitals = name.toUpperCase()));
    return capitals;
  };
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    for (; nextBreak !== -1 && nextBreak < m.index; nextBreak = text.indexOf('\n', nextBreak + 1)) line++;
    const name = upper(m[2]);
    if (m[1]) {
      const at = stack.findLastIndex((n) => n.name === name);
      if (at > 0) stack.length = at;
      continue;
    }
    const value = m[3].trim();
    const leaf = value !== '' || LEAVES.has(name);
    const node: Node = { name, line, value: leaf ? unescape(value) : null, children: leaf ? NO_CHILDREN : [] };
    stack[stack.length - 1].children.push(node);
    if (!leaf) stack.push(node);
  }
  return { root, open: stack.slice(1) };
}

const STATEMENTS = new Set(['STMTRS', 'CCSTMTRS']);

/**
 * A file cut off mid-statement (a download that stopped) is refused, naming
 * where it stops: its last transaction may be cut too, and a partial
 * statement must never pass for a whole one. Only the envelope around the
 * statements (a missing </OFX>) is forgiven.
 */
function refuseCutOff(open: Node[]): void {
  const at = open.findIndex((n) => STATEMENTS.has(n.name));
  if (at < 0) return;
  const inner = open[open.length - 1];
  const trn = open.find((n) => n.name === 'STMTTRN');
  throw new StatementError(
    `This OFX file ends before its statement does: <${inner.name}> opened at line ${inner.line} is never closed${trn ? ` (a transaction cut off at line ${trn.line})` : ''}, so the file was cut off. Nothing was imported: download the statement again.`,
  );
}

const child = (n: Node | undefined, name: string): Node | undefined => n?.children.find((c) => c.name === name);
const valueOf = (n: Node | undefined, name: string): string | null => child(n, name)?.value ?? null;
const path = (n: Node | undefined, ...names: string[]): Node | undefined => names.reduce<Node | undefined>((at, name) => child(at, name), n);

function findAll(n: Node, names: Set<string>, out: Node[] = []): Node[] {
  for (const c of n.children) {
    if (names.has(c.name)) out.push(c);
    else findAll(c, names, out);
  }
  return out;
}

/** OFX dates: YYYYMMDD[HHMMSS[.XXX]][[offset:TZ]]. The day as the bank wrote it; the zone does not move it. */
export function ofxDate(value: string | null): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(value?.trim() ?? '');
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

const ofxAmount = (value: string | null): string | null | undefined => (value === null ? null : parseAmount(value, decimalMarkOf(value) ?? '.'));

/** The charset the OFX header names, to decode the body with. */
export function ofxEncoding(head: string): string | null {
  const xml = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1];
  const encoding = /^ENCODING:\s*(\S+)/im.exec(head)?.[1]?.toUpperCase();
  const charset = /^CHARSET:\s*(\S+)/im.exec(head)?.[1]?.toUpperCase();
  if (encoding === 'UTF-8' || encoding === 'UNICODE') return 'utf-8';
  if (charset === '1252' || charset === 'WINDOWS-1252') return 'windows-1252';
  if (charset && /8859-?1$/.test(charset)) return 'iso-8859-1';
  return null;
}

const ACCOUNT_TYPES: Record<string, AccountType> = { CHECKING: 'checking', SAVINGS: 'savings', MONEYMRKT: 'savings', CD: 'savings', CREDITLINE: 'credit_card' };

function balanceOf(n: Node | undefined): StatedBalance | null {
  const amount = ofxAmount(valueOf(n, 'BALAMT'));
  const date = ofxDate(valueOf(n, 'DTASOF'));
  return amount && date ? { amount, date } : null;
}

export function readOfx(bytes: Uint8Array, encoding: string, format: 'ofx' | 'qfx'): ParsedStatement {
  const text = decode(bytes, encoding);
  const { root, open } = parseTree(text);
  refuseCutOff(open);
  const statements = findAll(root, STATEMENTS);
  if (statements.length === 0) throw new StatementError('This OFX file holds no bank or credit-card statement (STMTRS or CCSTMTRS).');
  const result: ParsedStatement = { format, encoding, sections: [], rows: new StatementRows(), errors: [], ignored: [] };
  const byAccount = new Map<string, StatementSection>();
  for (const st of statements) {
    const card = st.name === 'CCSTMTRS';
    const from = child(st, card ? 'CCACCTFROM' : 'BANKACCTFROM');
    const accountId = normalizeAccountId(valueOf(from, 'ACCTID'));
    let section = accountId ? byAccount.get(accountId) : undefined;
    if (!section) {
      section = { ...emptySection(result.sections.length), bankAccountId: accountId };
      section.type = card ? 'credit_card' : (ACCOUNT_TYPES[valueOf(from, 'ACCTTYPE')?.toUpperCase() ?? ''] ?? 'checking');
      section.currency = valueOf(st, 'CURDEF')?.toUpperCase() ?? null;
      result.sections.push(section);
      if (accountId) byAccount.set(accountId, section);
    }
    const list = child(st, 'BANKTRANLIST');
    section.from = minDate(section.from, ofxDate(valueOf(list, 'DTSTART')));
    section.to = maxDate(section.to, ofxDate(valueOf(list, 'DTEND')));
    const closing = balanceOf(child(st, 'LEDGERBAL'));
    if (closing && (!section.closing || closing.date >= section.closing.date)) section.closing = closing;
    for (const trn of list?.children.filter((c) => c.name === 'STMTTRN') ?? []) readTransaction(trn, section.index, result);
  }
  return result;
}

function readTransaction(trn: Node, section: number, out: ParsedStatement): void {
  if (valueOf(trn, 'CORRECTACTION')?.toUpperCase() === 'DELETE') {
    out.ignored.push({ line: trn.line, reason: `a correction that deletes transaction ${valueOf(trn, 'CORRECTFITID') ?? ''}` });
    return;
  }
  const rawDate = valueOf(trn, 'DTPOSTED') ?? valueOf(trn, 'DTUSER');
  const date = ofxDate(rawDate);
  const amount = ofxAmount(valueOf(trn, 'TRNAMT'));
  if (!date) out.errors.push({ line: trn.line, field: 'DTPOSTED', message: rawDate ? `"${rawDate}" is not a date (YYYYMMDD...)` : 'is missing' });
  if (!amount) out.errors.push({ line: trn.line, field: 'TRNAMT', message: valueOf(trn, 'TRNAMT') ? `"${valueOf(trn, 'TRNAMT')}" is not an amount` : 'is missing' });
  if (!date || !amount) return;
  const check = valueOf(trn, 'CHECKNUM');
  const name = valueOf(trn, 'NAME') ?? valueOf(path(trn, 'PAYEE'), 'NAME');
  const description = joinDescription([name, valueOf(trn, 'EXTDNAME'), valueOf(trn, 'MEMO')]) || (check ? `Check ${check}` : (valueOf(trn, 'TRNTYPE') ?? ''));
  const row: StatementRow = { section, line: trn.line, date, amount, description, externalId: valueOf(trn, 'FITID') || null };
  out.rows.push(row);
}

const minDate = (a: string | null, b: string | null): string | null => (a && b ? (a < b ? a : b) : (a ?? b));
const maxDate = (a: string | null, b: string | null): string | null => (a && b ? (a > b ? a : b) : (a ?? b));

export const ofxReader: StatementReader = {
  formats: ['ofx', 'qfx'],
  label: 'OFX',
  sniff: (text, name) =>
    /^OFXHEADER\s*:/i.test(text) || /<OFX>/i.test(text) || /<\?OFX\s/i.test(text) ? (/\.qfx$/i.test(name) || /<INTU\.BID>/i.test(text) ? 'qfx' : 'ofx') : null,
  encodingOf: ofxEncoding,
  read: async (ctx) => readOfx(await ctx.whole(), ctx.encoding, ctx.format as 'ofx' | 'qfx'),
};

// ISO 20022 CAMT.053 (BankToCustomerStatement), namespace versions 001.02 and
// later (the elements read here are the same from 02 to 08 and after), read
// with fast-xml-parser. Booked entries only (pending ones are listed as
// ignored). A batched entry (one Ntry, several TxDtls) gives one row per
// transaction when each states its amount and they add up to the entry;
// otherwise the entry is one row. Opening (OPBD/PRCD) and closing (CLBD)
// balances are kept for reconciliation.

import { parseAmount, sumDecimals } from '../../shared/amounts';
import { isoDate } from './dates';
import { joinDescription } from './describe';
import { decode } from './text';
import { emptySection, normalizeAccountId, StatementError, type ParsedStatement, type StatedBalance, type StatementSection } from './types';
import { StatementRows } from './rows';
import type { StatementReader } from './reader';

/** The CAMT.053 version a document's namespace names (02 to 08...), or null. */
export function camtVersion(head: string): string | null {
  return /urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.(\d+)/.exec(head)?.[1] ?? null;
}

type X = Record<string, unknown>;
const ARRAYS = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'AddtlTxInf']);

const PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name: string) => ARRAYS.has(name),
};

const obj = (v: unknown): X | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as X) : undefined);
const arr = (v: unknown): X[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? (x as X) : { '#text': x })) : []);
const get = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((at, key) => obj(at)?.[key], v);
const text = (v: unknown): string | null => {
  if (typeof v === 'string') return v;
  const t = obj(v)?.['#text'];
  return typeof t === 'string' ? t : typeof t === 'number' ? String(t) : null;
};
const str = (v: unknown, ...path: string[]): string | null => text(get(v, ...path));

/** Dt (2024-01-05) or DtTm (2024-01-05T10:00:00+01:00): the day as written. */
function dateOf(v: unknown): string | null {
  const raw = str(v, 'Dt') ?? str(v, 'DtTm');
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw ?? '');
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** An amount with its CdtDbtInd: DBIT is money out. */
function signed(amount: unknown, indicator: string | null): string | undefined {
  const value = parseAmount(text(amount) ?? '', '.');
  if (!value || (indicator !== 'CRDT' && indicator !== 'DBIT')) return undefined;
  const magnitude = value.replace(/^-/, '');
  return indicator === 'DBIT' && magnitude !== '0' ? `-${magnitude}` : magnitude;
}

export function readCamt053(XMLParser: typeof import('fast-xml-parser').XMLParser, bytes: Uint8Array, encoding: string): ParsedStatement {
  const xml = decode(bytes, encoding);
  const version = camtVersion(xml.slice(0, 4096));
  if (!version || Number(version) < 2)
    throw new StatementError('This XML file is not an ISO 20022 CAMT.053 statement (namespace urn:iso:std:iso:20022:tech:xsd:camt.053.001.02 or later).');
  // No bank statement needs a DTD; refusing one rules out entity-expansion tricks.
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) throw new StatementError('This CAMT.053 file declares a DTD or entities, which a bank statement never needs; it was not read.');
  let doc: X;
  try {
    doc = new XMLParser(PARSER_OPTIONS).parse(xml, true) as X;
  } catch (error) {
    throw new StatementError(`The CAMT.053 file is not well-formed XML: ${(error as Error).message}`);
  }
  const statements = arr(get(doc, 'Document', 'BkToCstmrStmt', 'Stmt'));
  if (statements.length === 0) throw new StatementError('This CAMT.053 file holds no statement (BkToCstmrStmt/Stmt).');
  const entryLines = linesOf(xml, /<(?:[\w.-]+:)?Ntry[\s>]/g);
  const out: ParsedStatement = { format: 'camt053', encoding, sections: [], rows: new StatementRows(), errors: [], ignored: [] };
  const byAccount = new Map<string, StatementSection>();
  let entryNo = 0;
  for (const stmt of statements) {
    const acct = get(stmt, 'Acct');
    const id = normalizeAccountId(str(acct, 'Id', 'IBAN') ?? str(acct, 'Id', 'Othr', 'Id'));
    let section = id ? byAccount.get(id) : undefined;
    if (!section) {
      section = { ...emptySection(out.sections.length), bankAccountId: id, name: str(acct, 'Nm'), currency: str(acct, 'Ccy')?.toUpperCase() ?? null, type: 'checking' };
      out.sections.push(section);
      if (id) byAccount.set(id, section);
    }
    section.from = str(stmt, 'FrToDt', 'FrDtTm')?.slice(0, 10) ?? section.from;
    section.to = str(stmt, 'FrToDt', 'ToDtTm')?.slice(0, 10) ?? section.to;
    for (const bal of arr(get(stmt, 'Bal'))) {
      const code = str(bal, 'Tp', 'CdOrPrtry', 'Cd') ?? str(bal, 'Tp', 'CdOrPrtry', 'Prtry');
      const amount = signed(get(bal, 'Amt'), str(bal, 'CdtDbtInd'));
      const date = dateOf(get(bal, 'Dt'));
      if (!amount || !date) continue;
      const balance: StatedBalance = { amount, date };
      section.currency ??= (obj(get(bal, 'Amt'))?.['@Ccy'] as string | undefined)?.toUpperCase() ?? null;
      if ((code === 'OPBD' || code === 'PRCD') && (!section.opening || date < section.opening.date)) section.opening = balance;
      if (code === 'CLBD' && (!section.closing || date >= section.closing.date)) section.closing = balance;
    }
    for (const entry of arr(get(stmt, 'Ntry'))) readEntry(entry, section.index, entryLines[entryNo++] ?? 0, out);
  }
  return out;
}

function readEntry(entry: X, section: number, line: number, out: ParsedStatement): void {
  const status = str(entry, 'Sts', 'Cd') ?? str(entry, 'Sts');
  if (status && status !== 'BOOK') {
    out.ignored.push({ line, reason: `entry status ${status} (only booked entries are imported)` });
    return;
  }
  const date = dateOf(get(entry, 'BookgDt')) ?? dateOf(get(entry, 'ValDt'));
  const indicator = str(entry, 'CdtDbtInd');
  const amount = signed(get(entry, 'Amt'), indicator);
  if (!date) out.errors.push({ line, field: 'BookgDt', message: 'is missing or not a date' });
  if (!amount) out.errors.push({ line, field: 'Amt', message: 'is missing or not an amount with CdtDbtInd CRDT or DBIT' });
  if (!date || !amount) return;
  const entryRef = str(entry, 'AcctSvcrRef') ?? str(entry, 'NtryRef');
  const details = arr(get(entry, 'NtryDtls')).flatMap((d) => arr(get(d, 'TxDtls')));
  const reversal = /^(true|1)$/i.test(str(entry, 'RvslInd') ?? '') ? 'Reversal' : null;
  const amounts = details.map((tx) => signed(get(tx, 'Amt') ?? get(tx, 'AmtDtls', 'TxAmt', 'Amt'), str(tx, 'CdtDbtInd') ?? indicator));
  const split = details.length > 1 && amounts.every((a): a is string => a !== undefined) && sumDecimals(amounts as string[]) === amount;
  const entryText = str(entry, 'AddtlNtryInf');
  if (split) {
    details.forEach((tx, i) => {
      const id = txReference(tx) ?? (entryRef ? `${entryRef}/${i + 1}` : null);
      out.rows.push({ section, line, date, amount: amounts[i] as string, description: describe(tx, amounts[i]!, reversal, entryText), externalId: id });
    });
    return;
  }
  const tx = details.length === 1 ? details[0] : undefined;
  const description = tx ? describe(tx, amount, reversal, entryText) : joinDescription([reversal, entryText]) || 'Bank entry';
  out.rows.push({ section, line, date, amount, description, externalId: entryRef ?? (tx ? txReference(tx) : null) });
}

/** The bank's reference of one transaction: AcctSvcrRef, else a provided EndToEndId. */
function txReference(tx: X): string | null {
  const own = str(tx, 'Refs', 'AcctSvcrRef');
  const e2e = str(tx, 'Refs', 'EndToEndId');
  return own ?? (e2e && e2e.toUpperCase() !== 'NOTPROVIDED' ? e2e : null);
}

/** Counterparty (the debtor of money in, the creditor of money out) and the remittance text. */
function describe(tx: X, amount: string, reversal: string | null, entryText: string | null): string {
  const side = amount.startsWith('-') ? ['Cdtr', 'UltmtCdtr'] : ['Dbtr', 'UltmtDbtr'];
  const party = side.map((p) => str(tx, 'RltdPties', p, 'Nm') ?? str(tx, 'RltdPties', p, 'Pty', 'Nm')).find(Boolean) ?? null;
  const unstructured = arr(get(tx, 'RmtInf', 'Ustrd'))
    .map(text)
    .join(' ');
  const structured = arr(get(tx, 'RmtInf', 'Strd'))
    .map((s) => str(s, 'CdtrRefInf', 'Ref'))
    .filter(Boolean)
    .join(' ');
  const extra = arr(get(tx, 'AddtlTxInf')).map(text).join(' ');
  return joinDescription([reversal, party, unstructured || structured, extra || entryText]) || 'Bank entry';
}

/** The line of each match, in order. */
function linesOf(textValue: string, re: RegExp): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = 0;
  for (const m of textValue.matchAll(re)) {
    for (let i = at; i < m.index!; i++) if (textValue.charCodeAt(i) === 10) line++;
    at = m.index!;
    lines.push(line);
  }
  return lines;
}

export const camt053Reader: StatementReader = {
  formats: ['camt053'],
  label: 'CAMT.053',
  sniff(text) {
    if (!/^<\?xml/i.test(text) && !/^<[A-Za-z]/.test(text)) return null;
    if (camtVersion(text)) return 'camt053';
    const ns = /xmlns(?::\w+)?="([^"]+)"/.exec(text)?.[1];
    throw new StatementError(`This is an XML file${ns ? ` (${ns})` : ''} but not a CAMT.053 bank statement.`);
  },
  encodingOf: (text) => /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(text)?.[1] ?? null,
  // The XML parser loads when such a file is read.
  read: async (ctx) => readCamt053((await import('fast-xml-parser')).XMLParser, await ctx.whole(), ctx.encoding),
};

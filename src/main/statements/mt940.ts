// SWIFT MT940 customer statements: :20: starts a statement, :25: names the
// account, :60F:/:60M: and :62F:/:62M: are the opening and closing balances,
// each :61: is a statement line (value date, optional entry date, D/C/RD/RC,
// amount with a decimal comma, type, references) and the :86: after it its
// information, read as the German DK subfields (?00 posting text, ?20-?29 and
// ?60-?63 purpose, ?32-?33 name), the slash codes (/NAME/, /REMI/) or plain
// text. SWIFT envelopes ({1:...}{4: ... -}) and several statements per file are fine.
import { parseAmount } from '../../shared/amounts';
import { fullYear, isoDate } from './dates';
import { joinDescription } from './describe';
import { decode } from './text';
import { emptySection, normalizeAccountId, StatementError, type ParsedStatement, type StatedBalance, type StatementSection } from './types';
import { StatementRows } from './rows';
import type { StatementReader } from './reader';

interface Field {
  tag: string;
  value: string;
  line: number;
}

function fieldsOf(text: string): Field[] {
  const fields: Field[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    if (raw.length > 100_000) throw new StatementError(`Line ${i + 1} is longer than 100,000 characters: this is not an MT940 file.`);
    const line = raw.replace(/^\{\d:[^}]*\}(\{\d:[^}]*\})*(\{4:)?/, '').replace(/-\}\s*$/, '');
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(line);
    if (m) fields.push({ tag: m[1], value: m[2], line: i + 1 });
    else if (fields.length && line.trim() !== '-' && line.trim() !== '' && !/^\{/.test(line)) fields[fields.length - 1].value += `\n${line}`;
  });
  return fields;
}

/** :60F:C240101EUR1234,56 -> the balance, signed. */
function balance(value: string): (StatedBalance & { currency: string }) | null {
  const m = /^([CD])(\d{2})(\d{2})(\d{2})([A-Z]{3})([\d,.]+)/.exec(value.trim());
  if (!m) return null;
  const date = isoDate(fullYear(Number(m[2])), Number(m[3]), Number(m[4]));
  const amount = parseAmount(m[6], ',');
  if (!date || !amount) return null;
  return { date, amount: m[1] === 'D' && amount !== '0' ? `-${amount}` : amount, currency: m[5] };
}

const STATEMENT_LINE = /^(\d{2})(\d{2})(\d{2})(\d{4})?(RC|RD|C|D|EC|ED)([A-Z])?(\d[\d,]*)([A-Z][A-Z0-9]{3})?([^\n]*?)(?:\/\/([^\n]*))?(?:\n([\s\S]*))?$/;

export function readMt940(bytes: Uint8Array, encoding: string): ParsedStatement {
  const fields = fieldsOf(decode(bytes, encoding));
  if (!fields.some((f) => f.tag === '61') && !fields.some((f) => f.tag === '25'))
    throw new StatementError('This MT940 file holds no account (:25:) and no statement lines (:61:).');
  const out: ParsedStatement = { format: 'mt940', encoding, sections: [], rows: new StatementRows(), errors: [], ignored: [] };
  const byAccount = new Map<string, StatementSection>();
  let section: StatementSection | null = null;
  /** The last statement line's row: its :86: completes the description. */
  let last: number | null = null;
  for (const f of fields) {
    if (f.tag === '25') {
      const id = normalizeAccountId(f.value);
      section = id ? (byAccount.get(id) ?? null) : null;
      if (!section) {
        section = { ...emptySection(out.sections.length), bankAccountId: id, type: 'checking' };
        out.sections.push(section);
        if (id) byAccount.set(id, section);
      }
      last = null;
    } else if (!section) {
      if (f.tag === '61') throw new StatementError(`Line ${f.line}: a statement line (:61:) before any account (:25:).`);
    } else if (f.tag === '60F' || f.tag === '60M') {
      const b = balance(f.value);
      if (!b) out.errors.push({ line: f.line, field: f.tag, message: `"${f.value}" is not a balance (C/D, YYMMDD, currency, amount)` });
      else {
        section.currency ??= b.currency;
        if (!section.opening || b.date < section.opening.date) section.opening = { date: b.date, amount: b.amount };
      }
    } else if (f.tag === '62F' || f.tag === '62M') {
      const b = balance(f.value);
      if (!b) out.errors.push({ line: f.line, field: f.tag, message: `"${f.value}" is not a balance (C/D, YYMMDD, currency, amount)` });
      else if (!section.closing || b.date >= section.closing.date) section.closing = { date: b.date, amount: b.amount };
    } else if (f.tag === '61') {
      last = statementLine(f, section.index, out);
    } else if (f.tag === '86' && last !== null) {
      const info = information(f.value);
      if (info) out.rows.description.replaceLast(info); // `last` is the row just read: the last one
      last = null;
    }
  }
  return out;
}

/** Reads a :61: line into a row; its index, or null when it cannot be read. */
function statementLine(f: Field, section: number, out: ParsedStatement): number | null {
  const m = STATEMENT_LINE.exec(f.value);
  if (!m) {
    out.errors.push({ line: f.line, field: ':61:', message: `"${f.value.split('\n')[0]}" is not a statement line (YYMMDD[MMDD]D|C|RD|RC amount type reference)` });
    return null;
  }
  const [, yy, mm, dd, entry, mark, , rawAmount, , customerRef, bankRef, supplementary] = m;
  const valueYear = fullYear(Number(yy));
  let date = isoDate(valueYear, Number(mm), Number(dd));
  if (entry) {
    // The entry (booking) date has no year: the value date's, across a year end either way.
    const em = Number(entry.slice(0, 2));
    const year = em === 12 && Number(mm) === 1 ? valueYear - 1 : em === 1 && Number(mm) === 12 ? valueYear + 1 : valueYear;
    date = isoDate(year, em, Number(entry.slice(2))) ?? null;
  }
  const amount = parseAmount(rawAmount, ',');
  if (!date) out.errors.push({ line: f.line, field: ':61: date', message: `"${yy}${mm}${dd}${entry ?? ''}" is not a date` });
  if (!amount) out.errors.push({ line: f.line, field: ':61: amount', message: `"${rawAmount}" is not an amount` });
  if (!date || !amount) return null;
  const negative = mark === 'D' || mark === 'RC' || mark === 'ED';
  const ref = bankRef?.trim();
  const row = {
    section,
    line: f.line,
    date,
    amount: negative && amount !== '0' ? `-${amount}` : amount,
    description: joinDescription([supplementary, customerRef?.trim() !== 'NONREF' ? customerRef : null]) || 'Bank entry',
    externalId: ref && ref.toUpperCase() !== 'NONREF' ? ref : null,
  };
  out.rows.push(row);
  return out.rows.length - 1;
}

const SEPA_KEYS = /(EREF|KREF|MREF|CRED|DEBT|COAM|OAMT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/g;
const SLASH_CODES = [
  'TRTP',
  'IBAN',
  'BIC',
  'NAME',
  'REMI',
  'EREF',
  'MARF',
  'CSID',
  'CNTP',
  'ORDP',
  'BENM',
  'ULTC',
  'ULTD',
  'ULTB',
  'PREF',
  'ISDT',
  'RTRN',
  'ATOR',
  'PURP',
  'OCMT',
  'CHGS',
  'EXCH',
  'SVCL',
  'USTD',
  'STRD',
];

/** :86: text: DK subfields, SWIFT slash codes, or plain text. Wrapped lines are joined. */
export function information(value: string): string {
  if (/^\d{3}\?/.test(value) || /\?\d{2}/.test(value.slice(0, 8))) {
    const joined = value.replace(/\n/g, '');
    const sub = new Map<string, string>();
    for (const m of joined.matchAll(/\?(\d{2})([^?]*)/g)) sub.set(m[1], (sub.get(m[1]) ?? '') + m[2]);
    const purposeRaw = [...sub.entries()]
      .filter(([k]) => (k >= '20' && k <= '29') || (k >= '60' && k <= '63'))
      .map(([, v]) => v)
      .join('');
    const name = `${sub.get('32') ?? ''}${sub.get('33') ?? ''}`;
    return joinDescription([name, sepaPurpose(purposeRaw)]) || joinDescription([sub.get('00')]);
  }
  if (value.startsWith('/')) {
    const joined = value.replace(/\n/g, '');
    // A code's closing slash opens the next code's value, so it is looked ahead for, not consumed.
    const codes = [...joined.matchAll(new RegExp(`/(${SLASH_CODES.join('|')})(?=/)`, 'g'))];
    const part = (code: string) => {
      const i = codes.findIndex((c) => c[1] === code);
      if (i < 0) return null;
      const start = codes[i].index! + codes[i][0].length + 1;
      return joined.slice(start, i + 1 < codes.length ? codes[i + 1].index : undefined).replace(/\/+$/, '');
    };
    const remi = part('USTD') ?? part('REMI');
    const name = part('NAME') ?? part('CNTP')?.split('/')[2] ?? null;
    return joinDescription([name, remi?.replace(/^\/+/, '')]) || joinDescription([part('TRTP')]);
  }
  return joinDescription(value.split('\n'));
}

/** The SVWZ+ part of a SEPA purpose, without the EREF+/MREF+... references; the whole text where there is none. */
function sepaPurpose(text: string): string {
  const keys = [...text.matchAll(SEPA_KEYS)];
  if (keys.length === 0) return text;
  const svwz = keys.findIndex((k) => k[1] === 'SVWZ');
  if (svwz < 0) return '';
  const start = keys[svwz].index! + keys[svwz][0].length;
  return text.slice(start, svwz + 1 < keys.length ? keys[svwz + 1].index : undefined);
}

export const mt940Reader: StatementReader = {
  formats: ['mt940'],
  label: 'MT940',
  sniff: (text) => ((/^:20:/m.test(text) && /^:(25|61):/m.test(text)) || (/^\{1:/.test(text) && /:20:/.test(text)) ? 'mt940' : null),
  read: async (ctx) => readMt940(await ctx.whole(), ctx.encoding),
};

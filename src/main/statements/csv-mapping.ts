// Which CSV column holds what: suggested from the header's words (English,
// German, French, Spanish, Dutch, Italian bank exports), written on the command
// line as `date=Date,amount=Amount,description=Payee+Memo`, saved per account.
// Columns are named by their header text (case-insensitive) or by 1-based number.
import { StatementError, type CsvColumns } from './types';

export type { CsvColumns, CsvMapping, CsvReport } from './types';

const WORDS: Record<'date' | 'valueDate' | 'amount' | 'debit' | 'credit' | 'direction' | 'description' | 'id' | 'balance', RegExp> = {
  date: /^(transaction |trans\.? |posting |posted |booking |book |entry )?date$|^date( posted| of transaction)?$|^datum$|buchungs(tag|datum)|^fecha( operaci[oó]n)?$|^data( operazione| contabile)?$|^date (d'op[ée]ration|comptable)|^boekdatum$|^transactiedatum$/i,
  valueDate: /valuta|value date|wertstellung|date de valeur|fecha valor|rentedatum/i,
  amount: /^(transaction )?amount|^betrag|^montant|^importe|^importo|^bedrag|^umsatz|^value$|^sum$/i,
  debit: /debit|withdrawal|paid out|money out|^out$|^soll$|ausgang|belastung|d[ée]bit|cargo|uitgave|^af$|^addebiti/i,
  credit: /credit|deposit|paid in|money in|^in$|^haben$|eingang|gutschrift|cr[ée]dit|abono|^bij$|^accrediti/i,
  direction: /^(sens|debit\/credit|credit\/debit|dr\/cr|cr\/dr|d\/c|c\/d|soll\/haben|s\/h|af\/bij|cdtdbtind|debit or credit)$/i,
  description:
    /description|details|narrative|memo|payee|payer|beneficiary|^name|counter[ -]?part(y|ies)?|merchant|verwendungszweck|empf[äa]nger|auftraggeber|zahlungspflichtige|libell[ée]|concepto|omschrijving|naam|descrizione|causale|^text$|reference/i,
  id: /^(transaction|trans\.?|unique|bank) ?id$|^id$|^fitid$|^transaktions-?id$|^transaction reference$/i,
  balance: /balance|saldo|kontostand|solde/i,
};

/** Who the money went to or came from ("Counter Party", "Payee", "Name"): first in a description, as a statement line reads. */
const PARTY = /payee|payer|beneficiary|^name|counter[ -]?part(y|ies)?|merchant|empf[äa]nger|auftraggeber|zahlungspflichtige|beg[üu]e?nstigter|naam/i;

/** Description columns in the order a statement line reads: who first (payee, counterparty), then what, each group in the file's order. */
export function descriptionOrder(headers: string[], chosen: string[]): string[] {
  const rank = (h: string) => {
    const at = headers.indexOf(h);
    return (PARTY.test(h.trim()) ? 0 : 1) * (headers.length + 1) + (at < 0 ? headers.length : at);
  };
  return [...chosen].sort((a, b) => rank(a) - rank(b));
}

export function suggestColumns(headers: string[]): CsvColumns | null {
  const used = new Set<number>();
  const find = (kind: keyof typeof WORDS, skip: (keyof typeof WORDS)[] = []) => {
    const i = headers.findIndex((h, j) => !used.has(j) && WORDS[kind].test(h.trim()) && !skip.some((s) => WORDS[s].test(h.trim())));
    if (i >= 0) used.add(i);
    return i >= 0 ? headers[i] : undefined;
  };
  const date = find('date', ['valueDate']) ?? find('valueDate');
  if (!date) return null;
  const id = find('id');
  const direction = find('direction');
  const amount = find('amount', ['balance']);
  const debit = amount ? undefined : find('debit', ['balance']);
  const credit = amount ? undefined : find('credit', ['balance']);
  if (!amount && !(debit && credit)) return null;
  // Who first (payee, name), then what (memo, purpose), as a statement line reads.
  const described = headers.filter((h, j) => !used.has(j) && WORDS.description.test(h.trim()) && !WORDS.balance.test(h));
  const description = descriptionOrder(headers, described).slice(0, 3);
  const balance = find('balance');
  return { date, amount, debit, credit, direction, description, id, ...(balance ? { balance } : {}) };
}

const KEYS = ['date', 'amount', 'debit', 'credit', 'direction', 'description', 'id', 'balance'] as const;

/** `date=Date,amount=Amount|debit=Out,credit=In,description=Payee+Memo,id=Ref,balance=Balance` -> columns. */
export function parseColumnsFlag(text: string): CsvColumns {
  const out: Partial<CsvColumns> = { description: [] };
  for (const part of text.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim() as (typeof KEYS)[number];
    const value = part.slice(at + 1).trim();
    if (at < 0 || !KEYS.includes(key) || value === '') {
      throw new StatementError(`"${part}" is not a column mapping: write name=<header> with name one of ${KEYS.join(', ')}`, 'columns');
    }
    if (key === 'description')
      out.description = value
        .split('+')
        .map((v) => v.trim())
        .filter(Boolean);
    else out[key] = value;
  }
  return checkColumns(out);
}

/** A complete mapping: a date, and one amount column or a debit and a credit column. */
export function checkColumns(c: Partial<CsvColumns>): CsvColumns {
  if (!c.date) throw new StatementError('The column mapping needs date=<header>.', 'columns');
  if (!c.amount && !(c.debit && c.credit)) throw new StatementError('The column mapping needs amount=<header>, or both debit=<header> and credit=<header>.', 'columns');
  if (c.amount && (c.debit || c.credit)) throw new StatementError('Map either amount or debit and credit, not both.', 'columns');
  const out: CsvColumns = { date: c.date, amount: c.amount, debit: c.debit, credit: c.credit, direction: c.direction, description: c.description ?? [], id: c.id };
  return c.balance ? { ...out, balance: c.balance } : out;
}

/** The index of a column named by header text (case-insensitive) or 1-based number. */
export function columnIndex(headers: string[], name: string): number {
  const wanted = name.trim().toLowerCase();
  const byName = headers.findIndex((h) => h.trim().toLowerCase() === wanted);
  if (byName >= 0) return byName;
  if (/^\d+$/.test(wanted) && Number(wanted) >= 1 && Number(wanted) <= headers.length) return Number(wanted) - 1;
  throw new StatementError(`No column "${name}" in this file (its columns: ${headers.map((h) => `"${h}"`).join(', ')}).`, 'columns');
}

const NEGATIVE = /^(d|dr|db|debit|dbit|s|soll|af|-|out|withdrawal|belastung|lastschrift)$/i;
const POSITIVE = /^(c|cr|credit|crdt|h|haben|bij|\+|in|deposit|gutschrift)$/i;

/** A direction cell: -1 (money out), 1 (money in), or null when it says neither. */
export function directionOf(cell: string): -1 | 1 | null {
  const v = cell.trim();
  return NEGATIVE.test(v) ? -1 : POSITIVE.test(v) ? 1 : null;
}

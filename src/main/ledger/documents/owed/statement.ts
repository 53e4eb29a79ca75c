// A customer's (or vendor's) statement over a period (issue 29): what it
// owed before, every invoice, credit note, void and payment in the period with
// the running balance, what it owes at the end, and the documents still open.
// Every figure is a receivable (payable) amount naming the contact, so the
// closing balance is the contact's line of the aging at the period's end.
// One currency's (issue 43): the one named, else the one the contact's
// documents are in when they share one, else the organization's; a payment
// from a row in another currency says what the row paid in it.
import { requireContactRow } from '../../contacts/contacts';
import { today } from '../../core/clock';
import type { Ledger } from '../../core/sqlite/open';
import { fromMinor } from '../../core/money';
import { orgCurrency } from '../../reports/positions';
import { paidByRow } from '../payments/paid';
import { aging, BUCKETS, type AgedDocument, type Bucket } from './aging';
import { KIND_NAMES } from '../documents';
import { mapInOrder } from '../../core/in-order';

const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

export interface ContactStatementLine {
  date: string;
  what: string;
  number: string | null;
  /** Positive: it owes more (an invoice); negative: less (a payment, a credit note). */
  amount: number;
  balance: number;
}

export interface ContactStatement {
  contact: { id: string; name: string };
  side: 'receivables' | 'payables';
  currency: string;
  from: string;
  to: string;
  opening: number;
  lines: ContactStatementLine[];
  closing: number;
  open: AgedDocument[];
  /** The contact's line of the aging at the period's end (issue 53: the statement of account's summary); its total is `closing`. */
  aging: Record<Bucket, number> & { credit: number; total: number };
}

interface Move {
  date: string;
  minor: number;
  /** A payment's row (its seq and currency) and the document it pays. */
  row_seq: number | null;
  row_currency: string | null;
  settles_seq: number | null;
  kind: string | null;
  number: string | null;
  voided: number;
  description: string | null;
}

/** The currency a contact's documents share, else the organization's. */
async function statementCurrency(ledger: Ledger, orgSeq: number, contactSeq: number, payables: boolean): Promise<string> {
  const used = (await ledger
    .stmt(`SELECT DISTINCT currency FROM documents WHERE contact_seq = ? AND kind ${payables ? "= 'bill'" : "IN ('invoice', 'credit_note')"} AND state <> 'draft'`)
    .pluck()
    .all(contactSeq)) as string[];
  return used.length === 1 ? used[0] : await orgCurrency(ledger, orgSeq);
}

export async function contactStatement(
  ledger: Ledger,
  orgSeq: number,
  ref: string,
  q: { from?: string; to?: string; payables?: boolean; currency?: string } = {},
): Promise<ContactStatement> {
  const contact = await requireContactRow(ledger, orgSeq, ref);
  const side = (q.payables ?? (!contact.is_customer && contact.is_vendor === 1)) ? 'payables' : 'receivables';
  const lineKind = side === 'payables' ? 'payable' : 'receivable';
  const sign = side === 'payables' ? -1 : 1;
  const currency = q.currency ? q.currency.toUpperCase() : await statementCurrency(ledger, orgSeq, contact.seq, side === 'payables');
  const to = q.to ?? today();
  const from = q.from ?? `${to.slice(0, 7)}-01`;
  const SOURCES = `SELECT p.date, p.amount_minor AS minor, d.kind, d.number, CASE WHEN EXISTS (SELECT 1 FROM postings q WHERE q.document_seq = p.document_seq AND q.kind = p.kind AND q.seq < p.seq) THEN 1 ELSE 0 END AS voided, NULL AS description, NULL AS row_seq, NULL AS row_currency, NULL AS settles_seq, p.seq AS s
      FROM postings p INDEXED BY postings_contact JOIN documents d ON d.seq = p.document_seq WHERE p.contact_seq = @contact AND p.kind IN ('receivable', 'payable') AND p.kind = @kind AND p.currency = @currency
    UNION ALL SELECT l.date, l.amount_minor, d.kind, d.number, 0, t.description, t.seq, t.currency, l.settles_seq, 1e12 + l.transaction_seq
      FROM lines l INDEXED BY lines_contact JOIN transactions t ON t.seq = l.transaction_seq LEFT JOIN documents d ON d.seq = l.settles_seq
      WHERE l.contact_seq = @contact AND l.kind = @kind AND l.currency = @currency`;
  const params = { contact: contact.seq, kind: lineKind, currency, from, to };
  const opening = sign * (((await ledger.stmt(`SELECT coalesce(sum(minor), 0) FROM (${SOURCES}) AS sub WHERE date < @from`).pluck().get(params)) as number) ?? 0);
  const moves = await ledger.rows<Move>(`SELECT * FROM (${SOURCES}) AS sub WHERE date BETWEEN @from AND @to ORDER BY date, s`, params);
  let balance = opening;
  const lines = await mapInOrder(moves, async (m): Promise<ContactStatementLine> => {
    balance += sign * m.minor;
    const name = m.kind ? KIND_NAMES[m.kind as 'invoice'] : '';
    const doc = m.kind ? `${name[0].toUpperCase()}${name.slice(1)} ${m.number}` : null;
    const paid =
      m.row_currency !== null && m.row_currency !== currency
        ? `, ${money((await paidByRow(ledger, m.row_seq!)).get(m.settles_seq!) ?? 0, m.row_currency)} ${side === 'payables' ? 'paid' : 'received'}`
        : '';
    const what = m.description !== null ? `Payment: ${m.description}${doc ? ` (${doc}${paid})` : ' (credit on account)'}` : m.voided ? `${doc} voided` : (doc ?? '');
    return { date: m.date, what, number: m.number, amount: fromMinor(sign * m.minor, currency), balance: fromMinor(balance, currency) };
  });
  const atEnd = (await aging(ledger, orgSeq, side, to, currency)).contacts.find((c) => c.id === contact.id);
  return {
    contact: { id: contact.id, name: contact.name },
    side,
    currency,
    from,
    to,
    opening: fromMinor(opening, currency),
    lines,
    closing: fromMinor(balance, currency),
    open: atEnd?.documents ?? [],
    aging: { ...(Object.fromEntries(BUCKETS.map((b) => [b, atEnd?.[b] ?? 0])) as Record<Bucket, number>), credit: atEnd?.credit ?? 0, total: atEnd?.total ?? 0 },
  };
}

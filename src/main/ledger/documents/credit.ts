// A credit note (issue 29): issued against an issued invoice, at once; it
// reduces what is owed, never below nothing, in the invoice's currency and
// (issue 30) at the invoice's own booked rate, so together they leave nothing
// on receivables in the base currency either.
import type { Human } from '../access/audit';
import { today, newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { documentBySeq, requireDocument, toDocument, type Document } from './documents';
import { takeNumber, workLines, type DocumentInput } from './draft';
import { audit, issueRow, money, writeLines } from './entry';
import { lookups } from './lookups';

/** A credit note against an issued invoice, issued at once: it reduces what is owed, never below nothing. */
export async function creditInvoice(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  ref: string,
  input: Pick<DocumentInput, 'date' | 'lines' | 'notes' | 'taxInclusive'>,
): Promise<Document> {
  return ledger.write(async () => {
    const invoice = await requireDocument(ledger, orgSeq, ['invoice'], ref);
    if (invoice.state !== 'issued')
      throw new LedgerError('conflict', `Invoice ${invoice.number} is ${invoice.state}: only an issued invoice is credited.`, { number: invoice.number });
    const date = input.date ?? today();
    if (date < invoice.issue_date) throw invalid([{ field: 'date', message: `is before the invoice's issue date ${invoice.issue_date}` }]);
    const contact = (await ledger.stmt('SELECT * FROM counterparties WHERE seq = ?').get(invoice.contact_seq)) as { default_tax_code: string | null };
    const inclusive = input.taxInclusive ?? invoice.tax_inclusive === 1;
    const worked = await workLines(await lookups(ledger, orgSeq), 'credit_note', date, inclusive, input.lines, contact, invoice.currency);
    const open = invoice.total_minor - invoice.settled_minor;
    if (worked.totalMinor > open) {
      throw invalid([
        {
          field: 'lines',
          message: `the credit note's total ${money(worked.totalMinor, invoice.currency)} is more than invoice ${invoice.number} still asks (${money(open, invoice.currency)})`,
        },
      ]);
    }
    const number = await takeNumber(ledger, orgSeq, 'credit_note');
    const lastInsertRowid = await ledger
      .stmt(
        `INSERT INTO documents (id, org_seq, kind, state, contact_seq, number, issue_date, due_date, currency, tax_inclusive, credits_seq, net_minor, tax_minor, total_minor, notes, created_at)
         VALUES (?, ?, 'credit_note', 'draft', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .insert(
        newId(),
        orgSeq,
        invoice.contact_seq,
        number,
        date,
        date,
        invoice.currency,
        inclusive ? 1 : 0,
        invoice.seq,
        worked.netMinor,
        worked.taxMinor,
        worked.totalMinor,
        input.notes?.trim() || null,
        nowIso(),
      );
    await writeLines(ledger, Number(lastInsertRowid), worked, true);
    const note = await issueRow(ledger, await documentBySeq(ledger, Number(lastInsertRowid)), worked);
    await audit(ledger, actor, note, 'issued', `Credit note ${number} against invoice ${invoice.number}: ${money(note.total_minor, note.currency)}`);
    return toDocument(ledger, note);
  });
}

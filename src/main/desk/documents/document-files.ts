// A file of invoices or bills (issue 29): `ledgerdesk invoice import <file>`,
// `bill import <file>` (the CSV documents/many.ts describes). All of the file's
// documents are written in one transaction, or none.
import { KEEPERS } from '../roles';
import * as z from 'zod';
import * as L from '../../ledger';
import { fileDone, openFile, textOf } from '../files';
import { op, Org, orgSeq } from '../operation';

function importOperation(kind: 'invoice' | 'bill') {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  return op(
    KEEPERS,
    z.strictObject({
      ...Org,
      file: z.string().min(1).max(4096).describe("The CSV: a path (owner command) or an uploaded file's id (app)"),
      draft: z
        .boolean()
        .optional()
        .describe(`Keep them drafts (default: ${kind === 'bill' ? 'entered, open' : 'issued'})`),
      taxInclusive: z.boolean().optional().describe('Unit prices include tax (default: they exclude it)'),
    }),
    async (ctx, { orgId, file, draft, taxInclusive }) => {
      const seq = await orgSeq(ctx, orgId);
      const documents = L.documentsFromCsv(await textOf(await openFile(ctx, seq, file)), kind);
      if (taxInclusive) for (const d of documents) d.input.taxInclusive = true;
      const rows = await L.createDocuments(ctx.ledger, seq, ctx.reviewer, documents, { kind, issue: !draft });
      await fileDone(ctx, seq, file);
      return {
        created: rows.length,
        status: draft ? 'draft' : kind === 'bill' ? 'open' : 'sent',
        documents: rows.map((r) => ({ id: r.id, number: r.number, issueDate: r.issue_date, total: L.fromMinor(r.total_minor, r.currency) })),
      };
    },
    {
      name: `${kind} import`,
      summary: `${kind === 'bill' ? 'enter' : 'issue'} ${kind}s from a CSV file (a row per line: ${party}, ${kind === 'bill' ? 'number' : 'reference'}, date, due, terms, description, quantity, unit price, category, tax code, notes); all or none`,
      args: ['file'],
      print: (r) => [
        `${r.created} ${kind}${r.created === 1 ? '' : 's'} ${r.status === 'draft' ? 'created as drafts' : kind === 'bill' ? 'entered' : 'issued'}${r.created ? `: ${r.documents[0].number} to ${r.documents[r.created - 1].number}` : ''}.`,
      ],
    },
  );
}

export const documentFileOperations = { importInvoices: importOperation('invoice'), importBills: importOperation('bill') };

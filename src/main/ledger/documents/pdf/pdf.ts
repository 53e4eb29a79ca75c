// An invoice or credit note as a PDF, made here without a browser (the
// headless server has none): pdfkit writes it, with its fonts embedded
// (subset, fonts.ts) so names in any script print as themselves, and the
// text is real text (a reader or pdftotext finds the number and the total).
// What it says is worked out in pdf-facts.ts from the books as they are when
// it is made; pdf-layout.ts lays it out on A4, flowing onto more pages.
// The same books make the same bytes (issue 53): the PDF's dates are the
// document's (written, issued), not the clock's, and pdfkit derives the file's
// trailer ID from them, so what was mailed can be made again and compared.
import type { Ledger } from '../../core/sqlite/open';
import type { DocumentRow } from '../documents';
import { pdfFacts } from './facts';
import { registerFonts } from './fonts';
import { baseTaxBlock, footers, LEFT, letterhead, linesTable, notes, payLinkBox, paymentBox, statement, summary } from './layout';

/** The PDF's own facts: its title, author and subject, and its dates (the document's, never the clock's). */
export interface PdfInfo {
  Title: string;
  Author: string;
  Subject: string;
  CreationDate: Date;
  ModDate: Date;
}

/** A PDF drawn on A4 with the documents' fonts and margins, its bytes once drawn: the one maker of invoices' and statements' PDFs. */
export async function writePdf(info: PdfInfo, draw: (pdf: PDFKit.PDFDocument) => void): Promise<Buffer> {
  // Loaded when a PDF is asked for: every other command starts without it.
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margins: { top: 50, left: LEFT, right: 50, bottom: 50 }, bufferPages: true, info });
  registerFonts(pdf);
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  draw(pdf);
  pdf.end();
  return done;
}

export async function documentPdf(ledger: Ledger, orgSeq: number, row: DocumentRow): Promise<Buffer> {
  const f = await pdfFacts(ledger, orgSeq, row);
  const made = new Date(row.created_at ?? `${row.issue_date}T00:00:00Z`);
  const info = { Title: `${f.title} ${f.number}`, Author: f.author, Subject: f.customer.name, CreationDate: made, ModDate: row.issued_at ? new Date(row.issued_at) : made };
  return writePdf(info, (pdf) => {
    letterhead(pdf, f);
    // An open document of the opening entry has no lines: it says what it is instead of an empty table.
    if (f.broughtForward) statement(pdf, f.broughtForward);
    else linesTable(pdf, f);
    summary(pdf, f);
    baseTaxBlock(pdf, f);
    statement(pdf, f.reverseCharge);
    notes(pdf, f.notes);
    paymentBox(pdf, f);
    payLinkBox(pdf, f);
    footers(pdf, f);
  });
}

// An invoice or credit note as a PDF, made here without a browser (the
// headless server has none): pdfkit writes it, with its fonts embedded
// (subset, pdf-fonts.ts) so names in any script print as themselves, and the
// text is real text (a reader or pdftotext finds the number and the total).
// A4, one column; a long invoice flows onto more pages.
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/db';
import { toMinor } from '../core/money';
import { writeAmount } from '../../../shared/amounts';
import { toDocument, type Document, type DocumentRow } from './documents';
import { fontFor, registerFonts, type Face } from './pdf-fonts';

const TITLES: Record<string, string> = { invoice: 'INVOICE', credit_note: 'CREDIT NOTE', bill: 'BILL' };

interface Party {
  name: string;
  address: string | null;
  taxNumber: string | null;
}

/** Column x positions and widths of the lines' table. */
const COLUMNS = [
  { title: 'Description', x: 50, width: 215, align: 'left' as const },
  { title: 'Qty', x: 265, width: 50, align: 'right' as const },
  { title: 'Unit price', x: 315, width: 80, align: 'right' as const },
  { title: 'Tax', x: 395, width: 55, align: 'right' as const },
  { title: 'Amount', x: 450, width: 95, align: 'right' as const },
];

export async function documentPdf(ledger: Ledger, orgSeq: number, row: DocumentRow): Promise<Buffer> {
  const doc = toDocument(ledger, row);
  const org = organizationBySeq(ledger, orgSeq);
  const customer = ledger.stmt('SELECT name, address, tax_number AS taxNumber FROM counterparties WHERE seq = ?').get(row.contact_seq) as Party;
  const amount = (n: number) => writeAmount(toMinor(n, doc.currency), doc.currency, org.decimalMark);
  const signed = (n: number) => `${n < 0 ? '-' : ''}${amount(Math.abs(n))}`;
  // Loaded when a PDF is asked for: every other command starts without it.
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${TITLES[doc.kind]} ${doc.number}`, Author: org.name, Subject: `${doc.contact.name}` } });
  registerFonts(pdf);
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  header(pdf, doc, { name: org.name, address: org.address, taxNumber: org.taxNumber }, customer);
  table(pdf, doc, signed);
  totals(pdf, doc, signed);
  pdf.end();
  return done;
}

function party(pdf: PDFKit.PDFDocument, label: string, p: Party, x: number, y: number): number {
  pdf.font('bold').fontSize(9).fillColor('#555').text(label, x, y, { width: 230 });
  fontFor(pdf, 'bold', p.name).fontSize(11).fillColor('#000').text(p.name, { width: 230 });
  pdf.fontSize(10);
  for (const line of (p.address ?? '').split(/\r?\n|,\s*/).filter(Boolean)) fontFor(pdf, 'body', line).text(line.trim(), { width: 230 });
  if (p.taxNumber) pdf.font('body').text(`Tax number: ${p.taxNumber}`, { width: 230 });
  return pdf.y;
}

function header(pdf: PDFKit.PDFDocument, doc: Document, org: Party, customer: Party): void {
  const fromEnd = party(pdf, 'From', org, 50, 50);
  pdf.font('bold').fontSize(20).text(TITLES[doc.kind], 320, 50, { width: 225, align: 'right' });
  pdf.font('body').fontSize(10);
  const facts = [
    ['Number', doc.number],
    ['Issue date', doc.issueDate],
    ...(doc.kind === 'credit_note' ? [['Credits invoice', doc.credits ?? '']] : [['Due date', doc.dueDate]]),
    ...(doc.status === 'void' ? [['Status', 'VOID']] : []),
  ];
  for (const [k, v] of facts) pdf.text(`${k}: ${v}`, 320, pdf.y, { width: 225, align: 'right' });
  const toEnd = party(pdf, doc.kind === 'bill' ? 'Vendor' : 'Bill to', customer, 50, Math.max(fromEnd, pdf.y) + 20);
  pdf.y = toEnd + 20;
}

function table(pdf: PDFKit.PDFDocument, doc: Document, signed: (n: number) => string): void {
  const row = (cells: string[], face: Face) => {
    const y = pdf.y;
    pdf.fontSize(9.5);
    const heights = cells.map((text, i) => fontFor(pdf, face, text).heightOfString(text, { width: COLUMNS[i].width - 6 }));
    if (y + Math.max(...heights) > pdf.page.height - 120) pdf.addPage();
    const top = pdf.y;
    cells.forEach((text, i) => fontFor(pdf, face, text).text(text, COLUMNS[i].x, top, { width: COLUMNS[i].width - 6, align: COLUMNS[i].align }));
    pdf.y = top + Math.max(...heights) + 4;
  };
  row(
    COLUMNS.map((c) => c.title),
    'bold',
  );
  pdf.moveTo(50, pdf.y).lineTo(545, pdf.y).strokeColor('#999').stroke();
  pdf.y += 4;
  for (const l of doc.lines) {
    const gross = doc.taxInclusive ? l.net + l.tax : l.net;
    row([l.description, String(l.quantity), signed(l.unitPrice), l.taxCode ?? '', signed(gross)], 'body');
  }
  pdf.moveTo(50, pdf.y).lineTo(545, pdf.y).strokeColor('#999').stroke();
  pdf.y += 8;
}

function totals(pdf: PDFKit.PDFDocument, doc: Document, signed: (n: number) => string): void {
  const line = (label: string, value: string, bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? 'bold' : 'body').fontSize(bold ? 11 : 10);
    pdf.text(label, 300, y, { width: 150, align: 'right' });
    pdf.text(value, 450, y, { width: 89, align: 'right' });
    pdf.y = Math.max(pdf.y, y + 14);
  };
  line(`Net${doc.taxInclusive ? ' (prices include tax)' : ''}`, signed(doc.net));
  for (const t of doc.taxes) line(`Tax ${t.taxCode} ${t.rate}% on ${signed(t.net)}`, signed(t.tax));
  line(`Total ${doc.currency}`, signed(doc.total), true);
  if (doc.kind !== 'credit_note' && doc.status !== 'void') {
    if (doc.paid || doc.credited) line('Paid and credited', signed(doc.paid + doc.credited));
    line(`Amount due ${doc.currency}`, signed(doc.balance), true);
  }
  pdf.x = 50;
  pdf.y += 16;
  for (const [label, text] of [
    ['Notes', doc.notes],
    ['How to pay', doc.kind === 'invoice' ? doc.paymentInstructions : null],
  ] as const) {
    if (!text) continue;
    pdf.font('bold').fontSize(10).text(label, 50, pdf.y, { width: 495 });
    fontFor(pdf, 'body', text)
      .fontSize(10)
      .text(label === 'How to pay' ? `${text}\nPlease quote ${doc.number} with your payment.` : text, { width: 495 });
    pdf.y += 8;
  }
}

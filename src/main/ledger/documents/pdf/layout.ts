// How an invoice's PDF is laid out (issue 43), A4 portrait: the logo and the
// supplier at the top left, the title and the invoice's facts at the top
// right, the customer below; the lines; the tax per rate beside the totals;
// the tax in the organization's currency; the reverse charge; notes; the
// payment details in a box; the company's registration at the foot of every
// page. Text a person typed goes through fontFor (any script prints).
import type { PdfFacts, PartyBlock, TaxRow } from './facts';
import { fontFor, type Face } from './fonts';

export type Pdf = PDFKit.PDFDocument;

export const LEFT = 50;
export const RIGHT = 545;
export const WIDTH = RIGHT - LEFT;
/** Room kept at the foot of each page for the registration and the page number. */
const FOOT = 70;
const GREY = '#555555';
const RULE = '#999999';

/** A new page when `height` more does not fit above the foot. */
export function ensure(pdf: Pdf, height: number): void {
  if (pdf.y + height > pdf.page.height - FOOT) pdf.addPage();
}

/** Text at a place, in the font its letters need. */
export function put(pdf: Pdf, face: Face, size: number, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}): void {
  fontFor(pdf, face, text)
    .fontSize(size)
    .text(text, x, y, { lineGap: 1, ...options });
}

function party(pdf: Pdf, p: PartyBlock, x: number, y: number, width: number, nameSize: number): number {
  put(pdf, 'bold', 8.5, p.label.toUpperCase(), x, y, { width, characterSpacing: 0.5 });
  pdf.fillColor('#000000');
  put(pdf, 'bold', nameSize, p.name, x, pdf.y + 2, { width });
  for (const line of p.lines) put(pdf, 'body', 9.5, line, x, pdf.y, { width });
  if (p.registration) put(pdf, 'body', 9.5, p.registration, x, pdf.y + 2, { width });
  return pdf.y;
}

/** The logo (fitted in 190 x 70) and the supplier at the left; the title and the facts at the right; the customer below. */
export function letterhead(pdf: Pdf, f: Pick<PdfFacts, 'logo' | 'supplier' | 'title' | 'facts' | 'customer'>): void {
  let left = pdf.page.margins.top;
  if (f.logo) {
    const box: [number, number] = [190, 70];
    const scale = Math.min(box[0] / f.logo.width, box[1] / f.logo.height, 1);
    pdf.image(f.logo.bytes, LEFT, left, { width: f.logo.width * scale, height: f.logo.height * scale });
    left += f.logo.height * scale + 12;
  }
  pdf.fillColor(GREY);
  left = party(pdf, f.supplier, LEFT, left, 250, f.logo ? 11 : 15);
  put(pdf, 'bold', 22, f.title, 320, pdf.page.margins.top, { width: RIGHT - 320, align: 'right' });
  let y = pdf.y + 6;
  for (const [label, value] of f.facts) {
    put(pdf, 'body', 9.5, label, 320, y, { width: 110 });
    put(pdf, 'bold', 9.5, value, 430, y, { width: RIGHT - 430, align: 'right' });
    y = Math.max(y + 14, pdf.y);
  }
  pdf.fillColor(GREY);
  const end = party(pdf, f.customer, LEFT, Math.max(left, y) + 18, 300, 11);
  pdf.y = end + 18;
}

const COLUMNS = [
  { key: 'description', x: LEFT, width: 195, align: 'left' },
  { key: 'quantity', x: 245, width: 45, align: 'right' },
  { key: 'unitPrice', x: 290, width: 80, align: 'right' },
  { key: 'rate', x: 370, width: 80, align: 'right' },
  { key: 'amount', x: 450, width: RIGHT - 450, align: 'right' },
] as const;

function row(pdf: Pdf, cells: readonly string[], face: Face, header: readonly string[] | null): void {
  pdf.fontSize(9.5);
  const height = Math.max(...cells.map((text, i) => fontFor(pdf, face, text).heightOfString(text || ' ', { width: COLUMNS[i].width - 6 })));
  if (header && pdf.y + height > pdf.page.height - FOOT) {
    pdf.addPage();
    row(pdf, header, 'bold', null);
    rule(pdf);
  }
  const top = pdf.y;
  cells.forEach((text, i) => put(pdf, face, 9.5, text, COLUMNS[i].x, top, { width: COLUMNS[i].width - 6, align: COLUMNS[i].align, lineGap: 0 }));
  pdf.y = top + height + 5;
}

export function rule(pdf: Pdf, x = LEFT, to = RIGHT): void {
  pdf.moveTo(x, pdf.y).lineTo(to, pdf.y).lineWidth(0.6).strokeColor(RULE).stroke();
  pdf.y += 5;
}

/** The lines: description, quantity, unit price, tax rate and amount; the header again on each new page. */
export function linesTable(pdf: Pdf, f: PdfFacts): void {
  const header = ['Description', 'Qty', 'Unit price', f.columns.tax, f.columns.amount];
  ensure(pdf, 60);
  row(pdf, header, 'bold', null);
  rule(pdf);
  for (const l of f.lines)
    row(
      pdf,
      COLUMNS.map((c) => l[c.key]),
      'body',
      header,
    );
  rule(pdf);
  pdf.y += 4;
}

/** A table of the tax per rate: label, net, tax (header first, a total last in bold). */
function taxTable(pdf: Pdf, top: number, header: string[], rows: TaxRow[], total: TaxRow | null): number {
  const cells = (y: number, face: Face, [a, b, c]: string[]) => {
    put(pdf, face, 9, a, LEFT, y, { width: 120 });
    put(pdf, face, 9, b, 170, y, { width: 70, align: 'right' });
    put(pdf, face, 9, c, 240, y, { width: 60, align: 'right' });
  };
  cells(top, 'bold', header);
  const all = total ? [...rows, total] : rows;
  all.forEach((r, i) => cells(top + 14 * (i + 1), r === total ? 'bold' : 'body', [r.label, r.net, r.tax]));
  return top + 14 * (all.length + 1);
}

/** The tax per rate (left) beside the totals (right). */
export function summary(pdf: Pdf, f: PdfFacts): void {
  ensure(pdf, Math.max(f.rates.length + 2, f.totals.length) * 15 + 10);
  const top = pdf.y;
  pdf.fillColor('#000000');
  // A balance brought forward without tax lines has no breakdown to show.
  const left = f.broughtForward && f.rates.length === 0 ? top : taxTable(pdf, top, [`${f.words.tax} rate`, 'Net', f.words.tax], f.rates, null);
  let y = top;
  for (const t of f.totals) {
    put(pdf, t.strong ? 'bold' : 'body', t.strong ? 11 : 9.5, t.label, 320, y, { width: 130, align: 'right' });
    put(pdf, t.strong ? 'bold' : 'body', t.strong ? 11 : 9.5, t.value, 450, y, { width: RIGHT - 450, align: 'right' });
    y += t.strong ? 17 : 14;
  }
  pdf.y = Math.max(y, left) + 12;
}

/** The tax in the organization's currency, for an invoice in another: the rate used, then the same table in that currency. */
export function baseTaxBlock(pdf: Pdf, f: PdfFacts): void {
  if (!f.base) return;
  const { currency, rate, rows, total } = f.base;
  const tax = f.words.tax;
  ensure(pdf, 40 + (rows.length + 1) * 14);
  const top = pdf.y;
  const title = `${tax} in ${currency}`;
  put(pdf, 'bold', 9.5, title, LEFT, top);
  put(pdf, 'body', 9.5, rate, LEFT + pdf.font('bold').widthOfString(title) + 5, top, { width: WIDTH - 80 });
  if (rows.length) pdf.y = taxTable(pdf, pdf.y + 4, [`${tax} rate`, `Net ${currency}`, `${tax} ${currency}`], rows, total);
  pdf.y += 12;
}

/** A paragraph with a bar at its left: the reverse charge, which must not be missed. */
export function statement(pdf: Pdf, text: string | null): void {
  if (!text) return;
  pdf.fontSize(10);
  const height = fontFor(pdf, 'bold', text).heightOfString(text, { width: WIDTH - 12 });
  ensure(pdf, height + 12);
  const top = pdf.y;
  pdf.rect(LEFT, top - 2, 3, height + 4).fill('#333333');
  pdf.fillColor('#000000');
  put(pdf, 'bold', 10, text, LEFT + 12, top, { width: WIDTH - 12 });
  pdf.y += 14;
}

export function notes(pdf: Pdf, text: string | null): void {
  if (!text) return;
  ensure(pdf, 40);
  put(pdf, 'bold', 10, 'Notes', LEFT, pdf.y, { width: WIDTH });
  put(pdf, 'body', 9.5, text, LEFT, pdf.y + 2, { width: WIDTH });
  pdf.y += 14;
}

/** The payment details in a ruled box: the bank's at the left, what to pay, by when and with which reference at the right; instructions and terms below. */
export function paymentBox(pdf: Pdf, f: Pick<PdfFacts, 'payment'>): void {
  if (!f.payment) return;
  const { rows, text } = f.payment;
  const bank = rows.slice(0, -3);
  const due = rows.slice(-3);
  pdf.fontSize(9.5);
  const textHeight = text.reduce((h, t) => h + fontFor(pdf, 'body', t).heightOfString(t, { width: WIDTH - 20 }) + 4, 0);
  const height = 26 + Math.max(bank.length, due.length) * 14 + (text.length ? textHeight + 6 : 0) + 8;
  ensure(pdf, height + 10);
  const top = pdf.y;
  pdf.rect(LEFT, top, WIDTH, height).fillAndStroke('#f4f4f4', RULE);
  pdf.fillColor('#000000');
  put(pdf, 'bold', 10.5, 'Payment details', LEFT + 10, top + 8, { width: WIDTH - 20 });
  const pairs = (list: [string, string][], x: number, labelWidth: number, valueWidth: number) =>
    list.forEach(([label, value], i) => {
      put(pdf, 'body', 9.5, label, x, top + 26 + i * 14, { width: labelWidth });
      put(pdf, 'bold', 9.5, value, x + labelWidth, top + 26 + i * 14, { width: valueWidth });
    });
  pairs(bank, LEFT + 10, 95, 170);
  pairs(due, 330, 75, RIGHT - 340 - 75);
  pdf.y = top + 26 + Math.max(bank.length, due.length) * 14 + 4;
  for (const t of text) put(pdf, 'body', 9.5, t, LEFT + 10, pdf.y + 2, { width: WIDTH - 20 });
  pdf.y = top + height + 12;
}

/** An open invoice's payment link: "Pay online" with the address as a link beside its QR code, for a reader on paper or on screen. */
export function payLinkBox(pdf: Pdf, f: PdfFacts): void {
  if (!f.payLink) return;
  const size = 84;
  ensure(pdf, size + 12);
  const top = pdf.y;
  pdf.image(f.payLink.qr, LEFT, top, { width: size, height: size });
  put(pdf, 'bold', 10.5, 'Pay online by card', LEFT + size + 12, top + 14, { width: WIDTH - size - 12 });
  put(pdf, 'body', 9.5, 'Scan the code or open:', LEFT + size + 12, top + 32, { width: WIDTH - size - 12 });
  pdf.fillColor('#1a4fa0');
  put(pdf, 'body', 9.5, f.payLink.url, LEFT + size + 12, top + 46, { width: WIDTH - size - 12, link: f.payLink.url, underline: true });
  pdf.fillColor('#000000');
  pdf.y = top + size + 12;
}

/** At the foot of every page: the company's registration and, on a document of several pages, the page's number. */
export function footers(pdf: Pdf, f: Pick<PdfFacts, 'footer'>): void {
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Text in the bottom margin would start a new page: the margin is lifted while the foot is written.
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    const y = pdf.page.height - 48;
    pdf
      .moveTo(LEFT, y - 6)
      .lineTo(RIGHT, y - 6)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    pdf.fillColor(GREY);
    if (f.footer) put(pdf, 'body', 7.5, f.footer, LEFT, y, { width: WIDTH - 60 });
    if (range.count > 1) put(pdf, 'body', 7.5, `Page ${i + 1 - range.start} of ${range.count}`, RIGHT - 60, y, { width: 60, align: 'right' });
    pdf.page.margins.bottom = bottom;
  }
}

// A customer's statement of account as a PDF (issue 53), in the invoice's
// layout and by its maker (pdf.ts): the letterhead with STATEMENT, its date
// and period, the customer; per currency the balance brought forward, each
// line with the running balance and the balance owed; the aging of what is
// owed (current, 1-30, 31-60, 61-90, over 90 days, the customer's credit);
// the payment box; the registration at the foot. The same books make the same
// bytes: the PDF's dates are the statement's date, never the clock's.
import { writeAmount } from '../../../../shared/amounts';
import { writeDate } from '../../../../shared/date-styles';
import { countryOf, effectiveDateStyle } from '../../access/details';
import { logoBytes, logoOf } from '../../access/logo';
import { organizationBySeq } from '../../access/organizations';
import type { Ledger } from '../../core/storage';
import { toMinor } from '../../core/money';
import type { StatementOfAccount } from '../owed/account';
import type { ContactStatement } from '../owed/statement';
import { bankRows, customerLines, footerOf, addressLines, type PdfFacts } from './facts';
import { fontFor } from './fonts';
import { ensure, footers, LEFT, letterhead, paymentBox, put, RIGHT, rule, WIDTH, type Pdf } from './layout';
import { writePdf } from './pdf';
import { taxWordsOf } from './vat';

type Letter = Pick<PdfFacts, 'logo' | 'supplier' | 'title' | 'facts' | 'customer' | 'footer' | 'payment'>;
type Write = { money: (amount: number, currency: string) => string; date: (d: string) => string };

/** Date, details, amount, balance. */
const COLUMNS = [
  { x: LEFT, width: 100, align: 'left' },
  { x: LEFT + 100, width: 210, align: 'left' },
  { x: LEFT + 310, width: 90, align: 'right' },
  { x: LEFT + 400, width: RIGHT - LEFT - 400, align: 'right' },
] as const;

const AGES: [keyof ContactStatement['aging'], string][] = [
  ['current', 'Current'],
  ['days1to30', '1-30 days'],
  ['days31to60', '31-60 days'],
  ['days61to90', '61-90 days'],
  ['over90', 'Over 90 days'],
];

function row(pdf: Pdf, cells: string[], face: 'body' | 'bold'): void {
  pdf.fontSize(9.5);
  const height = Math.max(...cells.map((text, i) => fontFor(pdf, face, text).heightOfString(text || ' ', { width: COLUMNS[i].width - 6 })));
  ensure(pdf, height + 5);
  const top = pdf.y;
  cells.forEach((text, i) => put(pdf, face, 9.5, text, COLUMNS[i].x, top, { width: COLUMNS[i].width - 6, align: COLUMNS[i].align, lineGap: 0 }));
  pdf.y = top + height + 5;
}

/** One currency's part: brought forward, the lines with the running balance, the balance owed, then its aging. */
function part(pdf: Pdf, s: ContactStatement, w: Write, titled: boolean): void {
  const money = (n: number) => w.money(n, s.currency);
  ensure(pdf, 90);
  if (titled) put(pdf, 'bold', 11, `In ${s.currency}`, LEFT, pdf.y, { width: WIDTH });
  pdf.y += 4;
  row(pdf, ['Date', 'Details', 'Amount', `Balance ${s.currency}`], 'bold');
  rule(pdf);
  row(pdf, [w.date(s.from), 'Balance brought forward', '', money(s.opening)], 'body');
  for (const l of s.lines) row(pdf, [w.date(l.date), l.what, money(l.amount), money(l.balance)], 'body');
  rule(pdf);
  row(pdf, [w.date(s.to), 'Balance owed', '', money(s.closing)], 'bold');
  pdf.y += 8;
  const ages: [string, number][] = [
    ...AGES.map(([k, label]): [string, number] => [label, s.aging[k]]),
    ...(s.aging.credit ? [['Credit', s.aging.credit] as [string, number]] : []),
  ];
  ages.push([`Total ${s.currency}`, s.aging.total]);
  const width = WIDTH / ages.length;
  ensure(pdf, 40);
  const top = pdf.y;
  ages.forEach(([label, amount], i) => {
    put(pdf, 'bold', 8.5, label, LEFT + i * width, top, { width: width - 6, align: 'right' });
    put(pdf, 'body', 9.5, money(amount), LEFT + i * width, top + 13, { width: width - 6, align: 'right' });
  });
  pdf.y = top + 34;
}

async function letterOf(ledger: Ledger, orgSeq: number, s: StatementOfAccount, w: Write): Promise<Letter> {
  const org = await organizationBySeq(ledger, orgSeq);
  const customer = (await ledger.stmt('SELECT address, tax_number AS "taxNumber", country FROM counterparties WHERE id = ?').get(s.customer.id)) as {
    address: string | null;
    taxNumber: string | null;
    country: string | null;
  };
  const words = taxWordsOf(org.taxSet);
  const logo = await logoOf(ledger, orgSeq);
  const owed = s.currencies.filter((c) => c.closing > 0);
  const due: [string, string][] = [
    ['Amount due', owed.map((c) => `${w.money(c.closing, c.currency)} ${c.currency}`).join(', ')],
    ['As at', w.date(s.to)],
    ['Reference', s.customer.name],
  ];
  return {
    title: 'STATEMENT',
    supplier: { label: 'From', name: org.name, lines: addressLines(org.address), registration: org.taxNumber ? `${words.registration} ${org.taxNumber}` : null },
    customer: {
      label: 'Statement for',
      name: s.customer.name,
      lines: customerLines(customer.address, customer.country, countryOf(org)),
      registration: customer.taxNumber ? `${words.customerNumber} ${customer.taxNumber}` : null,
    },
    facts: [
      ['Statement date', w.date(s.to)],
      ['Period from', w.date(s.from)],
      ['Period to', w.date(s.to)],
    ],
    payment: owed.length ? { rows: [...bankRows(org), ...due], text: [org.paymentInstructions, org.paymentTerms].filter((t): t is string => !!t) } : null,
    footer: footerOf(org),
    logo: logo && { ...logo, bytes: (await logoBytes(ledger, orgSeq))! },
  };
}

/** The statement's PDF: the same statement, the same bytes. */
export async function statementPdf(ledger: Ledger, orgSeq: number, s: StatementOfAccount): Promise<Buffer> {
  const org = await organizationBySeq(ledger, orgSeq);
  const style = effectiveDateStyle(org);
  const w: Write = { money: (n, currency) => writeAmount(toMinor(n, currency), currency, org.decimalMark), date: (d) => writeDate(d, style) };
  const letter = await letterOf(ledger, orgSeq, s, w);
  const made = new Date(`${s.to}T00:00:00Z`);
  const info = { Title: `Statement of account ${s.customer.name} ${s.to}`, Author: org.legalName ?? org.name, Subject: s.customer.name, CreationDate: made, ModDate: made };
  return writePdf(info, (pdf) => {
    letterhead(pdf, letter);
    s.currencies.forEach((c) => part(pdf, c, w, s.currencies.length > 1));
    paymentBox(pdf, letter);
    footers(pdf, letter);
  });
}

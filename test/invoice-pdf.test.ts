// Invoices a tax office accepts (issue 43), on a real file: the organization's
// details (registration, bank details, terms, date style, logo, numbering)
// set and checked; the PDF read back by pdftotext with every field HMRC's VAT
// Notice 700 section 16 lists, the company's registration and the payment
// box; bank details entered after an invoice was issued print on it; the
// reverse charge for a customer abroad and at home; the VAT in GBP on a EUR
// invoice; the first page rendered by pdftoppm with the logo drawn.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { deskAs } from './support/desk';
import { ownerCommand, tempDir, tempLedger } from './support/env';
import { solidPng } from './support/png';

let ctx: DeskContext;
let org: L.Organization;
let dir: string;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
/** An organization operation (named by `organization`, not the orgId the others take). */
async function orgOp<T = any>(name: string, input: Record<string, unknown>): Promise<T> {
  const answer = await runDesk(ctx, name, input, () => {});
  if ('error' in answer) throw Object.assign(new Error(`${answer.error.code}: ${answer.error.message}`), answer.error);
  return answer.data as T;
}
const edit = (changes: Record<string, unknown>) => orgOp<L.Organization>('updateOrganization', { organization: 'studio', ...changes });
const BLUE: [number, number, number] = [20, 80, 160];

/** The PDF of a document, written by the owner command's operation, and its text as pdftotext -layout reads it (spaces run together). */
async function pdfText(number: string): Promise<{ file: string; text: string }> {
  const file = join(dir, `${number}-${Date.now()}.pdf`);
  await desk('invoicePdf', { number, out: file });
  return { file, text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ') };
}

/** Pixels of the logo's colour in the top left of the first page (where the logo goes), rendered at 40 dpi. */
function bluePixels(file: string): number {
  const out = join(dir, `crop-${Date.now()}`);
  execFileSync('pdftoppm', ['-r', '40', '-f', '1', '-l', '1', '-x', '0', '-y', '0', '-W', '200', '-H', '80', file, out]);
  const ppm = readFileSync(
    readdirSync(dir)
      .map((f) => join(dir, f))
      .find((f) => f.startsWith(out))!,
  );
  // P6 <w> <h> <max>\n then RGB bytes.
  const header = ppm.subarray(0, 20).toString('latin1').split(/\s+/);
  const start = ppm.length - Number(header[1]) * Number(header[2]) * 3;
  let n = 0;
  for (let i = start; i < ppm.length; i += 3) if (Math.abs(ppm[i] - BLUE[0]) < 30 && Math.abs(ppm[i + 1] - BLUE[1]) < 30 && Math.abs(ppm[i + 2] - BLUE[2]) < 30) n++;
  return n;
}

beforeAll(async () => {
  const t = await tempLedger();
  dir = t.dir;
  org = await L.createOrganization(t.ledger, { slug: 'studio', name: 'Hartley Studio', currency: 'GBP' });
  ctx = { ledger: t.ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(t.ledger, org.seq, L.deskActor(), 'uk-vat');
  await desk('addContact', { name: 'Acme Ltd', customer: true, address: '1 Main Street\nLeeds LS1 1AA', taxNumber: 'GB987654321' });
  await desk('addContact', { name: 'Ångström Design GmbH', customer: true, address: 'Friedrichstraße 12, 10117 Berlin', country: 'de', taxNumber: 'DE123456789', termsDays: 14 });
  await desk('addContact', { name: 'Builder Bros Ltd', customer: true, address: '4 Yard Lane, Leeds', country: 'GB', taxNumber: 'GB111222333' });
});

describe("an organization's invoice details", () => {
  it('are checked field by field, stored in their printed form, and audited', async () => {
    const before = (await L.listAudit(ctx.ledger, org.seq, { limit: 500, offset: 0 })).entries.length;
    await expect(
      edit({ sortCode: '12-34', iban: 'GB34 BUKB 2020 1555 5555 55', bic: 'BANK', country: 'XX', companyNumber: 'ABC', registeredIn: 'England and Wales' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: expect.arrayContaining(['sortCode', 'iban', 'bic', 'country', 'companyNumber'].map((field) => expect.objectContaining({ field }))),
    });
    expect((await L.listAudit(ctx.ledger, org.seq, { limit: 500, offset: 0 })).entries.length).toBe(before);
    const saved = await edit({
      address: '2 High Street\nLondon\nEC1A 1BB',
      taxNumber: 'GB123456789',
      legalName: 'Hartley Studio Ltd',
      companyNumber: '1234567',
      registeredIn: 'england and wales',
      paymentTerms: 'Payment within 14 days of the invoice date.',
      dateStyle: 'long',
    });
    expect(saved).toMatchObject({ companyNumber: '01234567', registeredIn: 'England and Wales', country: null, dateStyle: 'long' });
    expect(L.countryOf(saved)).toBe('GB');
    expect((await L.listAudit(ctx.ledger, org.seq, { limit: 1, offset: 0 })).entries[0]).toMatchObject({
      action: 'organization.updated',
      summary: expect.stringContaining('companyNumber null -> "01234567"'),
    });
  });

  it('continue the numbering where the old system stopped (INV-0045), never going back to a number used', async () => {
    await edit({ invoiceNext: 45 });
    const first = await desk<L.Document>('createInvoice', {
      customer: 'Acme Ltd',
      date: '2026-08-10',
      lines: ['Design work;10;850.00;4000;S', 'Printed book;200;12.50;4000;Z'],
      issue: true,
    });
    expect(first.number).toBe('INV-0045');
    await expect(edit({ invoiceNext: 44 })).rejects.toMatchObject({ details: [expect.objectContaining({ field: 'invoiceNext', message: expect.stringMatching(/forward/) })] });
    // A new series (a prefix per year) starts again at 1; going back to the old prefix stays above its numbers.
    await edit({ invoicePrefix: '2027-', invoiceNext: 1 });
    await expect(edit({ invoicePrefix: 'INV-', invoiceNext: 40 })).rejects.toMatchObject({
      details: [expect.objectContaining({ message: expect.stringMatching(/INV-0045 is already used/) })],
    });
    await edit({ invoicePrefix: 'INV-', invoiceNext: 46 });
    expect((await orgOp<any[]>('listOrganizations', {}))[0]).toMatchObject({ nextInvoiceNumber: 'INV-0046', nextCreditNoteNumber: 'CN-0001' });
  });

  it('take a PNG or JPEG logo of at most 1 MB, judged by its bytes', async () => {
    const file = (name: string, bytes: Uint8Array) => (writeFileSync(join(dir, name), bytes), join(dir, name));
    await expect(orgOp('setOrganizationLogo', { organization: 'studio', file: file('logo.png', Buffer.from('not an image at all')) })).rejects.toMatchObject({
      code: 'unsupported_media_type',
      details: [{ field: 'file', message: expect.any(String) }],
    });
    await expect(
      orgOp('setOrganizationLogo', { organization: 'studio', file: file('big.png', Buffer.concat([solidPng(2, 2, BLUE), Buffer.alloc(1024 * 1024)])) }),
    ).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    const set = await orgOp('setOrganizationLogo', { organization: 'studio', file: file('hartley.png', solidPng(300, 100, BLUE)) });
    expect(set.logo).toMatchObject({ fileName: 'hartley.png', mimeType: 'image/png', width: 300, height: 100 });
    expect((await orgOp('organizationLogo', { organization: 'studio' })).base64).toBe(solidPng(300, 100, BLUE).toString('base64'));
    expect((await L.listAudit(ctx.ledger, org.seq, { limit: 1, offset: 0 })).entries[0].summary).toMatch(/logo hartley\.png \(PNG 300x100/);
  });
});

describe("an invoice's PDF", () => {
  it('shows every field of a full VAT invoice, the registration and the payment box', async () => {
    const { file, text } = await pdfText('INV-0045');
    for (const expected of [
      'Hartley Studio',
      '2 High Street',
      'VAT reg. no. GB123456789',
      'Invoice number INV-0045',
      'Date of issue 10 August 2026',
      'Time of supply 10 August 2026',
      'Acme Ltd',
      '1 Main Street',
      'Leeds LS1 1AA',
      'VAT no. GB987654321',
      'Design work',
      'Standard 20% 8,500.00 1,700.00',
      'Zero rated 0% 2,500.00 0.00',
      'Total net 11,000.00',
      'Total VAT 1,700.00',
      'Total GBP 12,700.00',
      'Hartley Studio Ltd. Registered in England and Wales, no. 01234567. Registered office: 2 High Street, London, EC1A 1BB.',
      'Payment details',
      'Amount due 12,700.00 GBP',
      'Due date 9 September 2026',
      'Reference INV-0045',
      'Payment within 14 days of the invoice date.',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('2026-08-10');
    // The first page renders, with the logo drawn at its top left.
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', file, join(dir, 'page')]);
    expect(
      readFileSync(
        join(
          dir,
          readdirSync(dir).find((f) => f.startsWith('page'))!,
        ),
      )
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').length - 2).toBe(1);
    expect(bluePixels(file)).toBeGreaterThan(500);
  });

  it('reads the bank details when it is made: entered after the invoice was issued, they print on it', async () => {
    expect((await pdfText('INV-0045')).text).not.toContain('IBAN');
    await edit({ bankName: 'Barclays', bankAccountName: 'Hartley Studio Ltd', sortCode: '200000', accountNumber: '55779911', iban: 'gb33bukb20201555555555', bic: 'bukbgb22' });
    const { text } = await pdfText('INV-0045');
    for (const expected of [
      'Bank Barclays',
      'Account name Hartley Studio Ltd',
      'Sort code 20-00-00',
      'Account number 55779911',
      'IBAN GB33 BUKB 2020 1555 5555 55',
      'BIC BUKBGB22',
    ])
      expect(text).toContain(expected);
    await edit({ dateStyle: 'dd/mm/yyyy' });
    expect((await pdfText('INV-0045')).text).toContain('Date of issue 10/08/2026');
    expect(await edit({ dateStyle: 'auto' })).toMatchObject({ dateStyle: null });
    expect((await pdfText('INV-0045')).text).toContain('Date of issue 10 August 2026');
  });

  it('to a business abroad: the reverse charge and the customer’s VAT number', async () => {
    const inv = await desk<L.Document>('createInvoice', { customer: 'Ångström Design GmbH', date: '2026-08-11', lines: ['Brand consultancy;3;1200;4000;NV'], issue: true });
    const { text } = await pdfText(inv.number);
    for (const expected of [
      'Friedrichstraße 12',
      'Germany',
      'VAT no. DE123456789',
      'Outside scope',
      "Reverse charge: outside the scope of UK VAT. The place of supply is the customer's country (Germany), where the customer accounts for any VAT due. Customer's VAT number: DE123456789.",
    ])
      expect(text).toContain(expected);
  });

  it('under the domestic reverse charge: the customer accounts for the VAT to HMRC, and how much', async () => {
    const inv = await desk<L.Document>('createInvoice', { customer: 'Builder Bros Ltd', date: '2026-08-12', lines: ['Bricklaying;1;1000;4000;RC'], issue: true });
    const { text } = await pdfText(inv.number);
    expect(text).toContain('Reverse charge 20% 1,000.00 0.00');
    expect(text).toContain("Reverse charge: customer to account for VAT to HMRC. VAT at 20% on 1,000.00: 200.00 GBP. Customer's VAT number: GB111222333.");
    expect((await pdfText('INV-0045')).text).not.toContain('Reverse charge');
  });

  it('with prices that include VAT: each line gross, the VAT per rate worked out of it', async () => {
    const inv = await desk<L.Document>('createInvoice', { customer: 'Acme Ltd', date: '2026-08-13', taxInclusive: true, lines: ['Print run;1;19.99;4000;S'], issue: true });
    const { text } = await pdfText(inv.number);
    for (const expected of ['Gross', 'Print run 1 19.99 20% 19.99', 'Standard 20% 16.66 3.33', 'Total GBP 19.99']) expect(text).toContain(expected);
  });

  it('in euros: the VAT in sterling too, at the rate the books booked it', async () => {
    await desk('setRate', { currency: 'EUR', date: '2026-08-10', rate: '0.8512' });
    const inv = await desk<L.Document>('createInvoice', { customer: 'Acme Ltd', date: '2026-08-10', currency: 'EUR', lines: ['Workshop in Paris;1;2000;4000;S'], issue: true });
    const { text } = await pdfText(inv.number);
    for (const expected of ['Total EUR 2,400.00', 'VAT in GBP at 1 EUR = 0.8512 GBP, the rate of 10 August 2026', 'Standard 20% 1,702.40 340.48', 'Total GBP 1,702.40 340.48'])
      expect(text).toContain(expected);
  });
});

describe('an open invoice of the opening balances', () => {
  it('prints as a balance brought forward: its number, date, customer, outstanding total and what is due; no empty lines or VAT table', async () => {
    await L.setOpeningBalances(ctx.ledger, org.seq, L.deskActor(), {
      date: '2026-07-01',
      lines: [],
      invoices: [{ number: 'OLD-0412', contact: 'Acme Ltd', date: '2026-06-10', dueDate: '2026-07-10', outstanding: '1800' }],
      balanceToEquity: true,
    });
    const { text } = await pdfText('OLD-0412');
    expect(text).toContain('Balance brought forward: invoice OLD-0412 was issued in the books kept before these');
    for (const expected of ['Invoice number OLD-0412', 'Acme Ltd', 'Brought forward 1,800.00', 'Amount due 1,800.00 GBP', 'Due date']) expect(text).toContain(expected);
    for (const absent of ['VAT rate', 'Total VAT', 'Total net', 'Unit price', 'Time of supply']) expect(text).not.toContain(absent);
  });
});

describe('from the command line and from an older file', () => {
  it('org edit takes the details as flags, org logo the image; the numbering goes on at INV-0045', () => {
    const data = tempDir();
    const run = ownerCommand(data);
    const logo = join(data, 'logo.png');
    writeFileSync(logo, solidPng(120, 40, BLUE));
    run('org', 'create', 'loch', '--name', 'Loch Design', '--currency', 'GBP', '--tax-set', 'uk-vat', '--chart', 'default');
    run('org', 'edit', 'loch', '--country', 'GB', '--tax-number', 'GB123456789', '--address', '9 Quay Street, Glasgow G1 1AA', '--company-number', 'sc123456');
    const saved = JSON.parse(
      run(
        'org',
        'edit',
        'loch',
        '--registered-in',
        'Scotland',
        '--sort-code',
        '80 22 60',
        '--account-number',
        '12345678',
        '--payment-terms',
        'Net 30.',
        '--date-style',
        'dd/mm/yyyy',
        '--invoice-next',
        '45',
        '--json',
      ),
    );
    expect(saved).toMatchObject({ companyNumber: 'SC123456', registeredIn: 'Scotland', sortCode: '80-22-60', dateStyle: 'dd/mm/yyyy', invoiceNext: 45 });
    expect(run('org', 'logo', 'loch', logo)).toContain('Logo set: logo.png (120x40).');
    run('contact', 'add', 'Globex', '--kind', 'customer', '--address', '1 Main St, Springfield', '--country', 'US', '--tax-number', 'US-99');
    expect(run('invoice', 'create', '--customer', 'Globex', '--date', '2026-08-10', '--line', 'Design;1;500;4000', '--issue')).toMatch(/^INV-0045\n/);
    const out = join(data, 'inv.pdf');
    run('invoice', 'pdf', 'INV-0045', '--out', out);
    const text = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const expected of ['Date of issue 10/08/2026', 'Registered in Scotland, no. SC123456', 'Sort code 80-22-60', 'Net 30.', 'United States']) expect(text).toContain(expected);
    expect(execFileSync('pdfimages', ['-list', out], { encoding: 'utf8' }).trim().split('\n').length - 2).toBe(1);
    expect(run('org', 'logo', 'loch', '--remove')).toContain('Logo logo.png removed.');
  });
});

// Quotes and repeating invoices in real Chromium (issue 53): a quote written on
// the Quotes screen, accepted into a draft invoice (its number said, the
// invoice on the Invoices screen with the quote's total); a quote sent by mail
// from the Invoices screen's Send form (a real SMTP server), marked sent; a repeating invoice's
// schedule typed with its next three dates shown before saving, then saved.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { setMailSettings } from '../src/main/ledger/mail/settings';
import { launchChromium, signedInPage } from './support/browser';
import { serveDesk, screenshot } from './support/desk-page';
import { SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './support/smtp';

let app: Headless;
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;
let smtp: TestSmtp;
const shot = (name: string) => screenshot(page, name);

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-quotes-'));
  const me = L.deskActor();
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.addContact(books, org.seq, me, { name: 'Øresund Design ApS', customer: true, termsDays: 14 });
  smtp = await smtpServer();
  process.env.LEDGERDESK_MAIL_CA_FILE = smtp.certFile;
  await setMailSettings(books, org.seq, me, { host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, password: SMTP_PASSWORD, from: 'books@oresund.example' });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('quotes and repeating invoices on screen', () => {
  it('writes a quote and accepts it into a draft invoice with its lines', async () => {
    await page.goto(`${app.server.url}/#/quotes`);
    const form = page.getByRole('form', { name: 'New quote' });
    await form.getByLabel('Customer').selectOption({ label: 'Øresund Design ApS' });
    await form.getByLabel('Date').fill('2030-03-01');
    await form.getByLabel('Line 1 description').fill('Brand workshop');
    await form.getByLabel('Line 1 quantity').fill('2');
    await form.getByLabel('Line 1 unit price').fill('500');
    await form.getByLabel('Line 1 category').selectOption('4000');
    await form.getByLabel('Line 1 tax code').selectOption('S');
    await form.getByText('Total $1,200.00').waitFor();
    await form.getByRole('button', { name: 'Save quote' }).click();
    await page.getByText('QU-0001 saved.').waitFor();
    const row = page.getByRole('row', { name: /QU-0001/ });
    await row.getByRole('button', { name: 'Accept QU-0001' }).click();
    await page.getByText('QU-0001 accepted: draft invoice INV-0001 made from it.').waitFor();
    await page.getByRole('row', { name: /QU-0001.*Accepted · invoice INV-0001/ }).waitFor();
    await shot('quote-accepted');
    await page.goto(`${app.server.url}/#/invoices`);
    await page.getByRole('row', { name: /INV-0001.*Øresund Design ApS.*1,200\.00.*Draft/ }).waitFor();
    const invoice = await L.toDocument(books, await L.requireDocument(books, org.seq, ['invoice'], 'INV-0001'));
    expect(invoice).toMatchObject({ quote: 'QU-0001', status: 'draft', total: 1200 });
    expect(invoice.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.taxCode])).toEqual([['Brand workshop', 2, 500, 'S']]);
  });

  it('sends a quote by mail with the Send form, and it reads sent', async () => {
    const q = await L.createQuote(
      books,
      org.seq,
      L.deskActor(),
      { contact: 'Øresund Design ApS', date: '2030-03-02', lines: [{ description: 'Audit', quantity: 1, unitPrice: 300, categoryCode: '4000' }] },
      '2030-03-02',
    );
    await page.goto(`${app.server.url}/#/quotes`);
    await page.reload();
    await page.getByRole('button', { name: `Send ${q.number} by mail` }).click();
    const form = page.getByRole('form', { name: `Send ${q.number}` });
    await expect.poll(() => form.getByLabel('Subject').inputValue()).toMatch(`Quote ${q.number} from `);
    await form.getByLabel('To').fill('kontakt@oresund.example');
    await form.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(`${q.number} sent to kontakt@oresund.example.`).waitFor();
    await page.getByRole('row', { name: new RegExp(`${q.number}.*Sent`) }).waitFor();
    expect(smtp.received.at(-1)!.parsed.attachments[0].filename).toBe(`${q.number}.pdf`);
  });

  it('sets a schedule with its next three dates shown before saving', async () => {
    await page.goto(`${app.server.url}/#/repeating`);
    const form = page.getByRole('form', { name: 'New repeating invoice' });
    await form.getByLabel('Customer').selectOption({ label: 'Øresund Design ApS' });
    await form.getByLabel('Name').fill('Retainer');
    await form.getByLabel('On day').selectOption('31');
    await form.getByLabel('Start', { exact: true }).fill('2030-01-31');
    await form.getByText('monthly on the 31st (the last day of shorter months) from 2030-01-31. Next: 2030-01-31, 2030-02-28, 2030-03-31').waitFor();
    await form.getByLabel('Ends').selectOption('count');
    await form.getByLabel('Invoices', { exact: true }).fill('3');
    await form.getByLabel('When due').selectOption('issue');
    await form.getByLabel('Line 1 description').fill('Monthly retainer');
    await form.getByLabel('Line 1 unit price').fill('800');
    await form.getByLabel('Line 1 category').selectOption('4000');
    await shot('repeating-form');
    await form.getByRole('button', { name: 'Save repeating invoice' }).click();
    await page.getByText('"Retainer" saved: next 2030-01-31, 2030-02-28, 2030-03-31.').waitFor();
    await page
      .getByRole('list', { name: 'Repeating invoices' })
      .getByText(/Retainer.*Next: 2030-01-31, 2030-02-28, 2030-03-31\./)
      .first()
      .waitFor();
    const [saved] = await L.listRepeatingInvoices(books, org.seq, '2030-01-01');
    expect(saved).toMatchObject({ name: 'Retainer', action: 'issue', schedule: { unit: 'month', every: 1, monthDay: 31, endCount: 3 } });
  });
});

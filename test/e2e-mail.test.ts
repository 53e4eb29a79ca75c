// Mail in real Chromium (issue 53): the organization's mail settings (the
// password never shown) and a test message; an invoice sent from its Send
// form, the filled subject edited and a copy to the sender, read back from
// the SMTP server; the sent message listed on the invoice; a customer's
// statement of account sent from the Contacts screen; the reminder schedule
// set on the Reminders screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { setMailSettings } from '../src/main/ledger/mail/settings';
import { launchChromium, signedInPage } from './support/browser';
import { SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './support/smtp';
import { serveDesk, screenshot } from './support/desk-page';

let app: Headless;
let books: L.Ledger;
let browser: Browser;
let page: Page;
let smtp: TestSmtp;
let number: string;
const shot = (name: string) => screenshot(page, name);

beforeAll(async () => {
  smtp = await smtpServer();
  process.env.LEDGERDESK_MAIL_CA_FILE = smtp.certFile;
  const served = await serveDesk('ldk-e2e-mail-');
  ({ app, books } = served);
  const org = served.org;
  const me = L.deskActor();
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.addContact(books, org.seq, me, { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example' });
  number = (
    await L.createDocument(
      books,
      org.seq,
      me,
      { contact: 'Zoë Brontë', date: '2026-03-02', lines: [{ description: 'Żółć design', quantity: 1, unitPrice: 100, categoryCode: '4000', taxCode: 'S' }] },
      { kind: 'invoice', issue: true },
    )
  ).number;
  await setMailSettings(books, org.seq, me, {
    host: '127.0.0.1',
    port: smtp.port,
    tls: 'starttls',
    user: SMTP_USER,
    password: SMTP_PASSWORD,
    from: 'Books <books@studio.example>',
  });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('mail on screen', () => {
  it('shows the mail settings without the password and sends a test message', async () => {
    await page.goto(`${app.server.url}/#/mail`);
    const form = page.getByRole('form', { name: 'Mail settings' });
    await expect.poll(() => form.getByLabel('SMTP server').inputValue()).toBe('127.0.0.1');
    expect(await form.getByLabel('Password').inputValue()).toBe('');
    expect(await form.getByLabel('Password').getAttribute('placeholder')).toBe('kept (type to change)');
    expect(await page.content()).not.toContain(SMTP_PASSWORD);
    const test = page.getByRole('form', { name: 'Send a test message' });
    await test.getByLabel('Test address').fill('zoe@bronte.example');
    await test.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByText('A test message went to zoe@bronte.example').waitFor();
    expect(smtp.received.at(-1)!.parsed.subject).toBe('Ledgerdesk test message');
  });

  it('sends an invoice from its Send form, as edited, and lists the message on it', async () => {
    await page.goto(`${app.server.url}/#/invoices`);
    await page.getByRole('button', { name: `Send ${number} by mail` }).click();
    const form = page.getByRole('form', { name: `Send ${number}` });
    await expect.poll(() => form.getByLabel('Subject').inputValue()).toBe(`Invoice ${number} from My organization`);
    expect(await form.getByLabel('To').inputValue()).toBe('zoe@bronte.example');
    expect(await form.getByLabel('Message').inputValue()).toContain('Dear Zoë Brontë,');
    await form.getByLabel('Subject').fill(`Invoice ${number}: Żółć design`);
    await form.getByLabel(/Send me a copy/).check();
    await shot('mail-send');
    await form.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(`${number} sent to zoe@bronte.example, a copy to Books <books@studio.example>.`).waitFor();
    const got = smtp.received.at(-1)!;
    expect(got.parsed.subject).toBe(`Invoice ${number}: Żółć design`);
    expect(got.rcpt.sort()).toEqual(['books@studio.example', 'zoe@bronte.example']);
    expect(got.parsed.attachments[0].filename).toBe(`${number}.pdf`);
    await form
      .getByRole('list', { name: `Messages sending ${number}` })
      .getByText(got.parsed.messageId!)
      .waitFor();
  });

  it("sends a customer's statement of account from the Contacts screen", async () => {
    await page.goto(`${app.server.url}/#/contacts`);
    await page.getByRole('button', { name: 'Statement of Zoë Brontë' }).click();
    const panel = page.getByRole('region', { name: 'Statement of account of Zoë Brontë' });
    await panel
      .getByRole('table', { name: /^Statement in / })
      .getByText('Balance owed')
      .waitFor();
    await panel.getByRole('button', { name: 'Send…' }).click();
    const form = page.getByRole('form', { name: 'Send the statement of Zoë Brontë' });
    await expect.poll(() => form.getByLabel('Subject').inputValue()).toBe('Statement of account from My organization');
    expect(await form.getByLabel('Message').inputValue()).toMatch(/120\.00 [A-Z]{3} is owed/);
    await shot('mail-statement');
    await form.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('The statement of Zoë Brontë went to zoe@bronte.example.').waitFor();
    const got = smtp.received.at(-1)!;
    expect(got.rcpt).toEqual(['zoe@bronte.example']);
    expect(got.parsed.attachments[0].filename).toMatch(/^Statement \d{4}-\d{2}-\d{2}\.pdf$/);
    await form.getByRole('list', { name: 'Statements sent to Zoë Brontë' }).getByText(got.parsed.messageId!).waitFor();
  });

  it('sets the reminder schedule', async () => {
    await page.goto(`${app.server.url}/#/reminders`);
    const form = page.getByRole('form', { name: 'Reminder schedule' });
    await form.getByLabel(/Days from the due date/).fill('-3, 0, 7');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Reminders: 3 days before due, on the due day, 7 days late.').waitFor();
    await shot('mail-reminders');
  });
});

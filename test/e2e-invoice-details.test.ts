// What invoices print, set from the screens (issue 43), in real Chromium:
// Organizations takes the registration, bank details, terms, date style, the
// next invoice number (refusing one that goes back) and a logo; Contacts
// edits a customer's address, country and VAT number. The invoice made
// afterwards prints them all (read back by pdftotext) and its logo.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { launchChromium, SCREENSHOTS, signedInPage } from './support/browser';
import { tempDir } from './support/env';
import { solidPng } from './support/png';
import { serveDesk } from './support/desk-page';

let app: Headless;
/** The books as this file's own setup and checks use them (support/books.ts testBooks); the server has app.ledger. */
let books: L.Ledger;
let browser: Browser;
let page: Page;
let org: L.Organization;

beforeAll(async () => {
  ({ app, books, org } = await serveDesk('ldk-e2e-details-'));
  const me = L.deskActor();
  await L.updateOrganization(books, org.id, { currency: 'GBP', name: 'Hartley Studio' }, me);
  await L.setupTaxSet(books, org.seq, me, 'uk-vat');
  await L.addContact(books, org.seq, me, { name: 'Ångström Design GmbH', customer: true });
  browser = await launchChromium();
  page = await signedInPage(browser, app);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('invoice details on screen', () => {
  it("sets the organization's registration, bank details, terms, dates, numbering and logo in Organizations", async () => {
    await page.goto(`${app.server.url}/#/organizations`);
    const form = page.getByRole('form', { name: 'Invoice details' });
    await form.getByLabel('Registered name (if not its name)').fill('Hartley Studio Ltd');
    await form.getByLabel('Postal address', { exact: true }).fill('2 High Street\nLondon EC1A 1BB');
    await form.getByLabel('VAT registration number').fill('GB123456789');
    await form.getByLabel('Company number').fill('1234567');
    await form.getByLabel('Registered in').selectOption('England and Wales');
    await form.getByLabel('Bank', { exact: true }).fill('Barclays');
    await form.getByLabel('Sort code').fill('200000');
    await form.getByLabel('Account number').fill('55779911');
    await form.getByLabel('IBAN').fill('GB33 BUKB 2020 1555 5555 55');
    await form.getByLabel('Payment terms').fill('Payment within 14 days of the invoice date.');
    await form.getByLabel('Next invoice number').fill('45');
    await form.getByLabel('Dates on documents').selectOption('dd/mm/yyyy');
    await form.getByRole('button', { name: 'Save invoice details' }).click();
    await page.getByText("Saved what Hartley Studio's invoices print.").waitFor();
    // Stored in their printed form, and the form shows that form.
    expect(await L.organizationBySeq(books, org.seq)).toMatchObject({
      companyNumber: '01234567',
      sortCode: '20-00-00',
      iban: 'GB33BUKB20201555555555',
      invoiceNext: 45,
      dateStyle: 'dd/mm/yyyy',
    });
    await expect.poll(() => form.getByLabel('Sort code').inputValue()).toBe('20-00-00');
    await form.getByText('The next invoice is INV-0045').waitFor();
    // A number going back is refused, saying why.
    await form.getByLabel('Next invoice number').fill('44');
    await form.getByRole('button', { name: 'Save invoice details' }).click();
    await page.getByText(/invoiceNext: may only move forward from 45/).waitFor();
    await form.getByLabel('Next invoice number').fill('45');
    // The logo: chosen, shown, kept in the books.
    await page.getByLabel('Logo file (PNG or JPEG, up to 1 MB)').setInputFiles({ name: 'hartley.png', mimeType: 'image/png', buffer: solidPng(300, 100, [20, 80, 160]) });
    await page.getByRole('img', { name: 'Logo of Hartley Studio' }).waitFor();
    expect(await L.logoOf(books, org.seq)).toMatchObject({ fileName: 'hartley.png', width: 300, height: 100 });
    await page.screenshot({ path: join(SCREENSHOTS, 'organization-details.png'), fullPage: true });
  });

  it("edits a contact's address, country and VAT number in Contacts, and the invoice prints them all", async () => {
    await page.goto(`${app.server.url}/#/contacts`);
    await page.getByRole('button', { name: 'Edit Ångström Design GmbH' }).click();
    const form = page.getByRole('form', { name: 'Edit Ångström Design GmbH' });
    await form.getByLabel('Address').fill('Friedrichstraße 12\n10117 Berlin');
    await form.getByLabel('Country').selectOption({ label: 'Germany' });
    await form.getByLabel('VAT number').fill('DE123456789');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved Ångström Design GmbH.').waitFor();
    await page.getByRole('row', { name: /Ångström Design GmbH.*Friedrichstraße 12, 10117 Berlin, Germany.*DE123456789/ }).waitFor();
    expect(await L.requireContactRow(books, org.seq, 'Ångström Design GmbH')).toMatchObject({ country: 'DE', tax_number: 'DE123456789' });
    await page.screenshot({ path: join(SCREENSHOTS, 'contacts-edit.png'), fullPage: true });

    await L.createDocument(
      books,
      org.seq,
      L.deskActor(),
      { contact: 'Ångström Design GmbH', date: '2026-08-10', lines: [{ description: 'Brand consultancy', quantity: 3, unitPrice: 1200, categoryCode: '4000', taxCode: 'NV' }] },
      { kind: 'invoice', issue: true },
    );
    const file = join(tempDir(), 'invoice.pdf');
    writeFileSync(file, await L.documentPdf(books, org.seq, await L.requireDocument(books, org.seq, ['invoice'], 'INV-0045')));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const expected of [
      'Invoice number INV-0045',
      'Date of issue 10/08/2026',
      'VAT reg. no. GB123456789',
      'Friedrichstraße 12',
      'Germany',
      'VAT no. DE123456789',
      "Customer's VAT number: DE123456789",
      'IBAN GB33 BUKB 2020 1555 5555 55',
      'Registered in England and Wales, no. 01234567',
    ])
      expect(text).toContain(expected);
    expect(execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })).toMatch(/\n\s*1\s+0\s+image\s+300\s+100/);
  });
});

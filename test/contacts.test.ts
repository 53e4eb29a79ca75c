// Contacts (issue 29, first part): the seed counterparties are vendors; a
// person adds customers and vendors (one can be both) with their details,
// checked; archived, not deleted; every change audited; the same through
// the owner commands (an existing file's counterparties become vendors: ledger-open.test).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';
import { booksFlags } from './support/books';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'studio', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

describe('contacts', () => {
  it('starts with the seed counterparties as vendors', async () => {
    const vendors = await desk<L.Contact[]>('listContacts', { role: 'vendor' });
    expect(vendors.length).toBeGreaterThan(3);
    expect(vendors.every((c) => c.vendor && !c.customer)).toBe(true);
    expect(await desk('listContacts', { role: 'customer' })).toEqual([]);
  });

  it('adds a customer with its details, checks them, edits one into both roles, archives and restores', async () => {
    await L.setupTaxSet(ctx.ledger, org.seq, L.deskActor(), 'uk-vat');
    const made = await desk<L.Contact>('addContact', {
      name: 'Ångström Café Ltd',
      customer: true,
      email: 'accounts@angstrom.example',
      address: '1 Rue de la Paix, Paris',
      taxNumber: 'FR12345678901',
      termsDays: 30,
      categoryCode: '4000',
      taxCode: 's',
    });
    expect(made).toMatchObject({ name: 'Ångström Café Ltd', customer: true, vendor: false, termsDays: 30, categoryCode: '4000', taxCode: 'S', archived: false });
    await expect(desk('addContact', { name: 'Nobody' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'customer', message: expect.any(String) }] });
    await expect(desk('addContact', { name: 'Bad', customer: true, email: 'not-an-email' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'email', message: '"not-an-email" is not an email address' }],
    });
    await expect(desk('addContact', { name: 'ångström café ltd', vendor: true })).rejects.toMatchObject({ code: 'conflict' });
    const both = await desk<L.Contact>('updateContact', { contact: 'ÅNGSTRÖM CAFÉ LTD', vendor: true });
    expect([both.customer, both.vendor, both.email]).toEqual([true, true, 'accounts@angstrom.example']);
    await desk('archiveContact', { contact: made.id });
    expect((await desk<L.Contact[]>('listContacts', { role: 'customer' })).map((c) => c.name)).toEqual([]);
    expect((await desk<L.Contact[]>('listContacts', { role: 'customer', archived: true })).map((c) => c.archived)).toEqual([true]);
    await desk('restoreContact', { contact: made.id });
    const log = (await L.listAudit(ctx.ledger, org.seq, { limit: 10, offset: 0 })).entries.map((e) => e.action);
    expect(log).toEqual(expect.arrayContaining(['contact.created', 'contact.updated', 'contact.archived', 'contact.restored']));
  });

  it('works from the command line', () => {
    const data = tempDir();
    const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { encoding: 'utf8', timeout: 60_000 });
    const added = run('contact', 'add', 'Globex', '--kind', 'customer', '--terms', '14', '--email', 'ap@globex.example');
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Added Globex\s+customer\s+14 days {2}ap@globex\.example {2}[0-9a-f-]{36}\n$/);
    const list = JSON.parse(run('contact', 'list', '--role', 'customer', '--json').stdout);
    expect(list.map((c: L.Contact) => [c.name, c.termsDays])).toEqual([['Globex', 14]]);
    expect(run('contact', 'archive', 'globex').stdout).toBe('Archived Globex.\n');
  });
});

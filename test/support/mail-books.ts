// The mail tests' books: a real SMTP server (./smtp.ts) whose certificate the sender trusts, and new books of one
// UK organization (Łódź, GBP, UK VAT) reached through the desk's operations as a person at the desk.
import type { DeskContext } from '../../src/main/desk/operations';
import * as L from '../../src/main/ledger';
import { tempLedger } from './env';
import { envUntilFileEnd } from './file-end';
import { SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './smtp';

export interface MailBooks {
  smtp: TestSmtp;
  dir: string;
  org: L.Organization;
  ctx: DeskContext;
}

/** The server and the books are closed, and the variable put back, after the file's tests (file-end.ts). */
export async function mailBooks(): Promise<MailBooks> {
  const smtp = await smtpServer();
  envUntilFileEnd('LEDGERDESK_MAIL_CA_FILE', smtp.certFile);
  const t = await tempLedger();
  const org = await L.createOrganization(t.ledger, { slug: 'lodz', name: 'Łódź Sp. z o.o.', currency: 'GBP' });
  const ctx: DeskContext = { ledger: t.ledger, dataDir: t.dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(t.ledger, org.seq, L.deskActor(), 'uk-vat');
  return { smtp, dir: t.dir, org, ctx };
}

/** setMailSettings' input for the test server, with changes. */
export const mailSettingsFor = (smtp: TestSmtp, changes: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: smtp.port,
  tls: 'starttls',
  user: SMTP_USER,
  password: SMTP_PASSWORD,
  from: 'books@lodz.example',
  ...changes,
});

// The mail and reminders commands (issue 53), run as child processes on the
// books of a folder (or its database): `mail set --password-stdin`, `mail
// show` (never the password), `mail test`, `invoice send --copy-me`, its
// twin `quote send --copy-me`,
// `reminders set` and `reminders run --dry-run --as-of`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { booksFlags } from './support/books';
import { deskAs } from './support/desk';
import { mailBooks } from './support/mail-books';
import { SMTP_PASSWORD, SMTP_USER, type TestSmtp } from './support/smtp';

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
let dir: string;
let smtp: TestSmtp;
let number: string;
let quote: string;

/** A command as a child process, awaited (never spawnSync: the SMTP server answers from this process's event loop). */
function ledgerdesk(args: string[], input = ''): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, '--org', 'lodz', ...booksFlags(dir)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let [out, err] = ['', ''];
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end(input);
  });
}

beforeAll(async () => {
  const books = await mailBooks();
  ({ smtp, dir } = books);
  const { org, ctx } = books;
  await deskAs(ctx, org.id, 'addContact', { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example' });
  number = (
    await deskAs<L.Document>(ctx, org.id, 'createInvoice', { customer: 'Zoë Brontë', date: '2026-04-01', dueDate: '2026-04-15', lines: ['Work;1;100.00;4000;S'], issue: true })
  ).number;
  // Valid until far ahead: a quote's expiry is read against today's clock.
  quote = (await deskAs<L.Quote>(ctx, org.id, 'createQuote', { customer: 'Zoë Brontë', date: '2026-04-01', expiryDate: '2099-12-31', lines: ['Work;1;100.00;4000;S'] })).number;
});

describe('mail commands', () => {
  it('mail set takes the password on standard input and no command prints it', async () => {
    const set = await ledgerdesk(
      [
        'mail',
        'set',
        '--host',
        '127.0.0.1',
        '--port',
        String(smtp.port),
        '--tls',
        'starttls',
        '--user',
        SMTP_USER,
        '--password-stdin',
        '--from',
        'books@lodz.example',
        '--reply-to',
        'accounts@lodz.example',
      ],
      `${SMTP_PASSWORD}\n`,
    );
    expect(set.status, set.err).toBe(0);
    expect(set.out).toContain(`SMTP 127.0.0.1:${smtp.port} (starttls), signing in as ${SMTP_USER} with a password`);
    const shown = await ledgerdesk(['mail', 'show', '--json']);
    expect(JSON.parse(shown.out)).toMatchObject({ passwordSet: true, replyTo: 'accounts@lodz.example' });
    expect(set.out + set.err + shown.out + shown.err).not.toContain(SMTP_PASSWORD);
  });

  it('mail test and invoice send --copy-me go through the server', async () => {
    const tested = await ledgerdesk(['mail', 'test', '--to', 'zoe@bronte.example']);
    expect(tested.status, tested.err).toBe(0);
    expect(smtp.received.at(-1)!.parsed.subject).toBe('Ledgerdesk test message');
    const sent = await ledgerdesk(['invoice', 'send', number, '--copy-me']);
    expect(sent.status, sent.err).toBe(0);
    const got = smtp.received.at(-1)!;
    expect(sent.out).toContain(`Sent to zoe@bronte.example (a copy to books@lodz.example)`);
    expect(sent.out).toContain(got.parsed.messageId);
    expect(got.rcpt.sort()).toEqual(['books@lodz.example', 'zoe@bronte.example']);
    expect(got.parsed.attachments[0].filename).toBe(`${number}.pdf`);
  });

  it("quote send --copy-me, invoice send's twin, mails a quote and marks it sent", async () => {
    const sent = await ledgerdesk(['quote', 'send', quote, '--copy-me']);
    expect(sent.status, sent.err).toBe(0);
    const got = smtp.received.at(-1)!;
    expect(sent.out).toContain(`Sent to zoe@bronte.example (a copy to books@lodz.example)`);
    expect(got.parsed.subject).toBe(`Quote ${quote} from Łódź Sp. z o.o.`);
    expect(got.parsed.attachments[0].filename).toBe(`${quote}.pdf`);
    const listed = await ledgerdesk(['quote', 'list', '--status', 'sent']);
    expect(listed.out).toContain(quote);
  });

  it('a refused send exits 1 saying why', async () => {
    const refused = await ledgerdesk(['invoice', 'send', number, '--to', 'someone@refused.example']);
    expect(refused.status).toBe(1);
    expect(refused.err).toContain('refused the recipient someone@refused.example');
  });

  it('reminders set and run --dry-run --as-of list what would go and send nothing', async () => {
    const set = await ledgerdesk(['reminders', 'set', '--days', '-3,0,7']);
    expect(set.status, set.err).toBe(0);
    expect(set.out).toContain('Reminders: 3 days before due, on the due day, 7 days late');
    const before = smtp.received.length;
    const dry = await ledgerdesk(['reminders', 'run', '--as-of', '2026-04-12', '--dry-run']);
    expect(dry.status, dry.err).toBe(0);
    expect(dry.out).toContain('Due on 2026-04-12 (nothing sent):');
    expect(dry.out).toContain(number);
    expect(smtp.received.length).toBe(before);
    const run = await ledgerdesk(['reminders', 'run', '--as-of', '2026-04-12']);
    expect(run.status, run.err).toBe(0);
    expect(run.out).toContain(`Sent ${number} (3 days before due) to zoe@bronte.example`);
    expect(smtp.received.length).toBe(before + 1);
  });
});

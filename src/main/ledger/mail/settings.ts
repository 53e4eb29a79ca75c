// An organization's outgoing mail settings (issue 53): its SMTP server, how it
// is reached (STARTTLS, TLS from the start, or neither), the sign-in, and who
// messages are from. The password is sealed for its row (core/secrets) and
// never leaves the domain but to the transport: what is answered says only
// whether one is kept.
import { appendAudit, type Human } from '../access/audit';
import { newId, nowIso } from '../core/clock';
import { invalid, LedgerError, type FieldIssue } from '../core/errors';
import { openSecretOrAsk, sealSecret } from '../core/secrets/sealed';
import type { Ledger } from '../core/storage';
import { MAIL_TLS_MODES, type MailTlsMode } from '../../../../db/values';

export interface MailSettings {
  host: string;
  port: number;
  tls: MailTlsMode;
  user: string | null;
  /** Whether a password is kept (it is never answered). */
  passwordSet: boolean;
  from: string;
  replyTo: string | null;
  updatedAt: string;
}

/** What the transport needs: the settings with the password opened. Never answered, logged or audited. */
export interface MailServer extends Omit<MailSettings, 'passwordSet' | 'updatedAt'> {
  password: string | null;
}

export interface MailSettingsInput {
  host: string;
  port: number;
  tls: MailTlsMode;
  user?: string | null;
  /** Absent: the one kept stays; null: none. */
  password?: string | null;
  from: string;
  replyTo?: string | null;
}

interface Row {
  seq: number;
  id: string;
  host: string;
  port: number;
  tls: MailTlsMode;
  username: string | null;
  password: string | null;
  from_address: string;
  reply_to: string | null;
  updated_at: string;
}

/** An address as a person writes it, or with a display name: "Hartley Studio <billing@hartley.example>". */
export const ADDRESS = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;

/** Addresses checked, each named where it is not one. */
export function checkAddresses(field: string, addresses: string[]): string[] {
  const list = addresses.map((a) => a.trim()).filter(Boolean);
  const bad = list.filter((a) => !ADDRESS.test(a));
  if (bad.length) throw invalid(bad.map((a) => ({ field, message: `"${a}" is not an email address` })));
  return list;
}

/** A message as it goes: who it is to, the copy, the subject and the body. */
export interface Addressed {
  to: string[];
  copyTo: string | null;
  subject: string;
  body: string;
}

/**
 * A composed message with what the person changed: the recipients given (else the customer's), checked; the copy; the
 * subject (not empty) and body given (else the filled wording). One check for a document, a statement and a proposal.
 */
export function addressed(
  m: { to: string[]; customer: string; subject: string; body: string },
  given: { to?: string[]; copyTo?: string | null; subject?: string; body?: string },
): Addressed {
  const to = checkAddresses('to', given.to ?? m.to);
  if (!to.length) throw invalid([{ field: 'to', message: `${m.customer} has no email address: name whom to send it to` }]);
  const copyTo = given.copyTo ? checkAddresses('copyTo', [given.copyTo])[0] : null;
  const subject = (given.subject ?? m.subject).trim();
  if (!subject) throw invalid([{ field: 'subject', message: 'is empty' }]);
  return { to, copyTo, subject, body: given.body ?? m.body };
}
const HOST = /^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/;

const settingsRow = async (ledger: Ledger, orgSeq: number): Promise<Row | undefined> =>
  (await ledger.stmt('SELECT * FROM mail_settings WHERE org_seq = ?').get(orgSeq)) as Row | undefined;

const toSettings = (r: Row): MailSettings => ({
  host: r.host,
  port: Number(r.port),
  tls: r.tls,
  user: r.username,
  passwordSet: r.password !== null,
  from: r.from_address,
  replyTo: r.reply_to,
  updatedAt: r.updated_at,
});

/** The organization's mail settings, or null when none are kept. */
export async function mailSettings(ledger: Ledger, orgSeq: number): Promise<MailSettings | null> {
  const row = await settingsRow(ledger, orgSeq);
  return row ? toSettings(row) : null;
}

/** The server to send through, the password opened; refused, saying what to do, when none is set up. */
export async function mailServer(ledger: Ledger, orgSeq: number): Promise<MailServer> {
  const row = await settingsRow(ledger, orgSeq);
  if (!row)
    throw new LedgerError('conflict', 'This organization has no mail settings yet: set its SMTP server first (Mail settings, or `ledgerdesk mail set`).', {
      reason: 'no_mail_settings',
    });
  const { passwordSet: _, updatedAt: __, ...rest } = toSettings(row);
  const reenter = 'Enter the password again (Mail settings, or `ledgerdesk mail set --password-stdin`).';
  return { ...rest, password: row.password === null ? null : openSecretOrAsk(ledger, 'mail', row.id, row.password, 'The mail password', reenter) };
}

function checked(input: MailSettingsInput): FieldIssue[] {
  return [
    !HOST.test(input.host.trim()) && { field: 'host', message: `"${input.host}" is not a host name or address` },
    !(Number.isInteger(input.port) && input.port >= 1 && input.port <= 65535) && { field: 'port', message: 'is a port number, 1 to 65535' },
    !MAIL_TLS_MODES.includes(input.tls) && { field: 'tls', message: `is one of ${MAIL_TLS_MODES.join(', ')}` },
    !ADDRESS.test(input.from.trim()) && { field: 'from', message: `"${input.from}" is not an email address` },
    input.replyTo && !ADDRESS.test(input.replyTo.trim()) && { field: 'replyTo', message: `"${input.replyTo}" is not an email address` },
    input.password && !input.user?.trim() && { field: 'user', message: 'is needed with a password' },
  ].filter((i): i is FieldIssue => Boolean(i));
}

/** Keeps the organization's mail settings (the password sealed for the row), audited without the password. */
export async function setMailSettings(ledger: Ledger, orgSeq: number, actor: Human, input: MailSettingsInput): Promise<MailSettings> {
  const issues = checked(input);
  if (issues.length) throw invalid(issues);
  return ledger.write(async () => {
    const was = await settingsRow(ledger, orgSeq);
    const id = was?.id ?? newId();
    const password =
      input.password === undefined ? (was?.password ?? null) : input.password === null || input.password === '' ? null : sealSecret(ledger, 'mail', id, input.password);
    const values = [input.host.trim(), input.port, input.tls, input.user?.trim() || null, password, input.from.trim(), input.replyTo?.trim() || null, nowIso()];
    if (was)
      await ledger
        .stmt('UPDATE mail_settings SET host = ?, port = ?, tls = ?, username = ?, password = ?, from_address = ?, reply_to = ?, updated_at = ? WHERE seq = ?')
        .run(...values, was.seq);
    else
      await ledger
        .stmt('INSERT INTO mail_settings (id, org_seq, host, port, tls, username, password, from_address, reply_to, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, orgSeq, ...values);
    const saved = toSettings((await settingsRow(ledger, orgSeq))!);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'mail.settings',
      targetType: 'organization',
      targetId: id,
      summary: `Mail through ${saved.host}:${saved.port} (${saved.tls}) from ${saved.from}${saved.user ? ` as ${saved.user}` : ''}${saved.passwordSet ? ', with a password' : ''}`,
    });
    return saved;
  });
}

// The one place a message leaves (issue 53): nodemailer to the organization's
// SMTP server, with a timeout on each step, the server's certificate checked
// (against the system's authorities, and those in LEDGERDESK_MAIL_CA_FILE for
// a firm's own), and every failure told in words as a `mail_failed` error whose
// details name the reason. Nothing here writes the books; the password is
// handed to nodemailer and to nothing else (no error, log or answer has it).
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { mailServer, type Addressed, type MailServer } from '../ledger/mail/settings';
import type { Ledger } from '../ledger/core/storage';
import { LedgerError } from '../ledger/core/errors';

export interface Outgoing {
  to: string[];
  /** A copy to the sender, on request. */
  cc?: string | null;
  subject: string;
  text: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Delivered {
  messageId: string;
  /** The server's reply accepting it ("250 OK: queued as ..."). */
  response: string;
  accepted: string[];
  rejected: string[];
}

export type MailFailure = 'sign_in_refused' | 'recipient_refused' | 'timeout' | 'certificate' | 'connection' | 'refused';

/** Each step's limit: connecting, the greeting, and silence on the socket (LEDGERDESK_MAIL_TIMEOUT_MS, default 20 s). */
const timeoutMs = (): number => Number(process.env.LEDGERDESK_MAIL_TIMEOUT_MS) || 20_000;

/** The system's authorities and a firm's own, when it names a file of them. */
function authorities(): (string | Buffer)[] | undefined {
  const file = process.env.LEDGERDESK_MAIL_CA_FILE;
  return file ? [...rootCertificates, readFileSync(file)] : undefined;
}

const CERTIFICATE = /certificate|self.signed|unable to verify|CERT_|hostname\/IP does not match/i;

/** A nodemailer error in words, the server's own reply quoted (never the command sent: it may carry the sign-in). */
export function mailError(server: Pick<MailServer, 'host' | 'port'>, error: unknown): LedgerError {
  const e = error as Error & { code?: string; response?: string; responseCode?: number; rejected?: string[] };
  const at = `${server.host}:${server.port}`;
  const said = e.response ? ` It said: "${e.response.trim().slice(0, 300)}".` : '';
  const fail = (reason: MailFailure, message: string) =>
    new LedgerError('mail_failed', message, { reason, server: at, ...(e.responseCode ? { responseCode: e.responseCode } : {}) });
  if (e.code === 'EAUTH') return fail('sign_in_refused', `The mail server ${at} refused the sign-in: check the user and password in the mail settings.${said}`);
  if (e.code === 'EENVELOPE' && e.rejected?.length) return fail('recipient_refused', `The mail server ${at} refused the recipient ${e.rejected.join(', ')}.${said}`);
  if (e.code === 'EENVELOPE') return fail('refused', `The mail server ${at} refused the message's sender or recipients.${said}`);
  if (CERTIFICATE.test(e.message))
    return fail(
      'certificate',
      `The mail server ${at}'s certificate does not verify (${e.message.replace(/^.*?: /, '')}): the message was not sent. Check the host name, or give its authority in LEDGERDESK_MAIL_CA_FILE.`,
    );
  if (e.code === 'ETIMEDOUT') return fail('timeout', `The mail server ${at} did not answer in time: the message was not sent.`);
  if (e.code === 'EMESSAGE' || e.responseCode) return fail('refused', `The mail server ${at} refused the message.${said}`);
  return fail('connection', `The connection to the mail server ${at} failed or was dropped before the message was accepted (${e.message}): the message was not sent.`);
}

type Transport = ReturnType<typeof import('nodemailer').createTransport>;
/** A pass's connections, one per mail server (keepingConnections). */
const kept = new AsyncLocalStorage<Map<string, Transport>>();

/**
 * Runs a pass that sends many messages (repeating invoices, reminders) over one connection per mail server, closed
 * when it ends: a new connection per message costs a TCP and TLS handshake and a sign-in each, and most of the time.
 */
export async function keepingConnections<T>(run: () => Promise<T>): Promise<T> {
  const transports = new Map<string, Transport>();
  try {
    return await kept.run(transports, run);
  } finally {
    for (const t of transports.values()) t.close();
  }
}

/**
 * The connection to the server, opened here (nodemailer's getSocket) to turn Nagle's algorithm off: a message's last
 * line (".") written after its body otherwise waited for the server's delayed acknowledgement, about 40 ms a message,
 * most of a pass's sending. nodemailer then speaks SMTP over it as over its own (TLS from the start, STARTTLS, AUTH).
 */
type Connected = (error: Error | null, socket?: { connection: Socket }) => void;

function openConnection(server: MailServer, callback: Connected): void {
  const socket = connect({ host: server.host, port: server.port, noDelay: true, keepAlive: true });
  const failed = (error: Error) => {
    socket.destroy();
    callback(error);
  };
  const timedOut = () => failed(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' }));
  socket.setTimeout(timeoutMs(), timedOut);
  socket.once('error', failed);
  socket.once('connect', () => {
    socket.setTimeout(0);
    socket.off('timeout', timedOut);
    socket.off('error', failed);
    callback(null, { connection: socket });
  });
}

async function transportFor(server: MailServer): Promise<{ transport: Transport; own: boolean }> {
  const pass = kept.getStore();
  const key = [server.host, server.port, server.tls, server.user ?? ''].join('\u0000');
  const held = pass?.get(key);
  if (held) return { transport: held, own: false };
  // nodemailer is CommonJS: its exports are the module's default (named ones are not found once bundled).
  const { createTransport } = (await import('nodemailer')).default;
  const ca = authorities();
  const transport = createTransport({
    // In a pass: one connection kept open and reused, message after message.
    ...(pass ? { pool: true as const, maxConnections: 1 } : {}),
    host: server.host,
    port: server.port,
    secure: server.tls === 'tls',
    requireTLS: server.tls === 'starttls',
    ignoreTLS: server.tls === 'none',
    auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
    connectionTimeout: timeoutMs(),
    greetingTimeout: timeoutMs(),
    socketTimeout: timeoutMs(),
    tls: ca ? { ca } : {},
    logger: false,
    getSocket: (_options: unknown, callback: Connected) => openConnection(server, callback),
  });
  pass?.set(key, transport);
  return { transport, own: !pass };
}

/** Sends one message through the organization's server; a `mail_failed` LedgerError in words when it is not accepted. */
export async function deliver(server: MailServer, message: Outgoing): Promise<Delivered> {
  const { transport, own } = await transportFor(server);
  try {
    const info = await transport.sendMail({
      from: server.from,
      ...(server.replyTo ? { replyTo: server.replyTo } : {}),
      to: message.to,
      ...(message.cc ? { cc: message.cc } : {}),
      subject: message.subject,
      text: message.text,
      attachments: message.attachments,
    });
    const list = (a: unknown) => ((a as (string | { address: string })[] | undefined) ?? []).map((x) => (typeof x === 'string' ? x : x.address));
    return { messageId: info.messageId, response: info.response, accepted: list(info.accepted), rejected: list(info.rejected) };
  } catch (error) {
    throw mailError(server, error);
  } finally {
    if (own) transport.close();
  }
}

/** What the record of a message sent keeps of it: whom the server took it for, the copy, the words, the attachment, its id and reply. */
export interface Sent {
  to: string[];
  copyTo: string | null;
  subject: string;
  body: string;
  attachment: string;
  messageId: string;
  serverReply: string;
}

/** A message with its PDF through the organization's server (the PDF made once the server's settings are found); what its record keeps. */
export async function deliverWithPdf(ledger: Ledger, orgSeq: number, a: Addressed, attachment: string, pdf: () => Promise<Buffer>): Promise<Sent> {
  const server = await mailServer(ledger, orgSeq);
  const content = await pdf();
  const sent = await deliver(server, {
    to: a.to,
    cc: a.copyTo,
    subject: a.subject,
    text: a.body,
    attachments: [{ filename: attachment, content, contentType: 'application/pdf' }],
  });
  return { ...a, to: a.to.filter((x) => !sent.rejected.includes(x)), attachment, messageId: sent.messageId, serverReply: sent.response };
}

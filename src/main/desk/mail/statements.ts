// A customer's statement of account at the desk and as an owner command (issue
// 53): `ledgerdesk statement <customer> [--from D] [--to D] [--pdf FILE]
// [--send [--send-to ADDR]]`, and the Contacts screen's "Statement" (the
// figures, its PDF, the message filled for the person to edit, and send). One
// operation shows, writes and sends it: anyone who reads the reports reads a
// statement; sending it is for a bookkeeper and up, as sending an invoice.
import { writeFileSync } from 'node:fs';
import * as z from 'zod';
import { DateString, Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { contactMessages, type SentMessage } from '../../ledger/mail/messages';
import { composeStatement } from '../../ledger/mail/statement';
import { statementPdf } from '../../ledger/documents/pdf/statement';
import { sendStatement } from '../../mail/statement';
import { op, Org, orgSeq, type DeskContext } from '../operation';
import { ANYONE, KEEPERS } from '../roles';
import { Address, senderAddress } from './mail';

const Period = {
  customer: Line(200).trim().min(1).describe('The customer: its name or id'),
  from: DateString.optional().describe("The period's first day (default: the first of the month of --to)"),
  to: DateString.optional().describe("The period's last day, the statement's date (default today)"),
  currency: Line(3).trim().min(3).optional().describe("Only this currency (default: each the customer is invoiced or pays in, the organization's first)"),
};

const money = (n: number) => n.toFixed(2);

function statementText(s: L.StatementOfAccount): string[] {
  return [
    `Statement of account of ${s.customer.name}, ${s.from} to ${s.to}`,
    ...s.currencies.flatMap((c) => [
      `In ${c.currency}:`,
      `${c.from}  Balance brought forward${money(c.opening).padStart(44)}`,
      ...c.lines.map((l) => `${l.date}  ${l.what.slice(0, 46).padEnd(46)} ${money(l.amount).padStart(12)} ${money(l.balance).padStart(12)}`),
      `${c.to}  Balance owed${money(c.closing).padStart(57)}`,
      `  Aged: current ${money(c.aging.current)}, 1-30 ${money(c.aging.days1to30)}, 31-60 ${money(c.aging.days31to60)}, 61-90 ${money(c.aging.days61to90)}, over 90 ${money(c.aging.over90)}${c.aging.credit ? `, credit ${money(c.aging.credit)}` : ''}`,
    ]),
  ];
}

const sentText = (m: SentMessage) => `Sent to ${m.to.join(', ')}${m.copyTo ? ` (a copy to ${m.copyTo})` : ''} at ${m.sentAt}: ${m.messageId}`;

/** Sending is a bookkeeper's and up (the machine's owner always may): the statement itself anyone reads. */
function maySend(ctx: DeskContext): void {
  if (ctx.person && !(ctx.role && KEEPERS.includes(ctx.role)))
    throw new L.LedgerError('forbidden', `As ${ctx.role ?? 'no member'} you may read a statement of account but not send it: that is for ${KEEPERS.join(', ')}.`, {
      operation: 'statementOfAccount',
      reason: 'send',
      role: ctx.role ?? null,
      allowed: KEEPERS,
    });
}

export const statementOperations = {
  statementOfAccount: op(
    ANYONE,
    z.strictObject({
      ...Org,
      ...Period,
      pdf: Line(1000).trim().min(1).optional().describe('(owner commands) write its PDF to this file'),
      send: z.boolean().optional().describe("Send it by mail with its PDF, to the customer's address (or --send-to)"),
      sendTo: z.array(Address).max(20).optional().describe("With send: whom to send it to (default: the customer's address)"),
      subject: Line(300).optional().describe("With send: the subject (default: the organization's statement wording, filled)"),
      body: Prose(20_000).optional().describe("With send: the message (default: the organization's statement wording, filled)"),
      copyMe: z.boolean().optional().describe('With send: a copy to the sender'),
    }),
    async (ctx, { orgId, customer, from, to, currency, pdf, send, sendTo, subject, body, copyMe }) => {
      if (pdf && ctx.mode !== 'command') throw L.invalid([{ field: 'pdf', message: 'only an owner command writes to a path of its choosing' }]);
      if (!send && (sendTo || subject !== undefined || body !== undefined || copyMe))
        throw L.invalid([{ field: 'send', message: 'is needed for sendTo, subject, body and copyMe (they say how it is sent)' }]);
      if (send) maySend(ctx);
      const seq = await orgSeq(ctx, orgId);
      const period = { from, to, currency };
      const copyTo = copyMe ? await senderAddress(ctx, seq) : null;
      const sent = send ? await sendStatement(ctx.ledger, seq, ctx.reviewer, { customer, ...period, recipients: sendTo, subject, body, copyTo }) : null;
      const statement = sent?.statement ?? (await L.statementOfAccount(ctx.ledger, seq, customer, period));
      let written: { out: string; bytes: number } | null = null;
      if (pdf) {
        const bytes = await statementPdf(ctx.ledger, seq, statement);
        writeFileSync(pdf, bytes);
        written = { out: pdf, bytes: bytes.length };
      }
      return { statement, pdf: written, sent: sent?.message ?? null };
    },
    {
      name: 'statement',
      summary: "a customer's statement of account for a period (--pdf FILE writes its PDF, --send mails it)",
      args: ['customer'],
      print: (r) => [...statementText(r.statement), ...(r.pdf ? [`Wrote ${r.pdf.out} (${r.pdf.bytes} bytes).`] : []), ...(r.sent ? [sentText(r.sent)] : [])],
    },
  ),
  /** The Contacts screen's preview and download. */
  statementPdfBytes: op(ANYONE, z.strictObject({ ...Org, ...Period }), async (ctx, { orgId, customer, ...period }) => {
    const seq = await orgSeq(ctx, orgId);
    const statement = await L.statementOfAccount(ctx.ledger, seq, customer, period);
    return { fileName: `Statement ${statement.to}.pdf`, mimeType: 'application/pdf', base64: (await statementPdf(ctx.ledger, seq, statement)).toString('base64') };
  }),
  /** The Send form: the message as it would go, for the person to edit, and the statements the customer was sent. */
  composeStatement: op(KEEPERS, z.strictObject({ ...Org, ...Period }), async (ctx, { orgId, customer, ...period }) => {
    const seq = await orgSeq(ctx, orgId);
    const { statement, ...composed } = await composeStatement(ctx.ledger, seq, customer, period);
    const contact = await L.requireContactRow(ctx.ledger, seq, statement.customer.id);
    return { ...composed, copyTo: await senderAddress(ctx, seq), messages: await contactMessages(ctx.ledger, seq, contact.seq, 'statement') };
  }),
};

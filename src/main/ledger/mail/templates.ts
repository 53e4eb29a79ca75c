// The wording of a message (issue 53): a subject and a body per kind of
// message, with placeholders filled from the document: {number},
// {amountDue}, {dueDate}, {paymentLink}, {organization}, {customer} (and a
// reminder's {daysLate}). An organization keeps its own wording per kind; the
// defaults below stand until it does. A line whose placeholders are all empty
// is left out, so "Pay online: {paymentLink}" disappears where there is no link.
import { appendAudit, type Human } from '../access/audit';
import { nowIso } from '../core/clock';
import { invalid } from '../core/errors';
import type { Ledger } from '../core/storage';

export const PLACEHOLDERS = ['number', 'amountDue', 'dueDate', 'paymentLink', 'organization', 'customer', 'daysLate'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type Filling = Partial<Record<Placeholder, string>>;

export interface MailTemplate {
  subject: string;
  body: string;
}

/** The kinds of message with a template of their own: one entry each (a quote's {amountDue} is its total, {dueDate} its expiry). */
export const DEFAULT_TEMPLATES = {
  invoice: {
    subject: 'Invoice {number} from {organization}',
    body: 'Dear {customer},\n\nPlease find attached invoice {number} for {amountDue}, due on {dueDate}.\nPay online: {paymentLink}\n\nKind regards,\n{organization}',
  },
  credit_note: {
    subject: 'Credit note {number} from {organization}',
    body: 'Dear {customer},\n\nPlease find attached credit note {number} for {amountDue}.\n\nKind regards,\n{organization}',
  },
  quote: {
    subject: 'Quote {number} from {organization}',
    body: 'Dear {customer},\n\nPlease find attached quote {number} for {amountDue}, valid until {dueDate}.\n\nKind regards,\n{organization}',
  },
  statement: {
    subject: 'Statement of account from {organization}',
    body: 'Dear {customer},\n\nPlease find attached your statement of account to {dueDate}: {amountDue} is owed.\n\nKind regards,\n{organization}',
  },
} satisfies Record<string, MailTemplate>;

export type TemplateKind = keyof typeof DEFAULT_TEMPLATES;
export const TEMPLATE_KINDS = Object.keys(DEFAULT_TEMPLATES) as TemplateKind[];

/** A reminder step's default wording: before, on or after the due day. */
export function defaultReminder(days: number): MailTemplate {
  const when = days < 0 ? 'is due on {dueDate}' : days === 0 ? 'is due today' : 'was due on {dueDate} and is {daysLate} days late';
  return {
    subject: days > 0 ? 'Overdue: invoice {number} from {organization}' : 'Reminder: invoice {number} from {organization}',
    body: `Dear {customer},\n\nA reminder that invoice {number} for {amountDue} ${when}.\nPay online: {paymentLink}\n\nIf you have paid it already, thank you, and please ignore this message.\n\nKind regards,\n{organization}`,
  };
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Text with its placeholders filled; a line whose placeholders are all empty is left out; unknown ones stay as written. */
export function fill(text: string, values: Filling): string {
  return text
    .split('\n')
    .filter((line) => {
      const names = [...line.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((n): n is Placeholder => (PLACEHOLDERS as readonly string[]).includes(n));
      return names.length === 0 || names.some((n) => values[n]);
    })
    .map((line) => line.replace(PLACEHOLDER, (whole, name: string) => ((PLACEHOLDERS as readonly string[]).includes(name) ? (values[name as Placeholder] ?? '') : whole)))
    .join('\n');
}

export const fillTemplate = (t: MailTemplate, values: Filling): MailTemplate => ({ subject: fill(t.subject, values).replace(/\s+/g, ' ').trim(), body: fill(t.body, values) });

/** The organization's wording of a kind, else the default. */
export async function mailTemplate(ledger: Ledger, orgSeq: number, kind: TemplateKind): Promise<MailTemplate> {
  const own = (await ledger.stmt('SELECT subject, body FROM mail_templates WHERE org_seq = ? AND kind = ?').get(orgSeq, kind)) as MailTemplate | undefined;
  return own ?? DEFAULT_TEMPLATES[kind];
}

export async function mailTemplates(ledger: Ledger, orgSeq: number): Promise<Record<TemplateKind, MailTemplate & { own: boolean }>> {
  const own = await ledger.rows<MailTemplate & { kind: TemplateKind }>('SELECT kind, subject, body FROM mail_templates WHERE org_seq = ?', orgSeq);
  return Object.fromEntries(
    TEMPLATE_KINDS.map((k) => {
      const o = own.find((t) => t.kind === k);
      return [k, { ...(o ? { subject: o.subject, body: o.body } : DEFAULT_TEMPLATES[k]), own: Boolean(o) }];
    }),
  ) as Record<TemplateKind, MailTemplate & { own: boolean }>;
}

/** Keeps an organization's wording of a kind (null: back to the default), audited. */
export async function setMailTemplate(ledger: Ledger, orgSeq: number, actor: Human, kind: TemplateKind, template: MailTemplate | null): Promise<MailTemplate> {
  if (template && !template.subject.trim()) throw invalid([{ field: 'subject', message: 'is empty' }]);
  if (template && !template.body.trim()) throw invalid([{ field: 'body', message: 'is empty' }]);
  return ledger.write(async () => {
    await ledger.stmt('DELETE FROM mail_templates WHERE org_seq = ? AND kind = ?').run(orgSeq, kind);
    if (template)
      await ledger
        .stmt('INSERT INTO mail_templates (org_seq, kind, subject, body, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(orgSeq, kind, template.subject.trim(), template.body, nowIso());
    await appendAudit(ledger, orgSeq, actor, {
      action: 'mail.template',
      targetType: 'mail_template',
      targetId: kind,
      summary: template ? `The ${kind.replace('_', ' ')} message now reads "${template.subject.trim()}"` : `The ${kind.replace('_', ' ')} message is the default again`,
    });
    return template ?? DEFAULT_TEMPLATES[kind];
  });
}

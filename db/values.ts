// The values a column may hold, defined once: the schema's enums (schema.ts)
// and the ledger, the API and the screens take them from here. Plain data.
import { ACCOUNT_TYPES } from '../src/shared/accounts';

export { ACCOUNT_TYPES };
export const DECIMAL_MARKS = ['.', ','] as const;
export const CATEGORY_TYPES = ['revenue', 'expense', 'asset', 'liability', 'equity'] as const;
/** A category's part the books give it (issue 50): the retained earnings account, whose balance and the earnings of earlier years are one line. */
export const CATEGORY_ROLES = ['retained_earnings'] as const;
/**
 * What an entry's other line is (the money-account line is the transaction row itself): a category,
 * the suspense line of an uncategorized row, a transfer to another money account of the organization,
 * the tax of a category line (posted to the tax control account), or what a customer owes (receivable)
 * or is owed to a vendor (payable): an invoice's or bill's, or a bank row's part that settles one (issue 29).
 * Issue 43: `opening`, the opening balances' equity (what the opening entry leaves over); `journal`, the
 * clearing between a journal's money-account row and the journal's own posting, which cancel (never reported).
 */
export const LINE_KINDS = ['category', 'suspense', 'transfer', 'tax', 'receivable', 'payable', 'opening', 'journal'] as const;
/** A manual journal, or the organization's one opening entry (issue 43). */
export const JOURNAL_KINDS = ['journal', 'opening'] as const;
/** Invoices and credit notes (ours, to customers) and bills (vendors'), issue 29; quotes (issue 53), which book nothing. */
export const DOCUMENT_KINDS = ['invoice', 'credit_note', 'bill', 'quote'] as const;
/** A quote's life (issue 53): written, sent, then accepted (a draft invoice made from it) or declined; expired is read from its expiry date. */
export const QUOTE_STATUSES = ['draft', 'sent', 'accepted', 'declined'] as const;
/** What a repeating invoice does when due (issue 53): make a draft, issue it, or issue it and flag it to send. */
export const REPEAT_ACTIONS = ['draft', 'issue', 'issue_and_send'] as const;
/** A repeating invoice's period unit. */
export const REPEAT_UNITS = ['week', 'month'] as const;
/**
 * A made invoice's sending (issue 53): to send (the pass sends it), held (more than one period late: the person's word
 * first), sending (taken by a pass, in the mail), sent, failed (the mail server refused it: the reason kept in failure).
 */
export const REPEAT_SENDING = ['to_send', 'held', 'sending', 'sent', 'failed'] as const;
/** Stored states; partly paid, paid and overdue are read from the balance and the due date. */
export const DOCUMENT_STATES = ['draft', 'issued', 'void'] as const;
export const TRANSACTION_STATUSES = ['uncategorized', 'matched', 'receipt_missing', 'agent_suggested', 'reconciled'] as const;
export const TRANSACTION_SOURCES = ['bankfeed', 'paymentproc', 'manual_csv'] as const;
/** How a row came to be: a bank feed (and rows from before accounts), an import, the person's hand, an approved journal entry, a manual journal's money-account line (issue 43). */
export const TRANSACTION_ORIGINS = ['feed', 'import', 'manual', 'agent', 'journal'] as const;
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const PROPOSAL_CHANNELS = ['rest', 'mcp'] as const;
export const RULE_MATCH_KINDS = ['shape', 'contains'] as const;
export const RULE_SIGNS = ['inflow', 'outflow'] as const;
export const RULE_MODES = ['suggest', 'apply'] as const;
export const ACTOR_TYPES = ['token', 'human'] as const;
export const AUDIT_CHANNELS = ['rest', 'mcp', 'desk'] as const;
export const CONNECTOR_STATUSES = ['active', 'paused', 'disconnected'] as const;
export const SYNC_STATUSES = ['ok', 'error', 'stale'] as const;

/** A tax code's kind (issue 28): what the return does with it. */
export const TAX_KINDS = ['standard', 'reduced', 'zero_rated', 'exempt', 'outside_scope', 'reverse_charge'] as const;
/** Which side of the books a tax code is offered on. */
export const TAX_APPLIES = ['sales', 'purchases', 'both'] as const;
/** Where an exchange rate came from (issue 30): typed, the ECB's reference-rate file, a plain rates file, a transfer's two amounts. */
export const RATE_SOURCES = ['hand', 'ecb', 'file', 'transfer'] as const;
/** How an organization's mail reaches its SMTP server (issue 53): STARTTLS on a plain connection, TLS from the start, or neither. */
export const MAIL_TLS_MODES = ['starttls', 'tls', 'none'] as const;

/** What a staged file is (issue 51): a person's upload (counted against the quotas), or an export waiting for its download. */
export const STAGED_KINDS = ['upload', 'export'] as const;
/** A VAT return's submission to HMRC (issue 54): taken before the call, then HMRC's answer. */
export const HMRC_SUBMISSION_STATUSES = ['sending', 'unanswered', 'accepted', 'refused'] as const;

export type CategoryType = (typeof CATEGORY_TYPES)[number];
export type CategoryRole = (typeof CATEGORY_ROLES)[number];
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type TransactionSource = (typeof TRANSACTION_SOURCES)[number];
export type TransactionOrigin = (typeof TRANSACTION_ORIGINS)[number];
export type LineKind = (typeof LINE_KINDS)[number];
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export type TaxKind = (typeof TAX_KINDS)[number];
export type TaxApplies = (typeof TAX_APPLIES)[number];
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export type DocumentState = (typeof DOCUMENT_STATES)[number];
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export type RepeatAction = (typeof REPEAT_ACTIONS)[number];
export type RepeatUnit = (typeof REPEAT_UNITS)[number];
export type RepeatSending = (typeof REPEAT_SENDING)[number];
export type RateSource = (typeof RATE_SOURCES)[number];
export type JournalKind = (typeof JOURNAL_KINDS)[number];
export type StagedKind = (typeof STAGED_KINDS)[number];
export type MailTlsMode = (typeof MAIL_TLS_MODES)[number];

/** What a person may do in an organization (issue 45): ledger/access/roles.ts says it per desk operation. */
export const ROLES = ['owner', 'accountant', 'bookkeeper', 'preparer', 'client'] as const;
/** A person's part in an organization on the Practice screen (issue 55): its responsible bookkeeper, its reviewer. */
export const PRACTICE_PARTS = ['bookkeeper', 'reviewer'] as const;

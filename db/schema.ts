// The ledger's tables. Every row belongs to one organization (org_seq).
// Internal keys are integer `seq` columns (compact indexes, stable ordering);
// the API only ever sees the uuid `id` columns. Money is integer minor units.
import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  ACCOUNT_TYPES,
  ACTOR_TYPES,
  DOCUMENT_KINDS,
  DOCUMENT_STATES,
  QUOTE_STATUSES,
  REPEAT_ACTIONS,
  REPEAT_SENDING,
  REPEAT_UNITS,
  JOURNAL_KINDS,
  AUDIT_CHANNELS,
  CATEGORY_TYPES,
  CATEGORY_ROLES,
  CONNECTOR_STATUSES,
  DECIMAL_MARKS,
  LINE_KINDS,
  PROPOSAL_CHANNELS,
  PROPOSAL_STATUSES,
  RULE_MATCH_KINDS,
  RULE_MODES,
  RULE_SIGNS,
  SYNC_STATUSES,
  TRANSACTION_ORIGINS,
  TRANSACTION_SOURCES,
  TRANSACTION_STATUSES,
  ROLES,
  TAX_APPLIES,
  TAX_KINDS,
  RATE_SOURCES,
  STAGED_KINDS,
  MAIL_TLS_MODES,
  PRACTICE_PARTS,
} from './values';

export const organizations = sqliteTable('organizations', {
  seq: integer('seq').primaryKey(),
  id: text('id').notNull().unique(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  currency: text('currency').notNull(),
  createdAt: text('created_at').notNull(),
  /** How the organization writes amounts: '.' (1,234.56) or ',' (1.234,56); typed amounts are read with it (migration 0011). */
  decimalMark: text('decimal_mark', { enum: DECIMAL_MARKS }).notNull().default('.'),
  /** Removed while empty (migration 0011): hidden, its slug freed; its audit entries stay. */
  removedAt: text('removed_at'),
  /** Archived (issue 50: `org copy --move`): out of the list, its books readable by its slug, every change refused. */
  archivedAt: text('archived_at'),
  /** The first day of the fiscal year, as MM-DD (migration 0014): where retained earnings end and the year's earnings begin. */
  fiscalYearStart: text('fiscal_year_start').notNull().default('01-01'),
  /** The closing date (migration 0014): nothing dated on or before it changes. */
  lockedThrough: text('locked_through'),
  /** The ready-made tax set it was set up with (db/tax-sets.json: uk-vat, au-gst, plain), or null: no sales tax. */
  taxSet: text('tax_set'),
  /** The chart template it was started with (chart/templates/: default, uk-small-business; issue 50); null: made before templates, the default. */
  chartTemplate: text('chart_template'),
  /** How often its tax return is filed, from which month (1-12) the periods count, and on which basis (issue 28). */
  taxPeriod: text('tax_period').notNull().default('quarterly'),
  taxPeriodStart: integer('tax_period_start').notNull().default(1),
  /**
   * The column's default is what every organization before issue 50 was given; one made since is made with accrual
   * (access/organizations.ts, as HMRC's standard VAT accounting: cash accounting is a scheme one joins). SQLite changes
   * a default only by rebuilding the table, which every table references.
   */
  taxBasis: text('tax_basis').notNull().default('cash'),
  /** What its invoices and PDFs print (issue 29): postal address, tax number, how to pay. */
  address: text('address'),
  taxNumber: text('tax_number'),
  paymentInstructions: text('payment_instructions'),
  /** The numbering of invoices and credit notes: a prefix and the next number, never reused. */
  invoicePrefix: text('invoice_prefix').notNull().default('INV-'),
  invoiceNext: integer('invoice_next').notNull().default(1),
  creditNotePrefix: text('credit_note_prefix').notNull().default('CN-'),
  creditNoteNext: integer('credit_note_next').notNull().default(1),
  /** Quotes' own series (issue 53). */
  quotePrefix: text('quote_prefix').notNull().default('QU-'),
  quoteNext: integer('quote_next').notNull().default(1),
  /** The profit and loss's basis unless a report asks otherwise: accrual (invoice and bill dates) or cash (payment dates). */
  reportBasis: text('report_basis').notNull().default('accrual'),
  /**
   * What its invoices print beyond the address and VAT number (issue 43, access/details.ts): the registered name when
   * not its name, its country (ISO 3166 alpha-2), a company's registration (number, part of the UK or country where
   * registered, registered office when not the address), bank details, payment terms, how dates are written.
   */
  legalName: text('legal_name'),
  country: text('country'),
  companyNumber: text('company_number'),
  registeredIn: text('registered_in'),
  registeredOffice: text('registered_office'),
  bankName: text('bank_name'),
  bankAccountName: text('bank_account_name'),
  sortCode: text('sort_code'),
  accountNumber: text('account_number'),
  iban: text('iban'),
  bic: text('bic'),
  paymentTerms: text('payment_terms'),
  /** null: from its currency and decimal mark (access/details.ts). */
  dateStyle: text('date_style'),
  /** Its people sign in with a second factor (TOTP) as well as their password (issue 45). */
  requireTotp: integer('require_totp').notNull().default(0),
});

/** An organization's logo for its invoices (issue 43): the file's bytes in the database, PNG or JPEG, checked by its bytes. */
export const organizationLogos = sqliteTable('organization_logos', {
  orgSeq: integer('org_seq')
    .primaryKey()
    .references(() => organizations.seq),
  fileName: text('file_name').notNull(),
  mimeType: text('mime_type').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  sha256: text('sha256').notNull(),
  bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  setAt: text('set_at').notNull(),
});

export const categories = sqliteTable(
  'categories',
  {
    seq: integer('seq').primaryKey(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    code: text('code').notNull(), // '' for ad-hoc categories
    name: text('name').notNull(),
    type: text('type', { enum: CATEGORY_TYPES }).notNull(),
    parentCode: text('parent_code'),
    synonyms: text('synonyms').notNull().default('[]'), // JSON array of strings
    /** Kept for history (its transactions keep its name), no longer offered (migration 0007). */
    archivedAt: text('archived_at'),
    /** An expense category (with its children) reported as cost of sales, above gross profit (migration 0012). */
    costOfSales: integer('cost_of_sales').notNull().default(0),
    /** The tax code its lines take when none is named (issue 28). */
    defaultTaxCodeSeq: integer('default_tax_code_seq').references((): AnySQLiteColumn => taxCodes.seq),
    /** Its part in the books (issue 50): 'retained_earnings' (at most one per organization), or null. */
    role: text('role', { enum: CATEGORY_ROLES }),
  },
  (t) => [
    uniqueIndex('categories_org_role')
      .on(t.orgSeq, t.role)
      .where(sql`${t.role} IS NOT NULL`),
    uniqueIndex('categories_org_code')
      .on(t.orgSeq, t.code)
      .where(sql`${t.code} <> ''`),
    uniqueIndex('categories_org_name').on(t.orgSeq, sql`lower(${t.name})`),
  ],
);

/**
 * The organization's contacts (issue 29): the ontology's seed counterparties (vendors) and the customers and
 * vendors a person adds; one contact can be both. Archived, not deleted, once used.
 */
export const counterparties = sqliteTable(
  'counterparties',
  {
    seq: integer('seq').primaryKey(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    id: text('id').notNull().unique(),
    name: text('name').notNull(),
    aliases: text('aliases').notNull().default('[]'),
    defaultCode: text('default_code'),
    isCustomer: integer('is_customer').notNull().default(0),
    isVendor: integer('is_vendor').notNull().default(0),
    email: text('email'),
    address: text('address'),
    taxNumber: text('tax_number'),
    /** Its country, ISO 3166 alpha-2 (issue 43): a customer abroad gets the reverse-charge wording on invoices. */
    country: text('country'),
    /** Payment terms in days (due date = issue date + terms). */
    termsDays: integer('terms_days'),
    defaultTaxCode: text('default_tax_code'),
    archivedAt: text('archived_at'),
    /** Never sent a payment reminder (issue 53). */
    noReminders: integer('no_reminders').notNull().default(0),
  },
  // A contact named exactly as written (the usual case) is one look up, not a scan of the organization's contacts.
  (t) => [index('counterparties_org').on(t.orgSeq), index('counterparties_org_name').on(t.orgSeq, t.name)],
);

export const transactions = sqliteTable(
  'transactions',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    date: text('date').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    /** The amount in the organization's base currency at the rate of its date when booked (issue 30); null: a row in another currency from before rates, awaiting one. */
    baseMinor: integer('base_minor'),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    /**
     * The category the row shows (migration 0014): its category line's, or a split's largest line's; null when
     * uncategorized or a transfer. Kept with the lines (transactions/lines.ts); the lines are the books.
     */
    categorySeq: integer('category_seq').references((): AnySQLiteColumn => categories.seq),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull(),
    source: text('source', { enum: TRANSACTION_SOURCES }).notNull(),
    externalId: text('external_id'),
    suggestedBy: text('suggested_by'),
    confidence: real('confidence'),
    reason: text('reason'),
    createdAt: text('created_at').notNull(),
    // Nullable only because SQLite adds a referencing column that way; a trigger refuses NULL (migration 0006).
    accountSeq: integer('account_seq').references((): AnySQLiteColumn => accounts.seq),
    /** How the row came to be: a bank feed (and rows from before accounts), an import, the person's hand, an approved journal entry. */
    origin: text('origin', { enum: TRANSACTION_ORIGINS }).notNull().default('feed'),
    /** The import that brought the row, or that a statement row was merged into it. */
    importBatchSeq: integer('import_batch_seq').references((): AnySQLiteColumn => importBatches.seq),
    /** Duplicate detection for rows without a bank id: a hash of date, amount, description and occurrence. */
    fingerprint: integer('fingerprint'),
    /**
     * Facts the spec's status is a view of (migration 0011): a finished
     * reconciliation cleared the row; a person said it needs a receipt.
     * `status` is kept equal to their precedence (ledger/status.ts).
     */
    reconciled: integer('reconciled').notNull().default(0),
    receiptNeeded: integer('receipt_needed').notNull().default(0),
    /** A manual journal's money-account line (issue 43, origin 'journal'): the journal whose posting its one line cancels. */
    journalSeq: integer('journal_seq').references((): AnySQLiteColumn => journals.seq),
  },
  // Each index ends in the implicit seq, which is the stable tiebreak of date ordering.
  (t) => [
    index('transactions_org_date').on(t.orgSeq, t.date),
    // Rows in another currency still awaiting a rate: valued when one arrives.
    index('transactions_unvalued')
      .on(t.orgSeq, t.currency, t.date)
      .where(sql`${t.baseMinor} IS NULL`),
    index('transactions_org_status_date').on(t.orgSeq, t.status, t.date),
    index('transactions_org_source_date').on(t.orgSeq, t.source, t.date),
    index('transactions_org_category_date').on(t.orgSeq, t.categorySeq, t.date),
    index('transactions_account_date').on(t.accountSeq, t.date, t.amountMinor),
    index('transactions_account_external')
      .on(t.accountSeq, t.externalId)
      .where(sql`${t.externalId} IS NOT NULL`),
    index('transactions_import_batch')
      .on(t.importBatchSeq)
      .where(sql`${t.importBatchSeq} IS NOT NULL`),
    // Rows a statement line may turn out to be (entered by hand or by an approved journal entry, not yet matched).
    index('transactions_match_candidates')
      .on(t.accountSeq, t.amountMinor, t.date)
      .where(sql`${t.origin} IN ('manual', 'agent') AND ${t.importBatchSeq} IS NULL`),
    index('transactions_journal')
      .on(t.journalSeq)
      .where(sql`${t.journalSeq} IS NOT NULL`),
  ],
);

/**
 * The other lines of each entry (migration 0014). A transaction row is the entry's money-account line (what the
 * bank shows); its lines carry the rest, in integer minor units, and the row's amount plus its lines' sum to zero:
 * one suspense line (uncategorized), one category line, two or more (a split), or one transfer line (to another
 * money account: in transit until the other side's row is its counterpart). Room is kept for what comes next: a
 * tax code, a contact and an amount in another currency are further columns of a line.
 * WITHOUT ROWID, keyed by entry and position (written in that order: an import appends).
 */
export const lines = sqliteTable(
  'lines',
  {
    transactionSeq: integer('transaction_seq')
      .notNull()
      .references(() => transactions.seq),
    position: integer('position').notNull(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    kind: text('kind', { enum: LINE_KINDS }).notNull(),
    categorySeq: integer('category_seq').references(() => categories.seq),
    /** A transfer's other money account. */
    accountSeq: integer('account_seq').references(() => accounts.seq),
    /** A matched transfer's other side (its row); null while in transit. */
    counterpartSeq: integer('counterpart_seq').references((): AnySQLiteColumn => transactions.seq),
    /** The entry's date and currency, kept here for the totals and the general ledger. */
    date: text('date').notNull(),
    currency: text('currency').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    /** In the base currency (issue 30): its share of the row's base amount, the lines' summing exactly to the row's. */
    baseMinor: integer('base_minor'),
    memo: text('memo'),
    /** Its tax code (issue 28): on a category line, what its tax is; on a tax line, whose tax it is. */
    taxCodeSeq: integer('tax_code_seq').references((): AnySQLiteColumn => taxCodes.seq),
    /** A category line's tax, in its sign (the reverse charge's notional tax has no tax line). */
    taxMinor: integer('tax_minor'),
    /** The filed return that included this taxed line: it no longer changes (issue 28). */
    taxReturnSeq: integer('tax_return_seq').references((): AnySQLiteColumn => taxReturns.seq),
    /** A receivable or payable line's invoice or bill, whose balance it settles (issue 29); null: a credit on the contact. */
    settlesSeq: integer('settles_seq').references((): AnySQLiteColumn => documents.seq),
    contactSeq: integer('contact_seq').references((): AnySQLiteColumn => counterparties.seq),
  },
  (t) => [
    primaryKey({ columns: [t.transactionSeq, t.position] }),
    index('lines_settles')
      .on(t.settlesSeq, t.date)
      .where(sql`${t.settlesSeq} IS NOT NULL`),
    // A contact's statement.
    index('lines_contact')
      .on(t.contactSeq, t.date)
      .where(sql`${t.contactSeq} IS NOT NULL`),
    // Covering: the aging's credits (what a contact paid that no document took) on the index alone.
    index('lines_credits')
      .on(t.contactSeq, t.kind, t.currency, t.date, t.amountMinor)
      .where(sql`${t.contactSeq} IS NOT NULL AND ${t.settlesSeq} IS NULL`),
    // Covering: a return sums a period's taxed lines on the index alone.
    index('lines_tax_date')
      .on(t.orgSeq, t.currency, t.date, t.taxCodeSeq, t.categorySeq, t.amountMinor, t.taxMinor)
      .where(sql`${t.taxCodeSeq} IS NOT NULL AND ${t.kind} = 'category'`),
    // The taxed lines no filed return took: a late one for a filed period is found here, not among every earlier line.
    index('lines_tax_unfiled')
      .on(t.orgSeq, t.currency, t.date)
      .where(sql`${t.taxCodeSeq} IS NOT NULL AND ${t.kind} = 'category' AND ${t.taxReturnSeq} IS NULL`),
    index('lines_category_date')
      .on(t.orgSeq, t.categorySeq, t.currency, t.date)
      .where(sql`${t.categorySeq} IS NOT NULL`),
    index('lines_transfer_date')
      .on(t.orgSeq, t.date)
      .where(sql`${t.kind} = 'transfer'`),
    index('lines_in_transit')
      .on(t.accountSeq, t.amountMinor, t.date)
      .where(sql`${t.kind} = 'transfer' AND ${t.counterpartSeq} IS NULL`),
  ],
);

/**
 * What a split row was before it was split (issue 42): its lines then (uncategorized, or one category with its
 * tax), as JSON, so that unsplitting puts them back. None for splits made before this table (unsplit then asks).
 */
export const splitOrigins = sqliteTable('split_origins', {
  /** Its organization (issue 44): row-level security and a server's keys lead with it. */
  orgSeq: integer('org_seq')
    .notNull()
    .references(() => organizations.seq),
  transactionSeq: integer('transaction_seq')
    .primaryKey()
    .references(() => transactions.seq, { onDelete: 'cascade' }),
  lines: text('lines').notNull(),
});

export const receipts = sqliteTable(
  'receipts',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    transactionSeq: integer('transaction_seq').references(() => transactions.seq),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256'),
    ocrText: text('ocr_text'),
    createdAt: text('created_at').notNull(),
    /** The person who uploaded it (issue 45: a client sees their own uploads); null: the machine's owner, or an agent. */
    uploadedBy: integer('uploaded_by').references((): AnySQLiteColumn => users.seq),
  },
  (t) => [index('receipts_org_created').on(t.orgSeq, t.createdAt), index('receipts_transaction').on(t.transactionSeq)],
);

export const notes = sqliteTable(
  'notes',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    transactionSeq: integer('transaction_seq')
      .notNull()
      .references(() => transactions.seq),
    content: text('content').notNull(),
    authorUserId: text('author_user_id'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('notes_transaction').on(t.transactionSeq, t.createdAt)],
);

export const proposals = sqliteTable(
  'proposals',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    type: text('type').notNull(), // a proposal kind's type (src/main/ledger/proposals/kinds)
    status: text('status', { enum: PROPOSAL_STATUSES }).notNull(),
    payload: text('payload').notNull(), // JSON, shape per type
    proposedBy: text('proposed_by').notNull(),
    tokenSeq: integer('token_seq').references(() => tokens.seq),
    confidence: real('confidence'),
    reason: text('reason'),
    createdAt: text('created_at').notNull(),
    reviewedAt: text('reviewed_at'),
    reviewedBy: text('reviewed_by'),
    reviewComment: text('review_comment'),
    /** What an approval changed (JSON), so that it can be reversed (migration 0007). */
    outcome: text('outcome'),
    reversedAt: text('reversed_at'),
    reversedBy: text('reversed_by'),
    reversalComment: text('reversal_comment'),
    /** How it arrived: rest or mcp (migration 0009; backfilled from the audit log). */
    channel: text('channel', { enum: PROPOSAL_CHANNELS }),
    /** The change approval would make, as JSON text (migration 0010): identical proposals share it. */
    changeKey: text('change_key'),
    /** The person's rule that suggested it (migration 0010); null for an agent's proposal. */
    ruleSeq: integer('rule_seq').references((): AnySQLiteColumn => rules.seq),

    /** A person's proposal (a preparer's change, issue 45): their name and role as the card shows it ("Dana Reyes (preparer)"). */
    proposerName: text('proposer_name'),
  },
  (t) => [index('proposals_org_status').on(t.orgSeq, t.status, t.seq), index('proposals_change').on(t.orgSeq, t.changeKey)],
);

/** Categorization rules a person made while reviewing (migration 0010), run in `position` order. */
export const rules = sqliteTable(
  'rules',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    position: integer('position').notNull(),
    /** shape: the description with its digits as #; contains: a text (or a counterparty alias) anywhere in it. Both case-insensitive. */
    matchKind: text('match_kind', { enum: RULE_MATCH_KINDS }).notNull(),
    matchText: text('match_text').notNull(),
    accountSeq: integer('account_seq').references(() => accounts.seq),
    sign: text('sign', { enum: RULE_SIGNS }),
    categoryCode: text('category_code').notNull(),
    /** A split by fixed shares (migration 0014): JSON [{ code, percent }], percents summing to 100; category_code is the first's. */
    split: text('split'),
    /** The tax code it writes (issue 28), by code; null: its categories' defaults. */
    taxCode: text('tax_code'),
    mode: text('mode', { enum: RULE_MODES }).notNull(),
    /** 1 or 0, as SQL answers it. */
    enabled: integer('enabled').notNull(),
    matchedCount: integer('matched_count').notNull(),
    lastRunAt: text('last_run_at'),
    sourceProposalId: text('source_proposal_id'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('rules_org_position').on(t.orgSeq, t.position)],
);

/** Idempotency-Key answers per token (migration 0010), kept at least 24 hours. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    tokenSeq: integer('token_seq')
      .notNull()
      .references(() => tokens.seq),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status').notNull(),
    body: text('body').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenSeq, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
);

export const auditLog = sqliteTable(
  'audit_log',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    at: text('at').notNull(),
    actorType: text('actor_type', { enum: ACTOR_TYPES }).notNull(),
    actorId: text('actor_id').notNull(),
    actorName: text('actor_name').notNull(),
    channel: text('channel', { enum: AUDIT_CHANNELS }).notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    summary: text('summary').notNull(),
    /** The previous entry's hash in the organization's chain, and this entry's (migration 0008). */
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [index('audit_org_seq').on(t.orgSeq, t.seq), index('audit_org_action').on(t.orgSeq, t.action, t.seq)],
);

export const connectors = sqliteTable(
  'connectors',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    name: text('name').notNull(),
    provider: text('provider').notNull(),
    status: text('status', { enum: CONNECTOR_STATUSES }).notNull(),
    lastSyncAt: text('last_sync_at'),
    syncStatus: text('sync_status', { enum: SYNC_STATUSES }),
    /** The provider's credentials as one JSON, sealed (core/secrets/sealed.ts); null once disconnected. */
    credentials: text('credentials'),
    /** When the consent the connection rests on lapses (null: it does not). */
    consentExpiresAt: text('consent_expires_at'),
    /** When the schedule next syncs it: the interval, a provider's Retry-After or the back-off after errors. */
    nextSyncAt: text('next_sync_at'),
    /** The last sync's error in words (never a secret); null when it went well. */
    syncError: text('sync_error'),
    /** Syncs failed in a row: the back-off grows with them. */
    failures: integer('failures').notNull().default(0),
    /** Calls made to the provider on `callsDay` (UTC), for a daily allowance (SimpleFIN's). */
    callsDay: text('calls_day'),
    calls: integer('calls').notNull().default(0),
    createdAt: text('created_at'),
  },
  (t) => [index('connectors_org').on(t.orgSeq)],
);

/** A provider's account a connector reports, and the ledger account it feeds (null: not mapped yet), with its cursor. */
export const connectorAccounts = sqliteTable(
  'connector_accounts',
  {
    seq: integer('seq').primaryKey(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    connectorSeq: integer('connector_seq')
      .notNull()
      .references(() => connectors.seq),
    /** The provider's id of the account. */
    feedId: text('feed_id').notNull(),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    iban: text('iban'),
    last4: text('last4'),
    accountSeq: integer('account_seq').references(() => accounts.seq),
    /** Where the next page starts: committed in the same write as the rows of the page before it. */
    cursor: text('cursor'),
    /** Mapped to an account already holding rows: its first sync waits at the import preview for the person. */
    awaitingPreview: integer('awaiting_preview').notNull().default(0),
    lastSyncAt: text('last_sync_at'),
  },
  (t) => [uniqueIndex('connector_accounts_feed').on(t.connectorSeq, t.feedId), index('connector_accounts_account').on(t.accountSeq)],
);

/** Rows the bank has not booked yet: shown in the register as pending, counted nowhere, replaced at each sync. */
export const feedPending = sqliteTable(
  'feed_pending',
  {
    seq: integer('seq').primaryKey(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    connectorAccountSeq: integer('connector_account_seq')
      .notNull()
      .references(() => connectorAccounts.seq),
    accountSeq: integer('account_seq')
      .notNull()
      .references(() => accounts.seq),
    externalId: text('external_id').notNull(),
    date: text('date').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
  },
  (t) => [index('feed_pending_account').on(t.accountSeq, t.date), index('feed_pending_feed').on(t.connectorAccountSeq)],
);

/**
 * A feed's row held for the person instead of written: a booked row whose bank id came again with other figures, or
 * a row the books hold under another bank id (a day the bank renumbered). Both versions are kept until decided.
 */
export const feedHeld = sqliteTable(
  'feed_held',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    connectorAccountSeq: integer('connector_account_seq')
      .notNull()
      .references(() => connectorAccounts.seq),
    accountSeq: integer('account_seq')
      .notNull()
      .references(() => accounts.seq),
    /** The row of the books it may be (no key: an undo may remove that row). */
    transactionSeq: integer('transaction_seq'),
    externalId: text('external_id').notNull(),
    date: text('date').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    description: text('description').notNull(),
    /** Why it is held, in words. */
    reason: text('reason').notNull(),
    heldAt: text('held_at').notNull(),
    /** When the person decided, and what: `kept` (the books' version stays) or `imported` (the bank's written too). */
    decidedAt: text('decided_at'),
    decision: text('decision'),
  },
  (t) => [uniqueIndex('feed_held_version').on(t.connectorAccountSeq, t.externalId, t.date, t.amountMinor), index('feed_held_account').on(t.accountSeq)],
);

/**
 * A bank's sign-in under way from a screen (Enable Banking, issue 52): the state's SHA-256 (checked when the bank sends
 * the browser back, used once), what the connection will be called, and the application's credentials sealed until
 * the session is made. Any process may take the redirect; a row lapses after its `expiresAt`.
 */
export const connectorSignIns = sqliteTable(
  'connector_sign_ins',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    stateHash: text('state_hash').notNull(),
    provider: text('provider').notNull(),
    name: text('name').notNull(),
    /** The ledger account a bank reporting one account feeds (as `connector add --account`). */
    account: text('account'),
    redirectUrl: text('redirect_url').notNull(),
    /** Sealed (core/secrets/sealed.ts): the application's id and private key. */
    credentials: text('credentials').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('connector_sign_ins_org').on(t.orgSeq, t.stateHash)],
);

export const tokens = sqliteTable(
  'tokens',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    name: text('name').notNull(),
    scopes: text('scopes').notNull(), // space-separated
    hash: text('hash').notNull().unique(), // sha256 hex of the whole token
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
    /** Who made it (issue 45): a person, whose role it never exceeds and without whom it stops; null: the machine's owner. */
    userSeq: integer('user_seq').references((): AnySQLiteColumn => users.seq),
  },
  (t) => [index('tokens_org').on(t.orgSeq), index('tokens_user').on(t.userSeq)],
);

// Maintained by triggers (see the custom migration): exact counts for list
// meta.totalCount and the dashboard without scanning a million rows.
export const transactionDayCounts = sqliteTable(
  'transaction_day_counts',
  {
    orgSeq: integer('org_seq').notNull(),
    date: text('date').notNull(),
    status: text('status').notNull(),
    source: text('source').notNull(),
    n: integer('n').notNull(),
  },
  // Covering (n included): a deep page walks the day counts without a table lookup per row (migration 0010).
  (t) => [primaryKey({ columns: [t.orgSeq, t.date, t.status, t.source] }), index('transaction_day_counts_walk').on(t.orgSeq, t.date, t.status, t.source, t.n)],
);

/** The same counts without the date: answers unfiltered and status/source-only lists in O(15 rows). */
export const transactionStatusCounts = sqliteTable(
  'transaction_status_counts',
  {
    orgSeq: integer('org_seq').notNull(),
    status: text('status').notNull(),
    source: text('source').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.status, t.source] })],
);

/** Proposals per status, kept by triggers (migration 0003): the dashboard's pending count costs the same at any backlog. */
export const proposalStatusCounts = sqliteTable(
  'proposal_status_counts',
  {
    orgSeq: integer('org_seq').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.status] })],
);

/**
 * Proposals per status, kind and proposer (issue 55), kept by the same triggers: the Practice screen's proposals waiting
 * by kind, and how many of them a person may approve (not their own: a person's or their tokens' proposedBy).
 */
export const proposalKindCounts = sqliteTable(
  'proposal_kind_counts',
  {
    orgSeq: integer('org_seq').notNull(),
    status: text('status').notNull(),
    type: text('type').notNull(),
    proposedBy: text('proposed_by').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.status, t.type, t.proposedBy] })],
);

/**
 * Transactions per description shape (the description with each digit 0-9 as
 * '#'), kept by triggers (migration 0004). Bank descriptions differ mostly in
 * their numbers (references, dates, card digits), so an organization has few
 * shapes; a description filter without digits counts its matches here.
 */
export const descriptionShapes = sqliteTable(
  'description_shapes',
  {
    seq: integer('seq').primaryKey(),
    orgSeq: integer('org_seq').notNull(),
    shape: text('shape').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [uniqueIndex('description_shapes_org_shape').on(t.orgSeq, t.shape)],
);

/** Description shapes per organization (migration 0005): whether counting over shapes beats counting rows. */
export const descriptionShapeTotals = sqliteTable('description_shape_totals', {
  orgSeq: integer('org_seq').primaryKey(),
  shapes: integer('shapes').notNull(),
});

/** The organization's own money accounts; every transaction belongs to one (migration 0006). */
export const accounts = sqliteTable(
  'accounts',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    name: text('name').notNull(),
    type: text('type', { enum: ACCOUNT_TYPES }).notNull(),
    currency: text('currency').notNull(),
    openingBalanceMinor: integer('opening_balance_minor').notNull().default(0),
    openingDate: text('opening_date'),
    maskedNumber: text('masked_number'),
    /** The bank's id of the account in its files (OFX ACCTID, IBAN, MT940 :25:), so a file finds its account. */
    bankAccountId: text('bank_account_id'),
    createdAt: text('created_at').notNull(),
    closedAt: text('closed_at'),
  },
  (t) => [
    uniqueIndex('accounts_org_name').on(t.orgSeq, sql`lower(${t.name})`),
    uniqueIndex('accounts_org_bank_account')
      .on(t.orgSeq, t.bankAccountId)
      .where(sql`${t.bankAccountId} IS NOT NULL`),
  ],
);

/** One imported file: one SQLite transaction, one audit entry, undone as a whole. */
export const importBatches = sqliteTable(
  'import_batches',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    format: text('format').notNull(),
    fileName: text('file_name').notNull(),
    fileSha256: text('file_sha256').notNull(),
    createdAt: text('created_at').notNull(),
    rows: integer('rows').notNull(),
    imported: integer('imported').notNull(),
    duplicates: integer('duplicates').notNull(),
    merged: integer('merged').notNull(),
    skipped: integer('skipped').notNull(),
    /** The options the file was read with (format, encoding, CSV mapping), JSON. */
    options: text('options').notNull().default('{}'),
    undoneAt: text('undone_at'),
  },
  (t) => [index('import_batches_org').on(t.orgSeq, t.seq)],
);

/** One account's part of an imported file, with the balances the bank stated (kept for reconciliation). */
export const statements = sqliteTable(
  'statements',
  {
    seq: integer('seq').primaryKey(),
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    batchSeq: integer('batch_seq')
      .notNull()
      .references(() => importBatches.seq),
    accountSeq: integer('account_seq')
      .notNull()
      .references(() => accounts.seq),
    periodFrom: text('period_from'),
    periodTo: text('period_to'),
    openingDate: text('opening_date'),
    openingMinor: integer('opening_minor'),
    closingDate: text('closing_date'),
    closingMinor: integer('closing_minor'),
    rows: integer('rows').notNull(),
    imported: integer('imported').notNull(),
  },
  (t) => [index('statements_account').on(t.accountSeq, t.batchSeq), index('statements_batch').on(t.batchSeq)],
);

/**
 * The rows an import left out (bad, or dated in the closed period), kept with
 * its batch so that they stay listed and can be written out to fix (issue 42).
 */
export const importSkippedRows = sqliteTable(
  'import_skipped_rows',
  {
    seq: integer('seq').primaryKey(),
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    batchSeq: integer('batch_seq')
      .notNull()
      .references(() => importBatches.seq),
    line: integer('line').notNull(),
    field: text('field').notNull(),
    message: text('message').notNull(),
    /** The row as the file has it (a CSV line, a QIF record...); null where it could not be read back. */
    text: text('text'),
  },
  (t) => [index('import_skipped_rows_batch').on(t.batchSeq, t.line)],
);

/** Rows entered by hand that a person merged with a statement line: what to put back when the import is undone. */
export const importMerges = sqliteTable(
  'import_merges',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    batchSeq: integer('batch_seq')
      .notNull()
      .references(() => importBatches.seq),
    transactionSeq: integer('transaction_seq')
      .notNull()
      .references(() => transactions.seq),
    /** The row takes the bank's date and id; undo puts these back. */
    previousDate: text('previous_date').notNull(),
    previousExternalId: text('previous_external_id'),
  },
  (t) => [primaryKey({ columns: [t.batchSeq, t.transactionSeq] })],
);

/**
 * Rows of the books whose lines an import changed (migration 0014): a transfer in transit whose other side the
 * statement brought, or an uncategorized row a person paired with a statement line. Undoing the import puts
 * their lines back.
 */
export const importLineChanges = sqliteTable(
  'import_line_changes',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    batchSeq: integer('batch_seq')
      .notNull()
      .references(() => importBatches.seq),
    transactionSeq: integer('transaction_seq')
      .notNull()
      .references(() => transactions.seq),
    /** The lines as they were, JSON (transactions/lines.ts LineInput[]). */
    previousLines: text('previous_lines').notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchSeq, t.transactionSeq] })],
);

/**
 * Statement rows a person deleted by hand (migration 0012): the same row in a
 * later statement (same bank id, or same fingerprint) is a duplicate of what
 * was deleted, not new again.
 */
export const deletedStatementRows = sqliteTable(
  'deleted_statement_rows',
  {
    seq: integer('seq').primaryKey(),
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    accountSeq: integer('account_seq')
      .notNull()
      .references(() => accounts.seq),
    date: text('date').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    externalId: text('external_id'),
    fingerprint: integer('fingerprint'),
    transactionId: text('transaction_id').notNull(),
    deletedAt: text('deleted_at').notNull(),
  },
  (t) => [index('deleted_statement_rows_account').on(t.accountSeq, t.date)],
);

/** Saved CSV mappings, per account: the next file of that account is read the same way. */
export const importMappings = sqliteTable(
  'import_mappings',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    accountSeq: integer('account_seq').references(() => accounts.seq),
    name: text('name').notNull(),
    mapping: text('mapping').notNull(), // JSON CsvMapping
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('import_mappings_org_name').on(t.orgSeq, sql`lower(${t.name})`), index('import_mappings_account').on(t.accountSeq)],
);

/** Movements per account, day and status, kept by triggers: balances at any date without reading the rows. */
export const accountDayTotals = sqliteTable(
  'account_day_totals',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    accountSeq: integer('account_seq').notNull(),
    date: text('date').notNull(),
    status: text('status').notNull(),
    /** Reconciled rows apart (migration 0011): the status reads uncategorized before reconciled. */
    reconciled: integer('reconciled').notNull(),
    n: integer('n').notNull(),
    sumMinor: integer('sum_minor').notNull(),
    /** The same in the base currency (issue 30): rows awaiting a rate count 0 here. */
    sumBase: integer('sum_base').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.accountSeq, t.date, t.status, t.reconciled] }), index('account_day_totals_walk').on(t.accountSeq, t.date, t.status, t.n)],
);

/** A finished reconciliation of an account against a statement (migration 0007). */
export const reconciliations = sqliteTable(
  'reconciliations',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    accountSeq: integer('account_seq')
      .notNull()
      .references(() => accounts.seq),
    statementDate: text('statement_date').notNull(),
    statementBalanceMinor: integer('statement_balance_minor').notNull(),
    rows: integer('rows').notNull(),
    createdAt: text('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    undoneAt: text('undone_at'),
  },
  (t) => [index('reconciliations_account').on(t.accountSeq, t.seq)],
);

/** The rows a reconciliation cleared, and the status each had before (undo puts it back). */
export const reconciliationRows = sqliteTable(
  'reconciliation_rows',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    reconciliationSeq: integer('reconciliation_seq')
      .notNull()
      .references(() => reconciliations.seq),
    transactionSeq: integer('transaction_seq')
      .notNull()
      .references(() => transactions.seq),
    previousStatus: text('previous_status').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reconciliationSeq, t.transactionSeq] }), index('reconciliation_rows_transaction').on(t.transactionSeq)],
);

export const accountMonthTotals = sqliteTable(
  'account_month_totals',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    accountSeq: integer('account_seq').notNull(),
    month: text('month').notNull(),
    status: text('status').notNull(),
    reconciled: integer('reconciled').notNull(),
    n: integer('n').notNull(),
    sumMinor: integer('sum_minor').notNull(),
    /** The same in the base currency (issue 30): rows awaiting a rate count 0 here. */
    sumBase: integer('sum_base').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.accountSeq, t.month, t.status, t.reconciled] })],
);

/**
 * The lines' movements per organization, currency, day, kind and category (0 for none), kept like every total
 * (migration 0014): the profit and loss, the balance sheet and the trial balance of any period from few rows.
 */
export const lineDayTotals = sqliteTable(
  'line_day_totals',
  {
    orgSeq: integer('org_seq').notNull(),
    currency: text('currency').notNull(),
    date: text('date').notNull(),
    kind: text('kind').notNull(),
    categorySeq: integer('category_seq').notNull(),
    n: integer('n').notNull(),
    sumMinor: integer('sum_minor').notNull(),
    /** The same in the base currency (issue 30): rows awaiting a rate count 0 here. */
    sumBase: integer('sum_base').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.currency, t.date, t.kind, t.categorySeq] })],
);

export const lineMonthTotals = sqliteTable(
  'line_month_totals',
  {
    orgSeq: integer('org_seq').notNull(),
    currency: text('currency').notNull(),
    month: text('month').notNull(),
    kind: text('kind').notNull(),
    categorySeq: integer('category_seq').notNull(),
    n: integer('n').notNull(),
    sumMinor: integer('sum_minor').notNull(),
    /** The same in the base currency (issue 30): rows awaiting a rate count 0 here. */
    sumBase: integer('sum_base').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.currency, t.month, t.kind, t.categorySeq] })],
);

/**
 * An organization's tax codes (issue 28): what a line's tax is, on which side
 * of the books, and which boxes of the return it feeds (JSON list of
 * { box, side: sales | purchases, measure: net | tax | gross }). Its rate
 * has a history (tax_rates).
 */
export const taxCodes = sqliteTable(
  'tax_codes',
  {
    seq: integer('seq').primaryKey(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    code: text('code').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: TAX_KINDS }).notNull(),
    applies: text('applies', { enum: TAX_APPLIES }).notNull().default('both'),
    boxes: text('boxes').notNull().default('[]'),
    /** The share of input tax that may be reclaimed, in percent (100: all of it). */
    recoverablePercent: real('recoverable_percent').notNull().default(100),
    archivedAt: text('archived_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('tax_codes_org_code').on(t.orgSeq, sql`lower(${t.code})`)],
);

/** A tax code's rate from a date on (the rate of a day is the latest one starting on or before it). */
export const taxRates = sqliteTable(
  'tax_rates',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    taxCodeSeq: integer('tax_code_seq')
      .notNull()
      .references(() => taxCodes.seq),
    validFrom: text('valid_from').notNull(),
    /** The rate in ten-thousandths of a percent (20% = 200000): four decimals, exactly, no float. */
    rateE4: integer('rate_e4').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taxCodeSeq, t.validFrom] })],
);

/** A filed tax return (issue 28): what was filed, when and by whom; its lines name it (lines.tax_return_seq). */
export const taxReturns = sqliteTable(
  'tax_returns',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    periodFrom: text('period_from').notNull(),
    periodTo: text('period_to').notNull(),
    basis: text('basis').notNull(),
    /** The return as filed (boxes, per-code summary, payable, late lines), JSON. */
    report: text('report').notNull(),
    payableMinor: integer('payable_minor').notNull(),
    /** How many taxed lines it included. */
    lineCount: integer('line_count').notNull(),
    filedAt: text('filed_at').notNull(),
    filedBy: text('filed_by').notNull(),
    /** The bank row that paid it (or received the refund), its one line a settlement of the tax control account. */
    paymentTransactionSeq: integer('payment_transaction_seq').references(() => transactions.seq),
    /**
     * The tax office's receipt of its electronic submission (JSON; an HMRC submission comes in a later issue). A
     * filing recorded by mistake is undone only while it has none (issue 50): a submitted return is corrected in a later one.
     */
    submissionReceipt: text('submission_receipt'),
  },
  (t) => [index('tax_returns_org_period').on(t.orgSeq, t.periodTo)],
);

/**
 * An organization's connection to HMRC's VAT API (issue 54): its VAT registration number and the OAuth tokens
 * HMRC granted (sealed: core/secrets/sealed.ts). One per organization. While a sign-in is under way, the state
 * it sent (hashed) and where HMRC sends the browser back wait here, so that any process of a server takes the
 * redirect; tokens are null until it came back.
 */
export const hmrcConnections = sqliteTable('hmrc_connections', {
  seq: integer('seq').primaryKey(),
  id: text('id').notNull().unique(),
  orgSeq: integer('org_seq')
    .notNull()
    .unique()
    .references(() => organizations.seq),
  /** The VAT registration number, 9 digits (checked by HMRC's modulus rules). */
  vrn: text('vrn').notNull(),
  /** SHA-256 of the state of the sign-in under way, and when it lapses; null once connected. */
  pendingState: text('pending_state'),
  pendingUntil: text('pending_until'),
  redirectUri: text('redirect_uri'),
  /** Sealed. */
  accessToken: text('access_token'),
  accessExpiresAt: text('access_expires_at'),
  /** Sealed. HMRC's refresh token lasts 18 months from the sign-in. */
  refreshToken: text('refresh_token'),
  refreshExpiresAt: text('refresh_expires_at'),
  connectedAt: text('connected_at'),
  connectedBy: text('connected_by'),
  /**
   * HMRC's open obligations as its last full list of them said (JSON: periodKey, start, end, due), less those since
   * submitted here; and when they were fetched. The Practice screen reads them: it never calls HMRC.
   */
  openObligations: text('open_obligations'),
  obligationsFetchedAt: text('obligations_fetched_at'),
});

/**
 * A VAT return sent to HMRC (issue 54), taken BEFORE the call: one per organization and period key, so a retried
 * or double-clicked submission, or a second process, sends it once. `sending` until HMRC answers; `accepted` with
 * its receipt (the return is then filed with it); `refused` with HMRC's words (sent again later, the same row).
 */
export const hmrcSubmissions = sqliteTable(
  'hmrc_submissions',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    periodKey: text('period_key').notNull(),
    periodFrom: text('period_from').notNull(),
    periodTo: text('period_to').notNull(),
    /** sending, unanswered (no answer came: HMRC is asked before it is sent again), accepted or refused (db/values.ts). */
    status: text('status').notNull(),
    /** The nine boxes as sent (JSON, HMRC's field names). */
    body: text('body').notNull(),
    startedAt: text('started_at').notNull(),
    startedBy: text('started_by').notNull(),
    /** HMRC's code and words for a refusal. */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** HMRC's receipt (JSON), kept here too: an acceptance is never lost, even where filing it in Ledgerdesk failed. */
    receipt: text('receipt'),
    taxReturnSeq: integer('tax_return_seq').references(() => taxReturns.seq),
  },
  (t) => [uniqueIndex('hmrc_submissions_org_period_key').on(t.orgSeq, t.periodKey)],
);

/**
 * A person's correction of a row whose tax a filed return took (issue 43): per tax code and side, what the filed
 * returns took for the row and what it says now (net, tax and the boxes, JSON, minor units in the return's sign).
 * The difference goes into the next open return, whose filing stamps it (filed_in_seq). One open correction per
 * row, recomputed as the row changes; once filed, the next one corrects against what the row said then.
 */
export const taxCorrections = sqliteTable(
  'tax_corrections',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    /** The row; null once it was deleted (the correction then takes back all it had). */
    transactionSeq: integer('transaction_seq').references(() => transactions.seq, { onDelete: 'set null' }),
    /** The row as its adjustment names it, kept after a deletion. */
    transactionId: text('transaction_id').notNull(),
    date: text('date').notNull(),
    description: text('description').notNull(),
    /** The filed return whose figures it corrects. */
    taxReturnSeq: integer('tax_return_seq')
      .notNull()
      .references(() => taxReturns.seq),
    /** The return that included it; null while open. */
    filedInSeq: integer('filed_in_seq').references(() => taxReturns.seq),
    before: text('before').notNull(),
    after: text('after').notNull(),
    correctedAt: text('corrected_at').notNull(),
    correctedBy: text('corrected_by').notNull(),
  },
  (t) => [
    index('tax_corrections_org_filed').on(t.orgSeq, t.filedInSeq),
    uniqueIndex('tax_corrections_open_row')
      .on(t.transactionSeq)
      .where(sql`${t.filedInSeq} IS NULL`),
  ],
);

/**
 * Invoices and credit notes to customers, bills from vendors (issue 29). A
 * draft is only the document; issuing it books its entry (postings), voiding
 * reverses that. Partly paid, paid and overdue are read from what settles it
 * (its receivable or payable postings and lines) and the due date.
 */
export const documents = sqliteTable(
  'documents',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    state: text('state', { enum: DOCUMENT_STATES }).notNull(),
    contactSeq: integer('contact_seq')
      .notNull()
      .references(() => counterparties.seq),
    /** Ours (prefix and sequence) for invoices and credit notes; the vendor's for a bill. */
    number: text('number').notNull(),
    issueDate: text('issue_date').notNull(),
    dueDate: text('due_date').notNull(),
    currency: text('currency').notNull(),
    taxInclusive: integer('tax_inclusive').notNull().default(0),
    /** A credit note's invoice. */
    creditsSeq: integer('credits_seq').references((): AnySQLiteColumn => documents.seq),
    netMinor: integer('net_minor').notNull(),
    taxMinor: integer('tax_minor').notNull(),
    totalMinor: integer('total_minor').notNull(),
    /** What has settled it (payments, credit notes), kept with them; the day it was settled in full, for the aging. */
    settledMinor: integer('settled_minor').notNull().default(0),
    settledOn: text('settled_on'),
    notes: text('notes'),
    paymentInstructions: text('payment_instructions'),
    receiptSeq: integer('receipt_seq').references(() => receipts.seq),
    createdAt: text('created_at').notNull(),
    issuedAt: text('issued_at'),
    voidDate: text('void_date'),
    voidReason: text('void_reason'),
    /** An invoice's Stripe payment link (issue 53): its id and address while it takes money, when it stopped, the webhook event that paid it. */
    paymentLinkId: text('payment_link_id'),
    paymentLinkUrl: text('payment_link_url'),
    paymentLinkClosedAt: text('payment_link_closed_at'),
    paymentLinkEvent: text('payment_link_event'),
    /** Never sent a payment reminder (issue 53). */
    noReminders: integer('no_reminders').notNull().default(0),
    /** A quote's (issue 53; its due_date is its expiry date): its life (its state stays draft: it books nothing), the day it was accepted or declined. */
    quoteStatus: text('quote_status', { enum: QUOTE_STATUSES }),
    decidedOn: text('decided_on'),
    /** An invoice made from an accepted quote: that quote (at most one invoice per quote). */
    quoteSeq: integer('quote_seq').references((): AnySQLiteColumn => documents.seq),
  },
  (t) => [
    uniqueIndex('documents_quote')
      .on(t.quoteSeq)
      .where(sql`${t.quoteSeq} IS NOT NULL`),
    uniqueIndex('documents_org_number')
      .on(t.orgSeq, t.kind, sql`lower(${t.number})`)
      .where(sql`${t.kind} <> 'bill'`),
    uniqueIndex('documents_vendor_number')
      .on(t.contactSeq, sql`lower(${t.number})`)
      .where(sql`${t.kind} = 'bill'`),
    // The aging at a date reads only what was open then (issued, not settled by that day), on the index alone.
    index('documents_open')
      .on(t.orgSeq, t.kind, t.settledOn, t.issueDate, t.currency, t.dueDate, t.contactSeq, t.totalMinor, t.settledMinor, t.issuedAt, t.number, t.state)
      .where(sql`${t.state} <> 'draft'`),
    index('documents_contact').on(t.contactSeq, t.issueDate),
    // A document named by its number, whatever its kind (a bill's is its vendor's).
    index('documents_number').on(t.orgSeq, sql`lower(${t.number})`),
  ],
);

/**
 * A contact's credit (what it paid beyond its documents: an overpayment) applied to a later invoice or bill
 * (issue 29), on the day it is applied. Receivables (payables) move from the credit to the document within the
 * one control account, so no entry is posted; the document's balance, the aging and the cash basis read it.
 * Only in the organization's currency (another would realize a difference of rates).
 */
export const creditApplications = sqliteTable(
  'credit_applications',
  {
    seq: integer('seq').primaryKey(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    documentSeq: integer('document_seq')
      .notNull()
      .references((): AnySQLiteColumn => documents.seq),
    contactSeq: integer('contact_seq')
      .notNull()
      .references(() => counterparties.seq),
    /** Whose credit: a customer's (receivable) or a vendor's (payable). */
    kind: text('kind', { enum: ['receivable', 'payable'] }).notNull(),
    date: text('date').notNull(),
    currency: text('currency').notNull(),
    /** What of the credit goes to the document (positive). */
    amountMinor: integer('amount_minor').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('credit_applications_document').on(t.documentSeq, t.date), index('credit_applications_contact').on(t.contactSeq, t.kind, t.currency, t.date)],
);

/** A document's lines as written: quantity (thousandths), unit price, category, tax code, and their net and tax. */
export const documentLines = sqliteTable(
  'document_lines',
  {
    /** Its organization (issue 44): row-level security and a server's keys lead with it. */
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    documentSeq: integer('document_seq')
      .notNull()
      .references(() => documents.seq),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    quantityMilli: integer('quantity_milli').notNull(),
    unitPriceMinor: integer('unit_price_minor').notNull(),
    categorySeq: integer('category_seq')
      .notNull()
      .references(() => categories.seq),
    taxCodeSeq: integer('tax_code_seq').references(() => taxCodes.seq),
    netMinor: integer('net_minor').notNull(),
    taxMinor: integer('tax_minor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentSeq, t.position] })],
);

/**
 * The entries of issued documents (and their reversals when voided) and of manual journals (issue 43): lines
 * of the books without a bank row, debits positive like \`lines\`, summed into
 * the same totals. A receivable or payable posting names the invoice or
 * bill whose balance it moves (a credit note's, its invoice). Each belongs to a document or to a journal.
 */
export const postings = sqliteTable(
  'postings',
  {
    seq: integer('seq').primaryKey(),
    documentSeq: integer('document_seq').references(() => documents.seq),
    journalSeq: integer('journal_seq').references((): AnySQLiteColumn => journals.seq),
    /** A journal's clearing posting (kind 'journal'): the money account whose row it cancels. */
    accountSeq: integer('account_seq').references(() => accounts.seq),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    kind: text('kind', { enum: LINE_KINDS }).notNull(),
    categorySeq: integer('category_seq').references(() => categories.seq),
    settlesSeq: integer('settles_seq').references((): AnySQLiteColumn => documents.seq),
    contactSeq: integer('contact_seq').references(() => counterparties.seq),
    date: text('date').notNull(),
    currency: text('currency').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    /** In the base currency at the document's own rate (issue 30). */
    baseMinor: integer('base_minor'),
    memo: text('memo'),
    taxCodeSeq: integer('tax_code_seq').references(() => taxCodes.seq),
    taxMinor: integer('tax_minor'),
    taxReturnSeq: integer('tax_return_seq').references(() => taxReturns.seq),
  },
  (t) => [
    index('postings_document').on(t.documentSeq),
    index('postings_settles')
      .on(t.settlesSeq, t.date)
      .where(sql`${t.settlesSeq} IS NOT NULL`),
    index('postings_contact')
      .on(t.contactSeq, t.date)
      .where(sql`${t.kind} IN ('receivable', 'payable')`),
    index('postings_category_date')
      .on(t.orgSeq, t.categorySeq, t.currency, t.date)
      .where(sql`${t.categorySeq} IS NOT NULL`),
    index('postings_kind_date').on(t.orgSeq, t.kind, t.currency, t.date),
    index('postings_tax_date')
      .on(t.orgSeq, t.currency, t.date, t.taxCodeSeq)
      .where(sql`${t.taxCodeSeq} IS NOT NULL AND ${t.kind} = 'category'`),
    index('postings_journal')
      .on(t.journalSeq)
      .where(sql`${t.journalSeq} IS NOT NULL`),
  ],
);

/**
 * Manual journals and the opening entry (issue 43): a date, a narration and lines that are postings
 * (postings.journal_seq); a money account's line is also a row on that account (transactions.journal_seq), whose
 * one line a clearing posting of the journal cancels. Numbered per organization (JNL-0001), never reused; the
 * opening entry (kind 'opening', one per organization) has no number. A reversal names the journal it reverses
 * (once); a repeat's occurrences name their repeat, one per date.
 */
export const journals = sqliteTable(
  'journals',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    kind: text('kind', { enum: JOURNAL_KINDS }).notNull(),
    number: integer('number'),
    date: text('date').notNull(),
    narration: text('narration').notNull(),
    reversesSeq: integer('reverses_seq').references((): AnySQLiteColumn => journals.seq),
    repeatSeq: integer('repeat_seq').references((): AnySQLiteColumn => journalRepeats.seq),
    /** The opening entry's: the return (filed before these books) the VAT owed at conversion is for, so its payment settles it. */
    taxReturnSeq: integer('tax_return_seq').references(() => taxReturns.seq),
    createdAt: text('created_at').notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    uniqueIndex('journals_org_number')
      .on(t.orgSeq, t.number)
      .where(sql`${t.number} IS NOT NULL`),
    uniqueIndex('journals_opening')
      .on(t.orgSeq)
      .where(sql`${t.kind} = 'opening'`),
    uniqueIndex('journals_reverses')
      .on(t.reversesSeq)
      .where(sql`${t.reversesSeq} IS NOT NULL`),
    uniqueIndex('journals_repeat_date')
      .on(t.repeatSeq, t.date)
      .where(sql`${t.repeatSeq} IS NOT NULL`),
    index('journals_org_date').on(t.orgSeq, t.date),
  ],
);

/**
 * A journal repeated monthly (issue 43): its lines as entered (JSON), made on each date from the first (the same
 * day of the month, or the month's last day) while the app runs, until a date or a count, or stopped.
 */
export const journalRepeats = sqliteTable(
  'journal_repeats',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    narration: text('narration').notNull(),
    lines: text('lines').notNull(),
    firstDate: text('first_date').notNull(),
    until: text('until'),
    count: integer('count'),
    /** Each occurrence reversed this many days after its date (an accrual), or null. */
    reverseDays: integer('reverse_days'),
    /** How many occurrences were made or passed over; the next one's date (null: no more). */
    made: integer('made').notNull().default(0),
    nextDate: text('next_date'),
    stoppedAt: text('stopped_at'),
    createdAt: text('created_at').notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    index('journal_repeats_due')
      .on(t.orgSeq, t.nextDate)
      .where(sql`${t.nextDate} IS NOT NULL`),
  ],
);

/**
 * A repeating invoice (issue 53): a customer, lines (JSON, as the command's lines: codes), a schedule (every N weeks,
 * or N months on a day of the month or the month's last day, from a start, until a count or a date) and what to do
 * when due. Paused: nothing is made; resumed: from that day on (what fell due while paused is not made).
 */
export const invoiceRepeats = sqliteTable(
  'invoice_repeats',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    name: text('name').notNull(),
    contactSeq: integer('contact_seq')
      .notNull()
      .references(() => counterparties.seq),
    currency: text('currency').notNull(),
    taxInclusive: integer('tax_inclusive').notNull().default(0),
    lines: text('lines').notNull(),
    termsDays: integer('terms_days'),
    notes: text('notes'),
    unit: text('unit', { enum: REPEAT_UNITS }).notNull(),
    every: integer('every').notNull(),
    /** Months: the day of the month (1-31; a shorter month's last day when it has none), or null with month_end. */
    monthDay: integer('month_day'),
    monthEnd: integer('month_end').notNull().default(0),
    startDate: text('start_date').notNull(),
    endCount: integer('end_count'),
    endDate: text('end_date'),
    action: text('action', { enum: REPEAT_ACTIONS }).notNull(),
    pausedAt: text('paused_at'),
    /** Made from this day on (set when resumed): occurrences before it are not made. */
    resumedOn: text('resumed_on'),
    createdAt: text('created_at').notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [index('invoice_repeats_org').on(t.orgSeq)],
);

/**
 * Each occurrence of a repeating invoice, keyed by (repeat, date) and written in the same transaction as the invoice
 * it made, so that a rerun or a second process makes nothing twice. An occurrence that could not be made keeps the
 * reason (failure) and no document.
 */
export const invoiceRepeatOccurrences = sqliteTable(
  'invoice_repeat_occurrences',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    repeatSeq: integer('repeat_seq')
      .notNull()
      .references(() => invoiceRepeats.seq),
    date: text('date').notNull(),
    documentSeq: integer('document_seq').references(() => documents.seq),
    /** Made when the pass ran this day: later than its date when the app was closed. */
    madeOn: text('made_on').notNull(),
    /** More than one period late when made. */
    late: integer('late').notNull().default(0),
    sending: text('sending', { enum: REPEAT_SENDING }),
    failure: text('failure'),
  },
  (t) => [primaryKey({ columns: [t.repeatSeq, t.date] }), index('invoice_repeat_occurrences_sending').on(t.orgSeq, t.sending)],
);

/**
 * Exchange rates by day (issue 30): one unit of a currency in the organization's base currency, an exact decimal
 * as text (at most 12 significant digits). A date's rate is that day's or the latest of the 7 days before it.
 * WITHOUT ROWID in the migration: read by its key only.
 */
export const exchangeRates = sqliteTable(
  'exchange_rates',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    currency: text('currency').notNull(),
    date: text('date').notNull(),
    rate: text('rate').notNull(),
    source: text('source', { enum: RATE_SOURCES }).notNull(),
    setAt: text('set_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.currency, t.date] })],
);

/**
 * Unrealized exchange revaluations (issue 30): at a date, foreign money accounts and what is owed in another
 * currency valued at that date's rate; the difference posted to "Unrealized exchange gains and losses" and
 * reversed the next day (reverses_seq: the entry it reverses). Few rows: the reports read them directly.
 */
export const revaluations = sqliteTable(
  'revaluations',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    date: text('date').notNull(),
    reversesSeq: integer('reverses_seq').references((): AnySQLiteColumn => revaluations.seq),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('revaluations_org_date').on(t.orgSeq, t.date)],
);

/** A revaluation's lines: in the base currency only (their own currency does not move). kind: money (account_seq), receivable, payable, category. */
export const revaluationLines = sqliteTable(
  'revaluation_lines',
  {
    revaluationSeq: integer('revaluation_seq')
      .notNull()
      .references(() => revaluations.seq),
    position: integer('position').notNull(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    date: text('date').notNull(),
    kind: text('kind').notNull(),
    accountSeq: integer('account_seq').references(() => accounts.seq),
    categorySeq: integer('category_seq').references(() => categories.seq),
    currency: text('currency').notNull(),
    baseMinor: integer('base_minor').notNull(),
    memo: text('memo'),
  },
  (t) => [primaryKey({ columns: [t.revaluationSeq, t.position] }), index('revaluation_lines_org_date').on(t.orgSeq, t.date)],
);

/**
 * Receipts' files (issue 44): the bytes in the database, so that every server process sees them and one backup
 * (a SQLite file, a pg_dump) holds them; kept once per organization by content (receipts.sha256 names them).
 */
export const receiptFiles = sqliteTable(
  'receipt_files',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
    storedAt: text('stored_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.sha256] })],
);

/**
 * One-time sign-in codes (issue 44): only their SHA-256, and when they expire (ms since the epoch). Global: a code
 * signs a browser in before any organization is chosen; kept in the database so any server process spends it.
 */
export const signInCodes = sqliteTable('sign_in_codes', {
  hash: text('hash').primaryKey(),
  expiresAt: integer('expires_at').notNull(),
});

/** The desk's browser sessions (issue 44): the cookie's SHA-256, in the database so they outlive a restart and any process knows them. */
export const deskSessions = sqliteTable(
  'desk_sessions',
  {
    hash: text('hash').primaryKey(),
    createdAt: integer('created_at').notNull(),
    /** Last seen (ms): a session idle past its limit ends. */
    seenAt: integer('seen_at').notNull(),
    /** The person signed in (issue 45); null: the machine's owner, by the one-time link. */
    userSeq: integer('user_seq').references((): AnySQLiteColumn => users.seq),
    /** 1 until the person's second factor is checked: such a session opens nothing else. */
    totpDue: integer('totp_due').notNull().default(0),
    /** Second-factor codes tried on this pending session (counted before each is checked): the 5th wrong one ends it. */
    totpTries: integer('totp_tries').notNull().default(0),
  },
  (t) => [index('desk_sessions_seen').on(t.seenAt), index('desk_sessions_user').on(t.userSeq)],
);

/**
 * Files staged between two requests (issue 44): a statement a window uploads for a later import, an export made
 * for a later download. They belong to the organization and the person that staged them (issue 51): found by no
 * one else, an upload counted against their quotas while it is kept. A firm's server keeps the bytes in the
 * database, in chunks (the two requests may reach different server processes); a data folder keeps them as
 * files beside its books (desk/staged.ts). Named by an unguessable id, swept after a day.
 */
export const stagedFiles = sqliteTable(
  'staged_files',
  {
    id: text('id').primaryKey(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    kind: text('kind', { enum: STAGED_KINDS }).notNull(),
    name: text('name').notNull(),
    /** Bytes received so far: what counts against the quotas while the upload arrives. */
    sizeBytes: integer('size_bytes').notNull(),
    /** Milliseconds since the epoch. */
    createdAt: integer('created_at').notNull(),
    /** When its last byte arrived; null while it arrives (not readable yet). */
    finishedAt: integer('finished_at'),
    /** The person who staged it; null: the machine's owner (the desktop, a command, the one-time link). */
    stagedBy: integer('staged_by').references((): AnySQLiteColumn => users.seq),
  },
  (t) => [index('staged_files_org_created').on(t.orgSeq, t.createdAt)],
);

export const stagedChunks = sqliteTable(
  'staged_chunks',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    fileId: text('file_id')
      .notNull()
      .references(() => stagedFiles.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.n] })],
);

/**
 * People who sign in to a firm's server (issue 45). Global: a person may hold a role in several organizations
 * (memberships). The password is scrypt's (ledger/access/passwords.ts), null until an invitation link sets it.
 */
export const users = sqliteTable(
  'users',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    /** Lower-cased: one person per address. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    /** A TOTP secret (base32) once the person enrolled a second factor, sealed (ledger/core/secrets: never in clear). */
    totpSecret: text('totp_secret'),
    /** The last time step whose code was accepted: a code is never taken twice. */
    totpStep: integer('totp_step'),
    createdAt: text('created_at').notNull(),
    /** Removed from every organization: kept so that the log still names them. */
    removedAt: text('removed_at'),
  },
  (t) => [uniqueIndex('users_email').on(t.email)],
);

/** A person's role in an organization. Global (found at sign-in, before an organization is chosen); one row per person and organization. */
export const memberships = sqliteTable(
  'memberships',
  {
    userSeq: integer('user_seq')
      .notNull()
      .references(() => users.seq),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userSeq, t.orgSeq] }), index('memberships_org').on(t.orgSeq)],
);

/**
 * One-time invitation (and reset) links: only their SHA-256; valid 7 days, spent once. With org_seq, an invitation of
 * a person who already signs in to join an organization (issue 51): the role and the name the owner gave wait here
 * until the person accepts (signed in, or through the link with their own password).
 */
export const invitations = sqliteTable(
  'invitations',
  {
    hash: text('hash').primaryKey(),
    userSeq: integer('user_seq')
      .notNull()
      .references(() => users.seq),
    expiresAt: integer('expires_at').notNull(),
    orgSeq: integer('org_seq').references(() => organizations.seq),
    role: text('role', { enum: ROLES }),
    /** The name the owner typed: what the organization's People screen shows until the person accepts. */
    name: text('name'),
  },
  (t) => [index('invitations_user').on(t.userSeq), index('invitations_org').on(t.orgSeq)],
);

/**
 * The server's own settings (issue 50), global: today the public address others reach it at, kept once
 * `serve --public-url` (or its own TLS) named it, so that an invitation printed by a command in another shell
 * links there (ledger/access/server-settings.ts).
 */
export const serverSettings = sqliteTable('server_settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/**
 * Sign-in attempts counted before they are checked (issue 51), one row per thing counted: the address typed (whether
 * or not a person has it) and a person's second-factor codes. One statement counts an attempt and answers whether it
 * may be checked (ledger/access/attempts.ts), so parallel guesses on several processes are counted as one sequence.
 */
export const signInLimits = sqliteTable('sign_in_limits', {
  /** What is counted: `address:<SHA-256 of the address>` or `totp:<person id>`. */
  key: text('key').primaryKey(),
  /** Attempts counted since window_start (a success deletes the row). */
  count: integer('count').notNull(),
  /** When the first attempt of this window was counted (ms). */
  windowStart: integer('window_start').notNull(),
  /** Refused until then (ms); 0: not locked. */
  lockedUntil: integer('locked_until').notNull().default(0),
});

/**
 * An organization's outgoing mail (issue 53): its SMTP server, how it is reached, who the messages are from. The
 * password is sealed for its row (core/secrets/sealed.ts), never answered.
 */
export const mailSettings = sqliteTable('mail_settings', {
  seq: integer('seq').primaryKey(),
  id: text('id').notNull().unique(),
  orgSeq: integer('org_seq')
    .notNull()
    .unique()
    .references(() => organizations.seq),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  tls: text('tls', { enum: MAIL_TLS_MODES }).notNull(),
  username: text('username'),
  password: text('password'),
  fromAddress: text('from_address').notNull(),
  replyTo: text('reply_to'),
  updatedAt: text('updated_at').notNull(),
});

/** An organization's own wording of a message per kind (invoice, credit note, statement...): absent, the default (ledger/mail/templates.ts). */
export const mailTemplates = sqliteTable(
  'mail_templates',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.kind] })],
);

/** Each message sent (issue 53): to whom, when, by whom, what it said, and the id the SMTP server gave it; a document's when it carried one. */
export const mailMessages = sqliteTable(
  'mail_messages',
  {
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    /** invoice, credit_note, statement, reminder, test... */
    kind: text('kind').notNull(),
    documentSeq: integer('document_seq').references(() => documents.seq),
    contactSeq: integer('contact_seq').references(() => counterparties.seq),
    /** The addresses it went to, comma-separated; the copy to the sender apart. */
    recipients: text('recipients').notNull(),
    copyTo: text('copy_to'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** The attachment's name, when one went. */
    attachment: text('attachment'),
    /** The message's Message-ID, and the mail server's reply accepting it (its own id of the message, "250 OK: queued as ..."). */
    messageId: text('message_id').notNull(),
    serverReply: text('server_reply'),
    sentAt: text('sent_at').notNull(),
    actorType: text('actor_type', { enum: ACTOR_TYPES }).notNull(),
    actorId: text('actor_id').notNull(),
    actorName: text('actor_name').notNull(),
  },
  (t) => [index('mail_messages_document').on(t.orgSeq, t.documentSeq, t.sentAt)],
);

/** An organization's reminder schedule (issue 53): a step N days from the due date (negative: before it), with its own wording. */
export const reminderSteps = sqliteTable(
  'reminder_steps',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    days: integer('days').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.days] })],
);

/**
 * A reminder taken for an invoice and a step before it is sent (issue 53): its key is unique, so of two processes
 * running the pass at once one takes it and sends, the other skips. Its message once sent; released if sending failed.
 */
export const remindersSent = sqliteTable(
  'reminders_sent',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    documentSeq: integer('document_seq')
      .notNull()
      .references(() => documents.seq),
    days: integer('days').notNull(),
    takenAt: text('taken_at').notNull(),
    messageSeq: integer('message_seq').references(() => mailMessages.seq),
    /** Why its message could not be sent (the mail server's refusal, no mail settings), and when; cleared when it is taken again. */
    failure: text('failure'),
    failedAt: text('failed_at'),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.documentSeq, t.days] })],
);
/** Who answers for an organization's books on the Practice screen (issue 55): one responsible bookkeeper, one reviewer. */
export const practiceAssignments = sqliteTable(
  'practice_assignments',
  {
    orgSeq: integer('org_seq')
      .notNull()
      .references(() => organizations.seq),
    part: text('part', { enum: PRACTICE_PARTS }).notNull(),
    userSeq: integer('user_seq')
      .notNull()
      .references(() => users.seq),
    assignedAt: text('assigned_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgSeq, t.part] }), index('practice_assignments_user').on(t.userSeq)],
);

/**
 * How a person last left the Practice screen (issue 55): its filter and sort, kept on the server so that it follows
 * them to any browser. Global (a person's, across organizations); `holder` is the person's id, or '' for the
 * machine's owner (the desktop app, the one-time link).
 */
export const practiceChoices = sqliteTable('practice_choices', {
  holder: text('holder').primaryKey(),
  /** JSON: { filter, person, sort, descending } (ledger/practice/choice.ts checks it). */
  choice: text('choice').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/**
 * Leases (issue 52): what a process holds for a while so that no other runs it meanwhile (a job's turn, one
 * connector's sync). Taken with one conditional statement; a holder that dies lets it expire.
 */
export const leases = sqliteTable('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  /** Milliseconds since the epoch. */
  expiresAt: integer('expires_at').notNull(),
});

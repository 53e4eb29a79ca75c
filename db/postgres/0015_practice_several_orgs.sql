-- Issue 55 (no SQLite counterpart: row-level security is the server's alone): the Practice screen reads every
-- organization a person may see in one statement a column, not one scope and a statement a column an organization.
-- A connection may be set to several organizations ('{3,7}', to read only): ldk_orgs() gives them, and a second
-- policy on each organization's table (and on the organizations) shows those organizations' rows to SELECT alone,
-- for a role of its own, ledgerdesk_reader, which the driver sets for such a scope. The server's role,
-- ledgerdesk_app, is not a member of it (nor it of ledgerdesk_app): its statements carry the one policy a table they
-- had, where a second policy for PUBLIC was ORed into every statement of every scope (10-20x slower reads).
-- The reader may only SELECT: in a scope of several, no row is written (nor does any pass the first policy's check).
-- Written by hand in the generator's style (scripts/postgres/security.ts): 0000 is frozen as released.

-- The role a scope of several organizations reads as (the Practice screen): SELECT only, and the several-organizations
-- policies are its alone. Not granted to ledgerdesk_app, nor ledgerdesk_app to it: a member would carry its policies.
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ledgerdesk_reader') THEN CREATE ROLE ledgerdesk_reader NOLOGIN; END IF;
  IF NOT pg_has_role(current_user, 'ledgerdesk_reader', 'MEMBER') THEN GRANT ledgerdesk_reader TO CURRENT_USER; END IF;
END $$;

-- The connection's organizations when it is set to several ('{3,7}', to read only); else null, which matches nothing.
-- The policies ask it as (SELECT ldk_orgs()): read once a statement (an InitPlan), not parsed again for every row.
CREATE FUNCTION ldk_orgs() RETURNS bigint[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN current_setting('app.org', true) ~ '^[{][0-9]+(,[0-9]+)*[}]$' THEN current_setting('app.org', true)::bigint[] END
$$;

GRANT USAGE ON SCHEMA public TO ledgerdesk_reader;

GRANT SELECT ON "account_day_totals", "account_month_totals", "accounts", "audit_log", "categories", "connector_accounts", "connector_sign_ins", "connectors", "counterparties", "credit_applications", "deleted_statement_rows", "description_shape_totals", "description_shapes", "document_lines", "documents", "exchange_rates", "feed_held", "feed_pending", "hmrc_connections", "hmrc_submissions", "idempotency_keys", "import_batches", "import_line_changes", "import_mappings", "import_merges", "import_skipped_rows", "invoice_repeat_occurrences", "invoice_repeats", "journal_repeats", "journals", "line_day_totals", "line_month_totals", "lines", "mail_messages", "mail_settings", "mail_templates", "notes", "organization_logos", "postings", "practice_assignments", "proposal_kind_counts", "proposal_status_counts", "proposals", "receipt_files", "receipts", "reconciliation_rows", "reconciliations", "reminder_steps", "reminders_sent", "revaluation_lines", "revaluations", "rules", "split_origins", "staged_chunks", "staged_files", "statements", "tax_codes", "tax_corrections", "tax_rates", "tax_returns", "transaction_day_counts", "transaction_status_counts", "transactions", "organizations", "users" TO ledgerdesk_reader;

CREATE POLICY "account_day_totals_orgs" ON "account_day_totals" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "account_month_totals_orgs" ON "account_month_totals" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "accounts_orgs" ON "accounts" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "audit_log_orgs" ON "audit_log" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "categories_orgs" ON "categories" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "connector_accounts_orgs" ON "connector_accounts" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "connector_sign_ins_orgs" ON "connector_sign_ins" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "connectors_orgs" ON "connectors" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "counterparties_orgs" ON "counterparties" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "credit_applications_orgs" ON "credit_applications" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "deleted_statement_rows_orgs" ON "deleted_statement_rows" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "description_shape_totals_orgs" ON "description_shape_totals" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "description_shapes_orgs" ON "description_shapes" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "document_lines_orgs" ON "document_lines" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "documents_orgs" ON "documents" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "exchange_rates_orgs" ON "exchange_rates" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "feed_held_orgs" ON "feed_held" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "feed_pending_orgs" ON "feed_pending" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "hmrc_connections_orgs" ON "hmrc_connections" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "hmrc_submissions_orgs" ON "hmrc_submissions" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "idempotency_keys_orgs" ON "idempotency_keys" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "import_batches_orgs" ON "import_batches" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "import_line_changes_orgs" ON "import_line_changes" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "import_mappings_orgs" ON "import_mappings" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "import_merges_orgs" ON "import_merges" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "import_skipped_rows_orgs" ON "import_skipped_rows" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "invoice_repeat_occurrences_orgs" ON "invoice_repeat_occurrences" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "invoice_repeats_orgs" ON "invoice_repeats" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "journal_repeats_orgs" ON "journal_repeats" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "journals_orgs" ON "journals" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "line_day_totals_orgs" ON "line_day_totals" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "line_month_totals_orgs" ON "line_month_totals" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "lines_orgs" ON "lines" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "mail_messages_orgs" ON "mail_messages" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "mail_settings_orgs" ON "mail_settings" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "mail_templates_orgs" ON "mail_templates" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "notes_orgs" ON "notes" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "organization_logos_orgs" ON "organization_logos" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "postings_orgs" ON "postings" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "practice_assignments_orgs" ON "practice_assignments" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "proposal_kind_counts_orgs" ON "proposal_kind_counts" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "proposal_status_counts_orgs" ON "proposal_status_counts" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "proposals_orgs" ON "proposals" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "receipt_files_orgs" ON "receipt_files" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "receipts_orgs" ON "receipts" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "reconciliation_rows_orgs" ON "reconciliation_rows" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "reconciliations_orgs" ON "reconciliations" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "reminder_steps_orgs" ON "reminder_steps" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "reminders_sent_orgs" ON "reminders_sent" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "revaluation_lines_orgs" ON "revaluation_lines" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "revaluations_orgs" ON "revaluations" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "rules_orgs" ON "rules" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "split_origins_orgs" ON "split_origins" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "staged_chunks_orgs" ON "staged_chunks" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "staged_files_orgs" ON "staged_files" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "statements_orgs" ON "statements" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "tax_codes_orgs" ON "tax_codes" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "tax_corrections_orgs" ON "tax_corrections" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "tax_rates_orgs" ON "tax_rates" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "tax_returns_orgs" ON "tax_returns" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "transaction_day_counts_orgs" ON "transaction_day_counts" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "transaction_status_counts_orgs" ON "transaction_status_counts" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "transactions_orgs" ON "transactions" FOR SELECT TO ledgerdesk_reader USING ("org_seq" = ANY ((SELECT ldk_orgs())::bigint[]));

CREATE POLICY "organizations_orgs" ON "organizations" FOR SELECT TO ledgerdesk_reader USING ("seq" = ANY ((SELECT ldk_orgs())::bigint[]));

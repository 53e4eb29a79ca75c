-- Issue 44: every table of an organization's books names its organization (org_seq), so that a PostgreSQL
-- server's keys lead with it and row-level security reads it; receipts' files, sign-in codes, desk sessions and
-- staged uploads move into the database. Hand-written: SQLite cannot add a NOT NULL column that references
-- another table, so the new org_seq columns are nullable here (NOT NULL on PostgreSQL) and filled from their parents.
CREATE TABLE `desk_sessions` (
	`hash` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `desk_sessions_seen` ON `desk_sessions` (`seen_at`);--> statement-breakpoint
CREATE TABLE `receipt_files` (
	`org_seq` integer NOT NULL,
	`sha256` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`bytes` blob NOT NULL,
	`stored_at` text NOT NULL,
	PRIMARY KEY(`org_seq`, `sha256`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `sign_in_codes` (
	`hash` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `staged_chunks` (
	`file_id` text NOT NULL,
	`n` integer NOT NULL,
	`bytes` blob NOT NULL,
	PRIMARY KEY(`file_id`, `n`),
	FOREIGN KEY (`file_id`) REFERENCES `staged_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `staged_files` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `staged_files_created` ON `staged_files` (`created_at`);--> statement-breakpoint
DROP TRIGGER totals_account_day_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_account_day_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_account_day_totals_au;--> statement-breakpoint
DROP TRIGGER totals_account_month_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_account_month_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_account_month_totals_au;--> statement-breakpoint
CREATE TABLE `__new_account_day_totals` (
	`org_seq` integer NOT NULL,
	`account_seq` integer NOT NULL,
	`date` text NOT NULL,
	`status` text NOT NULL,
	`reconciled` integer NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	`sum_base` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_seq`, `account_seq`, `date`, `status`, `reconciled`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_account_day_totals` SELECT a.org_seq, t.account_seq, t.date, t.status, t.reconciled, t.n, t.sum_minor, t.sum_base FROM `account_day_totals` t JOIN accounts a ON a.seq = t.account_seq;--> statement-breakpoint
DROP TABLE `account_day_totals`;--> statement-breakpoint
ALTER TABLE `__new_account_day_totals` RENAME TO `account_day_totals`;--> statement-breakpoint
CREATE TABLE `__new_account_month_totals` (
	`org_seq` integer NOT NULL,
	`account_seq` integer NOT NULL,
	`month` text NOT NULL,
	`status` text NOT NULL,
	`reconciled` integer NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	`sum_base` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_seq`, `account_seq`, `month`, `status`, `reconciled`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_account_month_totals` SELECT a.org_seq, t.account_seq, t.month, t.status, t.reconciled, t.n, t.sum_minor, t.sum_base FROM `account_month_totals` t JOIN accounts a ON a.seq = t.account_seq;--> statement-breakpoint
DROP TABLE `account_month_totals`;--> statement-breakpoint
ALTER TABLE `__new_account_month_totals` RENAME TO `account_month_totals`;--> statement-breakpoint
CREATE INDEX `account_day_totals_walk` ON `account_day_totals` (`account_seq`,`date`,`status`,`n`);--> statement-breakpoint
CREATE TABLE `__new_deleted_statement_rows` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer REFERENCES organizations(seq),
	`account_seq` integer NOT NULL,
	`date` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`external_id` text,
	`fingerprint` integer,
	`transaction_id` text NOT NULL,
	`deleted_at` text NOT NULL,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_deleted_statement_rows` (org_seq, account_seq, date, amount_minor, external_id, fingerprint, transaction_id, deleted_at)
  SELECT a.org_seq, d.account_seq, d.date, d.amount_minor, d.external_id, d.fingerprint, d.transaction_id, d.deleted_at FROM `deleted_statement_rows` d JOIN accounts a ON a.seq = d.account_seq;--> statement-breakpoint
DROP TABLE `deleted_statement_rows`;--> statement-breakpoint
ALTER TABLE `__new_deleted_statement_rows` RENAME TO `deleted_statement_rows`;--> statement-breakpoint
CREATE INDEX `deleted_statement_rows_account` ON `deleted_statement_rows` (`account_seq`,`date`);--> statement-breakpoint
ALTER TABLE `document_lines` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `document_lines` SET org_seq = (SELECT p.org_seq FROM documents p WHERE p.seq = `document_lines`.document_seq);--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `idempotency_keys` SET org_seq = (SELECT p.org_seq FROM tokens p WHERE p.seq = `idempotency_keys`.token_seq);--> statement-breakpoint
ALTER TABLE `import_line_changes` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `import_line_changes` SET org_seq = (SELECT p.org_seq FROM import_batches p WHERE p.seq = `import_line_changes`.batch_seq);--> statement-breakpoint
ALTER TABLE `import_merges` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `import_merges` SET org_seq = (SELECT p.org_seq FROM import_batches p WHERE p.seq = `import_merges`.batch_seq);--> statement-breakpoint
ALTER TABLE `import_skipped_rows` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `import_skipped_rows` SET org_seq = (SELECT p.org_seq FROM import_batches p WHERE p.seq = `import_skipped_rows`.batch_seq);--> statement-breakpoint
ALTER TABLE `reconciliation_rows` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `reconciliation_rows` SET org_seq = (SELECT p.org_seq FROM reconciliations p WHERE p.seq = `reconciliation_rows`.reconciliation_seq);--> statement-breakpoint
ALTER TABLE `split_origins` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `split_origins` SET org_seq = (SELECT p.org_seq FROM transactions p WHERE p.seq = `split_origins`.transaction_seq);--> statement-breakpoint
ALTER TABLE `statements` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `statements` SET org_seq = (SELECT p.org_seq FROM import_batches p WHERE p.seq = `statements`.batch_seq);--> statement-breakpoint
ALTER TABLE `tax_rates` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
UPDATE `tax_rates` SET org_seq = (SELECT p.org_seq FROM tax_codes p WHERE p.seq = `tax_rates`.tax_code_seq);--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_day_totals (org_seq, account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO account_day_totals (org_seq, account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.account_seq, OLD.date, OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_au AFTER UPDATE OF org_seq, account_seq, date, status, reconciled, amount_minor, base_minor ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.account_seq IS NOT NEW.account_seq OR OLD.date IS NOT NEW.date OR OLD.status IS NOT NEW.status OR OLD.reconciled IS NOT NEW.reconciled OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO account_day_totals (org_seq, account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.account_seq, OLD.date, OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO account_day_totals (org_seq, account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_month_totals (org_seq, account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO account_month_totals (org_seq, account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.account_seq, substr(OLD.date, 1, 7), OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_au AFTER UPDATE OF org_seq, account_seq, date, status, reconciled, amount_minor, base_minor ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.account_seq IS NOT NEW.account_seq OR OLD.date IS NOT NEW.date OR OLD.status IS NOT NEW.status OR OLD.reconciled IS NOT NEW.reconciled OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO account_month_totals (org_seq, account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.account_seq, substr(OLD.date, 1, 7), OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO account_month_totals (org_seq, account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;

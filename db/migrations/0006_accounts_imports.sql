-- Generated tables and columns, then custom SQL: every transaction gets an
-- account. Existing rows go to one default account per (organization, source,
-- currency): bankfeed -> "Bank account" (checking), paymentproc -> "Payment
-- processor" (payment_processor), manual_csv -> "Manual entries" (cash), the
-- currency named after the name when it is not the organization's. The new
-- indexes are built after the backfill (cheaper than keeping them up to date
-- through it), then the per-account day totals and their triggers.
CREATE TABLE `account_day_totals` (
	`account_seq` integer NOT NULL,
	`date` text NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`account_seq`, `date`, `status`)
);
--> statement-breakpoint
CREATE TABLE `accounts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`currency` text NOT NULL,
	`opening_balance_minor` integer DEFAULT 0 NOT NULL,
	`opening_date` text,
	`masked_number` text,
	`bank_account_id` text,
	`created_at` text NOT NULL,
	`closed_at` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_id_unique` ON `accounts` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_org_name` ON `accounts` (`org_seq`,lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_org_bank_account` ON `accounts` (`org_seq`,`bank_account_id`) WHERE "accounts"."bank_account_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `import_batches` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`format` text NOT NULL,
	`file_name` text NOT NULL,
	`file_sha256` text NOT NULL,
	`created_at` text NOT NULL,
	`rows` integer NOT NULL,
	`imported` integer NOT NULL,
	`duplicates` integer NOT NULL,
	`merged` integer NOT NULL,
	`skipped` integer NOT NULL,
	`options` text DEFAULT '{}' NOT NULL,
	`undone_at` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_batches_id_unique` ON `import_batches` (`id`);--> statement-breakpoint
CREATE INDEX `import_batches_org` ON `import_batches` (`org_seq`,`seq`);--> statement-breakpoint
CREATE TABLE `import_mappings` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`account_seq` integer,
	`name` text NOT NULL,
	`mapping` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_mappings_id_unique` ON `import_mappings` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `import_mappings_org_name` ON `import_mappings` (`org_seq`,lower("name"));--> statement-breakpoint
CREATE INDEX `import_mappings_account` ON `import_mappings` (`account_seq`);--> statement-breakpoint
CREATE TABLE `import_merges` (
	`batch_seq` integer NOT NULL,
	`transaction_seq` integer NOT NULL,
	`previous_date` text NOT NULL,
	`previous_external_id` text,
	PRIMARY KEY(`batch_seq`, `transaction_seq`),
	FOREIGN KEY (`batch_seq`) REFERENCES `import_batches`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `statements` (
	`seq` integer PRIMARY KEY NOT NULL,
	`batch_seq` integer NOT NULL,
	`account_seq` integer NOT NULL,
	`period_from` text,
	`period_to` text,
	`opening_date` text,
	`opening_minor` integer,
	`closing_date` text,
	`closing_minor` integer,
	`rows` integer NOT NULL,
	`imported` integer NOT NULL,
	FOREIGN KEY (`batch_seq`) REFERENCES `import_batches`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `statements_account` ON `statements` (`account_seq`,`batch_seq`);--> statement-breakpoint
CREATE INDEX `statements_batch` ON `statements` (`batch_seq`);--> statement-breakpoint
ALTER TABLE `transactions` ADD `account_seq` integer REFERENCES accounts(seq);--> statement-breakpoint
ALTER TABLE `transactions` ADD `origin` text DEFAULT 'feed' NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `import_batch_seq` integer REFERENCES import_batches(seq);--> statement-breakpoint
ALTER TABLE `transactions` ADD `fingerprint` integer;
--> statement-breakpoint
CREATE TEMP TABLE _account_backfill AS SELECT DISTINCT org_seq, source, currency FROM transactions;
--> statement-breakpoint
INSERT INTO accounts (id, org_seq, name, type, currency, opening_balance_minor, created_at)
  SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-'
           || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
         b.org_seq,
         CASE b.source WHEN 'bankfeed' THEN 'Bank account' WHEN 'paymentproc' THEN 'Payment processor' ELSE 'Manual entries' END
           || CASE WHEN b.currency <> o.currency THEN ' (' || b.currency || ')' ELSE '' END,
         CASE b.source WHEN 'bankfeed' THEN 'checking' WHEN 'paymentproc' THEN 'payment_processor' ELSE 'cash' END,
         b.currency, 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM _account_backfill b JOIN organizations o ON o.seq = b.org_seq ORDER BY b.org_seq, b.source, b.currency;
--> statement-breakpoint
UPDATE transactions SET account_seq = (
  SELECT a.seq FROM accounts a
  WHERE a.org_seq = transactions.org_seq AND a.currency = transactions.currency
    AND a.type = CASE transactions.source WHEN 'bankfeed' THEN 'checking' WHEN 'paymentproc' THEN 'payment_processor' ELSE 'cash' END);
--> statement-breakpoint
DROP TABLE _account_backfill;
--> statement-breakpoint
UPDATE transactions SET origin = 'agent' WHERE id IN (
  SELECT substr(summary, instr(summary, ': transaction ') + 14, 36) FROM audit_log
  WHERE action = 'proposal.approved' AND summary LIKE 'Approved journal entry proposal by %: transaction %');
--> statement-breakpoint
CREATE INDEX `transactions_account_date` ON `transactions` (`account_seq`,`date`,`amount_minor`);--> statement-breakpoint
CREATE INDEX `transactions_account_external` ON `transactions` (`account_seq`,`external_id`) WHERE "transactions"."external_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `transactions_import_batch` ON `transactions` (`import_batch_seq`) WHERE "transactions"."import_batch_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `transactions_match_candidates` ON `transactions` (`account_seq`,`amount_minor`,`date`) WHERE "transactions"."origin" IN ('manual', 'agent') AND "transactions"."import_batch_seq" IS NULL;
--> statement-breakpoint
INSERT INTO account_day_totals (account_seq, date, status, n, sum_minor)
  SELECT account_seq, date, status, count(*), sum(amount_minor) FROM transactions GROUP BY account_seq, date, status;
--> statement-breakpoint
CREATE TRIGGER transactions_require_account BEFORE INSERT ON transactions
  WHEN NEW.account_seq IS NULL OR NEW.currency IS NOT (SELECT currency FROM accounts WHERE seq = NEW.account_seq) BEGIN
  SELECT RAISE(ABORT, 'every transaction belongs to an account of its currency');
END;
--> statement-breakpoint
CREATE TRIGGER transactions_require_account_update BEFORE UPDATE OF account_seq, currency ON transactions
  WHEN NEW.account_seq IS NULL OR NEW.currency IS NOT (SELECT currency FROM accounts WHERE seq = NEW.account_seq) BEGIN
  SELECT RAISE(ABORT, 'every transaction belongs to an account of its currency');
END;
--> statement-breakpoint
CREATE TRIGGER transactions_accounts_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, n, sum_minor) VALUES (NEW.account_seq, NEW.date, NEW.status, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, date, status) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_accounts_ad AFTER DELETE ON transactions BEGIN
  UPDATE account_day_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND date = OLD.date AND status = OLD.status;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_accounts_au AFTER UPDATE OF account_seq, date, status, amount_minor ON transactions BEGIN
  UPDATE account_day_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND date = OLD.date AND status = OLD.status;
  INSERT INTO account_day_totals (account_seq, date, status, n, sum_minor) VALUES (NEW.account_seq, NEW.date, NEW.status, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, date, status) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;

CREATE TABLE `journal_repeats` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`narration` text NOT NULL,
	`lines` text NOT NULL,
	`first_date` text NOT NULL,
	`until` text,
	`count` integer,
	`reverse_days` integer,
	`made` integer DEFAULT 0 NOT NULL,
	`next_date` text,
	`stopped_at` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `journal_repeats_id_unique` ON `journal_repeats` (`id`);--> statement-breakpoint
CREATE INDEX `journal_repeats_due` ON `journal_repeats` (`org_seq`,`next_date`) WHERE "journal_repeats"."next_date" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `journals` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`number` integer,
	`date` text NOT NULL,
	`narration` text NOT NULL,
	`reverses_seq` integer,
	`repeat_seq` integer,
	`tax_return_seq` integer,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reverses_seq`) REFERENCES `journals`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`repeat_seq`) REFERENCES `journal_repeats`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tax_return_seq`) REFERENCES `tax_returns`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `journals_id_unique` ON `journals` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `journals_org_number` ON `journals` (`org_seq`,`number`) WHERE "journals"."number" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `journals_opening` ON `journals` (`org_seq`) WHERE "journals"."kind" = 'opening';--> statement-breakpoint
CREATE UNIQUE INDEX `journals_reverses` ON `journals` (`reverses_seq`) WHERE "journals"."reverses_seq" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `journals_repeat_date` ON `journals` (`repeat_seq`,`date`) WHERE "journals"."repeat_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `journals_org_date` ON `journals` (`org_seq`,`date`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_postings` (
	`seq` integer PRIMARY KEY NOT NULL,
	`document_seq` integer,
	`journal_seq` integer,
	`account_seq` integer,
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`category_seq` integer,
	`settles_seq` integer,
	`contact_seq` integer,
	`date` text NOT NULL,
	`currency` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`base_minor` integer,
	`memo` text,
	`tax_code_seq` integer,
	`tax_minor` integer,
	`tax_return_seq` integer,
	FOREIGN KEY (`document_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`journal_seq`) REFERENCES `journals`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_seq`) REFERENCES `categories`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`settles_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_seq`) REFERENCES `counterparties`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tax_code_seq`) REFERENCES `tax_codes`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tax_return_seq`) REFERENCES `tax_returns`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_postings`("seq", "document_seq", "journal_seq", "account_seq", "org_seq", "kind", "category_seq", "settles_seq", "contact_seq", "date", "currency", "amount_minor", "base_minor", "memo", "tax_code_seq", "tax_minor", "tax_return_seq") SELECT "seq", "document_seq", NULL, NULL, "org_seq", "kind", "category_seq", "settles_seq", "contact_seq", "date", "currency", "amount_minor", "base_minor", "memo", "tax_code_seq", "tax_minor", "tax_return_seq" FROM `postings`;--> statement-breakpoint
DROP TABLE `postings`;--> statement-breakpoint
ALTER TABLE `__new_postings` RENAME TO `postings`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `postings_document` ON `postings` (`document_seq`);--> statement-breakpoint
CREATE INDEX `postings_settles` ON `postings` (`settles_seq`,`date`) WHERE "postings"."settles_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `postings_contact` ON `postings` (`contact_seq`,`date`) WHERE "postings"."kind" IN ('receivable', 'payable');--> statement-breakpoint
CREATE INDEX `postings_category_date` ON `postings` (`org_seq`,`category_seq`,`currency`,`date`) WHERE "postings"."category_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `postings_kind_date` ON `postings` (`org_seq`,`kind`,`currency`,`date`);--> statement-breakpoint
CREATE INDEX `postings_tax_date` ON `postings` (`org_seq`,`currency`,`date`,`tax_code_seq`) WHERE "postings"."tax_code_seq" IS NOT NULL AND "postings"."kind" = 'category';--> statement-breakpoint
CREATE INDEX `postings_journal` ON `postings` (`journal_seq`) WHERE "postings"."journal_seq" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `journal_seq` integer REFERENCES journals(seq);--> statement-breakpoint
CREATE INDEX `transactions_journal` ON `transactions` (`journal_seq`) WHERE "transactions"."journal_seq" IS NOT NULL;--> statement-breakpoint
-- The rebuilt postings table takes back the triggers that keep its totals (totals/declared.ts; the rows were copied, not inserted: the totals stand).
CREATE TRIGGER totals_line_day_totals_postings_ai AFTER INSERT ON postings BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_ad AFTER DELETE ON postings BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor, base_minor ON postings WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_ai AFTER INSERT ON postings BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_ad AFTER DELETE ON postings BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor, base_minor ON postings WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;

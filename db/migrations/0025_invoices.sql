-- Invoices, credit notes and bills (issue 29): the documents, their lines, the postings of issued ones (summed into the line totals
-- by triggers like the lines'), a bank line's settled document or contact, and the organization's invoice settings.
CREATE TABLE `document_lines` (
	`document_seq` integer NOT NULL,
	`position` integer NOT NULL,
	`description` text NOT NULL,
	`quantity_milli` integer NOT NULL,
	`unit_price_minor` integer NOT NULL,
	`category_seq` integer NOT NULL,
	`tax_code_seq` integer,
	`net_minor` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	PRIMARY KEY(`document_seq`, `position`),
	FOREIGN KEY (`document_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_seq`) REFERENCES `categories`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tax_code_seq`) REFERENCES `tax_codes`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `documents` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`state` text NOT NULL,
	`contact_seq` integer NOT NULL,
	`number` text NOT NULL,
	`issue_date` text NOT NULL,
	`due_date` text NOT NULL,
	`currency` text NOT NULL,
	`tax_inclusive` integer DEFAULT 0 NOT NULL,
	`credits_seq` integer,
	`net_minor` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	`total_minor` integer NOT NULL,
	`settled_minor` integer DEFAULT 0 NOT NULL,
	`settled_on` text,
	`notes` text,
	`payment_instructions` text,
	`receipt_seq` integer,
	`created_at` text NOT NULL,
	`issued_at` text,
	`void_date` text,
	`void_reason` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_seq`) REFERENCES `counterparties`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`credits_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`receipt_seq`) REFERENCES `receipts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_id_unique` ON `documents` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `documents_org_number` ON `documents` (`org_seq`,`kind`,lower("number")) WHERE "documents"."kind" <> 'bill';--> statement-breakpoint
CREATE UNIQUE INDEX `documents_vendor_number` ON `documents` (`contact_seq`,lower("number")) WHERE "documents"."kind" = 'bill';--> statement-breakpoint
CREATE INDEX `documents_open` ON `documents` (`org_seq`,`kind`,`settled_on`,`issue_date`) WHERE "documents"."state" <> 'draft';--> statement-breakpoint
CREATE INDEX `documents_contact` ON `documents` (`contact_seq`,`issue_date`);--> statement-breakpoint
CREATE INDEX `documents_number` ON `documents` (`org_seq`,lower("number"));--> statement-breakpoint
CREATE TABLE `postings` (
	`seq` integer PRIMARY KEY NOT NULL,
	`document_seq` integer NOT NULL,
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`category_seq` integer,
	`settles_seq` integer,
	`contact_seq` integer,
	`date` text NOT NULL,
	`currency` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`memo` text,
	`tax_code_seq` integer,
	`tax_minor` integer,
	`tax_return_seq` integer,
	FOREIGN KEY (`document_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_seq`) REFERENCES `categories`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`settles_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_seq`) REFERENCES `counterparties`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tax_code_seq`) REFERENCES `tax_codes`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tax_return_seq`) REFERENCES `tax_returns`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `postings_document` ON `postings` (`document_seq`);--> statement-breakpoint
CREATE INDEX `postings_settles` ON `postings` (`settles_seq`,`date`) WHERE "postings"."settles_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `postings_contact` ON `postings` (`contact_seq`,`date`) WHERE "postings"."kind" IN ('receivable', 'payable');--> statement-breakpoint
CREATE INDEX `postings_category_date` ON `postings` (`org_seq`,`category_seq`,`currency`,`date`) WHERE "postings"."category_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `postings_kind_date` ON `postings` (`org_seq`,`kind`,`currency`,`date`);--> statement-breakpoint
CREATE INDEX `postings_tax_date` ON `postings` (`org_seq`,`currency`,`date`,`tax_code_seq`) WHERE "postings"."tax_code_seq" IS NOT NULL AND "postings"."kind" = 'category';--> statement-breakpoint
ALTER TABLE `lines` ADD `settles_seq` integer REFERENCES documents(seq);--> statement-breakpoint
ALTER TABLE `lines` ADD `contact_seq` integer REFERENCES counterparties(seq);--> statement-breakpoint
CREATE INDEX `lines_settles` ON `lines` (`settles_seq`,`date`) WHERE "lines"."settles_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `lines_contact` ON `lines` (`contact_seq`,`date`) WHERE "lines"."contact_seq" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `address` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `tax_number` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `payment_instructions` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `invoice_prefix` text DEFAULT 'INV-' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `invoice_next` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `credit_note_prefix` text DEFAULT 'CN-' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `credit_note_next` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `report_basis` text DEFAULT 'accrual' NOT NULL;--> statement-breakpoint
CREATE INDEX `counterparties_org_name` ON `counterparties` (`org_seq`,`name`);
--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_ai AFTER INSERT ON postings BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_ad AFTER DELETE ON postings BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor ON postings WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_ai AFTER INSERT ON postings BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_ad AFTER DELETE ON postings BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor ON postings WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;

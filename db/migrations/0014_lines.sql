-- Issue 27: every transaction a balanced entry. The transaction row is the entry's money-account line; the new
-- `lines` table holds its other lines (WITHOUT ROWID: keyed by entry and position, an import appends), and
-- lines refer to categories by identity. Every existing row becomes a balanced entry here: one category line
-- (its category by name, resolved to the chart; a name the chart lacks becomes an ad-hoc category, code '')
-- or one suspense line (uncategorized), amount the row's amount negated. The row keeps the category it shows
-- as category_seq; migration 0015 drops the names. The lines' totals are counted from the lines, then kept by
-- the triggers the declaration derives (src/main/ledger/totals/declared.ts).
CREATE TABLE `line_day_totals` (
	`org_seq` integer NOT NULL,
	`currency` text NOT NULL,
	`date` text NOT NULL,
	`kind` text NOT NULL,
	`category_seq` integer NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `currency`, `date`, `kind`, `category_seq`)
);
--> statement-breakpoint
CREATE TABLE `line_month_totals` (
	`org_seq` integer NOT NULL,
	`currency` text NOT NULL,
	`month` text NOT NULL,
	`kind` text NOT NULL,
	`category_seq` integer NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `currency`, `month`, `kind`, `category_seq`)
);
--> statement-breakpoint
CREATE TABLE `lines` (
	`transaction_seq` integer NOT NULL,
	`position` integer NOT NULL,
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`category_seq` integer,
	`account_seq` integer,
	`counterpart_seq` integer,
	`date` text NOT NULL,
	`currency` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`memo` text,
	PRIMARY KEY(`transaction_seq`, `position`),
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_seq`) REFERENCES `categories`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`counterpart_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `lines_category_date` ON `lines` (`org_seq`,`category_seq`,`date`) WHERE "lines"."category_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `lines_transfer_date` ON `lines` (`org_seq`,`date`) WHERE "lines"."kind" = 'transfer';--> statement-breakpoint
CREATE INDEX `lines_in_transit` ON `lines` (`account_seq`,`amount_minor`,`date`) WHERE "lines"."kind" = 'transfer' AND "lines"."counterpart_seq" IS NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `fiscal_year_start` text DEFAULT '01-01' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `locked_through` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `category_seq` integer REFERENCES categories(seq);--> statement-breakpoint
CREATE TABLE `import_line_changes` (
	`batch_seq` integer NOT NULL,
	`transaction_seq` integer NOT NULL,
	`previous_lines` text NOT NULL,
	PRIMARY KEY(`batch_seq`, `transaction_seq`),
	FOREIGN KEY (`batch_seq`) REFERENCES `import_batches`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `rules` ADD `split` text;
--> statement-breakpoint
INSERT INTO `categories` (`org_seq`, `code`, `name`, `type`)
  SELECT t.`org_seq`, '', min(t.`category`), CASE WHEN sum(t.`amount_minor`) >= 0 THEN 'revenue' ELSE 'expense' END
  FROM `transactions` t
  WHERE t.`category` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `categories` c WHERE c.`org_seq` = t.`org_seq` AND lower(c.`name`) = lower(t.`category`))
  GROUP BY t.`org_seq`, lower(t.`category`);--> statement-breakpoint
UPDATE `transactions` SET `category_seq` = (SELECT c.`seq` FROM `categories` c WHERE c.`org_seq` = `transactions`.`org_seq` AND lower(c.`name`) = lower(`transactions`.`category`))
  WHERE `category` IS NOT NULL;--> statement-breakpoint
INSERT INTO `lines` (`transaction_seq`, `position`, `org_seq`, `kind`, `category_seq`, `account_seq`, `counterpart_seq`, `date`, `currency`, `amount_minor`, `memo`)
  SELECT `seq`, 0, `org_seq`, CASE WHEN `category_seq` IS NULL THEN 'suspense' ELSE 'category' END, `category_seq`, NULL, NULL, `date`, `currency`, -`amount_minor`, NULL
  FROM `transactions` ORDER BY `seq`;--> statement-breakpoint
INSERT INTO `line_day_totals` (`org_seq`, `currency`, `date`, `kind`, `category_seq`, `n`, `sum_minor`)
  SELECT `org_seq`, `currency`, `date`, `kind`, coalesce(`category_seq`, 0), count(*), sum(`amount_minor`) FROM `lines` GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
INSERT INTO `line_month_totals` (`org_seq`, `currency`, `month`, `kind`, `category_seq`, `n`, `sum_minor`)
  SELECT `org_seq`, `currency`, substr(`date`, 1, 7), `kind`, coalesce(`category_seq`, 0), count(*), sum(`amount_minor`) FROM `lines` GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
CREATE TRIGGER lines_follow_entry_date AFTER UPDATE OF date ON transactions WHEN OLD.date IS NOT NEW.date BEGIN
  UPDATE lines SET date = NEW.date WHERE transaction_seq = NEW.seq;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_ai AFTER INSERT ON lines BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_ad AFTER DELETE ON lines BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor ON lines WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_ai AFTER INSERT ON lines BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_ad AFTER DELETE ON lines BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor ON lines WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;

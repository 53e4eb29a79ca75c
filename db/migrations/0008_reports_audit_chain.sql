CREATE TABLE `account_month_totals` (
	`account_seq` integer NOT NULL,
	`month` text NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`account_seq`, `month`, `status`)
);
--> statement-breakpoint
CREATE TABLE `category_day_totals` (
	`org_seq` integer NOT NULL,
	`category` text NOT NULL,
	`date` text NOT NULL,
	`currency` text NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `currency`, `date`, `category`)
);
--> statement-breakpoint
CREATE TABLE `category_month_totals` (
	`org_seq` integer NOT NULL,
	`category` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `currency`, `month`, `category`)
);
--> statement-breakpoint
ALTER TABLE `audit_log` ADD `prev_hash` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `hash` text;--> statement-breakpoint
-- Custom SQL: movements per (organization, currency, day, category) for the
-- profit and loss, backfilled and kept by triggers ('' is uncategorized).
INSERT INTO category_day_totals (org_seq, category, date, currency, n, sum_minor)
  SELECT org_seq, coalesce(category, ''), date, currency, count(*), sum(amount_minor) FROM transactions GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER transactions_categories_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO category_day_totals (org_seq, category, date, currency, n, sum_minor) VALUES (NEW.org_seq, coalesce(NEW.category, ''), NEW.date, NEW.currency, 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, category) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_categories_ad AFTER DELETE ON transactions BEGIN
  UPDATE category_day_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE org_seq = OLD.org_seq AND currency = OLD.currency AND date = OLD.date AND category = coalesce(OLD.category, '');
END;
--> statement-breakpoint
CREATE TRIGGER transactions_categories_au AFTER UPDATE OF org_seq, category, date, amount_minor, currency ON transactions BEGIN
  UPDATE category_day_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE org_seq = OLD.org_seq AND currency = OLD.currency AND date = OLD.date AND category = coalesce(OLD.category, '');
  INSERT INTO category_day_totals (org_seq, category, date, currency, n, sum_minor) VALUES (NEW.org_seq, coalesce(NEW.category, ''), NEW.date, NEW.currency, 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, category) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
-- The audit log becomes a hash chain per organization (hashes written by the
-- build, backfilled in JS right after this migration). An entry's hash is
-- written once: an update of an entry that has one is refused, as before.
DROP TRIGGER audit_log_no_update;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log WHEN OLD.hash IS NOT NULL BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
--> statement-breakpoint
CREATE INDEX audit_unhashed ON audit_log (seq) WHERE hash IS NULL;
--> statement-breakpoint
-- Month totals beside the day totals: whole months of a report, and every month
-- before a balance's date, are a few rows each.
INSERT INTO category_month_totals (org_seq, category, month, currency, n, sum_minor)
  SELECT org_seq, category, substr(date, 1, 7), currency, sum(n), sum(sum_minor) FROM category_day_totals GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO account_month_totals (account_seq, month, status, n, sum_minor)
  SELECT account_seq, substr(date, 1, 7), status, sum(n), sum(sum_minor) FROM account_day_totals GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER transactions_months_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO category_month_totals (org_seq, category, month, currency, n, sum_minor) VALUES (NEW.org_seq, coalesce(NEW.category, ''), substr(NEW.date, 1, 7), NEW.currency, 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, category) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO account_month_totals (account_seq, month, status, n, sum_minor) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, month, status) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_months_ad AFTER DELETE ON transactions BEGIN
  UPDATE category_month_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE org_seq = OLD.org_seq AND currency = OLD.currency AND month = substr(OLD.date, 1, 7) AND category = coalesce(OLD.category, '');
  UPDATE account_month_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND month = substr(OLD.date, 1, 7) AND status = OLD.status;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_months_au_category AFTER UPDATE OF org_seq, category, date, amount_minor, currency ON transactions BEGIN
  UPDATE category_month_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE org_seq = OLD.org_seq AND currency = OLD.currency AND month = substr(OLD.date, 1, 7) AND category = coalesce(OLD.category, '');
  INSERT INTO category_month_totals (org_seq, category, month, currency, n, sum_minor) VALUES (NEW.org_seq, coalesce(NEW.category, ''), substr(NEW.date, 1, 7), NEW.currency, 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, category) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_months_au_account AFTER UPDATE OF account_seq, date, status, amount_minor ON transactions BEGIN
  UPDATE account_month_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND month = substr(OLD.date, 1, 7) AND status = OLD.status;
  INSERT INTO account_month_totals (account_seq, month, status, n, sum_minor) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, month, status) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;

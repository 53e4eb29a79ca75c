-- Issue 25. A row's status becomes a view of facts kept apart: its category,
-- whether a person said it needs a receipt, whether a reconciliation cleared
-- it. The precedence (ledger/status.ts): a row without a category reads
-- uncategorized, whatever else holds, so reconciled rows that were never
-- categorized come back to review. Account totals keep reconciled rows apart
-- (the reconciled balance no longer reads the status). Organizations get the
-- decimal mark typed amounts are read with, and can be removed while empty.
ALTER TABLE `organizations` ADD `decimal_mark` text DEFAULT '.' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `removed_at` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `reconciled` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `receipt_needed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The facts, from the stored status (no trigger watches these two columns).
UPDATE transactions SET reconciled = 1 WHERE status = 'reconciled';--> statement-breakpoint
UPDATE transactions SET receipt_needed = 1 WHERE status = 'receipt_missing'
  OR seq IN (SELECT transaction_seq FROM reconciliation_rows WHERE previous_status = 'receipt_missing');--> statement-breakpoint
DROP TRIGGER transactions_accounts_ai;--> statement-breakpoint
DROP TRIGGER transactions_accounts_ad;--> statement-breakpoint
DROP TRIGGER transactions_accounts_au;--> statement-breakpoint
DROP TRIGGER transactions_months_ai;--> statement-breakpoint
DROP TRIGGER transactions_months_ad;--> statement-breakpoint
DROP TRIGGER transactions_months_au_account;--> statement-breakpoint
DROP TABLE `account_day_totals`;--> statement-breakpoint
DROP TABLE `account_month_totals`;--> statement-breakpoint
CREATE TABLE `account_day_totals` (
	`account_seq` integer NOT NULL,
	`date` text NOT NULL,
	`status` text NOT NULL,
	`reconciled` integer NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`account_seq`, `date`, `status`, `reconciled`)
);
--> statement-breakpoint
CREATE TABLE `account_month_totals` (
	`account_seq` integer NOT NULL,
	`month` text NOT NULL,
	`status` text NOT NULL,
	`reconciled` integer NOT NULL,
	`n` integer NOT NULL,
	`sum_minor` integer NOT NULL,
	PRIMARY KEY(`account_seq`, `month`, `status`, `reconciled`)
);
--> statement-breakpoint
-- The status as the view of the facts (the day and status counts follow by their triggers).
UPDATE transactions SET status = CASE WHEN category IS NULL THEN 'uncategorized' WHEN receipt_needed = 1 THEN 'receipt_missing' WHEN reconciled = 1 THEN 'reconciled'
    WHEN status = 'agent_suggested' THEN 'agent_suggested' ELSE 'matched' END
  WHERE status IS NOT CASE WHEN category IS NULL THEN 'uncategorized' WHEN receipt_needed = 1 THEN 'receipt_missing' WHEN reconciled = 1 THEN 'reconciled'
    WHEN status = 'agent_suggested' THEN 'agent_suggested' ELSE 'matched' END;--> statement-breakpoint
INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor)
  SELECT account_seq, date, status, reconciled, count(*), sum(amount_minor) FROM transactions GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor)
  SELECT account_seq, substr(date, 1, 7), status, reconciled, sum(n), sum(sum_minor) FROM account_day_totals GROUP BY 1, 2, 3, 4;--> statement-breakpoint
CREATE INDEX `account_day_totals_walk` ON `account_day_totals` (`account_seq`,`date`,`status`,`n`);--> statement-breakpoint
CREATE TRIGGER transactions_accounts_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER transactions_accounts_ad AFTER DELETE ON transactions BEGIN
  UPDATE account_day_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND date = OLD.date AND status = OLD.status AND reconciled = OLD.reconciled;
  UPDATE account_month_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND month = substr(OLD.date, 1, 7) AND status = OLD.status AND reconciled = OLD.reconciled;
END;--> statement-breakpoint
CREATE TRIGGER transactions_accounts_au AFTER UPDATE OF account_seq, date, status, reconciled, amount_minor ON transactions BEGIN
  UPDATE account_day_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND date = OLD.date AND status = OLD.status AND reconciled = OLD.reconciled;
  UPDATE account_month_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE account_seq = OLD.account_seq AND month = substr(OLD.date, 1, 7) AND status = OLD.status AND reconciled = OLD.reconciled;
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER transactions_months_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO category_month_totals (org_seq, category, month, currency, n, sum_minor) VALUES (NEW.org_seq, coalesce(NEW.category, ''), substr(NEW.date, 1, 7), NEW.currency, 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, category) DO UPDATE SET n = n + 1, sum_minor = sum_minor + excluded.sum_minor;
END;--> statement-breakpoint
CREATE TRIGGER transactions_months_ad AFTER DELETE ON transactions BEGIN
  UPDATE category_month_totals SET n = n - 1, sum_minor = sum_minor - OLD.amount_minor
    WHERE org_seq = OLD.org_seq AND currency = OLD.currency AND month = substr(OLD.date, 1, 7) AND category = coalesce(OLD.category, '');
END;

-- Issue 30: every line keeps its amount in the organization's base currency beside its own (rows in the base
-- currency: the same amount; rows in another currency from before rates: null, awaiting a rate, valued when one
-- arrives), and the account and line totals sum it too (sum_base), kept by the triggers the declaration derives
-- (src/main/ledger/totals/declared.ts; regenerated here: they now watch base_minor).
ALTER TABLE `account_day_totals` ADD `sum_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `account_month_totals` ADD `sum_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `line_day_totals` ADD `sum_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `line_month_totals` ADD `sum_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `lines` ADD `base_minor` integer;--> statement-breakpoint
ALTER TABLE `postings` ADD `base_minor` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `base_minor` integer;--> statement-breakpoint
UPDATE transactions SET base_minor = amount_minor WHERE currency = (SELECT o.currency FROM organizations o WHERE o.seq = transactions.org_seq);--> statement-breakpoint
UPDATE lines SET base_minor = amount_minor WHERE currency = (SELECT o.currency FROM organizations o WHERE o.seq = lines.org_seq);--> statement-breakpoint
UPDATE postings SET base_minor = amount_minor WHERE currency = (SELECT o.currency FROM organizations o WHERE o.seq = postings.org_seq);--> statement-breakpoint
UPDATE line_day_totals SET sum_base = sum_minor WHERE currency = (SELECT o.currency FROM organizations o WHERE o.seq = line_day_totals.org_seq);--> statement-breakpoint
UPDATE line_month_totals SET sum_base = sum_minor WHERE currency = (SELECT o.currency FROM organizations o WHERE o.seq = line_month_totals.org_seq);--> statement-breakpoint
UPDATE account_day_totals SET sum_base = sum_minor WHERE account_seq IN (SELECT a.seq FROM accounts a JOIN organizations o ON o.seq = a.org_seq WHERE a.currency = o.currency);--> statement-breakpoint
UPDATE account_month_totals SET sum_base = sum_minor WHERE account_seq IN (SELECT a.seq FROM accounts a JOIN organizations o ON o.seq = a.org_seq WHERE a.currency = o.currency);--> statement-breakpoint
CREATE INDEX `transactions_unvalued` ON `transactions` (`org_seq`,`currency`,`date`) WHERE "transactions"."base_minor" IS NULL;--> statement-breakpoint
DROP TRIGGER totals_account_day_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_account_day_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_account_day_totals_au;--> statement-breakpoint
DROP TRIGGER totals_account_month_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_account_month_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_account_month_totals_au;--> statement-breakpoint
DROP TRIGGER totals_line_day_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_line_day_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_line_day_totals_au;--> statement-breakpoint
DROP TRIGGER totals_line_month_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_line_month_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_line_month_totals_au;--> statement-breakpoint
DROP TRIGGER totals_line_day_totals_postings_ai;--> statement-breakpoint
DROP TRIGGER totals_line_day_totals_postings_ad;--> statement-breakpoint
DROP TRIGGER totals_line_day_totals_postings_au;--> statement-breakpoint
DROP TRIGGER totals_line_month_totals_postings_ai;--> statement-breakpoint
DROP TRIGGER totals_line_month_totals_postings_ad;--> statement-breakpoint
DROP TRIGGER totals_line_month_totals_postings_au;--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.account_seq, OLD.date, OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_au AFTER UPDATE OF account_seq, date, status, reconciled, amount_minor, base_minor ON transactions WHEN OLD.account_seq IS NOT NEW.account_seq OR OLD.date IS NOT NEW.date OR OLD.status IS NOT NEW.status OR OLD.reconciled IS NOT NEW.reconciled OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.account_seq, OLD.date, OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.account_seq, substr(OLD.date, 1, 7), OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_au AFTER UPDATE OF account_seq, date, status, reconciled, amount_minor, base_minor ON transactions WHEN OLD.account_seq IS NOT NEW.account_seq OR OLD.date IS NOT NEW.date OR OLD.status IS NOT NEW.status OR OLD.reconciled IS NOT NEW.reconciled OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (OLD.account_seq, substr(OLD.date, 1, 7), OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor, sum_base) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_ai AFTER INSERT ON lines BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_ad AFTER DELETE ON lines BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor, base_minor ON lines WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_ai AFTER INSERT ON lines BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_ad AFTER DELETE ON lines BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor, base_minor ON lines WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_ai AFTER INSERT ON postings BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_ad AFTER DELETE ON postings BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_day_totals_postings_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor, base_minor ON postings WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, OLD.date, OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO line_day_totals (org_seq, currency, date, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, NEW.date, NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, date, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_ai AFTER INSERT ON postings BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_ad AFTER DELETE ON postings BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;--> statement-breakpoint
CREATE TRIGGER totals_line_month_totals_postings_au AFTER UPDATE OF org_seq, currency, date, kind, category_seq, amount_minor, base_minor ON postings WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.kind IS NOT NEW.kind OR OLD.category_seq IS NOT NEW.category_seq OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.base_minor IS NOT NEW.base_minor BEGIN
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), OLD.kind, coalesce(OLD.category_seq, 0), -(1), -(OLD.amount_minor), -(coalesce(OLD.base_minor, 0)))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
  INSERT INTO line_month_totals (org_seq, currency, month, kind, category_seq, n, sum_minor, sum_base) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), NEW.kind, coalesce(NEW.category_seq, 0), 1, NEW.amount_minor, coalesce(NEW.base_minor, 0))
    ON CONFLICT (org_seq, currency, month, kind, category_seq) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor, sum_base = sum_base + excluded.sum_base;
END;

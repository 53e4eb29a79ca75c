-- Issue 26. The running totals are declared once (src/main/ledger/totals/declared.ts):
-- their triggers are now the ones that declaration derives, one per total and
-- event, named totals_<table>_ai, _ad, _au (scripts/totals-sql.ts prints them; a test
-- holds this file to the declaration). The full-text index keeps triggers of
-- its own. The totals' contents do not change.
DROP TRIGGER transactions_ai;--> statement-breakpoint
DROP TRIGGER transactions_ad;--> statement-breakpoint
DROP TRIGGER transactions_au_counts;--> statement-breakpoint
DROP TRIGGER transactions_au_fts;--> statement-breakpoint
DROP TRIGGER transactions_accounts_ai;--> statement-breakpoint
DROP TRIGGER transactions_accounts_ad;--> statement-breakpoint
DROP TRIGGER transactions_accounts_au;--> statement-breakpoint
DROP TRIGGER transactions_categories_ai;--> statement-breakpoint
DROP TRIGGER transactions_categories_ad;--> statement-breakpoint
DROP TRIGGER transactions_categories_au;--> statement-breakpoint
DROP TRIGGER transactions_months_ai;--> statement-breakpoint
DROP TRIGGER transactions_months_ad;--> statement-breakpoint
DROP TRIGGER transactions_months_au_category;--> statement-breakpoint
DROP TRIGGER transactions_shapes_ai;--> statement-breakpoint
DROP TRIGGER transactions_shapes_ad;--> statement-breakpoint
DROP TRIGGER transactions_shapes_au;--> statement-breakpoint
DROP TRIGGER proposals_ai_counts;--> statement-breakpoint
DROP TRIGGER proposals_ad_counts;--> statement-breakpoint
DROP TRIGGER proposals_au_counts;--> statement-breakpoint
CREATE TRIGGER transactions_fts_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO transactions_fts (rowid, description)
    VALUES ((NEW.org_seq << 48) | (min(max(CAST(julianday(NEW.date) AS INTEGER) - 2415020, 0), 65535) << 32) | NEW.seq, NEW.description);
END;--> statement-breakpoint
CREATE TRIGGER transactions_fts_ad AFTER DELETE ON transactions BEGIN
  DELETE FROM transactions_fts WHERE rowid = (OLD.org_seq << 48) | (min(max(CAST(julianday(OLD.date) AS INTEGER) - 2415020, 0), 65535) << 32) | OLD.seq;
END;--> statement-breakpoint
CREATE TRIGGER transactions_fts_au AFTER UPDATE OF org_seq, date, description ON transactions BEGIN
  DELETE FROM transactions_fts WHERE rowid = (OLD.org_seq << 48) | (min(max(CAST(julianday(OLD.date) AS INTEGER) - 2415020, 0), 65535) << 32) | OLD.seq;
  INSERT INTO transactions_fts (rowid, description)
    VALUES ((NEW.org_seq << 48) | (min(max(CAST(julianday(NEW.date) AS INTEGER) - 2415020, 0), 65535) << 32) | NEW.seq, NEW.description);
END;--> statement-breakpoint
CREATE TRIGGER totals_transaction_day_counts_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (NEW.org_seq, NEW.date, NEW.status, NEW.source, 1)
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_day_counts_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (OLD.org_seq, OLD.date, OLD.status, OLD.source, -(1))
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_day_counts_au AFTER UPDATE OF org_seq, date, status, source ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.date IS NOT NEW.date OR OLD.status IS NOT NEW.status OR OLD.source IS NOT NEW.source BEGIN
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (OLD.org_seq, OLD.date, OLD.status, OLD.source, -(1))
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n;
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (NEW.org_seq, NEW.date, NEW.status, NEW.source, 1)
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_status_counts_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (NEW.org_seq, NEW.status, NEW.source, 1)
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_status_counts_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (OLD.org_seq, OLD.status, OLD.source, -(1))
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_status_counts_au AFTER UPDATE OF org_seq, status, source ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.status IS NOT NEW.status OR OLD.source IS NOT NEW.source BEGIN
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (OLD.org_seq, OLD.status, OLD.source, -(1))
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n;
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (NEW.org_seq, NEW.status, NEW.source, 1)
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_month_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO transaction_month_totals (org_seq, currency, month, inflow_minor, outflow_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), max(NEW.amount_minor, 0), max(-NEW.amount_minor, 0))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_month_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO transaction_month_totals (org_seq, currency, month, inflow_minor, outflow_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), -(max(OLD.amount_minor, 0)), -(max(-OLD.amount_minor, 0)))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_transaction_month_totals_au AFTER UPDATE OF org_seq, currency, date, amount_minor ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO transaction_month_totals (org_seq, currency, month, inflow_minor, outflow_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), -(max(OLD.amount_minor, 0)), -(max(-OLD.amount_minor, 0)))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
  INSERT INTO transaction_month_totals (org_seq, currency, month, inflow_minor, outflow_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), max(NEW.amount_minor, 0), max(-NEW.amount_minor, 0))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor) VALUES (OLD.account_seq, OLD.date, OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor))
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_day_totals_au AFTER UPDATE OF account_seq, date, status, reconciled, amount_minor ON transactions WHEN OLD.account_seq IS NOT NEW.account_seq OR OLD.date IS NOT NEW.date OR OLD.status IS NOT NEW.status OR OLD.reconciled IS NOT NEW.reconciled OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor) VALUES (OLD.account_seq, OLD.date, OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor))
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO account_day_totals (account_seq, date, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, NEW.date, NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, date, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor) VALUES (OLD.account_seq, substr(OLD.date, 1, 7), OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor))
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_account_month_totals_au AFTER UPDATE OF account_seq, date, status, reconciled, amount_minor ON transactions WHEN OLD.account_seq IS NOT NEW.account_seq OR OLD.date IS NOT NEW.date OR OLD.status IS NOT NEW.status OR OLD.reconciled IS NOT NEW.reconciled OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor) VALUES (OLD.account_seq, substr(OLD.date, 1, 7), OLD.status, OLD.reconciled, -(1), -(OLD.amount_minor))
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO account_month_totals (account_seq, month, status, reconciled, n, sum_minor) VALUES (NEW.account_seq, substr(NEW.date, 1, 7), NEW.status, NEW.reconciled, 1, NEW.amount_minor)
    ON CONFLICT (account_seq, month, status, reconciled) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_category_day_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO category_day_totals (org_seq, currency, date, category, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, NEW.date, coalesce(NEW.category, ''), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_category_day_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO category_day_totals (org_seq, currency, date, category, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, OLD.date, coalesce(OLD.category, ''), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, date, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_category_day_totals_au AFTER UPDATE OF org_seq, currency, date, category, amount_minor ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.category IS NOT NEW.category OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO category_day_totals (org_seq, currency, date, category, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, OLD.date, coalesce(OLD.category, ''), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, date, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO category_day_totals (org_seq, currency, date, category, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, NEW.date, coalesce(NEW.category, ''), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, date, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_category_month_totals_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO category_month_totals (org_seq, currency, month, category, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), coalesce(NEW.category, ''), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_category_month_totals_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO category_month_totals (org_seq, currency, month, category, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), coalesce(OLD.category, ''), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, month, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_category_month_totals_au AFTER UPDATE OF org_seq, currency, date, category, amount_minor ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.currency IS NOT NEW.currency OR OLD.date IS NOT NEW.date OR OLD.category IS NOT NEW.category OR OLD.amount_minor IS NOT NEW.amount_minor BEGIN
  INSERT INTO category_month_totals (org_seq, currency, month, category, n, sum_minor) VALUES (OLD.org_seq, OLD.currency, substr(OLD.date, 1, 7), coalesce(OLD.category, ''), -(1), -(OLD.amount_minor))
    ON CONFLICT (org_seq, currency, month, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
  INSERT INTO category_month_totals (org_seq, currency, month, category, n, sum_minor) VALUES (NEW.org_seq, NEW.currency, substr(NEW.date, 1, 7), coalesce(NEW.category, ''), 1, NEW.amount_minor)
    ON CONFLICT (org_seq, currency, month, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor;
END;
--> statement-breakpoint
CREATE TRIGGER totals_description_shapes_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO description_shapes (org_seq, shape, n) VALUES (NEW.org_seq, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(NEW.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#'), 1)
    ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_description_shapes_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO description_shapes (org_seq, shape, n) VALUES (OLD.org_seq, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(OLD.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#'), -(1))
    ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_description_shapes_au AFTER UPDATE OF org_seq, description ON transactions WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.description IS NOT NEW.description BEGIN
  INSERT INTO description_shapes (org_seq, shape, n) VALUES (OLD.org_seq, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(OLD.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#'), -(1))
    ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + excluded.n;
  INSERT INTO description_shapes (org_seq, shape, n) VALUES (NEW.org_seq, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(NEW.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#'), 1)
    ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_proposal_status_counts_ai AFTER INSERT ON proposals BEGIN
  INSERT INTO proposal_status_counts (org_seq, status, n) VALUES (NEW.org_seq, NEW.status, 1)
    ON CONFLICT (org_seq, status) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_proposal_status_counts_ad AFTER DELETE ON proposals BEGIN
  INSERT INTO proposal_status_counts (org_seq, status, n) VALUES (OLD.org_seq, OLD.status, -(1))
    ON CONFLICT (org_seq, status) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_proposal_status_counts_au AFTER UPDATE OF org_seq, status ON proposals WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.status IS NOT NEW.status BEGIN
  INSERT INTO proposal_status_counts (org_seq, status, n) VALUES (OLD.org_seq, OLD.status, -(1))
    ON CONFLICT (org_seq, status) DO UPDATE SET n = n + excluded.n;
  INSERT INTO proposal_status_counts (org_seq, status, n) VALUES (NEW.org_seq, NEW.status, 1)
    ON CONFLICT (org_seq, status) DO UPDATE SET n = n + excluded.n;
END;

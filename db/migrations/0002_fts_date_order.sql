-- Custom SQL: transactions_fts keyed by an ORDER KEY instead of seq, so a
-- description search reads its newest matches first and stops at the page
-- (no sort of every match). key = org_seq << 48 | day << 32 | seq, with day =
-- days since 1900-01-01 clamped to 0..65535 (1900-2079): within an organization,
-- key order is (date, seq) order, the order GET /transactions pages in.
-- Contentless with deletes: the index holds no text, only which keys contain it.
DROP TRIGGER transactions_ai;
--> statement-breakpoint
DROP TRIGGER transactions_ad;
--> statement-breakpoint
DROP TRIGGER transactions_au_description;
--> statement-breakpoint
DROP TABLE transactions_fts;
--> statement-breakpoint
CREATE VIRTUAL TABLE transactions_fts USING fts5(description, content='', contentless_delete=1, tokenize='trigram case_sensitive 0');
--> statement-breakpoint
INSERT INTO transactions_fts (rowid, description)
  SELECT (org_seq << 48) | (min(max(CAST(julianday(date) AS INTEGER) - 2415020, 0), 65535) << 32) | seq, description FROM transactions;
--> statement-breakpoint
CREATE TRIGGER transactions_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (NEW.org_seq, NEW.date, NEW.status, NEW.source, +1)
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + 1;
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (NEW.org_seq, NEW.status, NEW.source, +1)
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + 1;
  INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor)
    VALUES (NEW.org_seq, substr(NEW.date, 1, 7), NEW.currency, max(NEW.amount_minor, 0), max(-NEW.amount_minor, 0))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
  INSERT INTO transactions_fts (rowid, description)
    VALUES ((NEW.org_seq << 48) | (min(max(CAST(julianday(NEW.date) AS INTEGER) - 2415020, 0), 65535) << 32) | NEW.seq, NEW.description);
END;
--> statement-breakpoint
CREATE TRIGGER transactions_ad AFTER DELETE ON transactions BEGIN
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (OLD.org_seq, OLD.date, OLD.status, OLD.source, -1)
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n - 1;
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (OLD.org_seq, OLD.status, OLD.source, -1)
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n - 1;
  INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor)
    VALUES (OLD.org_seq, substr(OLD.date, 1, 7), OLD.currency, -max(OLD.amount_minor, 0), -max(-OLD.amount_minor, 0))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
  DELETE FROM transactions_fts WHERE rowid = (OLD.org_seq << 48) | (min(max(CAST(julianday(OLD.date) AS INTEGER) - 2415020, 0), 65535) << 32) | OLD.seq;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_au_fts AFTER UPDATE OF org_seq, date, description ON transactions BEGIN
  DELETE FROM transactions_fts WHERE rowid = (OLD.org_seq << 48) | (min(max(CAST(julianday(OLD.date) AS INTEGER) - 2415020, 0), 65535) << 32) | OLD.seq;
  INSERT INTO transactions_fts (rowid, description)
    VALUES ((NEW.org_seq << 48) | (min(max(CAST(julianday(NEW.date) AS INTEGER) - 2415020, 0), 65535) << 32) | NEW.seq, NEW.description);
END;

-- Custom SQL: full-text search (trigram), maintained aggregates, append-only audit log.
CREATE VIRTUAL TABLE transactions_fts USING fts5(description, content='transactions', content_rowid='seq', tokenize='trigram case_sensitive 0');
--> statement-breakpoint
CREATE VIRTUAL TABLE receipts_fts USING fts5(file_name, ocr_text, content='receipts', content_rowid='seq', tokenize='trigram case_sensitive 0');
--> statement-breakpoint
CREATE TRIGGER transactions_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (NEW.org_seq, NEW.date, NEW.status, NEW.source, +1)
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + 1;
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (NEW.org_seq, NEW.status, NEW.source, +1)
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + 1;
  INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor)
    VALUES (NEW.org_seq, substr(NEW.date, 1, 7), NEW.currency, max(NEW.amount_minor, 0), max(-NEW.amount_minor, 0))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
  INSERT INTO transactions_fts (rowid, description) VALUES (NEW.seq, NEW.description);
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
  INSERT INTO transactions_fts (transactions_fts, rowid, description) VALUES ('delete', OLD.seq, OLD.description);
END;
--> statement-breakpoint
CREATE TRIGGER transactions_au_counts AFTER UPDATE OF org_seq, date, status, source, amount_minor, currency ON transactions BEGIN
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (OLD.org_seq, OLD.date, OLD.status, OLD.source, -1)
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n - 1;
  INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (NEW.org_seq, NEW.date, NEW.status, NEW.source, +1)
    ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + 1;
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (OLD.org_seq, OLD.status, OLD.source, -1)
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n - 1;
  INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (NEW.org_seq, NEW.status, NEW.source, +1)
    ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + 1;
  INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor)
    VALUES (OLD.org_seq, substr(OLD.date, 1, 7), OLD.currency, -max(OLD.amount_minor, 0), -max(-OLD.amount_minor, 0))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
  INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor)
    VALUES (NEW.org_seq, substr(NEW.date, 1, 7), NEW.currency, max(NEW.amount_minor, 0), max(-NEW.amount_minor, 0))
    ON CONFLICT (org_seq, currency, month) DO UPDATE SET inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_au_description AFTER UPDATE OF description ON transactions BEGIN
  INSERT INTO transactions_fts (transactions_fts, rowid, description) VALUES ('delete', OLD.seq, OLD.description);
  INSERT INTO transactions_fts (rowid, description) VALUES (NEW.seq, NEW.description);
END;
--> statement-breakpoint
CREATE TRIGGER receipts_ai AFTER INSERT ON receipts BEGIN
  INSERT INTO receipts_fts (rowid, file_name, ocr_text) VALUES (NEW.seq, NEW.file_name, NEW.ocr_text);
END;
--> statement-breakpoint
CREATE TRIGGER receipts_ad AFTER DELETE ON receipts BEGIN
  INSERT INTO receipts_fts (receipts_fts, rowid, file_name, ocr_text) VALUES ('delete', OLD.seq, OLD.file_name, OLD.ocr_text);
END;
--> statement-breakpoint
CREATE TRIGGER receipts_au AFTER UPDATE OF file_name, ocr_text ON receipts BEGIN
  INSERT INTO receipts_fts (receipts_fts, rowid, file_name, ocr_text) VALUES ('delete', OLD.seq, OLD.file_name, OLD.ocr_text);
  INSERT INTO receipts_fts (rowid, file_name, ocr_text) VALUES (NEW.seq, NEW.file_name, NEW.ocr_text);
END;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER proposals_review_once BEFORE UPDATE OF status ON proposals WHEN OLD.status <> 'pending' BEGIN
  SELECT RAISE(ABORT, 'proposal already reviewed');
END;

-- Generated table, then custom SQL: proposals per (organization, status), kept by
-- triggers in the same transaction as every insert, review and delete, so the
-- dashboard's pending count does not grow with the review backlog.
CREATE TABLE `proposal_status_counts` (
	`org_seq` integer NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `status`)
);
--> statement-breakpoint
INSERT INTO proposal_status_counts (org_seq, status, n) SELECT org_seq, status, count(*) FROM proposals GROUP BY org_seq, status;
--> statement-breakpoint
CREATE TRIGGER proposals_ai_counts AFTER INSERT ON proposals BEGIN
  INSERT INTO proposal_status_counts (org_seq, status, n) VALUES (NEW.org_seq, NEW.status, 1)
    ON CONFLICT (org_seq, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER proposals_au_counts AFTER UPDATE OF status ON proposals WHEN NEW.status <> OLD.status BEGIN
  UPDATE proposal_status_counts SET n = n - 1 WHERE org_seq = OLD.org_seq AND status = OLD.status;
  INSERT INTO proposal_status_counts (org_seq, status, n) VALUES (NEW.org_seq, NEW.status, 1)
    ON CONFLICT (org_seq, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER proposals_ad_counts AFTER DELETE ON proposals BEGIN
  UPDATE proposal_status_counts SET n = n - 1 WHERE org_seq = OLD.org_seq AND status = OLD.status;
END;

CREATE TABLE `practice_assignments` (
	`org_seq` integer NOT NULL,
	`part` text NOT NULL,
	`user_seq` integer NOT NULL,
	`assigned_at` text NOT NULL,
	PRIMARY KEY(`org_seq`, `part`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_seq`) REFERENCES `users`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `practice_assignments_user` ON `practice_assignments` (`user_seq`);--> statement-breakpoint
CREATE TABLE `practice_choices` (
	`holder` text PRIMARY KEY NOT NULL,
	`choice` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `proposal_kind_counts` (
	`org_seq` integer NOT NULL,
	`status` text NOT NULL,
	`type` text NOT NULL,
	`proposed_by` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `status`, `type`, `proposed_by`)
);
--> statement-breakpoint
-- Issue 55: the proposals per status, kind and proposer, counted from the rows there are, then kept by triggers (ledger/totals/declared.ts).
INSERT INTO proposal_kind_counts (org_seq, status, type, proposed_by, n) SELECT org_seq, status, type, proposed_by, count(*) FROM proposals GROUP BY org_seq, status, type, proposed_by;
--> statement-breakpoint
CREATE TRIGGER totals_proposal_kind_counts_ai AFTER INSERT ON proposals BEGIN
  INSERT INTO proposal_kind_counts (org_seq, status, type, proposed_by, n) VALUES (NEW.org_seq, NEW.status, NEW.type, NEW.proposed_by, 1)
    ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_proposal_kind_counts_ad AFTER DELETE ON proposals BEGIN
  INSERT INTO proposal_kind_counts (org_seq, status, type, proposed_by, n) VALUES (OLD.org_seq, OLD.status, OLD.type, OLD.proposed_by, -(1))
    ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER totals_proposal_kind_counts_au AFTER UPDATE OF org_seq, status, type, proposed_by ON proposals WHEN OLD.org_seq IS NOT NEW.org_seq OR OLD.status IS NOT NEW.status OR OLD.type IS NOT NEW.type OR OLD.proposed_by IS NOT NEW.proposed_by BEGIN
  INSERT INTO proposal_kind_counts (org_seq, status, type, proposed_by, n) VALUES (OLD.org_seq, OLD.status, OLD.type, OLD.proposed_by, -(1))
    ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = n + excluded.n;
  INSERT INTO proposal_kind_counts (org_seq, status, type, proposed_by, n) VALUES (NEW.org_seq, NEW.status, NEW.type, NEW.proposed_by, 1)
    ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = n + excluded.n;
END;

CREATE TABLE `reconciliation_rows` (
	`reconciliation_seq` integer NOT NULL,
	`transaction_seq` integer NOT NULL,
	`previous_status` text NOT NULL,
	PRIMARY KEY(`reconciliation_seq`, `transaction_seq`),
	FOREIGN KEY (`reconciliation_seq`) REFERENCES `reconciliations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reconciliation_rows_transaction` ON `reconciliation_rows` (`transaction_seq`);--> statement-breakpoint
CREATE TABLE `reconciliations` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`account_seq` integer NOT NULL,
	`statement_date` text NOT NULL,
	`statement_balance_minor` integer NOT NULL,
	`rows` integer NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	`undone_at` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reconciliations_id_unique` ON `reconciliations` (`id`);--> statement-breakpoint
CREATE INDEX `reconciliations_account` ON `reconciliations` (`account_seq`,`seq`);--> statement-breakpoint
ALTER TABLE `categories` ADD `archived_at` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `outcome` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `reversed_at` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `reversed_by` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `reversal_comment` text;--> statement-breakpoint
-- Custom SQL: what earlier approvals changed, where the audit log says it: the
-- row a journal entry created, the note a note proposal created. (Earlier
-- categorizations and receipt links did not record the state they replaced;
-- they cannot be reversed, only corrected by hand.)
UPDATE proposals SET outcome = json_object('transactionId', (
  SELECT substr(a.summary, instr(a.summary, ': transaction ') + 14, 36) FROM audit_log a
  WHERE a.action = 'proposal.approved' AND a.target_id = proposals.id AND a.summary LIKE '%: transaction %'))
WHERE type = 'journal_entry' AND status = 'approved';
--> statement-breakpoint
UPDATE proposals SET outcome = json_object('noteId', (
  SELECT substr(a.summary, instr(a.summary, ': note ') + 7, 36) FROM audit_log a
  WHERE a.action = 'proposal.approved' AND a.target_id = proposals.id AND a.summary LIKE '%: note %'))
WHERE type = 'note' AND status = 'approved';
--> statement-breakpoint
CREATE TRIGGER proposals_reverse_once BEFORE UPDATE OF reversed_at ON proposals WHEN OLD.reversed_at IS NOT NULL BEGIN
  SELECT RAISE(ABORT, 'proposal already reversed');
END;

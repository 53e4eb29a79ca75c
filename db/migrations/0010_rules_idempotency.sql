CREATE TABLE `idempotency_keys` (
	`token_seq` integer NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`token_seq`, `key`),
	FOREIGN KEY (`token_seq`) REFERENCES `tokens`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `rules` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`position` integer NOT NULL,
	`match_kind` text NOT NULL,
	`match_text` text NOT NULL,
	`account_seq` integer,
	`sign` text,
	`category_code` text NOT NULL,
	`mode` text NOT NULL,
	`enabled` integer NOT NULL,
	`matched_count` integer NOT NULL,
	`last_run_at` text,
	`source_proposal_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rules_id_unique` ON `rules` (`id`);--> statement-breakpoint
CREATE INDEX `rules_org_position` ON `rules` (`org_seq`,`position`);--> statement-breakpoint
ALTER TABLE `proposals` ADD `change_key` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `rule_seq` integer REFERENCES rules(seq);--> statement-breakpoint
CREATE INDEX `proposals_change` ON `proposals` (`org_seq`,`change_key`);--> statement-breakpoint
CREATE INDEX `account_day_totals_walk` ON `account_day_totals` (`account_seq`,`date`,`status`,`n`);--> statement-breakpoint
CREATE INDEX `transaction_day_counts_walk` ON `transaction_day_counts` (`org_seq`,`date`,`status`,`source`,`n`);--> statement-breakpoint
-- Custom SQL: the change each earlier proposal would make (proposals.ts changeKeyOf, written the same way).
UPDATE proposals SET change_key = type || '|' || substr('000000000000' || t.seq, -12) || '|' || CASE proposals.type
    WHEN 'categorization' THEN json_extract(proposals.payload, '$.categoryCode')
    WHEN 'receipt_link' THEN json_extract(proposals.payload, '$.receiptId')
    ELSE json_extract(proposals.payload, '$.content') END
  FROM transactions t
  WHERE proposals.type <> 'journal_entry' AND t.id = json_extract(proposals.payload, '$.transactionId');
--> statement-breakpoint
UPDATE proposals SET change_key = type || '|' || json_extract(payload, '$.date') || '|' || json_extract(payload, '$.amount') || '|' || json_extract(payload, '$.currency')
    || '|' || coalesce(json_extract(payload, '$.categoryCode'), '') || '|' || json_extract(payload, '$.source') || '|' || json_extract(payload, '$.description')
  WHERE type = 'journal_entry';

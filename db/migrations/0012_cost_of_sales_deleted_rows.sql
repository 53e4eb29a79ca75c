CREATE TABLE `deleted_statement_rows` (
	`account_seq` integer NOT NULL,
	`date` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`external_id` text,
	`fingerprint` integer,
	`transaction_id` text NOT NULL,
	`deleted_at` text NOT NULL,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `deleted_statement_rows_account` ON `deleted_statement_rows` (`account_seq`,`date`);--> statement-breakpoint
ALTER TABLE `categories` ADD `cost_of_sales` integer DEFAULT 0 NOT NULL;
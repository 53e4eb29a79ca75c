CREATE TABLE `audit_log` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_name` text NOT NULL,
	`channel` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`summary` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_log_id_unique` ON `audit_log` (`id`);--> statement-breakpoint
CREATE INDEX `audit_org_seq` ON `audit_log` (`org_seq`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_org_action` ON `audit_log` (`org_seq`,`action`,`seq`);--> statement-breakpoint
CREATE TABLE `categories` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`parent_code` text,
	`synonyms` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_org_code` ON `categories` (`org_seq`,`code`) WHERE "categories"."code" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX `categories_org_name` ON `categories` (`org_seq`,lower("name"));--> statement-breakpoint
CREATE TABLE `connectors` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`name` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`last_sync_at` text,
	`sync_status` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connectors_id_unique` ON `connectors` (`id`);--> statement-breakpoint
CREATE INDEX `connectors_org` ON `connectors` (`org_seq`);--> statement-breakpoint
CREATE TABLE `counterparties` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`aliases` text DEFAULT '[]' NOT NULL,
	`default_code` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `counterparties_id_unique` ON `counterparties` (`id`);--> statement-breakpoint
CREATE INDEX `counterparties_org` ON `counterparties` (`org_seq`);--> statement-breakpoint
CREATE TABLE `notes` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`transaction_seq` integer NOT NULL,
	`content` text NOT NULL,
	`author_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notes_id_unique` ON `notes` (`id`);--> statement-breakpoint
CREATE INDEX `notes_transaction` ON `notes` (`transaction_seq`,`created_at`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_id_unique` ON `organizations` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_slug_unique` ON `organizations` (`slug`);--> statement-breakpoint
CREATE TABLE `proposals` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`proposed_by` text NOT NULL,
	`token_seq` integer,
	`confidence` real,
	`reason` text,
	`created_at` text NOT NULL,
	`reviewed_at` text,
	`reviewed_by` text,
	`review_comment` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`token_seq`) REFERENCES `tokens`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_id_unique` ON `proposals` (`id`);--> statement-breakpoint
CREATE INDEX `proposals_org_status` ON `proposals` (`org_seq`,`status`,`seq`);--> statement-breakpoint
CREATE TABLE `receipts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`transaction_seq` integer,
	`file_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text,
	`ocr_text` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_id_unique` ON `receipts` (`id`);--> statement-breakpoint
CREATE INDEX `receipts_org_created` ON `receipts` (`org_seq`,`created_at`);--> statement-breakpoint
CREATE INDEX `receipts_transaction` ON `receipts` (`transaction_seq`);--> statement-breakpoint
CREATE TABLE `tokens` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`name` text NOT NULL,
	`scopes` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_id_unique` ON `tokens` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_hash_unique` ON `tokens` (`hash`);--> statement-breakpoint
CREATE INDEX `tokens_org` ON `tokens` (`org_seq`);--> statement-breakpoint
CREATE TABLE `transaction_day_counts` (
	`org_seq` integer NOT NULL,
	`date` text NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `date`, `status`, `source`)
);
--> statement-breakpoint
CREATE TABLE `transaction_month_totals` (
	`org_seq` integer NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`inflow_minor` integer NOT NULL,
	`outflow_minor` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `currency`, `month`)
);
--> statement-breakpoint
CREATE TABLE `transaction_status_counts` (
	`org_seq` integer NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`org_seq`, `status`, `source`)
);
--> statement-breakpoint
CREATE TABLE `transactions` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`date` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`description` text NOT NULL,
	`category` text,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`external_id` text,
	`suggested_by` text,
	`confidence` real,
	`reason` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_id_unique` ON `transactions` (`id`);--> statement-breakpoint
CREATE INDEX `transactions_org_date` ON `transactions` (`org_seq`,`date`);--> statement-breakpoint
CREATE INDEX `transactions_org_status_date` ON `transactions` (`org_seq`,`status`,`date`);--> statement-breakpoint
CREATE INDEX `transactions_org_source_date` ON `transactions` (`org_seq`,`source`,`date`);--> statement-breakpoint
CREATE INDEX `transactions_org_category_date` ON `transactions` (`org_seq`,`category`,`date`);
CREATE TABLE `connector_accounts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`connector_seq` integer NOT NULL,
	`feed_id` text NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`iban` text,
	`last4` text,
	`account_seq` integer,
	`cursor` text,
	`awaiting_preview` integer DEFAULT 0 NOT NULL,
	`last_sync_at` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`connector_seq`) REFERENCES `connectors`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connector_accounts_feed` ON `connector_accounts` (`connector_seq`,`feed_id`);--> statement-breakpoint
CREATE INDEX `connector_accounts_account` ON `connector_accounts` (`account_seq`);--> statement-breakpoint
CREATE TABLE `feed_held` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`connector_account_seq` integer NOT NULL,
	`account_seq` integer NOT NULL,
	`transaction_seq` integer,
	`external_id` text NOT NULL,
	`date` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`description` text NOT NULL,
	`reason` text NOT NULL,
	`held_at` text NOT NULL,
	`decided_at` text,
	`decision` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`connector_account_seq`) REFERENCES `connector_accounts`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `feed_held_id_unique` ON `feed_held` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `feed_held_version` ON `feed_held` (`connector_account_seq`,`external_id`,`date`,`amount_minor`);--> statement-breakpoint
CREATE INDEX `feed_held_account` ON `feed_held` (`account_seq`);--> statement-breakpoint
CREATE TABLE `feed_pending` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`connector_account_seq` integer NOT NULL,
	`account_seq` integer NOT NULL,
	`external_id` text NOT NULL,
	`date` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`description` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`connector_account_seq`) REFERENCES `connector_accounts`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `feed_pending_account` ON `feed_pending` (`account_seq`,`date`);--> statement-breakpoint
CREATE INDEX `feed_pending_feed` ON `feed_pending` (`connector_account_seq`);--> statement-breakpoint
CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `connectors` ADD `credentials` text;--> statement-breakpoint
ALTER TABLE `connectors` ADD `consent_expires_at` text;--> statement-breakpoint
ALTER TABLE `connectors` ADD `next_sync_at` text;--> statement-breakpoint
ALTER TABLE `connectors` ADD `sync_error` text;--> statement-breakpoint
ALTER TABLE `connectors` ADD `failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `connectors` ADD `calls_day` text;--> statement-breakpoint
ALTER TABLE `connectors` ADD `calls` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `connectors` ADD `created_at` text;
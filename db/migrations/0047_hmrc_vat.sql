CREATE TABLE `hmrc_connections` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`vrn` text NOT NULL,
	`pending_state` text,
	`pending_until` text,
	`redirect_uri` text,
	`access_token` text,
	`access_expires_at` text,
	`refresh_token` text,
	`refresh_expires_at` text,
	`connected_at` text,
	`connected_by` text,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hmrc_connections_id_unique` ON `hmrc_connections` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `hmrc_connections_org_seq_unique` ON `hmrc_connections` (`org_seq`);--> statement-breakpoint
CREATE TABLE `hmrc_submissions` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`period_key` text NOT NULL,
	`period_from` text NOT NULL,
	`period_to` text NOT NULL,
	`status` text NOT NULL,
	`body` text NOT NULL,
	`started_at` text NOT NULL,
	`started_by` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`receipt` text,
	`tax_return_seq` integer,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tax_return_seq`) REFERENCES `tax_returns`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hmrc_submissions_id_unique` ON `hmrc_submissions` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `hmrc_submissions_org_period_key` ON `hmrc_submissions` (`org_seq`,`period_key`);
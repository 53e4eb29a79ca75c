-- Tax codes (issue 28): per organization, with a rate history; a category may name its default code.
CREATE TABLE `tax_codes` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`applies` text DEFAULT 'both' NOT NULL,
	`boxes` text DEFAULT '[]' NOT NULL,
	`recoverable_percent` real DEFAULT 100 NOT NULL,
	`archived_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tax_codes_org_code` ON `tax_codes` (`org_seq`,lower("code"));--> statement-breakpoint
CREATE TABLE `tax_rates` (
	`tax_code_seq` integer NOT NULL,
	`valid_from` text NOT NULL,
	`rate_e4` integer NOT NULL,
	PRIMARY KEY(`tax_code_seq`, `valid_from`),
	FOREIGN KEY (`tax_code_seq`) REFERENCES `tax_codes`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `categories` ADD `default_tax_code_seq` integer REFERENCES tax_codes(seq);--> statement-breakpoint
ALTER TABLE `organizations` ADD `tax_set` text;
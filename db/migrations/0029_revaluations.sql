-- Issue 30: unrealized exchange revaluations at a date (reversed the next day) and their lines, in the base currency.
CREATE TABLE `revaluation_lines` (
	`revaluation_seq` integer NOT NULL,
	`position` integer NOT NULL,
	`org_seq` integer NOT NULL,
	`date` text NOT NULL,
	`kind` text NOT NULL,
	`account_seq` integer,
	`category_seq` integer,
	`currency` text NOT NULL,
	`base_minor` integer NOT NULL,
	`memo` text,
	PRIMARY KEY(`revaluation_seq`, `position`),
	FOREIGN KEY (`revaluation_seq`) REFERENCES `revaluations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_seq`) REFERENCES `accounts`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_seq`) REFERENCES `categories`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `revaluation_lines_org_date` ON `revaluation_lines` (`org_seq`,`date`);--> statement-breakpoint
CREATE TABLE `revaluations` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`date` text NOT NULL,
	`reverses_seq` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reverses_seq`) REFERENCES `revaluations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `revaluations_id_unique` ON `revaluations` (`id`);--> statement-breakpoint
CREATE INDEX `revaluations_org_date` ON `revaluations` (`org_seq`,`date`);
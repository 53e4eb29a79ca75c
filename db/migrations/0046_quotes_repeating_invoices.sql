CREATE TABLE `invoice_repeat_occurrences` (
	`org_seq` integer NOT NULL,
	`repeat_seq` integer NOT NULL,
	`date` text NOT NULL,
	`document_seq` integer,
	`made_on` text NOT NULL,
	`late` integer DEFAULT 0 NOT NULL,
	`sending` text,
	`failure` text,
	PRIMARY KEY(`repeat_seq`, `date`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`repeat_seq`) REFERENCES `invoice_repeats`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoice_repeat_occurrences_sending` ON `invoice_repeat_occurrences` (`org_seq`,`sending`);--> statement-breakpoint
CREATE TABLE `invoice_repeats` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`name` text NOT NULL,
	`contact_seq` integer NOT NULL,
	`currency` text NOT NULL,
	`tax_inclusive` integer DEFAULT 0 NOT NULL,
	`lines` text NOT NULL,
	`terms_days` integer,
	`notes` text,
	`unit` text NOT NULL,
	`every` integer NOT NULL,
	`month_day` integer,
	`month_end` integer DEFAULT 0 NOT NULL,
	`start_date` text NOT NULL,
	`end_count` integer,
	`end_date` text,
	`action` text NOT NULL,
	`paused_at` text,
	`resumed_on` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_seq`) REFERENCES `counterparties`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_repeats_id_unique` ON `invoice_repeats` (`id`);--> statement-breakpoint
CREATE INDEX `invoice_repeats_org` ON `invoice_repeats` (`org_seq`);--> statement-breakpoint
ALTER TABLE `documents` ADD `quote_status` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `decided_on` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `quote_seq` integer REFERENCES documents(seq);--> statement-breakpoint
CREATE UNIQUE INDEX `documents_quote` ON `documents` (`quote_seq`) WHERE "documents"."quote_seq" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `quote_prefix` text DEFAULT 'QU-' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `quote_next` integer DEFAULT 1 NOT NULL;
-- Filed tax returns (issue 28): what was filed, and the taxed lines each included (no longer changed).
CREATE TABLE `tax_returns` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`period_from` text NOT NULL,
	`period_to` text NOT NULL,
	`basis` text NOT NULL,
	`report` text NOT NULL,
	`payable_minor` integer NOT NULL,
	`line_count` integer NOT NULL,
	`filed_at` text NOT NULL,
	`filed_by` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tax_returns_id_unique` ON `tax_returns` (`id`);--> statement-breakpoint
CREATE INDEX `tax_returns_org_period` ON `tax_returns` (`org_seq`,`period_to`);--> statement-breakpoint
ALTER TABLE `lines` ADD `tax_return_seq` integer REFERENCES tax_returns(seq);
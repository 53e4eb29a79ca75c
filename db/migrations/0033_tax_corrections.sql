-- Corrections of filed tax returns (issue 43): what the filed returns took for a row and what it says now; the next open return includes the difference.
CREATE TABLE `tax_corrections` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`transaction_seq` integer,
	`transaction_id` text NOT NULL,
	`date` text NOT NULL,
	`description` text NOT NULL,
	`tax_return_seq` integer NOT NULL,
	`filed_in_seq` integer,
	`before` text NOT NULL,
	`after` text NOT NULL,
	`corrected_at` text NOT NULL,
	`corrected_by` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`tax_return_seq`) REFERENCES `tax_returns`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`filed_in_seq`) REFERENCES `tax_returns`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tax_corrections_id_unique` ON `tax_corrections` (`id`);--> statement-breakpoint
CREATE INDEX `tax_corrections_org_filed` ON `tax_corrections` (`org_seq`,`filed_in_seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `tax_corrections_open_row` ON `tax_corrections` (`transaction_seq`) WHERE "tax_corrections"."filed_in_seq" IS NULL;
-- Issue 42: the rows an import skipped (bad, or in the closed period), kept with the batch. Earlier batches kept only their count.
CREATE TABLE `import_skipped_rows` (
	`seq` integer PRIMARY KEY NOT NULL,
	`batch_seq` integer NOT NULL,
	`line` integer NOT NULL,
	`field` text NOT NULL,
	`message` text NOT NULL,
	`text` text,
	FOREIGN KEY (`batch_seq`) REFERENCES `import_batches`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `import_skipped_rows_batch` ON `import_skipped_rows` (`batch_seq`,`line`);
-- Staged files belong to an organization and the person who staged them (issue 51). Hand-written: SQLite cannot
-- add a NOT NULL column that references another table, and a staged file is kept a day at most, so the two tables
-- are made again, empty (on a data folder they were unused: its uploads were files beside the books).
DROP TABLE `staged_chunks`;--> statement-breakpoint
DROP TABLE `staged_files`;--> statement-breakpoint
CREATE TABLE `staged_files` (
	`id` text PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	`staged_by` integer,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staged_by`) REFERENCES `users`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `staged_files_org_created` ON `staged_files` (`org_seq`,`created_at`);--> statement-breakpoint
CREATE TABLE `staged_chunks` (
	`org_seq` integer NOT NULL,
	`file_id` text NOT NULL,
	`n` integer NOT NULL,
	`bytes` blob NOT NULL,
	PRIMARY KEY(`file_id`, `n`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`file_id`) REFERENCES `staged_files`(`id`) ON UPDATE no action ON DELETE cascade
);

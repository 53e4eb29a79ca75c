CREATE TABLE `invitations` (
	`hash` text PRIMARY KEY NOT NULL,
	`user_seq` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_seq`) REFERENCES `users`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invitations_user` ON `invitations` (`user_seq`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`user_seq` integer NOT NULL,
	`org_seq` integer NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`user_seq`, `org_seq`),
	FOREIGN KEY (`user_seq`) REFERENCES `users`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `memberships_org` ON `memberships` (`org_seq`);--> statement-breakpoint
CREATE TABLE `sign_in_failures` (
	`user_seq` integer NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`user_seq`) REFERENCES `users`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sign_in_failures_user` ON `sign_in_failures` (`user_seq`,`at`);--> statement-breakpoint
CREATE TABLE `users` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text,
	`totp_secret` text,
	`totp_step` integer,
	`created_at` text NOT NULL,
	`removed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_id_unique` ON `users` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email` ON `users` (`email`);--> statement-breakpoint
ALTER TABLE `desk_sessions` ADD `user_seq` integer REFERENCES users(seq);--> statement-breakpoint
ALTER TABLE `desk_sessions` ADD `totp_due` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `desk_sessions_user` ON `desk_sessions` (`user_seq`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `require_totp` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `proposals` ADD `proposer_name` text;--> statement-breakpoint
ALTER TABLE `receipts` ADD `uploaded_by` integer REFERENCES users(seq);--> statement-breakpoint
ALTER TABLE `staged_files` ADD `org_id` text;--> statement-breakpoint
ALTER TABLE `tokens` ADD `user_seq` integer REFERENCES users(seq);--> statement-breakpoint
CREATE INDEX `tokens_user` ON `tokens` (`user_seq`);
CREATE TABLE `sign_in_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`window_start` integer NOT NULL,
	`locked_until` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP TABLE `sign_in_failures`;--> statement-breakpoint
ALTER TABLE `desk_sessions` ADD `totp_tries` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invitations` ADD `org_seq` integer REFERENCES organizations(seq);--> statement-breakpoint
ALTER TABLE `invitations` ADD `role` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `name` text;--> statement-breakpoint
CREATE INDEX `invitations_org` ON `invitations` (`org_seq`);
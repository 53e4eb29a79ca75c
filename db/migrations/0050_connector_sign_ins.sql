CREATE TABLE `connector_sign_ins` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`state_hash` text NOT NULL,
	`provider` text NOT NULL,
	`name` text NOT NULL,
	`account` text,
	`redirect_url` text NOT NULL,
	`credentials` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connector_sign_ins_id_unique` ON `connector_sign_ins` (`id`);--> statement-breakpoint
CREATE INDEX `connector_sign_ins_org` ON `connector_sign_ins` (`org_seq`,`state_hash`);
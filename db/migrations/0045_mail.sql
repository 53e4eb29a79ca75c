CREATE TABLE `mail_messages` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`document_seq` integer,
	`contact_seq` integer,
	`recipients` text NOT NULL,
	`copy_to` text,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`attachment` text,
	`message_id` text NOT NULL,
	`server_reply` text,
	`sent_at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_name` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_seq`) REFERENCES `counterparties`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_messages_id_unique` ON `mail_messages` (`id`);--> statement-breakpoint
CREATE INDEX `mail_messages_document` ON `mail_messages` (`org_seq`,`document_seq`,`sent_at`);--> statement-breakpoint
CREATE TABLE `mail_settings` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`org_seq` integer NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`tls` text NOT NULL,
	`username` text,
	`password` text,
	`from_address` text NOT NULL,
	`reply_to` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_settings_id_unique` ON `mail_settings` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `mail_settings_org_seq_unique` ON `mail_settings` (`org_seq`);--> statement-breakpoint
CREATE TABLE `mail_templates` (
	`org_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`org_seq`, `kind`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reminder_steps` (
	`org_seq` integer NOT NULL,
	`days` integer NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`org_seq`, `days`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reminders_sent` (
	`org_seq` integer NOT NULL,
	`document_seq` integer NOT NULL,
	`days` integer NOT NULL,
	`taken_at` text NOT NULL,
	`message_seq` integer,
	PRIMARY KEY(`org_seq`, `document_seq`, `days`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`message_seq`) REFERENCES `mail_messages`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `counterparties` ADD `no_reminders` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `no_reminders` integer DEFAULT 0 NOT NULL;
ALTER TABLE `reminders_sent` ADD `failure` text;--> statement-breakpoint
ALTER TABLE `reminders_sent` ADD `failed_at` text;--> statement-breakpoint
ALTER TABLE `hmrc_connections` ADD `open_obligations` text;--> statement-breakpoint
ALTER TABLE `hmrc_connections` ADD `obligations_fetched_at` text;
ALTER TABLE `documents` ADD `payment_link_id` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `payment_link_url` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `payment_link_closed_at` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `payment_link_event` text;
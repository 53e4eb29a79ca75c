ALTER TABLE `categories` ADD `role` text;--> statement-breakpoint
CREATE UNIQUE INDEX `categories_org_role` ON `categories` (`org_seq`,`role`) WHERE "categories"."role" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `chart_template` text;
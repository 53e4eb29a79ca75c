-- Contacts (issue 29): counterparties become customers and vendors with their details; the seeded ones are vendors.
ALTER TABLE `counterparties` ADD `is_customer` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `counterparties` ADD `is_vendor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `counterparties` ADD `email` text;--> statement-breakpoint
ALTER TABLE `counterparties` ADD `address` text;--> statement-breakpoint
ALTER TABLE `counterparties` ADD `tax_number` text;--> statement-breakpoint
ALTER TABLE `counterparties` ADD `terms_days` integer;--> statement-breakpoint
ALTER TABLE `counterparties` ADD `default_tax_code` text;--> statement-breakpoint
ALTER TABLE `counterparties` ADD `archived_at` text;--> statement-breakpoint
UPDATE `counterparties` SET `is_vendor` = 1;


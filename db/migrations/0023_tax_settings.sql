-- How often an organization files its tax return, from which month, and on which basis (issue 28).
ALTER TABLE `organizations` ADD `tax_period` text DEFAULT 'quarterly' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `tax_period_start` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `tax_basis` text DEFAULT 'cash' NOT NULL;
-- Issue 27: categories by identity only. The totals by category name (and the dashboard's money in and out per
-- month) are gone, with their triggers: the lines' totals (0014) answer the reports. The index of the category a
-- row shows takes its old name; the names on the rows go.
DROP TRIGGER totals_transaction_month_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_transaction_month_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_transaction_month_totals_au;--> statement-breakpoint
DROP TRIGGER totals_category_day_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_category_day_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_category_day_totals_au;--> statement-breakpoint
DROP TRIGGER totals_category_month_totals_ai;--> statement-breakpoint
DROP TRIGGER totals_category_month_totals_ad;--> statement-breakpoint
DROP TRIGGER totals_category_month_totals_au;--> statement-breakpoint
DROP TABLE `category_day_totals`;--> statement-breakpoint
DROP TABLE `category_month_totals`;--> statement-breakpoint
DROP TABLE `transaction_month_totals`;--> statement-breakpoint
DROP INDEX `transactions_org_category_date`;--> statement-breakpoint
CREATE INDEX `transactions_org_category_date` ON `transactions` (`org_seq`,`category_seq`,`date`);--> statement-breakpoint
ALTER TABLE `transactions` DROP COLUMN `category`;
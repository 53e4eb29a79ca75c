-- The general ledger pages a category's lines in one currency by date on this index alone (a deep page skips index entries, not rows).
DROP INDEX `lines_category_date`;--> statement-breakpoint
CREATE INDEX `lines_category_date` ON `lines` (`org_seq`,`category_seq`,`currency`,`date`) WHERE "lines"."category_seq" IS NOT NULL;
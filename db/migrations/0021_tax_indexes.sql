-- The return from indexes alone (issue 28): a covering index of taxed lines by date, and one of the lines no filed return took.
DROP INDEX `lines_tax_date`;--> statement-breakpoint
CREATE INDEX `lines_tax_unfiled` ON `lines` (`org_seq`,`currency`,`date`) WHERE "lines"."tax_code_seq" IS NOT NULL AND "lines"."kind" = 'category' AND "lines"."tax_return_seq" IS NULL;--> statement-breakpoint
CREATE INDEX `lines_tax_date` ON `lines` (`org_seq`,`currency`,`date`,`tax_code_seq`,`category_seq`,`amount_minor`,`tax_minor`) WHERE "lines"."tax_code_seq" IS NOT NULL AND "lines"."kind" = 'category';
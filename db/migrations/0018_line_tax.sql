-- Tax on lines (issue 28): a category line names its tax code and carries its tax; its tax line posts it to the tax control account.
ALTER TABLE `lines` ADD `tax_code_seq` integer REFERENCES tax_codes(seq);--> statement-breakpoint
ALTER TABLE `lines` ADD `tax_minor` integer;--> statement-breakpoint
CREATE INDEX `lines_tax_date` ON `lines` (`org_seq`,`currency`,`date`) WHERE "lines"."tax_code_seq" IS NOT NULL AND "lines"."kind" = 'category';
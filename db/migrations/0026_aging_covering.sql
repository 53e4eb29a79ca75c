-- Issue 29: the aging reads open documents and contacts' credits on covering indexes alone (100,000 invoices: 110 ms to under 50).
DROP INDEX `documents_open`;--> statement-breakpoint
CREATE INDEX `documents_open` ON `documents` (`org_seq`,`kind`,`settled_on`,`issue_date`,`currency`,`due_date`,`contact_seq`,`total_minor`,`settled_minor`,`issued_at`,`number`) WHERE "documents"."state" <> 'draft';--> statement-breakpoint
CREATE INDEX `lines_credits` ON `lines` (`contact_seq`,`kind`,`currency`,`date`,`amount_minor`) WHERE "lines"."contact_seq" IS NOT NULL AND "lines"."settles_seq" IS NULL;